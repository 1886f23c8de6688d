extension DrupalClient {
    /// A client on an in-memory Drupal: the live client over `site.transport`, so everything but
    /// the network is the code that talks to real sites. Keep `site` to seed and inspect it.
    public static func mock(_ site: MockDrupal = MockDrupal(),
                            configuration: Configuration = Configuration()) -> DrupalClient {
        do {
            return try .live(baseURL: "http://drupal.mock", configuration: configuration, transport: site.transport)
        } catch {
            // The base URL is valid, so only the configuration (bad credentials or headers) can fail:
            // surface that error from every operation instead of crashing.
            return .failing(with: error)
        }
    }

    /// A client whose every operation throws `error`.
    static func failing(with error: any Error) -> DrupalClient {
        DrupalClient(
            login: { _, _ in throw error },
            logout: { throw error },
            loginStatus: { throw error },
            csrfToken: { throw error },
            refreshCSRFToken: { throw error },
            setAuthentication: { _ in throw error },
            currentUser: { nil },
            hasSession: { false },
            forgetSession: {},
            get: { _, _ in throw error },
            create: { _, _ in throw error },
            update: { _, _, _ in throw error },
            delete: { _, _ in throw error },
            view: { _, _ in throw error },
            uploadFile: { _ in throw error },
            request: { _ in throw error },
            addObserver: { _ in ObserverToken(id: 0) },
            removeObserver: { _ in }
        )
    }
}
