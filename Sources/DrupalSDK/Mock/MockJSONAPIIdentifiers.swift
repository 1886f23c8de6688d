import FoundationEssentials

/// How a JSON:API write names related resources, read as Drupal reads each form: a relationship
/// in a create or update document (JsonApiDocumentTopLevelNormalizer::denormalize) and the body
/// of a relationship route (ResourceIdentifierNormalizer::massageRelationshipInput).
extension MockState {
    /// The identifiers of a relationship in a create or update document. A single identifier is
    /// a list of one whatever the field's cardinality, and no `data` (or an empty one) clears the
    /// field. Only the first identifier's id and type are checked (400s); items without an id are
    /// dropped, and "virtual" (a term's root parent, as 172 reads it) names no entity.
    func documentIdentifiers(_ relationship: JSONValue, _ request: MockRequest) throws -> [JSONValue] {
        var data = relationship["data"] ?? .null
        if data["type"].map({ $0 != .null }) == true, data["id"].map({ $0 != .null }) == true { data = .array([data]) }
        guard MockState.phpNonEmpty(data) else { return [] }
        let first = data.arrayValue?.first ?? .null
        guard first["id"].map(MockState.phpNonEmpty) == true else {
            throw MockJSONAPIReply.fail(400, "No ID specified for related resource", request)
        }
        guard first["type"].map(MockState.phpNonEmpty) == true else {
            throw MockJSONAPIReply.fail(400, "No type specified for related resource", request)
        }
        let typeName = first["type"]?.stringValue ?? ""
        guard isJSONAPITypeName(typeName) else {
            throw MockJSONAPIReply.fail(400, "Invalid type specified for related resource: '\(typeName)'", request)
        }
        return (data.arrayValue ?? []).filter { item in
            item["id"].map(MockState.phpNonEmpty) == true && item["id"]?.stringValue != "virtual"
        }
    }

    /// The identifiers a relationship route's body names: a list of identifiers for a to-many,
    /// one identifier or null for a to-one, each with a type and an id; any other shape is
    /// Drupal's 400. Each must be of a type the field takes (157): the relationship route checks
    /// what a document's does not.
    func routeIdentifiers(_ request: MockRequest, _ target: MockJSONAPIFields.Target) throws -> [JSONValue] {
        guard let body = request.body, !body.isEmpty else { throw MockJSONAPIReply.fail(400, "Empty request body.", request) }
        guard let document = JSONValue.parse(body) else { throw MockJSONAPIReply.fail(400, "Syntax error", request) }
        func named(_ identifier: JSONValue) -> Bool {
            identifier["type"].map(MockState.phpNonEmpty) == true && identifier["id"].map(MockState.phpNonEmpty) == true
        }
        let data = document["data"] ?? .null
        let identifiers: [JSONValue]
        if target.many, let list = data.arrayValue, list.allSatisfy(named) {
            identifiers = list
        } else if !target.many, data == .null {
            identifiers = []
        } else if !target.many, data.objectValue != nil, named(data) {
            identifiers = [data]
        } else {
            throw MockJSONAPIReply.fail(400, "Invalid body payload for the relationship.", request)
        }
        let accepted = jsonAPITypeNames(target.entityType)
        for identifier in identifiers {
            let typeName = identifier["type"]?.stringValue ?? ""
            guard accepted.contains(typeName) else {
                throw MockJSONAPIReply.fail(400, "The provided type (\(typeName)) does not match the destination "
                                            + "resource types (\(accepted.joined(separator: ", "))).", request)
            }
        }
        return identifiers
    }

    /// Whether a resource type of that name exists: one the mock serves, or a config entity type's.
    private func isJSONAPITypeName(_ name: String) -> Bool {
        let parts = name.components(separatedBy: "--")
        guard parts.count == 2 else { return false }
        return jsonAPIType(parts[0], parts[1]) != nil || MockJSONAPIFields.configTypes.contains(parts[0])
    }

    /// The resource type names of an entity type, one per known bundle ("taxonomy_term--tags").
    func jsonAPITypeNames(_ entityType: String) -> [String] {
        guard MockEntityKind.bundleKey(entityType) != nil, let known = bundles[entityType], !known.isEmpty else {
            return [entityType + "--" + entityType]
        }
        return known.sorted().map { entityType + "--" + $0 }
    }

    /// PHP's `!empty()` of a decoded JSON value: not null, false, 0, "", "0", [] or {}.
    static func phpNonEmpty(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return number != 0
        case .string(let text): return !text.isEmpty && text != "0"
        case .array(let items): return !items.isEmpty
        case .object(let members): return !members.isEmpty
        }
    }
}
