import FoundationEssentials
import Synchronization

/// The state and protocol of one live client: its cookie jar, CSRF and logout tokens and auth
/// mode (behind one lock, never shared with another client), and the request pipeline.
final class LiveSession: Sendable {
    struct State {
        var authentication: Authentication {
            // The header is encoded once per change, not once per request; a managed token is
            // fetched again for new credentials.
            didSet {
                authorizationHeader = authentication.authorizationHeader
                oauth.reset()
            }
        }
        /// What requests send as Authorization: the fixed credentials, or the OAuth token held.
        var authorizationHeader: String?
        var cookies: CookieJar
        var csrfToken: String?
        var logoutToken: String?
        var user: CurrentUser?
        /// Single flight: while one caller fetches /session/token, the others wait here.
        var csrfFetching = false
        var csrfWaiters: [UnsafeContinuation<TokenFetch, any Error>] = []
        var csrfLastFetch: Result<TokenFetch, DrupalError>?
        /// The OAuth token (LiveSession+OAuth).
        var oauth = OAuthState()

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
    /// The site's origin and path: cookies and credentials go there only.
    let site: URLParts
    /// The base URL's path without its trailing slash ("" for a site at the root).
    let basePath: String
    /// The base URL without its path: where `DrupalRequest.fromSiteRoot` paths go.
    let siteRoot: String
    let configuration: DrupalClient.Configuration
    let transport: Transport
    let paths: EntityPathTable
    let events = EventHub()
    let state: Mutex<State>
    /// Whether the authentication may ever have managed a token: lets every other client skip the
    /// token check of task-free requests without taking the lock.
    let tokensManaged = Atomic<Bool>(false)

    init(baseURL: String, configuration: DrupalClient.Configuration, transport: Transport) throws {
        self.baseURL = try PathSafety.normalizeBaseURL(baseURL)
        guard let site = URLParts(self.baseURL) else {
            throw DrupalError.invalidArgument("the base URL has no valid host and port")
        }
        self.site = site
        self.basePath = site.path == "/" ? "" : site.path
        self.siteRoot = String(self.baseURL.utf8.dropLast(basePath.utf8.count))!
        try configuration.authentication.validate()
        try configuration.defaultHeaders.validate()
        try configuration.transport.validate()   // a mock's too: its options mean what a live one's do
        try configuration.retry.validate()
        for (type, path) in configuration.entityPaths where EntityPath.core[type] != path {
            try path.validate(entityType: type)
        }
        self.configuration = configuration
        self.transport = transport
        self.paths = EntityPathTable(paths: configuration.entityPaths)
        self.state = Mutex(State(authentication: configuration.authentication,
                                 authorizationHeader: configuration.authentication.authorizationHeader,
                                 cookies: CookieJar(host: site.host, secureOrigin: site.scheme == "https")))
        tokensManaged.store(configuration.authentication.managesTokens, ordering: .relaxed)
    }

    deinit { transport.shutdown() }

    // MARK: The request pipeline

    /// Sends a request with auth, cookies and CSRF handled; on a 403 that says the CSRF token is
    /// missing or invalid, refreshes the token once and retries once. Throws for status >= 400.
    /// With OAuth, the token is fetched first when none is fresh, and a 401 refusing it is answered
    /// by one refresh and one retry.
    func perform(_ request: DrupalRequest) async throws -> DrupalResponse {
        let started = RequestInstant.now
        var request = ForwardOnlyProgress.forOneCall(request)
        var sentToken: String?
        if request.sendsAuthorization && tokensManaged.load(ordering: .relaxed) {
            request.bearerToken = try await oauthToken(forceRefresh: false, stale: nil,
                                                       within: tokenWaitLimit(for: request, since: started))
        }
        let needsToken = request.sendsCSRFToken && request.isUnsafeMethod
        if needsToken && hasSessionCookie { sentToken = try await token(forceRefresh: false, stale: nil).token }
        var response = try await sendRetrying(request, csrfToken: sentToken, since: started)
        if let bearer = request.bearerToken, LiveSession.refusesBearerToken(response) {
            request.bearerToken = try await oauthToken(forceRefresh: true, stale: bearer,
                                                       within: tokenWaitLimit(for: request, since: started))
            response = try await sendRetrying(request, csrfToken: sentToken, since: started)
        }
        if needsToken && response.status == 403 && LiveSession.isCSRFFailure(response) && hasSessionCookie {
            let fresh = try await token(forceRefresh: true, stale: sentToken).token
            response = try await sendRetrying(request, csrfToken: fresh, since: started)
        }
        return try LiveSession.checkStatus(response, method: request.method, path: request.path,
                                           expecting: request.expectedBody)
    }

    /// Statuses from 400 on become errors carrying Drupal's message, and so do redirects that
    /// were not followed (nothing was done: a 3xx is no success). 304 Not Modified is an answer.
    static func checkStatus(_ response: HTTPResponse, method: String, path: String,
                            expecting expected: DrupalRequest.ExpectedBody) throws -> DrupalResponse {
        if response.status >= 400 { throw DrupalError(response: response, method: method, path: path) }
        if response.status >= 300 && response.status != 304 {
            throw DrupalError(redirect: response, method: method, path: path)
        }
        if expected != .any && !response.body.looksLikeJSON(object: expected == .object) {
            throw DrupalError(.decode, "\(method) \(path) answered HTTP \(response.status) without the JSON "
                              + (expected == .object ? "object" : "array") + " expected (\(response.body.count) bytes)",
                              status: response.status, headers: response.headers, body: response.body)
        }
        return response
    }

    private var hasSessionCookie: Bool { state.withLock { !$0.cookies.isEmpty } }

    static func isCSRFFailure(_ response: HTTPResponse) -> Bool {
        DrupalError.drupalMessage(in: response)?.hasPrefix("X-CSRF-Token request header is") ?? false
    }

    /// One HTTP exchange (and the redirects it is told to follow): builds the wire request, runs
    /// middleware and events, keeps cookies. Each hop gets what is left of the timeout of the
    /// call that started at `started`.
    func send(_ request: DrupalRequest, csrfToken: String?, since started: RequestInstant) async throws -> HTTPResponse {
        var exchange = try beginExchange(request, csrfToken: csrfToken)
        var hops = 0
        while true {
            if let left = try remainingTimeout(of: request, since: started) { exchange.http.timeout = left }
            let result: Result<HTTPResponse, any Error>
            do {
                result = .success(try await transport.send(exchange.http))
            } catch {
                result = .failure(error)
            }
            let response: HTTPResponse
            do {
                response = try finishExchange(exchange, result)
            } catch var error as DrupalError where hops > 0 && error.connectionFailure == .notConnected {
                // The first hop reached the site: a retry would send the request again.
                error.connectionFailure = .lost
                throw error
            }
            guard let next = try nextHop(after: exchange, response, hops: hops) else { return response }
            exchange = next
            hops += 1
        }
    }

    /// A request on the wire, with what its end needs.
    struct Exchange: Sendable {
        /// The method and path as the caller gave them (for events and errors).
        var method: String
        var path: String
        var http: HTTPRequest
        var started: RequestInstant?
        /// The URL's path, for cookies; and whether the URL is on the site's origin (answers from
        /// elsewhere, a redirect target, never store cookies).
        var cookiePath: String
        var onSite = true
    }

    /// Builds the wire request, runs request middleware and emits requestStarted.
    func beginExchange(_ request: DrupalRequest, csrfToken: String?) throws -> Exchange {
        var (http, cookiePath) = try buildHTTPRequest(request, csrfToken: csrfToken)
        if !configuration.middleware.isEmpty {
            for middleware in configuration.middleware { try middleware.onRequest(&http) }
            // What middleware changed is checked as the caller's input was.
            try http.headers.validate()
            try RequestLimits.check(url: http.url, headers: http.headers)
        }
        events.emit(.requestStarted(method: http.method, path: request.path))
        // The clock is read only when someone listens: this runs for every request.
        return Exchange(method: request.method, path: request.path, http: http,
                        started: events.hasObservers ? RequestInstant.now : nil, cookiePath: cookiePath)
    }

    /// Keeps cookies, runs response middleware and emits requestFinished.
    func finishExchange(_ exchange: Exchange, _ result: Result<HTTPResponse, any Error>) throws -> HTTPResponse {
        let elapsed = exchange.started?.elapsed ?? .zero
        let method = exchange.http.method, path = exchange.path
        var response: HTTPResponse
        switch result {
        case .success(let received):
            response = received
        case .failure(let error):
            events.emit(.requestFinished(method: method, path: path, status: nil, duration: elapsed))
            throw DrupalError.wrapping(error)
        }
        let setCookies = response.headers.values(for: "Set-Cookie")
        if !setCookies.isEmpty && exchange.onSite {
            let now = HTTPDate.now()
            state.withLock { $0.cookies.store(setCookieHeaders: setCookies, requestPath: exchange.cookiePath, now: now) }
        }
        if !transport.streams, exchange.http.progress != nil || exchange.http.bodySink != nil {
            try LiveSession.deliverWhole(exchange.http, &response, maxBodySize: configuration.transport.maxBodySize)
        }
        for middleware in configuration.middleware.reversed() { try middleware.onResponse(exchange.http, &response) }
        events.emit(.requestFinished(method: method, path: path, status: response.status, duration: elapsed))
        return response
    }

    private func buildHTTPRequest(_ request: DrupalRequest, csrfToken: String?) throws -> (HTTPRequest, String) {
        // `checked` upper-cased a caller's method; the session's own requests are written so.
        let method = request.method
        assert(method.utf8AllSatisfy({ $0 < 0x61 || $0 > 0x7A }), "unchecked method \(method)")
        let (url, path) = try requestURL(request)
        let cookiePath = basePath.isEmpty || request.fromSiteRoot ? path : basePath + path

        // The request's headers were checked when it was prepared, the defaults when the client
        // was made.
        var headers = configuration.defaultHeaders
        for (name, value) in request.headers { headers.set(name, value) }
        let (authorization, cookie) = state.withLock { state in
            (state.authorizationHeader,
             state.cookies.isEmpty ? nil : state.cookies.headerValue(forPath: cookiePath, now: HTTPDate.now()))
        }
        if request.sendsAuthorization, let authorization = request.bearerToken.map({ "Bearer " + $0 }) ?? authorization,
           !headers.contains("Authorization") {
            headers.add("Authorization", authorization)
        }
        if let cookie, request.sendsCookies, !headers.contains("Cookie") { headers.add("Cookie", cookie) }
        if let csrfToken { headers.set("X-CSRF-Token", csrfToken) }
        if request.body != nil && !headers.contains("Content-Type") { headers.add("Content-Type", "application/json") }
        try RequestLimits.check(url: url, headers: headers)
        var http = HTTPRequest(method: method, url: url, headers: headers, body: request.body)
        if request.bodyFile != nil || request.progress != nil || request.bodySink != nil {
            http.bodyFile = request.bodyFile
            http.progress = request.progress
            http.bodySink = request.bodySink
            // A transport that cannot stream gets the file's bytes (see LiveSession+Files).
            if !transport.streams, let file = request.bodyFile {
                http.body = try LocalFiles.read(file.path)
                http.bodyFile = nil
            }
        }
        return (http, cookiePath)
    }

    /// The base URL, the checked path, its own query string (a target may carry one, or be an
    /// absolute URL under the base URL), the query items and `_format` (unless either gives one),
    /// built into one string.
    private func requestURL(_ request: DrupalRequest) throws -> (url: String, path: String) {
        let (path, targetQuery) = request.targetIsNormalized ? (request.path, request.targetQuery)
            : try PathSafety.normalizeTarget(request.path, baseURL: baseURL)
        let baseURL = request.fromSiteRoot ? siteRoot : baseURL
        if request.query.isEmpty && targetQuery == nil {
            // The common case: no query items, maybe `_format`.
            guard let format = request.format else { return (String.concatenating(baseURL, path), path) }
            // Nearly every request's: nothing to check or encode.
            if format == "json" { return (String.concatenating(baseURL, path, "?_format=json"), path) }
            try PathSafety.rejectControlCharacters(format, what: "query")
            return (String.concatenating(baseURL, path, "?_format=", PathSafety.percentEncode(format)), path)
        }
        for (key, value) in request.query {
            try PathSafety.rejectControlCharacters(key, what: "query")
            try PathSafety.rejectNUL(value, what: "query value")
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
        return (url, path)
    }
}
