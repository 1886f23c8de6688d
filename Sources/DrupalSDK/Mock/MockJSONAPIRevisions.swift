import FoundationEssentials

/// `?resourceVersion=` (recordings 142-149): nodes and terms are versionable (147), other types
/// answer 501 (148). The recorded site has no drafts, so `rel:latest-version` and
/// `rel:working-copy` are the current revision (142); `id:N` is the current one or an old node
/// revision a JSON:API PATCH left behind (143), else 404 (144).
extension MockState {
    /// The revision id field of a versionable type's entity, as a string; nil for other types.
    static func revisionID(_ entityType: String, _ entity: [String: JSONValue]) -> String? {
        switch entityType {
        case "node": return MockFields.firstValue(entity["vid"])
        case "taxonomy_term": return MockFields.firstValue(entity["revision_id"])
        default: return nil
        }
    }

    static func isVersionable(_ entityType: String) -> Bool { entityType == "node" || entityType == "taxonomy_term" }

    /// The revision an individual read asks for, and whether it is an old one.
    func jsonAPIRevision(_ request: MockRequest, _ type: JSONAPIType, id: String, _ current: [String: JSONValue])
        throws -> (entity: [String: JSONValue], isOld: Bool) {
        guard let version = try requestedVersion(request, type) else { return (current, false) }
        let parts = version.split(separator: ":", maxSplits: 1).map(String.init)
        if parts[0] == "rel", ["latest-version", "working-copy"].contains(parts[1]) { return (current, false) }
        guard parts[0] == "id" else {
            throw MockJSONAPIReply.fail(400, "An invalid resource version identifier, `\(version)`, was provided.", request)
        }
        if parts[1] == MockState.revisionID(type.entityType, current) { return (current, false) }
        guard let old = oldRevisions[type.entityType]?[id]?[parts[1]] else {
            throw MockJSONAPIReply.fail(404, "The requested version, identified by `\(version)`, could not be found.",
                                        request)
        }
        return (old, true)
    }

    /// A collection takes only the two `rel:` versions, both the current revisions (149).
    func checkCollectionVersion(_ request: MockRequest, _ type: JSONAPIType) throws {
        guard let version = try requestedVersion(request, type),
              !["rel:latest-version", "rel:working-copy"].contains(version) else { return }
        throw MockJSONAPIReply.fail(400, "Collection resources only support the following resource version identifiers: "
                                    + "rel:latest-version, rel:working-copy", request)
    }

    /// The `resourceVersion` parameter, checked: 501 for a type without revisions (148), 400 for
    /// a value that is not `<letters>:<name>` (145).
    private func requestedVersion(_ request: MockRequest, _ type: JSONAPIType) throws -> String? {
        guard let version = request.queryValue("resourceVersion") else { return nil }
        guard MockState.isVersionable(type.entityType) else {
            throw MockJSONAPIReply.fail(501, "Resource versioning is not yet supported for this resource type.", request)
        }
        let parts = version.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let wellFormed = parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy { $0.isASCII && $0.isLowercase }
            && !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        guard wellFormed else {
            throw MockJSONAPIReply.fail(400, "A resource version identifier was provided in an invalid format: `\(version)`",
                                        request)
        }
        return version
    }

    /// An old revision's resource links to the current one and the working copy too (143).
    static func withRevisionLinks(_ resource: JSONValue, _ base: String) -> JSONValue {
        guard case .object(var object) = resource, case .object(var links)? = object["links"] else { return resource }
        links["latest-version"] = MockJSONAPIReply.link(base + "?resourceVersion=rel%3Alatest-version")
        links["working-copy"] = MockJSONAPIReply.link(base + "?resourceVersion=rel%3Aworking-copy")
        object["links"] = .object(links)
        return .object(object)
    }

    /// Keeps a node's revision before a JSON:API PATCH replaces it with a new one (123, 143).
    mutating func rememberRevision(_ entityType: String, _ id: String, _ entity: [String: JSONValue]) {
        guard let vid = MockState.revisionID(entityType, entity) else { return }
        oldRevisions[entityType, default: [:]][id, default: [:]][vid] = entity
    }
}
