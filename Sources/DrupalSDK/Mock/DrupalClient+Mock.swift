extension DrupalClient {
    /// A client on an in-memory Drupal: the live client over `site.transport`, so everything but
    /// the network is the code that talks to real sites. Keep `site` to seed and inspect it.
    public static func mock(_ site: MockDrupal = MockDrupal(),
                            configuration: Configuration = Configuration()) -> DrupalClient {
        do {
            return try .live(baseURL: "http://drupal.mock", configuration: configuration, transport: site.transport)
        } catch {
            // The base URL is valid, so only the configuration (bad credentials or headers) can
            // fail: every operation reports that error instead of crashing.
            let failure = DrupalError.wrapping(error)
            return .failing { _ in failure }
        }
    }
}
