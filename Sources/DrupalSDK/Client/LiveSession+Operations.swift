import FoundationEssentials

/// The Drupal operations of a live client, on top of the request pipeline.
extension LiveSession {
    func login(name: String, password: String) async throws -> LoginResult {
        // Drupal refuses /user/login to a logged-in session, so a new login starts from none.
        state.withLock { $0.forgetSession() }
        let body = try JSONEncoder().encode(["name": name, "pass": password])
        let request = DrupalRequest(method: "POST", path: "/user/login", body: body,
                                    sendsCSRFToken: false, sendsAuthorization: false)
        let response = try await perform(request)
        let result = try LoginResult.decode(response)
        state.withLock { state in
            state.csrfToken = result.csrfToken
            state.logoutToken = result.logoutToken
            state.user = result.user
            state.authentication = .cookie
        }
        events.emit(.login(result.user))
        return result
    }

    func logout() async throws {
        guard let token = state.withLock({ $0.logoutToken }) else {
            throw DrupalError(.state, "not logged in: logout needs the logout token of a login made by this client")
        }
        let request = DrupalRequest(method: "POST", path: "/user/logout", query: [("token", token)],
                                    sendsCSRFToken: false)
        _ = try await perform(request)
        state.withLock { $0.forgetSession() }
        events.emit(.logout)
    }

    /// Drops the session cookie and tokens without asking the site (the session stays open there
    /// until it expires).
    func forgetSession() { state.withLock { $0.forgetSession() } }

    /// Whether this client holds a login session that `logout` would end.
    var hasSession: Bool { state.withLock { $0.logoutToken != nil } }

    func loginStatus() async throws -> LoginStatus {
        // Drupal refuses Basic credentials on this route (403 "The used authentication method is
        // not allowed on this route."): it asks about the session cookie alone.
        let request = DrupalRequest(method: "GET", path: "/user/login_status", sendsAuthorization: false)
        let response = try await perform(request)
        switch response.text.trimmedWhitespace {
        case "1": return LoginStatus(loggedIn: true, response: response)
        case "0": return LoginStatus(loggedIn: false, response: response)
        default:
            throw DrupalError(.decode, "/user/login_status answered neither 0 nor 1", status: response.status,
                              headers: response.headers, body: response.body)
        }
    }

    func setAuthentication(_ authentication: Authentication) throws {
        try authentication.validate()
        state.withLock { $0.authentication = authentication }
    }

    func get(_ entityType: String, _ id: String) async throws -> DrupalResponse {
        try await perform(DrupalRequest(method: "GET", path: try paths.canonicalPath(entityType, id: id),
                                        expectedBody: .object))
    }

    func create(_ entityType: String, _ body: Data) async throws -> DrupalResponse {
        try JSONValue.validateEntityBody(body)
        return try await perform(DrupalRequest(method: "POST", path: try paths.createPath(entityType), body: body,
                                               expectedBody: .object))
    }

    func update(_ entityType: String, _ id: String, _ body: Data) async throws -> DrupalResponse {
        try JSONValue.validateEntityBody(body)
        return try await perform(DrupalRequest(method: "PATCH", path: try paths.canonicalPath(entityType, id: id),
                                               body: body, expectedBody: .object))
    }

    func delete(_ entityType: String, _ id: String) async throws -> DrupalResponse {
        try await perform(DrupalRequest(method: "DELETE", path: try paths.canonicalPath(entityType, id: id)))
    }

    func view(_ path: String, _ query: [(String, String)]) async throws -> DrupalResponse {
        try await perform(DrupalRequest(method: "GET", path: path, query: query, expectedBody: .array))
    }

    func uploadFile(_ upload: FileUpload) async throws -> DrupalResponse {
        try await perform(try upload.request())
    }


}

extension FileUpload {
    /// Throws `.invalidArgument` for a file name or path part that cannot be sent safely,
    /// exactly as `uploadFile` would before sending.
    public func validate() throws { _ = try request() }

    /// POST /file/upload/{entity_type}/{bundle}/{field} with the raw bytes.
    func request() throws -> DrupalRequest {
        let segments = try [entityType, bundle, field].map(PathSafety.encodeSegment)
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/octet-stream")
        headers.add("Content-Disposition", "file; filename=\"\(try FileUpload.baseName(filename))\"")
        return DrupalRequest(method: "POST", path: "/file/upload/" + segments.joined(separator: "/"),
                             headers: headers, body: data, expectedBody: .object)
    }

    /// Drupal keeps only the base name and wants it quoted, without quotes, CR or LF inside.
    static func baseName(_ filename: String) throws -> String {
        let base = filename.hasSuffix("/") ? "" : String(filename.split(separator: "/").last ?? "")
        if base.isEmpty || base == "." || base == ".." {
            throw DrupalError.invalidArgument("the upload file name \"\(filename)\" is empty")
        }
        if base.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") }) {
            throw DrupalError.invalidArgument("the upload file name contains quotes or control characters")
        }
        return base
    }
}
