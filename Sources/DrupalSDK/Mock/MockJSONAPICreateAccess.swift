import FoundationEssentials

/// Create access on JSON:API's collection route: a refusal names the permission the entity
/// type's access handler asks for (allowedIfHasPermission), where core REST's create says
/// nothing (24h). Callers without credentials are challenged instead (44c).
extension MockState {
    func authorizeJSONAPICreate(_ type: JSONAPIType, _ caller: MockCaller, _ request: MockRequest) throws {
        do {
            try authorize(.create, type.entityType, nil, caller)
        } catch let answer as MockAnswer where answer.response.status == 403 {
            throw MockJSONAPIReply.fail(403, MockState.createPermissionReason(type), request)
        }
    }

    static func createPermissionReason(_ type: JSONAPIType) -> String {
        switch type.entityType {
        case "node": return "The 'create \(type.bundle) content' permission is required."
        case "taxonomy_term":
            return "The following permissions are required: 'create terms in \(type.bundle)' OR 'administer taxonomy'."
        case "comment": return "The 'post comments' permission is required."
        case "user": return "The 'administer users' permission is required."
        default: return ""
        }
    }
}
