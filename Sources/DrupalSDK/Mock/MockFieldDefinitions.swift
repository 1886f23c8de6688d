/// Which fields an entity has, where the mock knows it: a node's base fields (as recording 20
/// shows them, plus the hidden `revision_default`) and the fields a bundle declares (the seeded
/// article's body, comment, field_image and field_tags).
extension MockState {
    static func baseFields(_ entityType: String) -> Set<String>? {
        switch entityType {
        case "node":
            return ["nid", "uuid", "vid", "langcode", "type", "revision_timestamp", "revision_uid", "revision_log",
                    "status", "uid", "title", "created", "changed", "promote", "sticky", "default_langcode",
                    "revision_default", "revision_translation_affected", "path"]
        default: return nil
        }
    }

    /// Every field of the bundle; nil when the mock does not know them (the bundle declares none,
    /// or the type's base fields are not described), and then any field name is taken.
    func knownFields(_ entityType: String, _ bundle: String?) -> Set<String>? {
        guard let bundle, let declared = bundleFields[entityType]?[bundle], !declared.isEmpty,
              let base = MockState.baseFields(entityType) else { return nil }
        let translation = isTranslatable(entityType, bundle) ? MockState.contentTranslationFields : []
        return base.union(declared).union(translation)
    }
}

/// References to entities that do not exist fail validation (recording 23e: field_tags), as
/// Drupal's ValidReference constraint checks every entity reference field: the reference fields
/// the mock knows of the type (MockJSONAPIFields.knownRelationships: a node's tags, image and
/// authors, a term's parent, a comment's host and parent) that point at content entities. A
/// term's parent 0 is the root, not a reference.
extension MockState {
    /// What a reference field the mock does not describe points at, when its items do not say.
    static let referenceTargets = ["field_tags": "taxonomy_term"]

    /// One violation line per item naming a missing entity, in field name order.
    func missingReferences(_ entityType: String, _ entity: [String: JSONValue]) -> [String] {
        var lines: [String] = []
        let targets = MockJSONAPIFields.knownRelationships(entityType)
            .filter { !MockJSONAPIFields.configTypes.contains($0.target.entityType) }
        for (field, target) in targets.sorted(by: { $0.field < $1.field }) {
            for (index, item) in (entity[field]?.arrayValue ?? []).enumerated() {
                guard let id = item["target_id"]?.idString, id != "0",
                      entities[target.entityType]?[id] == nil else { continue }
                lines.append("\(field).\(index).target_id: The referenced entity (\(target.entityType): \(id)) does not exist.")
            }
        }
        return lines
    }
}

/// What a new node holds for the fields it was not given, as recordings 20 and 24b show: the
/// revision's, translation flags, an unsaved path alias, and the bundle's fields empty (the
/// comment field open, with no comments).
extension MockState {
    func addNodeDefaults(_ entity: inout [String: JSONValue]) {
        var defaults = MockState.translationDefaults(entity)
        defaults.merge([
            // Node::preSave makes the owner the revision's author.
            "revision_uid": entity["uid"] ?? .array([]),
            "revision_timestamp": entity["created"] ?? .array([]),
            "revision_log": .array([]),
        ]) { _, node in node }
        let bundle = MockFields.firstValue(entity["type"]) ?? ""
        for field in bundleFields["node"]?[bundle] ?? [] { defaults[field] = .array([]) }
        if defaults["comment"] != nil {
            defaults["comment"] = .array([.object(["status": .number(2), "cid": .number(0), "last_comment_timestamp": .number(0),
                                                   "last_comment_name": .null, "last_comment_uid": .number(0),
                                                   "comment_count": .number(0)])])
        }
        entity.merge(defaults) { given, _ in given }
    }
}

/// What a new taxonomy term holds for the fields it was not given (recording 33): a revision
/// (the mock numbers it as the term), no description, weight 0 and no parent (the root).
/// The description is stored as an empty item, which reads show (33b), while the create answer has
/// none (33).
extension MockState {
    static let emptyTermDescription: JSONValue = .array([.object(["value": .null, "format": .null,
                                                                  "processed": .string("")])])

    func addTermDefaults(_ entity: inout [String: JSONValue]) {
        var defaults = MockState.translationDefaults(entity)
        defaults.merge([
            "revision_id": entity["tid"] ?? .array([]),
            "revision_created": entity["changed"] ?? .array([]),
            "revision_user": .array([]),
            "revision_log_message": .array([]),
            "description": MockState.emptyTermDescription,
            "weight": MockFields.single(.number(0)),
            "parent": .array([.object(["target_id": .null])]),
        ]) { _, term in term }
        entity.merge(defaults) { given, _ in given }
    }

    /// The translation flags and unsaved path alias nodes and terms share (recordings 20, 33).
    static func translationDefaults(_ entity: [String: JSONValue]) -> [String: JSONValue] {
        [
            "default_langcode": MockFields.single(.bool(true)),
            "revision_translation_affected": MockFields.single(.bool(true)),
            "path": .array([.object(["alias": .null, "pid": .null,
                                     "langcode": .string(MockState.langcode(of: entity))])]),
        ]
    }
}

/// What a new comment holds for the fields it was not given (recordings 32, 32b): no parent, no
/// anonymous author's name, mail or homepage, and its place in the host's thread
/// (MockCommentThreads).
extension MockState {
    func addCommentDefaults(_ entity: inout [String: JSONValue]) {
        let defaults: [String: JSONValue] = [
            "pid": .array([]), "name": .array([]), "mail": .array([]), "homepage": .array([]),
            "default_langcode": MockFields.single(.bool(true)),
        ]
        entity.merge(defaults) { given, _ in given }
        if entity["thread"] == nil { entity["thread"] = MockFields.single(.string(nextThread(for: entity))) }
    }
}

/// What a new account holds for the fields it was not given (recordings 34, 34c, 50): English
/// as its languages, UTC, no picture, never seen (access and login 0), and its first mail as `init`.
extension MockState {
    func addUserDefaults(_ entity: inout [String: JSONValue]) {
        let never = MockIdentifiers.timestampField(MockIdentifiers.rfc3339(seconds: 0))
        var defaults: [String: JSONValue] = [
            "preferred_langcode": MockFields.single(.string("en")), "preferred_admin_langcode": .array([]),
            "timezone": MockFields.single(.string("UTC")), "user_picture": .array([]),
            "access": never, "login": never, "init": .array([]),
            "default_langcode": MockFields.single(.bool(true)),
        ]
        if let mail = MockFields.firstValue(entity["mail"]) { defaults["init"] = MockFields.single(.string(mail)) }
        entity.merge(defaults) { given, _ in given }
    }
}
