import FoundationEssentials

extension DrupalClient {
    /// A client that talks HTTP to the Drupal site at `baseURL` (which may include a sub-directory
    /// or language prefix). Throws `.invalidArgument` for a base URL that is not http(s).
    public static func live(baseURL: String, configuration: Configuration = Configuration()) throws -> DrupalClient {
        try live(baseURL: baseURL, configuration: configuration, transport: try .curl(configuration.transport))
    }

    /// A live client over a transport of your choice.
    public static func live(baseURL: String, configuration: Configuration, transport: Transport) throws -> DrupalClient {
        let session: LiveSession
        do {
            session = try LiveSession(baseURL: baseURL, configuration: configuration, transport: transport)
        } catch {
            transport.shutdown()
            throw error
        }
        return DrupalClient(
            start: { try session.start($0, $1) },
            run: { try session.run($0, $1) },
            setAuthentication: { try session.setAuthentication($0) },
            currentUser: { session.state.withLock { $0.user } },
            hasSession: { session.hasSession },
            forgetSession: { session.forgetSession() },
            csrfToken: { session.state.withLock { $0.csrfToken } },
            addObserver: { session.events.add($0) },
            removeObserver: { session.events.remove($0) }
        )
    }
}
