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
        let lifetime = TransportLifetime(transport)
        return DrupalClient(
            start: { _ = lifetime; return try session.start($0, $1) },
            run: { _ = lifetime; return try session.run($0, $1) },
            setAuthentication: { try session.setAuthentication($0) },
            currentUser: { session.state.withLock { $0.user } },
            hasSession: { session.hasSession },
            forgetSession: { session.forgetSession() },
            csrfToken: { session.state.withLock { $0.csrfToken } },
            oauthRefreshToken: { session.state.withLock { $0.oauth.refreshToken } },
            addObserver: { session.events.add($0) },
            removeObserver: { session.events.remove($0) }
        )
    }
}

/// Shuts a live client's transport down when the last copy of the client is gone, on the thread
/// that let go of it, so that thread waits for the transport's own thread to end. (The session
/// itself may live a moment longer in one of its tasks, which must not be where the transport
/// ends: a thread cannot wait for itself.)
private final class TransportLifetime: Sendable {
    let transport: Transport
    init(_ transport: Transport) { self.transport = transport }
    deinit { transport.shutdown() }
}
