import FoundationEssentials
import Synchronization

/// The state and protocol of one live client: its cookie jar, CSRF and logout tokens and auth
/// mode (behind one lock, never shared with another client), and the request pipeline.
final class LiveSession: Sendable {
    struct State {
        var authentication: Authentication {
            // The header is encoded once per change, not once per request.
            didSet { authorizationHeader = authentication.authorizationHeader }
        }
        private(set) var authorizationHeader: String?
        var cookies = CookieJar()
        var csrfToken: String?
        var logoutToken: String?
        var user: CurrentUser?
        /// Single flight: while one caller fetches /session/token, the others wait here.
        var csrfFetching = false
        var csrfWaiters: [UnsafeContinuation<String, any Error>] = []
        var csrfLastFetch: Result<String, DrupalError>?

        /// Back to no session: cookies, tokens and user gone; cookie auth becomes none.
        mutating func forgetSession() {
            cookies.removeAll()
            csrfToken = nil
            logoutToken = nil
            user = nil
            if authentication == .cookie { authentication = .none }
        }
    }

    let baseURL: String
    let configuration: DrupalClient.Configuration
    let transport: Transport
    let paths: EntityPathTable
    let events = EventHub()
    let state: Mutex<State>

    init(baseURL: String, configuration: DrupalClient.Configuration, transport: Transport) throws {
        self.baseURL = try PathSafety.normalizeBaseURL(baseURL)
        try configuration.authentication.validate()
        try configuration.defaultHeaders.validate()
        for (type, path) in configuration.entityPaths where EntityPath.core[type] != path {
            try path.validate(entityType: type)
        }
        let agent = configuration.transport.userAgent
        if !agent.isEmpty, let problem = HeaderSafety.problem(name: "User-Agent", value: agent) {
            throw DrupalError.invalidArgument(problem)
        }
        self.configuration = configuration
        self.transport = transport
        self.paths = EntityPathTable(paths: configuration.entityPaths)
        self.state = Mutex(State(authentication: configuration.authentication,
                                 authorizationHeader: configuration.authentication.authorizationHeader))
    }

    deinit { transport.shutdown() }

    // MARK: The request pipeline

    /// Sends a request with auth, cookies and CSRF handled; on a 403 that says the CSRF token is
    /// missing or invalid, refreshes the token once and retries once. Throws for status >= 400.
    func perform(_ request: DrupalRequest) async throws -> DrupalResponse {
        var sentToken: String?
        let needsToken = request.sendsCSRFToken && request.isUnsafeMethod
        if needsToken && hasSessionCookie { sentToken = try await token(forceRefresh: false, stale: nil) }
        var response = try await send(request, csrfToken: sentToken)
        if needsToken && response.status == 403 && LiveSession.isCSRFFailure(response) && hasSessionCookie {
            let fresh = try await token(forceRefresh: true, stale: sentToken)
            response = try await send(request, csrfToken: fresh)
        }
        return try LiveSession.checkStatus(response, method: request.method, path: request.path)
    }

    /// Statuses from 400 on become errors carrying Drupal's message.
    static func checkStatus(_ response: HTTPResponse, method: String, path: String) throws -> DrupalResponse {
        guard response.status < 400 else { throw DrupalError(response: response, method: method, path: path) }
        return response
    }

    private var hasSessionCookie: Bool { state.withLock { !$0.cookies.isEmpty } }

    static func isCSRFFailure(_ response: HTTPResponse) -> Bool {
        DrupalError.drupalMessage(in: response)?.hasPrefix("X-CSRF-Token request header is") ?? false
    }

    /// One HTTP exchange: builds the wire request, runs middleware and events, keeps cookies.
    func send(_ request: DrupalRequest, csrfToken: String?) async throws -> HTTPResponse {
        let exchange = try beginExchange(request, csrfToken: csrfToken)
        let result: Result<HTTPResponse, any Error>
        do {
            result = .success(try await transport.send(exchange.http))
        } catch {
            result = .failure(error)
        }
        return try finishExchange(exchange, result)
    }

    /// `perform` without a task, for requests that need no CSRF token (the fetch and the retry
    /// need one): starts the exchange with `startTransfer` and returns its cancel action, or nil
    /// when the request does not qualify or cannot be built (the async path then reports why).
    func start(_ request: DrupalRequest, with startTransfer: Transport.Start,
               completion: @escaping CallbackMode.Completion) -> CallbackMode.Cancel? {
        if request.sendsCSRFToken && request.isUnsafeMethod { return nil }
        guard let exchange = try? beginExchange(request, csrfToken: nil) else { return nil }
        return startTransfer(exchange.http) { result in
            completion(Result {
                try LiveSession.checkStatus(try self.finishExchange(exchange, result), method: exchange.method,
                                            path: exchange.path)
            }.mapError(LiveSession.mapTransportError))
        }
    }

    /// A request on the wire, with what its end needs.
    struct Exchange: Sendable {
        /// The method and path as the caller gave them (for events and errors).
        var method: String
        var path: String
        var http: HTTPRequest
        var started: ContinuousClock.Instant?
    }

    /// Builds the wire request, runs request middleware and emits requestStarted.
    private func beginExchange(_ request: DrupalRequest, csrfToken: String?) throws -> Exchange {
        var http = try buildHTTPRequest(request, csrfToken: csrfToken)
        for middleware in configuration.middleware { try middleware.onRequest(&http) }
        events.emit(.requestStarted(method: http.method, path: request.path))
        // The clock is read only when someone listens: this runs for every request.
        return Exchange(method: request.method, path: request.path, http: http,
                        started: events.hasObservers ? ContinuousClock.now : nil)
    }

    /// Keeps cookies, runs response middleware and emits requestFinished.
    private func finishExchange(_ exchange: Exchange, _ result: Result<HTTPResponse, any Error>) throws -> HTTPResponse {
        let elapsed = exchange.started.map { ContinuousClock.now - $0 } ?? .zero
        let method = exchange.http.method, path = exchange.path
        var response: HTTPResponse
        switch result {
        case .success(let received):
            response = received
        case .failure(let error):
            events.emit(.requestFinished(method: method, path: path, status: nil, duration: elapsed))
            throw LiveSession.mapTransportError(error)
        }
        let setCookies = response.headers.values(for: "Set-Cookie")
        if !setCookies.isEmpty { state.withLock { $0.cookies.store(setCookieHeaders: setCookies) } }
        for middleware in configuration.middleware.reversed() { try middleware.onResponse(exchange.http, &response) }
        events.emit(.requestFinished(method: method, path: path, status: response.status, duration: elapsed))
        return response
    }

    private func buildHTTPRequest(_ request: DrupalRequest, csrfToken: String?) throws -> HTTPRequest {
        let method = request.method.utf8AllSatisfy({ $0 < 0x61 || $0 > 0x7A })
            ? request.method : request.method.uppercased()
        let url = try requestURL(request)

        var headers = configuration.defaultHeaders
        try request.headers.validate()
        for (name, value) in request.headers { headers.set(name, value) }
        let (authorization, cookie) = state.withLock { state in
            (state.authorizationHeader, state.cookies.headerValue)
        }
        if request.sendsAuthorization, let authorization, !headers.contains("Authorization") {
            headers.add("Authorization", authorization)
        }
        if let cookie, !headers.contains("Cookie") { headers.add("Cookie", cookie) }
        if let csrfToken { headers.set("X-CSRF-Token", csrfToken) }
        if request.body != nil && !headers.contains("Content-Type") { headers.add("Content-Type", "application/json") }
        return HTTPRequest(method: method, url: url, headers: headers, body: request.body)
    }

    /// The base URL, the checked path, its own query string (a target may carry one, or be an
    /// absolute URL under the base URL), the query items and `_format` (unless either gives one),
    /// built into one string.
    private func requestURL(_ request: DrupalRequest) throws -> String {
        let (path, targetQuery) = try PathSafety.normalizeTarget(request.path, baseURL: baseURL)
        if request.query.isEmpty && targetQuery == nil {
            // The common case: no query items, maybe `_format`.
            guard let format = request.format else { return String.concatenating(baseURL, path) }
            try PathSafety.rejectControlCharacters(format, what: "query")
            return String.concatenating(baseURL, path, "?_format=", PathSafety.percentEncode(format))
        }
        for (key, value) in request.query {
            try PathSafety.rejectControlCharacters(key, what: "query")
            try PathSafety.rejectControlCharacters(value, what: "query")
        }
        var url = ""
        url.reserveCapacity(baseURL.utf8.count + path.utf8.count + (targetQuery?.utf8.count ?? 0) + 32)
        url += baseURL
        url += path
        var separator = "?"
        if let targetQuery {
            url += "?"
            url += targetQuery
            separator = "&"
        }
        PathSafety.appendQuery(request.query, to: &url, separator: separator)
        let hasFormat = request.query.contains { $0.0 == "_format" }
            || (targetQuery.map { ("&" + $0).contains("&_format=") } ?? false)
        if let format = request.format, !hasFormat {
            try PathSafety.rejectControlCharacters(format, what: "query")
            PathSafety.appendQueryItem("_format", format, to: &url, separator: "&")
        }
        return url
    }

    static func mapTransportError(_ error: any Error) -> DrupalError {
        if let error = error as? DrupalError { return error }
        if error is CancellationError { return DrupalError.cancelled() }
        return DrupalError(.network, "\(error)")
    }

    // MARK: CSRF token (single flight)

    /// The CSRF token: the held one, or one fetch from /session/token shared by every concurrent
    /// caller. With `forceRefresh`, a token other than `stale` that someone else fetched meanwhile
    /// is used as is; otherwise a new one is fetched (again shared). No extra task is started: the
    /// first caller fetches, the others wait on continuations.
    func token(forceRefresh: Bool, stale: String?) async throws -> String {
        enum Step { case have(String), fetch, wait }
        let step = state.withLock { state -> Step in
            if let held = state.csrfToken, !forceRefresh || (stale != nil && held != stale) { return .have(held) }
            if state.csrfFetching { return .wait }
            state.csrfFetching = true
            if forceRefresh { state.csrfToken = nil }
            return .fetch
        }
        switch step {
        case .have(let token):
            return token
        case .wait:
            return try await withUnsafeThrowingContinuation { continuation in
                let finished = state.withLock { state -> Result<String, DrupalError>? in
                    if state.csrfFetching {
                        state.csrfWaiters.append(continuation)
                        return nil
                    }
                    return state.csrfLastFetch ?? .failure(DrupalError(.internal, "the CSRF token fetch vanished"))
                }
                if let finished { continuation.resume(with: finished.mapError { $0 as any Error }) }
            }
        case .fetch:
            let result: Result<String, DrupalError>
            do {
                result = .success(try await fetchSessionToken())
            } catch {
                result = .failure(LiveSession.mapTransportError(error))
            }
            let waiters = state.withLock { state -> [UnsafeContinuation<String, any Error>] in
                if case .success(let token) = result { state.csrfToken = token }
                state.csrfFetching = false
                state.csrfLastFetch = result
                defer { state.csrfWaiters.removeAll() }
                return state.csrfWaiters
            }
            for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
            return try result.get()
        }
    }

    private func fetchSessionToken() async throws -> String {
        // The session cookie alone: Drupal answers Basic credentials here with a 403.
        let request = DrupalRequest(method: "GET", path: "/session/token", format: nil, sendsAuthorization: false)
        let response = try await send(request, csrfToken: nil)
        guard response.status < 400 else { throw DrupalError(response: response, method: "GET", path: request.path) }
        let token = String(decoding: response.body, as: UTF8.self).trimmedWhitespace
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw DrupalError(.decode, "/session/token did not answer a token", status: response.status,
                              headers: response.headers, body: response.body)
        }
        return token
    }
}
