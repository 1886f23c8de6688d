import FoundationEssentials

/// How JSON:API names and shapes an entity's fields (drupal-http-api.md §8.2, recordings 140,
/// 104, 172): reference fields become relationships, the rest attributes; single values are not
/// wrapped in arrays and one-property items collapse to the bare value; ids and revision ids are
/// `drupal_internal__<key>`, the UUID is the resource `id`, and a field named `type` is
/// `{entity_type}_type`.
enum MockJSONAPIFields {
    /// A relationship's target entity type and whether it holds a list.
    struct Target {
        let entityType: String
        let many: Bool
    }

    /// The relationship fields the mock knows, in Drupal's order (the order of 117's message).
    static func knownRelationships(_ entityType: String) -> [(field: String, target: Target)] {
        let user = Target(entityType: "user", many: false)
        switch entityType {
        case "node":
            return [("type", Target(entityType: "node_type", many: false)), ("revision_uid", user), ("uid", user),
                    ("field_image", Target(entityType: "file", many: false)),
                    ("field_tags", Target(entityType: "taxonomy_term", many: true))]
        case "taxonomy_term":
            return [("vid", Target(entityType: "taxonomy_vocabulary", many: false)), ("revision_user", user),
                    ("parent", Target(entityType: "taxonomy_term", many: true))]
        case "user":
            return [("roles", Target(entityType: "user_role", many: true)),
                    ("user_picture", Target(entityType: "file", many: false))]
        case "comment":
            return [("comment_type", Target(entityType: "comment_type", many: false)), ("uid", user),
                    ("entity_id", Target(entityType: "node", many: false)),
                    ("pid", Target(entityType: "comment", many: false))]
        default:
            var list: [(String, Target)] = []
            if let key = MockEntityKind.bundleKey(entityType), let bundleType = MockEntityKind.bundleEntityType(entityType) {
                list.append((key, Target(entityType: bundleType, many: false)))
            }
            if MockEntityKind.hasOwner(entityType) { list.append(("uid", user)) }
            return list
        }
    }

    /// Config entity types: referenced by machine name, with no stored entity behind them.
    static let configTypes: Set<String> = ["node_type", "taxonomy_vocabulary", "user_role", "comment_type",
                                           "media_type", "block_content_type", "contact_form"]

    /// The public name of a field: `nid` -> `drupal_internal__nid`, node `type` -> `node_type`.
    static func publicName(_ entityType: String, _ field: String) -> String {
        if field == MockEntityKind.idKey(entityType) { return "drupal_internal__" + field }
        switch (entityType, field) {
        case ("node", "vid"), ("taxonomy_term", "revision_id"): return "drupal_internal__" + field
        case (_, "type"), (_, "id"): return entityType + "_" + field
        default: return field
        }
    }

    /// The stored field behind a public name, or nil for `id` (the UUID) and computed names.
    static func internalName(_ entityType: String, _ name: String) -> String {
        if name == "id" { return "uuid" }
        if name == entityType + "_type" { return "type" }
        if name == entityType + "_id" { return "id" }
        if name.hasPrefix("drupal_internal__") { return String(name.dropFirst("drupal_internal__".count)) }
        return name
    }

    /// Fields that never show as attributes: the UUID (the resource id), the password.
    static func isHidden(_ field: String) -> Bool { field == "uuid" || field == "pass" }

    /// A field's attribute value: null when empty, the item when single, else the list. A text
    /// item without its value (a term's stored empty description) is empty: `"description": null`
    /// (104, 172).
    static func attribute(_ field: JSONValue?) -> JSONValue {
        let items = (field?.arrayValue ?? field.map { [$0] } ?? [])
            .filter { item in !(item["format"] != nil && item["value"] == .null) }
            .map(attributeItem)
        switch items.count {
        case 0: return .null
        case 1: return items[0]
        default: return .array(items)
        }
    }

    private static func attributeItem(_ item: JSONValue) -> JSONValue {
        guard case .object(var object) = item else { return item }
        // Timestamps are stored with their REST format; JSON:API gives the string alone.
        if object["format"] == .string("Y-m-d\\TH:i:sP") { object["format"] = nil }
        if object.count == 1, let value = object["value"] { return value }
        return .object(object)
    }

    /// A stable UUID for a config entity (a bundle, a role), derived from its name: Drupal gives
    /// each one a UUID, the mock keeps none.
    static func configUUID(_ entityType: String, _ name: String) -> String {
        func fnv(_ text: String, _ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        let key = entityType + ":" + name
        let high = fnv(key, 0xcbf2_9ce4_8422_2325), low = fnv(key, 0x8422_2325_cbf2_9ce4)
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let a = hex(high >> 32, 8), b = hex((high >> 16) & 0xffff, 4), c = hex(0x5000 | (high & 0x0fff), 4)
        let d = hex(0x8000 | ((low >> 48) & 0x3fff), 4), e = hex(low & 0xffff_ffff_ffff, 12)
        return "\(a)-\(b)-\(c)-\(d)-\(e)"
    }
}

/// Builds resource objects and `included` for one request: what the caller may see, under the
/// request's origin, cut to its sparse fieldsets.
struct MockJSONAPIDocuments {
    let state: MockState
    let caller: MockCaller
    let origin: String
    let query: MockJSONAPIQuery

    func relationships(_ entityType: String, _ entity: [String: JSONValue]?, bundle: String? = nil)
        -> [(field: String, target: MockJSONAPIFields.Target)] {
        state.jsonAPIRelationships(entityType, entity, bundle: bundle)
    }

    /// The resource object of a stored entity.
    func resource(_ entityType: String, _ entity: [String: JSONValue]) -> JSONValue {
        let type = state.jsonAPIType(of: entityType, entity)
        let uuid = MockFields.firstValue(entity["uuid"]) ?? ""
        let base = origin + type.path + "/" + uuid
        let version = versionSuffix(entityType, entity)
        var object: [String: JSONValue] = ["type": .string(type.name), "id": .string(uuid),
                                           "links": .object(["self": MockJSONAPIReply.link(base + version)])]
        // A user the caller may not view still shows its label (171b, 171c).
        guard state.canView(entityType, entity, caller) else {
            object["attributes"] = sparse(type, ["display_name": .string(MockState.displayName(entity))])
            return .object(object)
        }
        let visible = state.viewableFields(entityType, entity, caller)
        let relationshipFields = relationships(entityType, entity)
        var attributes: [String: JSONValue] = [:]
        for (field, value) in visible where !MockJSONAPIFields.isHidden(field)
            && !relationshipFields.contains(where: { $0.field == field }) {
            attributes[MockJSONAPIFields.publicName(entityType, field)] = MockJSONAPIFields.attribute(value)
        }
        if entityType == "user" { attributes["display_name"] = .string(MockState.displayName(entity)) }
        // Revision log messages are not for anonymous visitors (183c, 172).
        if caller.account == nil { for name in ["revision_log", "revision_log_message"] { attributes[name] = nil } }
        var relationships: [String: JSONValue] = [:]
        for (field, target) in relationshipFields {
            let name = MockJSONAPIFields.publicName(entityType, field)
            relationships[name] = .object([
                "data": linkage(field, target, entity[field]),
                "links": .object(["related": MockJSONAPIReply.link(base + "/" + name + version),
                                  "self": MockJSONAPIReply.link(base + "/relationships/" + name + version)]),
            ])
        }
        if let attributes = sparse(type, attributes) { object["attributes"] = attributes }
        if let relationships = sparse(type, relationships) { object["relationships"] = relationships }
        return .object(object)
    }

    /// Nodes and terms are revisionable: their links name the revision (`?resourceVersion=id%3A6`).
    func versionSuffix(_ entityType: String, _ entity: [String: JSONValue]) -> String {
        guard let vid = MockState.revisionID(entityType, entity) else { return "" }
        return "?resourceVersion=id%3A" + vid
    }

    /// The members a sparse fieldset keeps (all without one); nil when none is left.
    private func sparse(_ type: MockState.JSONAPIType, _ members: [String: JSONValue]) -> JSONValue? {
        guard let wanted = query.fields[type.name] else { return members.isEmpty ? nil : .object(members) }
        let kept = members.filter { wanted.contains($0.key) }
        return kept.isEmpty ? nil : .object(kept)
    }

    /// `data` of a relationship: an identifier (or null) for a to-one, a list for a to-many.
    func linkage(_ field: String, _ target: MockJSONAPIFields.Target, _ value: JSONValue?) -> JSONValue {
        let identifiers = (value?.arrayValue ?? []).compactMap { identifier(field, target, $0) }
        if target.many { return .array(identifiers) }
        return identifiers.first ?? .null
    }

    /// One resource identifier: type, UUID, and the item's other properties in `meta` (an image's
    /// alt, title, width, height: 162).
    private func identifier(_ field: String, _ target: MockJSONAPIFields.Target, _ item: JSONValue) -> JSONValue? {
        guard let object = item.objectValue else { return nil }
        let targetID = object["target_id"] ?? .null
        // A term at the root has the parent "virtual" (172).
        if field == "parent", targetID == .null || targetID.idString == "0" {
            let help: JSONValue = .object([
                "href": .string("https://www.drupal.org/docs/8/modules/json-api/core-concepts#virtual"),
                "meta": .object(["about": .string("Usage and meaning of the 'virtual' resource identifier.")]),
            ])
            return .object(["type": .string(state.jsonAPITypeName(target.entityType, nil)), "id": .string("virtual"),
                            "meta": .object(["links": .object(["help": help])])])
        }
        guard let id = targetID.idString else { return nil }
        var meta = object.filter { !["target_id", "target_type", "target_uuid", "url"].contains($0.key) }
        meta["drupal_internal__target_id"] = targetID
        if MockJSONAPIFields.configTypes.contains(target.entityType) {
            let name = target.entityType + "--" + target.entityType
            return .object(["type": .string(name), "id": .string(MockJSONAPIFields.configUUID(target.entityType, id)),
                            "meta": .object(meta)])
        }
        guard let entity = state.referencedEntity(target.entityType, id) else {
            // A reference to a deleted entity: Drupal's "missing" identifier.
            return .object(["type": .string(state.jsonAPITypeName(target.entityType, nil)), "id": .string("missing"),
                            "meta": .object(meta)])
        }
        return .object(["type": .string(state.jsonAPIType(of: target.entityType, entity).name),
                        "id": .string(MockFields.firstValue(entity["uuid"]) ?? ""), "meta": .object(meta)])
    }

    /// The stored entities a relationship of `entity` points to, in its order.
    func targets(_ entityType: String, _ entity: [String: JSONValue], _ publicName: String)
        -> [(entityType: String, entity: [String: JSONValue])] {
        guard let (field, target) = relationships(entityType, entity)
            .first(where: { MockJSONAPIFields.publicName(entityType, $0.field) == publicName }) else { return [] }
        return (entity[field]?.arrayValue ?? []).compactMap { item in
            guard let id = item["target_id"]?.idString, let found = state.referencedEntity(target.entityType, id) else {
                return nil
            }
            return (target.entityType, found)
        }
    }

    /// `included` for the primary resources: each include path followed from them, every resource
    /// once and none of the primary ones (104); what the caller may not see is left out.
    func included(for primary: [(entityType: String, entity: [String: JSONValue])], _ request: MockRequest) throws
        -> [JSONValue] {
        var seen = Set(primary.map { key($0.entityType, $0.entity) })
        var result: [JSONValue] = []
        for path in query.includes ?? [] {
            var current = primary
            for (depth, name) in path.enumerated() {
                var next: [(entityType: String, entity: [String: JSONValue])] = []
                for (entityType, entity) in current {
                    let names = relationships(entityType, entity).map { MockJSONAPIFields.publicName(entityType, $0.field) }
                    guard names.contains(name) else {
                        if depth == 0 { throw invalidInclude(name, names, request) }
                        continue
                    }
                    next += targets(entityType, entity, name)
                }
                for (entityType, entity) in next where seen.insert(key(entityType, entity)).inserted {
                    // Drafts and other entities the caller may not view are omitted; users show their label.
                    if entityType != "user" && !state.canView(entityType, entity, caller) { continue }
                    result.append(resource(entityType, entity))
                }
                current = next
            }
        }
        return result
    }

    /// Checks the include paths' first names against the resource type (117), also when the
    /// collection is empty.
    func checkIncludes(_ type: MockState.JSONAPIType, _ request: MockRequest) throws {
        let names = relationships(type.entityType, nil, bundle: type.bundle)
            .map { MockJSONAPIFields.publicName(type.entityType, $0.field) }
        for path in query.includes ?? [] where !names.contains(path.first ?? "") {
            throw invalidInclude(path.first ?? "", names, request)
        }
    }

    private func invalidInclude(_ name: String, _ names: [String], _ request: MockRequest) -> MockAnswer {
        MockJSONAPIReply.fail(400, "`\(name)` is not a valid relationship field name. Possible values: "
                              + names.joined(separator: ", ") + ".", request)
    }

    private func key(_ entityType: String, _ entity: [String: JSONValue]) -> String {
        entityType + ":" + (MockFields.firstValue(entity["uuid"]) ?? "")
    }
}

extension MockState {
    /// The relationship fields of an entity's type, known ones first, then any other field
    /// holding references (`target_id`), in name order.
    func jsonAPIRelationships(_ entityType: String, _ entity: [String: JSONValue]?, bundle: String? = nil)
        -> [(field: String, target: MockJSONAPIFields.Target)] {
        var list = MockJSONAPIFields.knownRelationships(entityType)
        if entityType == "node" {
            // An article's image and tags are bundle fields: other bundles do not have them.
            let bundle = bundle ?? entity.flatMap { MockFields.firstValue($0["type"]) } ?? ""
            let declared = bundleFields["node"]?[bundle] ?? []
            list.removeAll { ["field_image", "field_tags"].contains($0.field) && !declared.contains($0.field)
                && entity?[$0.field] == nil }
        }
        for (field, value) in (entity ?? [:]).sorted(by: { $0.key < $1.key })
        where !list.contains(where: { $0.field == field }) && field != MockEntityKind.idKey(entityType) {
            guard let items = value.arrayValue, let first = items.first, first["target_id"] != nil else { continue }
            let target = first["target_type"]?.stringValue ?? MockState.referenceTargets[field] ?? field
            list.append((field, MockJSONAPIFields.Target(entityType: target, many: items.count > 1)))
        }
        return list
    }

    /// The resource type name of a target type when no entity says its bundle: its one declared
    /// bundle, or the type itself.
    func jsonAPITypeName(_ entityType: String, _ bundle: String?) -> String {
        if let bundle { return entityType + "--" + bundle }
        guard MockEntityKind.bundleKey(entityType) != nil, let known = bundles[entityType], known.count == 1 else {
            return entityType + "--" + entityType
        }
        return entityType + "--" + known.first!
    }
}
