import FoundationEssentials

/// The operations of a live client: each is checked once and turned into what it sends
/// (`prepare`, before anything starts), then run on the request pipeline (`execute`).
extension LiveSession {
    /// An operation ready to run: a plain request, or one with session bookkeeping around it.
    enum Prepared: Sendable {
        case request(DrupalRequest)
        case login(DrupalRequest)
        case logout
        case loginStatus(DrupalRequest)
        case refreshCSRFToken
        /// The pager held from the call's start (nil: its pages have ended).
        case nextPage(DrupalPager.Claim?)
        case oauthAuthenticate
        case download(FileDownload)
        /// A PATCH under a language prefix, sent only once `check` (a GET of the same path) shows
        /// the entity has a translation in `language`.
        case guardedUpdate(DrupalRequest, check: DrupalRequest, language: String)

        /// The request of a call that is exactly one request (what may run without a task).
        var plainRequest: DrupalRequest? {
            if case .request(let request) = self { return request }
            return nil
        }
    }

    /// Checks the operation's input (once: what it builds is sent as is) and builds its request,
    /// under the prefix of `language` when one is given (`DrupalOperation.inLanguage`).
    func prepare(_ operation: DrupalOperation, language: String? = nil, force: Bool = false) throws -> Prepared {
        func checked(_ request: consuming DrupalRequest) throws -> DrupalRequest { try self.checked(request, language: language) }
        switch operation {
        case .inLanguage(let inner, let operation, let force):
            return try prepare(operation, language: try LanguagePrefix.validate(inner), force: force)
        // The session's endpoints take no language prefix: a session serves every language.
        case .login(let name, let password):
            let body = try JSONEncoder().encode(["name": name, "pass": password])
            return .login(try self.checked(DrupalRequest(method: "POST", path: "/user/login", body: body,
                                                         sendsCSRFToken: false, sendsAuthorization: false),
                                           language: nil))
        case .logout:
            return .logout
        case .loginStatus:
            // Drupal refuses Basic credentials on this route (403 "The used authentication method
            // is not allowed on this route."): it asks about the session cookie alone.
            return .loginStatus(try self.checked(DrupalRequest(method: "GET", path: "/user/login_status",
                                                               sendsAuthorization: false), language: nil))
        case .refreshCSRFToken:
            return .refreshCSRFToken
        case .get(let type, let id):
            return .request(try checked(DrupalRequest(method: "GET", path: try paths.canonicalPath(type, id: id),
                                                      expectedBody: .object)))
        case .create(let type, let body):
            return .request(try checked(DrupalRequest(method: "POST", path: try paths.createPath(type),
                                                      body: body.data, expectedBody: .object)))
        case .update(let type, let id, let body):
            let path = try paths.canonicalPath(type, id: id)
            let patch = try checked(DrupalRequest(method: "PATCH", path: path, body: body.data, expectedBody: .object))
            guard let language, !force else { return .request(patch) }
            return .guardedUpdate(patch, check: try checked(DrupalRequest(method: "GET", path: path,
                                                                          expectedBody: .object)),
                                  language: language)
        case .delete(let type, let id):
            if let language, !force {
                throw DrupalError(.state, "DELETE under the /\(language) prefix deletes the whole \(type), every "
                                  + "translation (core REST cannot delete one translation): delete without a "
                                  + "language, or force it")
            }
            return .request(try checked(DrupalRequest(method: "DELETE", path: try paths.canonicalPath(type, id: id))))
        case .view(let path, let query):
            return .request(try checked(DrupalRequest(method: "GET", path: path, query: query, expectedBody: .array)))
        case .uploadFile(let upload):
            return .request(try checked(try upload.request()))
        case .request(let request):
            return .request(try checked(request))
        case .jsonAPI(let call):
            return .request(try checked(try call.request()))
        case .nextPage(let pager):
            return .nextPage(try pager.claim())
        case .oauthAuthenticate:
            return .oauthAuthenticate
        case .register(let registration):
            return .request(try checked(try AccountRequests.register(registration)))
        case .resetPassword(let name, let mail):
            return .request(try checked(try AccountRequests.resetPassword(name: name, mail: mail)))
        case .resolvePath(let path):
            return .request(try checked(try AccountRequests.resolvePath(path)))
        case .download(let download):
            try checkDownload(download)
            return .download(download)
        }
    }

    /// A caller's request with its method, target and headers checked; its target is stored
    /// normalized (under the language's prefix, if any), so building the URL checks nothing again.
    func checked(_ request: consuming DrupalRequest, language: String?) throws -> DrupalRequest {
        var request = request
        var lowerCase = false
        guard !request.method.isEmpty, request.method.utf8AllSatisfy({ byte in
            if byte >= 0x61 && byte <= 0x7A { lowerCase = true }
            return (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }) else { throw DrupalError.invalidArgument("method is not an HTTP method name (letters only)") }
        if lowerCase { request.method = request.method.uppercased() }
        try request.headers.validate()
        let (path, query) = try PathSafety.normalizeTarget(request.path, baseURL: baseURL)
        request.path = language.map { LanguagePrefix.apply($0, to: path) } ?? path
        request.targetQuery = query
        request.targetIsNormalized = true
        return request
    }

    /// Runs a prepared operation to its outcome.
    func execute(_ prepared: Prepared) async -> DrupalClient.Outcome {
        await DrupalClient.outcome {
            switch prepared {
            case .request(let request):
                return try await perform(request)
            case .login(let request):
                return try await login(request)
            case .logout:
                return try await logout()
            case .loginStatus(let request):
                let response = try await perform(request)
                _ = try LoginStatus.interpret(response)
                return response
            case .refreshCSRFToken:
                return try await token(forceRefresh: true, stale: nil).response
            case .nextPage(let claim):
                guard let claim else { return nil }
                return try await claim.pager.fetch(claim)
            case .oauthAuthenticate:
                return try await authenticate()
            case .download(let download):
                return try await self.download(download)
            case .guardedUpdate(let patch, let check, let language):
                let current = try await perform(check)
                // The entity must be in the language Drupal negotiated for the prefix (a prefix need
                // not be its langcode: "pt-br" at /br); a fallback, the original or another
                // translation, is not. Without a Content-Language the prefix is taken as the code.
                let negotiated = current.negotiatedLanguage ?? language
                guard current.langcode?.caseInsensitiveEquals(negotiated) == true else {
                    throw DrupalError(.state, "\(check.path) has no \(language) translation (it answers in "
                                      + "\(current.langcode ?? "no language")): core REST cannot create one, and a "
                                      + "PATCH under the prefix would change the original instead; force it to do "
                                      + "that anyway")
                }
                return try await perform(patch)
            }
        }
    }

    private func login(_ request: DrupalRequest) async throws -> DrupalResponse {
        // Drupal refuses /user/login to a logged-in session, so a new login starts from none.
        state.withLock { $0.forgetSession() }
        let response: DrupalResponse
        do {
            response = try await perform(request)
        } catch var error as DrupalError where error.status == 400 {
            // Drupal answers an unknown name or a wrong password with 400 (not 401).
            error.kind = .authentication
            throw error
        }
        let result = try LoginResult.decode(response)
        state.withLock { state in
            state.csrfToken = result.csrfToken
            state.logoutToken = result.logoutToken
            state.user = result.user
            state.authentication = .cookie
        }
        events.emit(.login(result.user))
        return response
    }

    private func logout() async throws -> DrupalResponse {
        let cookiePath = basePath + "/user/logout"
        let (token, hasCookie) = state.withLock { state in
            (state.logoutToken, state.cookies.headerValue(forPath: cookiePath, now: HTTPDate.now()) != nil)
        }
        guard let token else {
            throw DrupalError(.state, "not logged in: logout needs the logout token of a login made by this client")
        }
        // The site ended the session (its cookie expired, or was deleted by an answer): a logout
        // would be refused with a 403 every time, and the client would hold the session forever.
        guard hasCookie else {
            forgetSession()
            throw DrupalError(.state, "not logged in: the site ended the session (its cookie expired or was deleted); "
                              + "the client has forgotten it")
        }
        let response: DrupalResponse
        do {
            response = try await perform(DrupalRequest(method: "POST", path: "/user/logout", query: [("token", token)],
                                                       sendsCSRFToken: false))
        } catch let error as DrupalError where error.code == .http && error.status == 403 {
            // The site has no session for this token (403 "'csrf_token' URL query argument is
            // invalid."): there is none to keep. Other failures (a network error, a 503) keep it,
            // to retry.
            forgetSession()
            throw error
        }
        forgetSession()
        events.emit(.logout)
        return response
    }

    func forgetSession() { state.withLock { $0.forgetSession() } }

    /// Whether this client holds a login session that `logout` would end.
    var hasSession: Bool { state.withLock { $0.logoutToken != nil } }

    func setAuthentication(_ authentication: Authentication) throws {
        try authentication.validate()
        if authentication.managesTokens { tokensManaged.store(true, ordering: .relaxed) }
        state.withLock { $0.authentication = authentication }
    }
}
