import FoundationEssentials

/// Who sent a request, decided like Drupal's provider chain (drupal-http-api.md §4): Basic first,
/// then Bearer, then the session cookie; the first that applies is the only one tried.
struct MockCaller {
    var account: MockState.Account?
    /// Credentials or a session cookie were sent: anonymous callers that sent some get 403, not 401.
    var sentCredentials: Bool
    /// The session cookie value, even a stale one: CSRF enforcement depends on its presence.
    var sessionID: String?
    var usedBasic: Bool
    /// Why simple_oauth refused the Bearer token sent (then every route answers 401).
    var bearerRefusal: String?

    var uid: String? { account?.uid }
    var isAdmin: Bool { account?.isAdmin ?? false }
}

/// Cookie sessions, login/logout, /session/token and the X-CSRF-Token check (§2, §3).
extension MockState {
    func caller(for request: MockRequest) -> MockCaller {
        let sessionID = sessionCookie(in: request)
        var caller = MockCaller(account: nil, sentCredentials: sessionID != nil, sessionID: sessionID, usedBasic: false,
                                bearerRefusal: nil)
        if let authorization = request.headers["Authorization"] {
            caller.sentCredentials = true
            // Wrong credentials make the request anonymous: no 401, no fallback to the cookie.
            if authorization.lowercased().hasPrefix("basic ") {
                caller.usedBasic = true
                caller.account = MockState.basicCredentials(request).flatMap { activeAccount($0.user, $0.password) }
            } else if authorization.lowercased().hasPrefix("bearer ") {
                let token = String(authorization.dropFirst(7)).trimmedWhitespace
                if let uid = bearerTokens[token] {
                    caller.account = accounts[uid]
                } else if oauth.installed {
                    // simple_oauth's provider: a token it refuses is a 401, not anonymous.
                    switch oauth.verify(token) {
                    case .success(let uid): caller.account = uid.flatMap { accounts[$0] }
                    case .failure(let refusal): caller.bearerRefusal = refusal.description
                    }
                }
            }
            return caller
        }
        if let sessionID, let session = sessions[sessionID] { caller.account = accounts[session.uid] }
        return caller
    }

    /// The user and password of a Basic header, as sent (never percent-decoded: simple_oauth's
    /// BasicAuthSwap reads a client's id and secret the same way).
    static func basicCredentials(_ request: MockRequest) -> (user: String, password: String)? {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("basic "),
              let data = Data(base64Encoded: String(header.dropFirst(6)).trimmedWhitespace) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// The account with this name and password if it is active: basic_auth's check, and the
    /// password grant's. An empty password is refused whatever the account (UserAuth::authenticate):
    /// a registered account has none until its owner sets one.
    func activeAccount(_ name: String, _ password: String) -> Account? {
        guard !password.isEmpty, let account = account(named: name), !account.isBlocked, account.password == password
        else { return nil }
        return account
    }

    func sessionCookie(in request: MockRequest) -> String? {
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmedWhitespace.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == cookieName { return String(parts[1]) }
            }
        }
        return nil
    }

    /// Drupal expires a session cookie it does not know, and the one of a session that ended.
    var expiredCookie: String {
        "\(cookieName)=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly"
    }

    // MARK: Routes

    mutating func login(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        guard request.method == "POST" else { return MockReply.methodNotAllowed(request, allow: ["POST"]) }
        try requireSerializerFormat(request)
        try refuseBasic(caller)
        if caller.account != nil { throw MockReply.fail(403, "This route can only be accessed by anonymous users.") }
        // Drupal does not catch a body it cannot decode: the generic 500 page.
        guard let credentials = MockState.serializedBody(request)?.objectValue else { return MockReply.serverError }
        let name = credentials["name"]?.stringValue
        let password = credentials["pass"]?.stringValue
        switch (name, password) {
        case (nil, nil): throw MockReply.fail(400, "Missing credentials.")
        case (nil, _): throw MockReply.fail(400, "Missing credentials.name.")
        case (_, nil): throw MockReply.fail(400, "Missing credentials.pass.")
        default: break
        }
        // Drupal looks at the status before the password.
        if name.flatMap(account(named:))?.isBlocked == true {
            throw MockReply.fail(400, "The user has not been activated or is blocked.")
        }
        // An account without a password (a registered one) cannot log in with an empty one.
        guard let account = name.flatMap(account(named:)), !account.password.isEmpty, account.password == password else {
            throw MockReply.fail(400, "Sorry, unrecognized username or password.")
        }
        // A new session id on every login (Drupal migrates the session).
        if let stale = caller.sessionID { sessions[stale] = nil }
        let sessionID = MockIdentifiers.token()
        let session = Session(uid: account.uid, csrfToken: MockIdentifiers.token(), logoutToken: MockIdentifiers.token())
        sessions[sessionID] = session
        // In the controller's order; only users who may administer users see their roles.
        var user: [(String, JSONValue)] = [("uid", .string(account.uid))]
        if account.isAdmin { user.append(("roles", .array((["authenticated"] + account.roles).map(JSONValue.string)))) }
        user.append(("name", .string(account.name)))
        let cookie = HTTPHeaders([("Set-Cookie", "\(cookieName)=\(sessionID); path=/; HttpOnly; SameSite=Lax")])
        if request.format == "xml" {
            let body = MockXML.encode([("current_user", .members(user.map { ($0.0, .value($0.1)) })),
                                       ("csrf_token", .value(.string(session.csrfToken))),
                                       ("logout_token", .value(.string(session.logoutToken)))])
            var headers = cookie
            headers.add("Content-Type", MockReply.xmlType)
            return HTTPResponse(status: 200, headers: headers, body: body)
        }
        let answer: JSONValue = .object(["current_user": .object(Dictionary(uniqueKeysWithValues: user)),
                                         "csrf_token": .string(session.csrfToken),
                                         "logout_token": .string(session.logoutToken)])
        return MockReply.json(200, answer, headers: cookie)
    }

    mutating func logout(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        if request.method == "GET", let answer = htmlLogout(request, caller) { return answer }
        guard request.method == "POST" else { return MockReply.methodNotAllowed(request, allow: ["POST"]) }
        try requireSerializerFormat(request)
        guard let token = request.queryValue("token") else {
            throw MockReply.fail(403, "'csrf_token' URL query argument is missing.")
        }
        guard let sessionID = caller.sessionID, let session = sessions[sessionID], session.logoutToken == token else {
            throw MockReply.fail(403, "'csrf_token' URL query argument is invalid.")
        }
        sessions[sessionID] = nil
        return MockReply.empty(204, headers: HTTPHeaders([("Set-Cookie", expiredCookie)]))
    }

    /// GET reaches the HTML logout route, whatever `_format` says: with the session's logout token
    /// it ends the session and redirects to the front page (recordings 61, 61b). Other GETs are
    /// not recorded and keep the JSON route's 405.
    private mutating func htmlLogout(_ request: MockRequest, _ caller: MockCaller) -> HTTPResponse? {
        guard let sessionID = caller.sessionID, let session = sessions[sessionID],
              let token = request.queryValue("token"), session.logoutToken == token else { return nil }
        sessions[sessionID] = nil
        return MockReply.redirect(request.origin + "/?check_logged_in=1",
                                  headers: HTTPHeaders([("Set-Cookie", expiredCookie)]))
    }

    func loginStatus(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return MockReply.methodNotAllowed(request, allow: ["GET"])
        }
        try requireSerializerFormat(request)
        try refuseBasic(caller)
        return MockReply.text(200, caller.account == nil ? "0" : "1")
    }

    func sessionToken(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return MockReply.methodNotAllowed(request, allow: ["GET"])
        }
        try refuseBasic(caller)
        // Anonymous callers get a token nothing will ever accept, as on Drupal.
        let token = caller.sessionID.flatMap { sessions[$0]?.csrfToken } ?? MockIdentifiers.token()
        return MockReply.text(200, token)
    }

    /// The X-CSRF-Token check of REST routes: only for unsafe methods, authenticated callers and
    /// requests that carry a session cookie (also Basic with a leftover cookie).
    func checkCSRF(_ request: MockRequest, _ caller: MockCaller) throws {
        guard request.isUnsafeMethod, caller.account != nil, let sessionID = caller.sessionID else { return }
        guard let sent = request.headers["X-CSRF-Token"] else {
            throw MockReply.fail(403, "X-CSRF-Token request header is missing")
        }
        guard let session = sessions[sessionID], session.csrfToken == sent else {
            throw MockReply.fail(403, "X-CSRF-Token request header is invalid")
        }
    }

    /// basic_auth is not a global provider: routes without an auth list refuse it (§4.2).
    func refuseBasic(_ caller: MockCaller) throws {
        if caller.usedBasic { throw MockReply.fail(403, "The used authentication method is not allowed on this route.") }
    }

    /// REST routes answer only `_format=json` here; others get a 406 in their format (MockFormats).
    func requireJSONFormat(_ request: MockRequest) throws {
        let format = request.format ?? "html"
        guard format == "json" else { throw MockAnswer(response: MockReply.notAcceptable(format)) }
    }

    /// The user routes take every serializer format: json and xml (UserRouteAlterSubscriber).
    func requireSerializerFormat(_ request: MockRequest) throws {
        let format = request.format ?? "html"
        guard format == "json" || format == "xml" else { throw MockAnswer(response: MockReply.notAcceptable(format)) }
    }

    /// A user route's body, decoded in the request's format; nil when it cannot be (Drupal's 500).
    static func serializedBody(_ request: MockRequest) -> JSONValue? {
        guard let body = request.body else { return nil }
        return request.format == "xml" ? MockXML.decode(body) : JSONValue.parse(body)
    }
}
