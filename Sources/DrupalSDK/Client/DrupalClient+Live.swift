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
            shutdown: { session.transport.shutdown() }
        )
    }
}
