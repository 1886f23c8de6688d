/// Entity access, kept to the rules the recordings show: administrators may do anything; anyone
/// may read published content, unpublished content only its owner; users read and edit only their
/// own account, not its roles or status; authors edit and delete their own nodes and edit their own
/// comments; deleting comments, terms and accounts is for administrators. Every other user has the
/// permissions of the seeded editor. A denied caller that sent no credentials is challenged with
/// 401 (§4.3).
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
        // Drupal's user access handler: the anonymous user (uid 0) can neither be viewed (only
        // its label: 171b), updated nor deleted, by administrators either.
        if entityType == "user", let entity, MockFields.firstValue(entity["uid"]) == "0" { return "" }
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
            // A draft or a temporary file is its owner's (recording 24g).
            if !published { return isOwn ? nil : "" }
            if caller.account != nil { return nil }
            return MockEntityKind.isPublicContent(entityType) ? nil : ""
        case .create:
            // Accounts are created by administrators only (or through /user/register).
            return caller.account != nil && entityType != "user" ? nil : ""
        case .update, .delete:
            guard caller.account != nil else { return "" }
            switch (entityType, operation) {
            case ("user", .update): return isOwn ? nil : ""
            case ("user", _): return "The 'cancel account' permission is required."
            case ("node", _) where !isOwn:
                return "The '\(operation == .update ? "edit" : "delete") any \(bundle) content' permission is required."
            // 'edit own comments'; deleting any needs 'administer comments', and Drupal gives no reason.
            case ("comment", .update): return isOwn ? nil : ""
            case ("comment", _): return ""
            case ("taxonomy_term", .delete):
                return "The following permissions are required: 'delete terms in \(bundle)' OR 'administer taxonomy'."
            default: return nil
            }
        }
    }

    /// The fields of a readable entity the caller may see (Drupal leaves out the others).
    func viewableFields(_ entityType: String, _ entity: [String: JSONValue], _ caller: MockCaller)
        -> [String: JSONValue] {
        let hidden = MockState.hiddenFields(entityType, caller)
        return hidden.isEmpty ? entity : entity.filter { !hidden.contains($0.key) }
    }

    /// Field view access: an account's status, roles, access, login and init are for
    /// administrators ('administer users') only, even on one's own account (recording 34c; 34 for
    /// an administrator); a node's revision log needs 'view all revisions', which anonymous lacks
    /// (10; 11 for a user); a term's needs 'administer taxonomy' (33b); a comment's mail, 'administer
    /// comments' (32b; 32 for an administrator).
    static func hiddenFields(_ entityType: String, _ caller: MockCaller) -> Set<String> {
        guard !caller.isAdmin else { return [] }
        switch entityType {
        case "user": return administratorOnlyAccountFields
        case "node": return caller.account == nil ? ["revision_log"] : []
        case "taxonomy_term": return ["revision_log_message"]
        case "comment": return ["mail"]
        default: return []
        }
    }

    static let administratorOnlyAccountFields: Set<String> = ["status", "roles", "access", "login", "init"]

    /// Field update access, as REST's PATCH checks it: a field the caller may not edit is refused
    /// when its value changes, and whatever it holds when the caller cannot see it to compare.
    func authorizeFieldUpdate(_ entityType: String, _ field: String, changed: Bool, _ caller: MockCaller) throws {
        let idKey = MockEntityKind.idKey(entityType)
        let reason: String?
        switch field {
        case idKey: reason = changed ? " The entity ID cannot be changed." : nil
        case "uuid": reason = changed ? " The entity UUID cannot be changed." : nil
        case "changed": reason = changed ? "" : nil
        // An account's: 'administer users' alone sees and sets them.
        case "roles" where entityType == "user", "status" where entityType == "user": reason = caller.isAdmin ? nil : ""
        default: reason = changed ? MockState.nodeAdministrationDenial(entityType, field, caller) : nil
        }
        if let reason { throw MockReply.fail(403, "Access denied on updating field '\(field)'.\(reason)") }
    }

    /// Field create access, as REST's POST checks each field sent: the id cannot be chosen, even
    /// an existing one's (recording 82d: 403, not 400), and a node's publishing fields are for
    /// 'administer nodes'.
    func authorizeFieldCreation(_ entityType: String, _ body: [String: JSONValue], _ caller: MockCaller) throws {
        for field in body.keys.sorted() {
            let reason = field == MockEntityKind.idKey(entityType) ? ""
                : MockState.nodeAdministrationDenial(entityType, field, caller)
            if let reason { throw MockReply.fail(403, "Access denied on creating field '\(field)'.\(reason)") }
        }
    }

    /// Drupal's node field access: the author, publishing status, creation time, promotion and
    /// stickiness are for 'administer nodes', which only administrators have here.
    static func nodeAdministrationDenial(_ entityType: String, _ field: String, _ caller: MockCaller)
        -> String? {
        guard entityType == "node", !caller.isAdmin,
              ["uid", "status", "created", "promote", "sticky"].contains(field) else { return nil }
        return " The 'administer nodes' permission is required."
    }
}
