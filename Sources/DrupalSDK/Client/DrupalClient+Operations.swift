import Dispatch
import FoundationEssentials
import Synchronization

/// The async Swift form of every operation, on `start`: each is one `perform(_:)` and, for the
/// session operations, the core's reading of Drupal's answer.
extension DrupalClient {
    /// Runs an operation and returns its response; cancelling the awaiting task cancels it.
    public func perform(_ operation: DrupalOperation) async throws -> DrupalResponse? {
        // The cancel action, and whether the task was cancelled before it was known.
        let cancellation = Mutex<(action: Cancel?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<DrupalResponse?, any Error>) in
                // A task cancelled already starts nothing: a call started as a task of its own
                // would hear of the cancel only after it began (it could run a token provider).
                if cancellation.withLock({ $0.cancelled }) { return continuation.resume(throwing: DrupalError.cancelled()) }
                do {
                    let action = try start(operation) { outcome in continuation.resume(with: outcome) }
                    let cancelNow = cancellation.withLock { state -> Bool in
                        state.action = action
                        return state.cancelled
                    }
                    if cancelNow { action() }
                } catch {
                    continuation.resume(throwing: DrupalError.wrapping(error))
                }
            }
        } onCancel: {
            let action = cancellation.withLock { state -> Cancel? in
                state.cancelled = true
                return state.action
            }
            action?()
        }
    }

    /// `perform` for operations that always answer.
    func response(_ operation: DrupalOperation) async throws -> DrupalResponse {
        guard let response = try await perform(operation) else {
            throw DrupalError(.internal, "\(operation.name) ended without a response")
        }
        return response
    }

    public func login(_ name: String, _ password: String) async throws -> LoginResult {
        try LoginResult.decode(try await response(.login(name: name, password: password)))
    }

    public func logout() async throws { _ = try await response(.logout) }

    /// Whether the session cookie is logged in, and Drupal's answer.
    public func loginStatus() async throws -> LoginStatus {
        let answer = try await response(.loginStatus)
        return LoginStatus(loggedIn: try LoginStatus.interpret(answer), response: answer)
    }

    /// Fetches a new CSRF token now (the client also does this by itself when needed).
    public func refreshCSRFToken() async throws -> String {
        try SessionToken.parse(try await response(.refreshCSRFToken))
    }

    public func get(_ entityType: String, _ id: String) async throws -> DrupalResponse {
        try await response(.get(entityType: entityType, id: id))
    }

    public func create(_ entityType: String, _ body: Data) async throws -> DrupalResponse {
        try await response(.create(entityType: entityType, body: try JSONBody(body)))
    }

    public func update(_ entityType: String, _ id: String, _ body: Data) async throws -> DrupalResponse {
        try await response(.update(entityType: entityType, id: id, body: try JSONBody(body)))
    }

    public func delete(_ entityType: String, _ id: String) async throws -> DrupalResponse {
        try await response(.delete(entityType: entityType, id: id))
    }

    public func view(_ path: String, _ query: [(String, String)] = []) async throws -> DrupalResponse {
        try await response(.view(path: path, query: query))
    }

    public func uploadFile(_ upload: FileUpload) async throws -> DrupalResponse {
        try await response(.uploadFile(upload))
    }

    public func request(_ request: DrupalRequest) async throws -> DrupalResponse {
        try await response(.request(request))
    }

    /// Registers an account (see `DrupalOperation.register`): Drupal's answer, the new account.
    public func register(_ registration: Registration) async throws -> DrupalResponse {
        try await response(.register(registration))
    }

    /// Asks for a password reset e-mail (see `DrupalOperation.resetPassword`).
    public func resetPassword(name: String? = nil, mail: String? = nil) async throws {
        _ = try await response(.resetPassword(name: name, mail: mail))
    }

    /// What a path or alias is, by decoupled_router (see `DrupalOperation.resolvePath`).
    public func resolvePath(_ path: String) async throws -> ResolvedPath {
        try ResolvedPath(try await response(.resolvePath(path)))
    }

    /// Fetches a file's content to a file or a sink (see `DrupalOperation.download`).
    public func download(_ download: FileDownload) async throws -> DrupalResponse {
        try await response(.download(download))
    }

    /// Fetches an OAuth access token now (see `DrupalOperation.oauthAuthenticate`).
    public func oauthAuthenticate() async throws -> DrupalResponse {
        try await response(.oauthAuthenticate)
    }

    /// Blocks until a task running `work` ends (for clients without a blocking mode of their own).
    static func waitForTask(_ operation: DrupalOperation, _ register: (@escaping Cancel) -> Void,
                            _ work: @escaping @Sendable () async throws -> DrupalResponse?) throws -> Outcome {
        let outcome = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            outcome.set(await DrupalClient.outcome(work))
            done.signal()
        }
        register { task.cancel() }
        done.wait()
        return outcome.take() ?? .failure(DrupalError(.internal, "\(operation.name) ended without an outcome"))
    }
}

extension DrupalError {
    /// Any error as a DrupalError: cancellation as `.cancelled`, others as `.network`.
    static func wrapping(_ error: any Error) -> DrupalError {
        if let error = error as? DrupalError { return error }
        if error is CancellationError { return DrupalError.cancelled() }
        return DrupalError(.network, "\(error)")
    }
}

/// Reading the answer of GET /session/token.
enum SessionToken {
    static func parse(_ response: HTTPResponse) throws -> String {
        let token = String(decoding: response.body, as: UTF8.self).trimmedWhitespace
        // One too long to send would fail every write after it.
        guard HeaderSafety.isPlainToken(token), token.utf8.count <= RequestLimits.maxTokenBytes else {
            throw DrupalError(.decode, "/session/token did not answer a token", status: response.status,
                              headers: response.headers, body: response.body)
        }
        return token
    }
}
