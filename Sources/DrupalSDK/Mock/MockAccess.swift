/// Entity access, kept to the rules the recordings show: administrators may do anything; anyone
/// may read published content; users read and edit only their own account; authors edit and delete
/// their own nodes. A denied caller that sent no credentials is challenged with 401 (§4.3).
extension MockState {
    enum Operation {
        case view, create, update, delete
    }

    func authorize(_ operation: Operation, _ entityType: String, _ entity: [String: JSONValue]?,
                   _ caller: MockCaller) throws {
        guard let reason = denial(operation, entityType, entity, caller) else { return }
        if caller.account == nil && !caller.sentCredentials {
            throw MockReply.fail(401, "No authentication credentials provided.",
                                 headers: HTTPHeaders([("WWW-Authenticate", "Basic realm=\"Drupal\"")]))
        }
        throw MockReply.fail(403, reason)
    }

    /// Why the operation is refused (possibly "", as Drupal often says), or nil when allowed.
    private func denial(_ operation: Operation, _ entityType: String, _ entity: [String: JSONValue]?,
                        _ caller: MockCaller) -> String? {
        if caller.isAdmin { return nil }
        let published = MockFields.firstValue(entity?["status"]) != "false"
        // A user's `uid` is its id, a content entity's is its owner: either way "is it mine".
        let isOwn = caller.uid != nil && entity.flatMap { MockFields.firstValue($0["uid"]) } == caller.uid
        let bundle = MockEntityKind.bundleKey(entityType).flatMap { MockFields.firstValue(entity?[$0]) } ?? entityType
        switch operation {
        case .view:
            if entityType == "user" {
                return isOwn ? nil : "The 'access user profiles' permission is required."
            }
            if caller.account != nil { return nil }
            return MockEntityKind.isPublicContent(entityType) && published ? nil : ""
        case .create:
            // Accounts are created by administrators only (or through /user/register).
            return caller.account != nil && entityType != "user" ? nil : ""
        case .update, .delete:
            guard caller.account != nil else { return "" }
            if entityType == "user" { return isOwn && operation == .update ? nil : "" }
            if entityType == "node" && !isOwn {
                return "The '\(operation == .update ? "edit" : "delete") any \(bundle) content' permission is required."
            }
            return nil
        }
    }
}
