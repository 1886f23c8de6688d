import FoundationEssentials

/// A client for one Drupal site: a value of closures. `.live(baseURL:)` talks HTTP, `.mock()` is
/// the live client over an in-memory Drupal, `.unimplemented` fails loudly; tests build their own
/// from these. Every operation goes through `start` (or `run`, its blocking form): Swift's async
/// methods (`get`, `create`, `login`...) are built on it, and so are the C API and the Python
/// binding, so replacing `start` changes what every language sees.
public struct DrupalClient: Sendable {
    public typealias Outcome = Result<DrupalResponse?, DrupalError>
    public typealias Completion = @Sendable (Outcome) -> Void
    public typealias Cancel = @Sendable () -> Void

    /// Starts an operation. It throws `.invalidArgument` (and sends nothing, and never calls
    /// `completion`) for input it refuses; otherwise `completion` runs exactly once with the
    /// outcome, on a thread of the client (possibly before `start` returns). The result cancels
    /// the operation (its completion then gets `.cancelled`, unless it had already ended).
    /// A response is nil only for `.nextPage` past the last page.
    public var start: @Sendable (DrupalOperation, @escaping Completion) throws -> Cancel
    /// The same, blocking: the calling thread does the I/O where the transport allows it (no
    /// thread hand-off). `register` receives the cancel action before the wait. Throws as `start`.
    public var run: @Sendable (DrupalOperation, _ register: (@escaping Cancel) -> Void) throws -> Outcome

    // State of the client, read or changed without a request.
    public var setAuthentication: @Sendable (Authentication) throws -> Void
    public var currentUser: @Sendable () -> CurrentUser?
    /// Whether the client holds a login session that `logout` would end.
    public var hasSession: @Sendable () -> Bool
    /// Drops the session cookie and tokens locally, without a request (the site keeps the
    /// session until it expires); cookie authentication becomes none.
    public var forgetSession: @Sendable () -> Void
    /// The CSRF token held (from login or the last fetch), if any; `refreshCSRFToken()` fetches one.
    public var csrfToken: @Sendable () -> String?
    /// The OAuth refresh token the client holds now, if any: the site's newest (it rotates them on
    /// every refresh, revoking the one before), nil before the first token and once the site
    /// refused it. A program that stores it (a keyring) can start from it next time
    /// (`OAuthSettings.Grant.refreshToken`) instead of asking again; it is a secret.
    public var oauthRefreshToken: @Sendable () -> String?

    // Events
    public var addObserver: @Sendable (@escaping @Sendable (DrupalEvent) -> Void) -> ObserverToken
    public var removeObserver: @Sendable (ObserverToken) -> Void

    public init(
        start: @escaping @Sendable (DrupalOperation, @escaping Completion) throws -> Cancel,
        run: @escaping @Sendable (DrupalOperation, (@escaping Cancel) -> Void) throws -> Outcome,
        setAuthentication: @escaping @Sendable (Authentication) throws -> Void = { _ in },
        currentUser: @escaping @Sendable () -> CurrentUser? = { nil },
        hasSession: @escaping @Sendable () -> Bool = { false },
        forgetSession: @escaping @Sendable () -> Void = {},
        csrfToken: @escaping @Sendable () -> String? = { nil },
        oauthRefreshToken: @escaping @Sendable () -> String? = { nil },
        addObserver: @escaping @Sendable (@escaping @Sendable (DrupalEvent) -> Void) -> ObserverToken = { _ in
            ObserverToken.none
        },
        removeObserver: @escaping @Sendable (ObserverToken) -> Void = { _ in }
    ) {
        self.start = start
        self.run = run
        self.setAuthentication = setAuthentication
        self.currentUser = currentUser
        self.hasSession = hasSession
        self.forgetSession = forgetSession
        self.csrfToken = csrfToken
        self.oauthRefreshToken = oauthRefreshToken
        self.addObserver = addObserver
        self.removeObserver = removeObserver
    }

    /// A client from an async implementation of the operations (what a test double needs):
    /// `start` runs it in a task, `run` waits for that task.
    public init(perform: @escaping @Sendable (DrupalOperation) async throws -> DrupalResponse?) {
        self.init(start: { operation, completion in
            let task = Task { completion(await DrupalClient.outcome { try await perform(operation) }) }
            return { task.cancel() }
        }, run: { operation, register in
            try DrupalClient.waitForTask(operation, register) { try await perform(operation) }
        })
    }

    /// The outcome of async work, its errors as `DrupalError`s.
    static func outcome(_ work: () async throws -> DrupalResponse?) async -> Outcome {
        do {
            return .success(try await work())
        } catch {
            return .failure(DrupalError.wrapping(error))
        }
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
