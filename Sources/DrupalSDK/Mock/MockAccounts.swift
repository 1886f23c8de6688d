import FoundationEssentials

/// The user module's account routes (recordings 50 and 51): registration through core REST's
/// user_registration resource, set up as on the recorded site (visitors may register, an
/// administrator approves the account, e-mail is verified so no password is taken), and the
/// password reset request, which sends no mail here.
extension MockState {
    /// What only the account itself and administrators see; registration answers without them (50).
    static let privateAccountFields = administratorOnlyAccountFields.union(["mail", "timezone", "preferred_langcode",
                                                                             "preferred_admin_langcode"])

    mutating func register(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        guard request.method == "POST" else { return MockReply.methodNotAllowed(request, allow: ["POST"]) }
        try requireJSONBody(request)
        try requireJSONFormat(request)
        try checkCSRF(request, caller)
        // Only anonymous has the permission; an administrator has them all, and the resource
        // then refuses it once the body is read.
        if caller.account != nil && !caller.isAdmin {
            throw MockReply.fail(403, "The 'restful post user_registration' permission is required.")
        }
        let body = try entityBody(request, orIfEmpty: "No user account data for registration received.")
        let fields = try denormalize("user", body)
        if caller.account != nil { throw MockReply.fail(403, "Only anonymous users can register a user.") }
        if fields["uid"] != nil {
            throw MockReply.fail(400, "An ID has been set and only new user accounts can be registered.")
        }
        for name in ["roles", "status"] where fields[name] != nil {
            throw MockReply.fail(403, "Access denied on creating field '\(name)'.")
        }
        if !MockFields.isEmpty(fields["pass"]) {
            throw MockReply.fail(422, "A Password cannot be specified. It will be generated on login.")
        }
        let violations = registrationViolations(fields)
        if !violations.isEmpty { throw MockReply.violations(violations) }
        var account = fields
        account["status"] = MockFields.single(.bool(false))
        let (_, entity) = insertEntity("user", account, owner: "0")
        return MockReply.json(200, .object(entity.filter { !MockState.privateAccountFields.contains($0.key) }))
    }

    private func registrationViolations(_ fields: [String: JSONValue]) -> [String] {
        var lines: [String] = []
        let name = MockFields.firstValue(fields["name"]) ?? ""
        let mail = MockFields.firstValue(fields["mail"]) ?? ""
        if name.isEmpty {
            lines.append("name: You must enter a username.")
        } else if account(named: name) != nil {
            lines.append("name: The username \(name) is already taken.")
        }
        if mail.isEmpty {
            lines.append("mail: Email field is required.")
        } else if (entities["user"] ?? [:]).values.contains(where: { MockFields.firstValue($0["mail"]) == mail }) {
            lines.append("mail: The email address \(mail) is already taken.")
        }
        return lines
    }

    /// Changing one's own password or mail needs the current password in `pass[0].existing`
    /// (Drupal's ProtectedUserFieldConstraint); administrators are exempt.
    func checkProtectedAccountFields(_ uid: String, _ stored: [String: JSONValue], _ body: [String: JSONValue],
                                     _ caller: MockCaller) throws {
        guard caller.uid == uid, !caller.isAdmin, let account = accounts[uid],
              body["pass"]?[0]?["existing"]?.stringValue != account.password else { return }
        var lines: [String] = []
        if body["mail"] != nil, MockFields.firstValue(body["mail"]) != MockFields.firstValue(stored["mail"]) {
            lines.append("mail: Your current password is missing or incorrect; it's required to change the Email.")
        }
        if let password = MockFields.firstValue(body["pass"]), !password.isEmpty {
            lines.append("pass: Your current password is missing or incorrect; it's required to change the Password.")
        }
        if !lines.isEmpty { throw MockReply.violations(lines) }
    }

    func requestPasswordReset(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        guard request.method == "POST" else { return MockReply.methodNotAllowed(request, allow: ["POST"]) }
        try requireSerializerFormat(request)
        try refuseBasic(caller)
        // Drupal does not catch a body it cannot decode: the generic 500 page.
        guard let credentials = MockState.serializedBody(request) else { return MockReply.serverError }
        // PHP's isset(): the key with any value but null.
        guard ["name", "mail"].contains(where: { credentials[$0].map { $0 != .null } ?? false }) else {
            throw MockReply.fail(400, "Missing credentials.name or credentials.mail")
        }
        // The same answer whether or not the account exists, so accounts cannot be enumerated.
        return MockReply.empty(200, headers: HTTPHeaders([("Content-Type", request.format == "xml" ? MockReply.xmlType
                                                                                              : "application/json")]))
    }
}
