import FoundationEssentials

extension DrupalClient {
    /// A client that talks HTTP to the Drupal site at `baseURL` (which may include a sub-directory
    /// or language prefix). Throws `.invalidArgument` for a base URL that is not http(s).
    public static func live(baseURL: String, configuration: Configuration = Configuration()) throws -> DrupalClient {
        try live(baseURL: baseURL, configuration: configuration, transport: .curl(configuration.transport))
    }

    /// A live client over a transport of your choice.
    public static func live(baseURL: String, configuration: Configuration, transport: Transport) throws -> DrupalClient {
        let transportIfUnused = transport
        let session: LiveSession
        do {
            session = try LiveSession(baseURL: baseURL, configuration: configuration, transport: transport)
        } catch {
            transportIfUnused.shutdown()
            throw error
        }
        return DrupalClient(
            login: { try await session.login(name: $0, password: $1) },
            logout: { try await session.logout() },
            loginStatus: { try await session.loginStatus() },
            csrfToken: { try await session.token(forceRefresh: false, stale: nil) },
            refreshCSRFToken: { try await session.token(forceRefresh: true, stale: nil) },
            setAuthentication: { try session.setAuthentication($0) },
            currentUser: { session.state.withLock { $0.user } },
            hasSession: { session.hasSession },
            forgetSession: { session.forgetSession() },
            get: { try await session.get($0, $1) },
            create: { try await session.create($0, $1) },
            update: { try await session.update($0, $1, $2) },
            delete: { try await session.delete($0, $1) },
            view: { try await session.view($0, $1) },
            uploadFile: { try await session.uploadFile($0) },
            request: { try await session.perform($0) },
            addObserver: { session.events.add($0) },
            removeObserver: { session.events.remove($0) },
            executor: transport.executor,
            runBlocking: transport.runBlocking,
            shutdown: { session.transport.shutdown() },
            callbackMode: session.callbackMode()
        )
    }
}

extension LiveSession {
    /// Task-free requests when the transport supports them (libcurl does).
    func callbackMode() -> CallbackMode? {
        guard let startTransfer = transport.start else { return nil }
        let driveBlocking = transport.driveBlocking
        return CallbackMode(
            start: { request, completion in self.start(request, with: startTransfer, completion: completion) },
            run: { request, register in
                guard let driveBlocking else { return nil }
                let outcome = BlockingOutcome()
                var qualifies = true
                driveBlocking({ startOnThisThread in
                    let cancel = self.start(request, with: startOnThisThread) { outcome.result = $0 }
                    if let cancel { register(cancel) } else { qualifies = false }
                }, { !qualifies || outcome.result != nil })
                return qualifies ? outcome.result : nil
            },
            entityPath: { try self.paths.canonicalPath($0, id: $1) })
    }
}

/// The outcome of a blocking callback-mode request: written by its completion, which runs on
/// the thread that drives the transfer, the same thread that then reads it.
private final class BlockingOutcome: @unchecked Sendable {
    var result: Result<DrupalResponse, DrupalError>?
}
