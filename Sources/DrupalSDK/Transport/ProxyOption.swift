/// The `proxy` transport option, checked with the others (TransportOptions.validate) when a
/// client or a transport is made: libcurl takes nearly anything (a bare host, an unknown scheme)
/// and would fail only at the first request, with less to say.
enum ProxyOption {
    static let schemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    /// Throws `.invalidArgument` unless `proxy` is nil, "" or a proxy URL with a known scheme
    /// and a host. Errors quote it without its credentials.
    static func validate(_ proxy: String?) throws {
        guard let proxy, !proxy.isEmpty else { return }
        let bytes = proxy.utf8
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw DrupalError.invalidArgument("the proxy URL contains spaces or control characters")
        }
        let shown = PathSafety.shownURL(proxy)
        guard let separator = bytes.firstRange(of: "://".utf8),
              schemes.contains(String(decoding: bytes[..<separator.lowerBound], as: UTF8.self).lowercased()) else {
            throw DrupalError.invalidArgument("the proxy \"\(shown)\" must be a URL starting with http://, https://, "
                                              + "socks4://, socks4a://, socks5:// or socks5h://")
        }
        let authority = bytes[separator.upperBound...].prefix { $0 != UInt8(ascii: "/") }
        let host = authority.lastIndex(of: UInt8(ascii: "@")).map { authority[authority.index(after: $0)...] } ?? authority
        if host.isEmpty || host.first == UInt8(ascii: ":") {
            throw DrupalError.invalidArgument("the proxy \"\(shown)\" has no host")
        }
    }
}
