#if canImport(Glibc)
import Glibc
#endif

/// Which proxy environment variables were set when a transport was made. Left to itself, libcurl
/// reads them at every request (seven getenv calls and copies, ~1.4k instructions a GET: most of
/// a request's environment never has any); when none is set, the transport says so to libcurl
/// once per connection handle instead. A variable set later is not seen by that client.
struct ProxyEnvironment: Sendable {
    /// A proxy variable of any scheme is set (libcurl then picks the one of each request).
    var namesProxy = true
    /// `no_proxy` or `NO_PROXY` is set.
    var namesNoProxy = true

    /// What libcurl reads (`<scheme>_proxy`, the upper-case ones but HTTP_PROXY, `all_proxy`,
    /// `no_proxy`); HTTP_PROXY is counted too, so a set one leaves the reading to libcurl as before.
    static func read() -> ProxyEnvironment {
        let proxies = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        return ProxyEnvironment(namesProxy: proxies.contains(where: isSet),
                                namesNoProxy: isSet("no_proxy") || isSet("NO_PROXY"))
    }

    private static func isSet(_ name: String) -> Bool { getenv(name) != nil }
}
