import FoundationEssentials

/// The OAuth token of a client (`Authentication.oauth` or `.tokenProvider`): one state per client
/// (access token, when to refresh it, refresh token), fetched once for all concurrent callers
/// (single flight, as the CSRF token is), refreshed before its expiry and once after a 401 whose
/// Bearer challenge refuses it. Tokens and secrets never reach events, logs or error messages.
extension LiveSession {
    /// The token state, inside `State`.
    struct OAuthState {
        var accessToken: String?
        /// When the token is due for a refresh (expiry minus the margin); nil when its lifetime is unknown.
        var refreshAt: ContinuousClock.Instant?
        var refreshToken: String?
        /// The authorization code grant's code was exchanged (it cannot be again).
        var codeSpent = false
        /// Single flight: the generation whose token is being fetched (nil: none). Callers wait
        /// for the fetch of their own generation; one of an older generation may still run.
        var fetchingGeneration: Int?
        var waiters: [TokenWaiter] = []
        var lastWaiterID: UInt64 = 0
        var lastFetch: (generation: Int, result: Result<String, DrupalError>)?
        /// Bumped when the authentication changes: a fetch started before neither stores its
        /// token nor hands it to a caller of the new credentials.
        var generation = 0

        func isFresh(_ now: ContinuousClock.Instant) -> Bool {
            accessToken != nil && (refreshAt.map { now < $0 } ?? true)
        }

        /// Forgets the token (the authentication changed): the next request fetches anew.
        mutating func reset() {
            accessToken = nil
            refreshAt = nil
            refreshToken = nil
            codeSpent = false
            lastFetch = nil
            fetchingGeneration = nil
            generation += 1
        }
    }

    /// A caller waiting for a token fetch of its generation.
    struct TokenWaiter {
        let id: UInt64
        let generation: Int
        let continuation: UnsafeContinuation<String?, any Error>
    }

    /// Whether this client's requests need a managed token that it does not hold fresh now (they
    /// then run as a task, which fetches it first).
    func needsTokenFetch() -> Bool {
        guard tokensManaged.load(ordering: .relaxed) else { return false }
        let now = ContinuousClock.now
        return state.withLock { $0.authentication.managesTokens && !$0.oauth.isFresh(now) }
    }

    /// The access token to send: the held one while fresh, else one fetch shared by every
    /// concurrent caller. With `forceRefresh`, a token other than `stale` that someone else
    /// fetched meanwhile is used as is; otherwise a new one is fetched (again shared). Nil when
    /// the client's authentication manages no tokens. A caller waits no longer than `limit`
    /// (then `.timeout`), and not at all once cancelled; the fetch goes on for the others.
    func oauthToken(forceRefresh: Bool, stale: String?, within limit: TokenWaitLimit) async throws -> String? {
        enum Step { case none, have(String), fetch(Fetch), wait(Int) }
        // A cancelled call starts no fetch (drupal_client_free, which cancels, would wait for it).
        if Task.isCancelled { throw DrupalError.cancelled() }
        let now = ContinuousClock.now
        let step = state.withLock { state -> Step in
            guard state.authentication.managesTokens else { return .none }
            let oauth = state.oauth
            if let held = oauth.accessToken {
                if forceRefresh ? (stale != nil && held != stale) : oauth.isFresh(now) { return .have(held) }
            }
            if oauth.fetchingGeneration == oauth.generation { return .wait(oauth.generation) }
            state.oauth.fetchingGeneration = oauth.generation
            // A forced fetch without a refused token is `authenticate`: .rejected, as documented.
            let reason: TokenProvider.Reason = forceRefresh && (stale == nil || oauth.accessToken != nil) ? .rejected
                : oauth.accessToken == nil ? .initial : .expiring
            return .fetch(Fetch(generation: oauth.generation, reason: reason, authentication: state.authentication,
                                refreshToken: oauth.refreshToken))
        }
        let generation: Int
        switch step {
        case .none:
            return nil
        case .have(let token):
            return token
        case .fetch(let fetch):
            // In a task of its own, so that this call can give up (timeout, cancel) while the
            // fetch goes on for the others. A provider hears of the run here, before this call can
            // end: drupal_client_free waits for a C provider still running.
            var ended: (@Sendable () -> Void)?
            if case .tokenProvider(let provider) = fetch.authentication { ended = provider.runStarts?() }
            // Detached: a task would inherit the engine a blocking caller drives (its task-local),
            // which nothing drives once that caller gives up waiting.
            Task.detached(executorPreference: transport.executor) { [self] in
                await fetchForEveryone(fetch)
                ended?()
            }
            generation = fetch.generation
        case .wait(let waited):
            generation = waited
        }
        if let token = try await waitForFetch(generation, within: limit) { return token }
        return try await oauthToken(forceRefresh: forceRefresh, stale: stale, within: limit)
    }

    /// What one token fetch is for, as decided under the lock (the credentials may change while it runs).
    struct Fetch: Sendable {
        let generation: Int
        let reason: TokenProvider.Reason
        let authentication: Authentication
        let refreshToken: String?
    }

    /// The token of the fetch of `generation`; nil when there is none to wait for any more (the
    /// credentials changed meanwhile: ask again). A cancelled caller stops waiting at once, and
    /// one whose limit passes with `.timeout`.
    private func waitForFetch(_ generation: Int, within limit: TokenWaitLimit) async throws -> String? {
        let id = state.withLock { state -> UInt64 in
            state.oauth.lastWaiterID += 1
            return state.oauth.lastWaiterID
        }
        // A timer only while a fetch is in flight and the call has a timeout: the slow path.
        let timer = limit.deadline.map { deadline in
            Task(executorPreference: transport.executor) { [self] in
                guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                stopWaiting(id, limit.error)
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<String?, any Error>) in
                let now = state.withLock { state -> Result<String?, DrupalError>? in
                    if Task.isCancelled { return .failure(DrupalError.cancelled()) }
                    if state.oauth.fetchingGeneration == generation {
                        // Past the deadline already: the timer looked for this waiter before it was here.
                        if let deadline = limit.deadline, ContinuousClock.now >= deadline { return .failure(limit.error) }
                        state.oauth.waiters.append(TokenWaiter(id: id, generation: generation, continuation: continuation))
                        return nil
                    }
                    if let last = state.oauth.lastFetch, last.generation == generation { return last.result.map { $0 } }
                    return .success(nil)
                }
                if let now { continuation.resume(with: now.mapError { $0 as any Error }) }
            }
        } onCancel: {
            stopWaiting(id, DrupalError.cancelled())
        }
    }

    /// Ends the wait of waiter `id` with `error`, if it still waits.
    private func stopWaiting(_ id: UInt64, _ error: DrupalError) {
        let waiter = state.withLock { state -> TokenWaiter? in
            guard let index = state.oauth.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.oauth.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Fetches a token and hands the outcome to every caller waiting for it, and to those that
    /// come to wait before they see it ended (`lastFetch`).
    private func fetchForEveryone(_ fetch: Fetch) async {
        let result: Result<String, DrupalError>
        do {
            let token = try await fetchAccessToken(fetch)
            try token.validate()
            result = .success(token.value)
            store(token, generation: fetch.generation)
        } catch {
            result = .failure(DrupalError.wrapping(error))
        }
        let generation = fetch.generation
        let waiters = state.withLock { state -> [TokenWaiter] in
            if state.oauth.fetchingGeneration == generation { state.oauth.fetchingGeneration = nil }
            if state.oauth.generation == generation { state.oauth.lastFetch = (generation, result) }
            let mine = state.oauth.waiters.filter { $0.generation == generation }
            state.oauth.waiters.removeAll { $0.generation == generation }
            return mine
        }
        let answer: Result<String?, any Error> = result.map { $0 }.mapError { $0 as any Error }
        for waiter in waiters { waiter.continuation.resume(with: answer) }
    }

    private func store(_ token: AccessToken, generation: Int) {
        let now = ContinuousClock.now
        state.withLock { state in
            guard state.oauth.generation == generation else { return }
            let margin = oauthMargin(state.authentication)
            state.oauth.accessToken = token.value
            state.authorizationHeader = "Bearer " + token.value
            if let refresh = token.refreshToken { state.oauth.refreshToken = refresh }
            state.oauth.refreshAt = token.expiresIn.map { lifetime in
                // Capped: a lifetime of 1e300 s (a token endpoint's or a provider's) trapped in
                // the conversion to milliseconds.
                let seconds = min(max(0, lifetime - min(margin, lifetime / 2)), AccessToken.longestLifetime)
                return now + .milliseconds(Int64(seconds * 1000))
            }
        }
    }

    private func oauthMargin(_ authentication: Authentication) -> Double {
        if case .oauth(let settings) = authentication { return settings.refreshMargin }
        return 30
    }

    /// A new token from the provider, or from the token endpoint: the refresh token when one is
    /// held, else (or when it is refused as invalid_grant) the configured grant. At most two
    /// token requests, never a loop.
    private func fetchAccessToken(_ fetch: Fetch) async throws -> AccessToken {
        switch fetch.authentication {
        case .tokenProvider(let provider):
            do {
                return try await provider.fetch(fetch.reason)
            } catch {
                var failure = DrupalError.wrapping(error)
                if failure.code == .http || failure.code == .internal { failure.kind = .authentication }
                failure.message = "the token provider failed: " + failure.message
                throw failure
            }
        case .oauth(let settings):
            if let refreshToken = fetch.refreshToken {
                do {
                    return try await requestToken(settings, grant: .refreshToken(refreshToken))
                } catch let error as DrupalError where error.oauthError?.error == "invalid_grant" {
                    // Revoked or expired: forgotten (a program keeping it learns so), and the
                    // configured grant can start again, unless it is this one.
                    state.withLock { state in
                        if state.oauth.generation == fetch.generation { state.oauth.refreshToken = nil }
                    }
                    if case .refreshToken = settings.grant { throw error }
                    if case .authorizationCode = settings.grant { throw LiveSession.authorizationEnded(error) }
                }
            }
            guard case .authorizationCode = settings.grant else { return try await requestToken(settings, grant: settings.grant) }
            // A code is exchanged once: sent again, the site would refuse it (and revoke its tokens).
            if state.withLock({ $0.oauth.generation == fetch.generation && $0.oauth.codeSpent }) {
                throw LiveSession.authorizationEnded(nil)
            }
            let token = try await requestToken(settings, grant: settings.grant)
            state.withLock { state in
                if state.oauth.generation == fetch.generation { state.oauth.codeSpent = true }
            }
            return token
        default:
            throw DrupalError(.state, "the client's authentication has no OAuth token to fetch")
        }
    }

    /// One POST to the token endpoint: form-encoded (simple_oauth reads no JSON), the client's
    /// credentials in the body or a Basic header, no other credentials, no language prefix.
    private func requestToken(_ settings: OAuthSettings, grant: OAuthSettings.Grant) async throws -> AccessToken {
        var form: [(String, String)] = []
        switch grant {
        case .clientCredentials: form.append(("grant_type", "client_credentials"))
        case .password(let username, let password):
            form += [("grant_type", "password"), ("username", username), ("password", password)]
        case .refreshToken(let token): form += [("grant_type", "refresh_token"), ("refresh_token", token)]
        case .authorizationCode(let code, let redirectURI, let codeVerifier):
            form += [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)]
            if let codeVerifier { form.append(("code_verifier", codeVerifier)) }
        }
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/x-www-form-urlencoded")
        switch settings.clientAuthentication {
        case .body:
            form.append(("client_id", settings.clientID))
            if let secret = settings.clientSecret { form.append(("client_secret", secret)) }
        case .basicHeader:
            // As they are: RFC 6749 2.3.1 form-encodes both first, but simple_oauth's
            // BasicAuthSwap hands the header's credentials to the endpoint undecoded (a secret
            // with "+" or "/" would be refused). The id cannot hold ":" (checked).
            let pair = settings.clientID + ":" + (settings.clientSecret ?? "")
            headers.add("Authorization", "Basic " + Data(pair.utf8).base64EncodedString())
        }
        // The code grant's scope was asked for with the authorization (RFC 6749 §4.1.3 has none).
        if let scope = settings.scope, !scope.isEmpty, !grant.isAuthorizationCode { form.append(("scope", scope)) }
        let body = form.map { PathSafety.formEncode($0.0) + "=" + PathSafety.formEncode($0.1) }.joined(separator: "&")
        var request = DrupalRequest(method: "POST", path: settings.tokenPath, headers: headers, body: Data(body.utf8),
                                    format: nil, sendsCSRFToken: false, sendsAuthorization: false)
        // A login session is no credential of the token endpoint (the recordings send no cookie).
        request.sendsCookies = false
        let response = try await sendRetrying(request, csrfToken: nil)
        return try LiveSession.accessToken(from: response, path: settings.tokenPath)
    }

    /// The error of a call that needs a token once the authorization code grant can give none:
    /// the code was spent, and the refresh token was refused (`refusal`) or never given.
    static func authorizationEnded(_ refusal: DrupalError?) -> DrupalError {
        let why = refusal == nil ? "the site gave no refresh token to renew it with"
            : "the site refused the refresh token (" + (refusal?.message ?? "") + ")"
        var error = refusal ?? DrupalError(.state, "")
        error.message = "the OAuth authorization code was exchanged already and " + why
            + ": authorize again (a new authorization and code)"
        error.kind = .authentication
        return error
    }

    /// Reads a token endpoint's answer; failures carry its error document (never a token).
    static func accessToken(from response: HTTPResponse, path: String) throws -> AccessToken {
        guard response.status == 200 else {
            var error = DrupalError(response: response, method: "POST", path: path)
            error.kind = .authentication
            let detail = error.oauthError?.summary ?? error.message
            error.message = "the OAuth token request failed (HTTP \(response.status)): " + detail
            throw error
        }
        // The answer holds the tokens: an error about it keeps its status, never its body.
        func malformed(_ why: String) -> DrupalError {
            var error = DrupalError(.decode, "the OAuth token answer " + why, status: response.status)
            error.kind = .authentication
            return error
        }
        guard let json = JSONValue.parse(response.body) else { return try { throw malformed("is not JSON") }() }
        guard let value = json["access_token"]?.stringValue, !value.isEmpty else {
            throw malformed("has no access_token")
        }
        if let type = json["token_type"]?.stringValue, !type.caseInsensitiveEquals("Bearer") {
            throw malformed("is not a Bearer token (token_type \(String(type.prefix(32)).escapingControlCharacters()))")
        }
        // A lifetime that is no number of seconds from 0 (-1, "1e400") is taken as unknown: the
        // token is then replaced after a 401.
        let lifetime = (json["expires_in"]?.numberValue ?? json["expires_in"]?.stringValue.flatMap { Double($0) })
            .flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let token = AccessToken(value, expiresIn: lifetime, refreshToken: json["refresh_token"]?.stringValue)
        do {
            try token.validate()
        } catch {
            throw malformed("holds an access token that cannot be sent in a header")
        }
        return token
    }

    /// Whether a 401 refuses the Bearer token that was sent (simple_oauth's challenge).
    static func refusesBearerToken(_ response: HTTPResponse) -> Bool {
        response.status == 401 && response.headers.values(for: "WWW-Authenticate").contains {
            OAuthError.bearerChallenge($0) != nil
        }
    }

    /// Runs `authenticate`: a token fetched now (as after a refusal); the answer says what was
    /// obtained, without the token itself.
    func authenticate() async throws -> DrupalResponse {
        let limit = tokenWaitLimit("the OAuth authentication", isFile: false, since: .now)
        guard try await oauthToken(forceRefresh: true, stale: nil, within: limit) != nil else {
            throw DrupalError(.state, "authenticate needs OAuth authentication (or a token provider) on the client")
        }
        let (refreshAt, refresh) = state.withLock { ($0.oauth.refreshAt, $0.oauth.refreshToken != nil) }
        // Written in a fixed order (a dictionary's would change from run to run).
        var document = #"{"token_type":"Bearer","has_refresh_token":"# + (refresh ? "true" : "false")
        if let refreshAt {
            document += #","refresh_in":"# + String(max(0, (refreshAt - ContinuousClock.now).components.seconds))
        }
        document += "}"
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        return HTTPResponse(status: 200, headers: headers, body: Data(document.utf8))
    }
}
