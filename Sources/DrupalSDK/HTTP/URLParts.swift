/// The parts of an absolute http(s) URL the client needs: its origin (scheme, host, port) for
/// deciding where credentials and cookies may go, and its path for cookie matching.
struct URLParts: Equatable, Sendable {
    var scheme: String
    var host: String
    var port: Int
    /// From the first "/" of the path to before "?" or "#" ("/" when the URL has none).
    var path: String

    /// nil for anything but an absolute http or https URL with a host.
    init?(_ url: String) {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port = scheme == "https" ? 443 : 80
        // "[::1]:8080", "example.com:8080", "example.com"
        let portSeparator = authority.hasPrefix("[")
            ? authority.firstIndex(of: "]").flatMap { authority[$0...].firstIndex(of: ":") }
            : authority.lastIndex(of: ":")
        if let colon = portSeparator {
            let digits = authority[authority.index(after: colon)...]
            if !digits.isEmpty {
                guard let number = Int(digits), (1...65535).contains(number) else { return nil }
                port = number
            }
            host = authority[..<colon]
        }
        guard !host.isEmpty else { return nil }
        let afterAuthority = rest[authorityEnd...]
        let pathEnd = afterAuthority.firstIndex { $0 == "?" || $0 == "#" } ?? afterAuthority.endIndex
        let path = afterAuthority[..<pathEnd]
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        self.path = path.isEmpty ? "/" : String(path)
    }

    func sameOrigin(as other: URLParts) -> Bool {
        scheme == other.scheme && host == other.host && port == other.port
    }

    /// The URL a redirect's Location names, resolved against the URL it answered (RFC 3986 §5.2
    /// for the forms servers send: absolute, scheme-relative, absolute-path, relative). The
    /// fragment is dropped. Nil when the result is not an http(s) URL.
    static func resolve(_ location: String, against base: String) -> String? {
        var location = Substring(location.trimmedWhitespace)
        if let hash = location.firstIndex(of: "#") { location = location[..<hash] }
        if location.contains("://") { return URLParts(String(location)) == nil ? nil : String(location) }
        guard let parts = URLParts(base) else { return nil }
        let authority = parts.port == (parts.scheme == "https" ? 443 : 80) ? parts.host : "\(parts.host):\(parts.port)"
        if location.hasPrefix("//") {
            let url = parts.scheme + ":" + location
            return URLParts(url) == nil ? nil : url
        }
        let origin = parts.scheme + "://" + authority
        if location.hasPrefix("/") { return origin + location }
        if location.hasPrefix("?") { return origin + parts.path + location }
        let directory = parts.path[...(parts.path.lastIndex(of: "/") ?? parts.path.startIndex)]
        return origin + directory + location
    }
}
