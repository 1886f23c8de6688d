import FoundationEssentials

/// A client for one Drupal site. A value of closures: `.live(baseURL:)` talks HTTP, `.mock()` is an
/// in-memory Drupal for tests, `.unimplemented` fails loudly; tests can replace any closure.
/// Every operation returns a response (status, headers, body) or throws a `DrupalError`
/// (which carries the status, headers and body when the server answered).
public struct DrupalClient: Sendable {
    // Session
    public var login: @Sendable (_ name: String, _ password: String) async throws -> LoginResult
    public var logout: @Sendable () async throws -> Void
    /// Whether the session cookie is logged in (GET /user/login_status, sent without Basic
    /// credentials, which Drupal refuses there).
    public var loginStatus: @Sendable () async throws -> LoginStatus
    /// The CSRF token, fetched from /session/token if none is held.
    public var csrfToken: @Sendable () async throws -> String
    public var refreshCSRFToken: @Sendable () async throws -> String
    public var setAuthentication: @Sendable (Authentication) throws -> Void
    public var currentUser: @Sendable () -> CurrentUser?
    /// Whether the client holds a login session that `logout` would end (no request is sent).
    public var hasSession: @Sendable () -> Bool
    /// Drops the session cookie and tokens locally, without a request (the site keeps the
    /// session until it expires); cookie authentication becomes none.
    public var forgetSession: @Sendable () -> Void

    // Entities, views, files, anything else
    public var get: @Sendable (_ entityType: String, _ id: String) async throws -> DrupalResponse
    public var create: @Sendable (_ entityType: String, _ body: Data) async throws -> DrupalResponse
    public var update: @Sendable (_ entityType: String, _ id: String, _ body: Data) async throws -> DrupalResponse
    public var delete: @Sendable (_ entityType: String, _ id: String) async throws -> DrupalResponse
    public var view: @Sendable (_ path: String, _ query: [(String, String)]) async throws -> DrupalResponse
    public var uploadFile: @Sendable (FileUpload) async throws -> DrupalResponse
    public var request: @Sendable (DrupalRequest) async throws -> DrupalResponse

    // Events and lifetime
    public var addObserver: @Sendable (@escaping @Sendable (DrupalEvent) -> Void) -> ObserverToken
    public var removeObserver: @Sendable (ObserverToken) -> Void
    /// Where the client completes requests; tasks that prefer it avoid thread hops.
    public var executor: (any TaskExecutor)?
    /// Runs async work with the calling thread doing the I/O (for blocking APIs), if the
    /// transport can; see `Transport.runBlocking`.
    public var runBlocking: Transport.BlockingRunner?
    /// Cancels requests in flight and releases connections and threads.
    public var shutdown: @Sendable () -> Void
    /// Requests without a Swift task (see `CallbackMode`); nil when the client has no such mode.
    public var callbackMode: CallbackMode?

    public init(
        login: @escaping @Sendable (String, String) async throws -> LoginResult,
        logout: @escaping @Sendable () async throws -> Void,
        loginStatus: @escaping @Sendable () async throws -> LoginStatus,
        csrfToken: @escaping @Sendable () async throws -> String,
        refreshCSRFToken: @escaping @Sendable () async throws -> String,
        setAuthentication: @escaping @Sendable (Authentication) throws -> Void,
        currentUser: @escaping @Sendable () -> CurrentUser?,
        hasSession: @escaping @Sendable () -> Bool,
        forgetSession: @escaping @Sendable () -> Void,
        get: @escaping @Sendable (String, String) async throws -> DrupalResponse,
        create: @escaping @Sendable (String, Data) async throws -> DrupalResponse,
        update: @escaping @Sendable (String, String, Data) async throws -> DrupalResponse,
        delete: @escaping @Sendable (String, String) async throws -> DrupalResponse,
        view: @escaping @Sendable (String, [(String, String)]) async throws -> DrupalResponse,
        uploadFile: @escaping @Sendable (FileUpload) async throws -> DrupalResponse,
        request: @escaping @Sendable (DrupalRequest) async throws -> DrupalResponse,
        addObserver: @escaping @Sendable (@escaping @Sendable (DrupalEvent) -> Void) -> ObserverToken,
        removeObserver: @escaping @Sendable (ObserverToken) -> Void,
        executor: (any TaskExecutor)? = nil,
        runBlocking: Transport.BlockingRunner? = nil,
        shutdown: @escaping @Sendable () -> Void = {},
        callbackMode: CallbackMode? = nil
    ) {
        self.login = login
        self.logout = logout
        self.loginStatus = loginStatus
        self.csrfToken = csrfToken
        self.refreshCSRFToken = refreshCSRFToken
        self.setAuthentication = setAuthentication
        self.currentUser = currentUser
        self.hasSession = hasSession
        self.forgetSession = forgetSession
        self.get = get
        self.create = create
        self.update = update
        self.delete = delete
        self.view = view
        self.uploadFile = uploadFile
        self.request = request
        self.addObserver = addObserver
        self.removeObserver = removeObserver
        self.executor = executor
        self.runBlocking = runBlocking
        self.shutdown = shutdown
        self.callbackMode = callbackMode
    }
}

extension DrupalClient {
    /// Settings of a live client.
    public struct Configuration: Sendable {
        public var transport = TransportOptions()
        /// Headers added to every request (a request's own headers win).
        public var defaultHeaders = HTTPHeaders()
        public var authentication: Authentication = .none
        /// REST paths per entity type; add entries for custom entity types.
        public var entityPaths: [String: EntityPath] = EntityPath.core
        public var middleware: [Middleware] = []
        /// Which failed requests are tried again, how often and after how long (see `RetryPolicy`;
        /// `.never` turns it off).
        public var retry = RetryPolicy()
        /// Headers of yours that carry credentials (e.g. "X-Api-Key"), treated as Authorization,
        /// Cookie and X-CSRF-Token are: stripped from any redirect to another origin.
        public var secretHeaders: [String] = []

        public init() {}
    }
}
