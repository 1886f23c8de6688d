import FoundationEssentials

/// `GET /jsonapi`, the entry point (recordings 173, 173b, 173c): `data: []`, a link per resource
/// type and `self`, and for a logged-in caller (session or Basic alike) `meta.links.me` naming
/// the account; anonymous callers get no `meta` at all.
extension MockState {
    func jsonAPIEntryPoint(_ request: MockRequest, _ caller: MockCaller) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return MockJSONAPIReply.methodNotAllowed(request, allow: ["GET"])
        }
        var links: [String: JSONValue] = ["self": MockJSONAPIReply.link(request.linkOrigin + "/jsonapi")]
        for type in jsonAPITypes() { links[type.name] = MockJSONAPIReply.link(request.linkOrigin + type.path) }
        var document: [String: JSONValue] = ["data": .array([]), "links": .object(links)]
        if let uid = caller.uid, let uuid = MockFields.firstValue(entities["user"]?[uid]?["uuid"]) {
            let me: JSONValue = .object(["meta": .object(["id": .string(uuid)]),
                                         "href": .string(request.linkOrigin + "/jsonapi/user/user/" + uuid)])
            document["meta"] = .object(["links": .object(["me": me])])
        }
        return MockJSONAPIReply.document(200, document, request)
    }

    /// Every resource type the site has: each bundle of a bundled entity type (declared, or
    /// used by an entity), the entity type itself otherwise.
    func jsonAPITypes() -> [JSONAPIType] {
        let entityTypes = Set(entityPaths.keys).union(entities.keys)
        return entityTypes.flatMap { entityType -> [JSONAPIType] in
            guard let key = MockEntityKind.bundleKey(entityType) else {
                return [JSONAPIType(entityType: entityType, bundle: entityType)]
            }
            let used = (entities[entityType] ?? [:]).values.compactMap { MockFields.firstValue($0[key]) }
            return (bundles[entityType] ?? []).union(used).map { JSONAPIType(entityType: entityType, bundle: $0) }
        }.sorted { $0.name < $1.name }
    }
}
