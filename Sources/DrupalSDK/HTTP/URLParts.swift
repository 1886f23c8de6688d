/// The parts of an absolute http(s) URL the client needs: its origin (scheme, host, port) for
/// deciding where credentials and cookies may go, and its path for cookie matching.
struct URLParts: Equatable, Sendable {
    var scheme: String
    var host: String
    var port: Int
    /// From the first "/" of the path to before "?" or "#" ("/" when the URL has none).
    var path: String
    /// Between "?" and "#" (nil when the URL has no "?").
    var query: String?
    /// The authority has user info ("user:password@host"), left out of `host`.
    var hasUserInfo = false

    /// nil for anything but an absolute http or https URL with a host.
    init?(_ url: String) {
        // Every delimiter is found on the UTF-8 bytes, as libcurl finds them: "?" followed by a
        // combining mark is one Character, so a Character search would read
        // "http://other?\u{301}@site/" as site while libcurl connects to other.
        let bytes = url.utf8
        guard let schemeEnd = bytes.firstRange(of: "://".utf8) else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            authority = authority[authority.utf8.index(after: at)...]
            hasUserInfo = true
        }
        var host = authority
        var port = scheme == "https" ? 443 : 80
        // "[::1]:8080", "example.com:8080", "example.com"
        let portSeparator = authority.utf8.first == UInt8(ascii: "[")
            ? authority.utf8.firstIndex(of: UInt8(ascii: "]")).flatMap { authority.utf8[$0...].firstIndex(of: UInt8(ascii: ":")) }
            : authority.utf8.lastIndex(of: UInt8(ascii: ":"))
        if let colon = portSeparator {
            let digits = authority[authority.utf8.index(after: colon)...]
            if !digits.isEmpty {
                // Digits only, as libcurl takes them (Int alone would also read "+80").
                guard digits.utf8.count <= 5, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let number = Int(digits), (1...65535).contains(number) else { return nil }
                port = number
            }
            host = authority[..<colon]
        }
        guard !host.isEmpty else { return nil }
        let afterAuthority = rest[authorityEnd...]
        let pathEnd = afterAuthority.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? afterAuthority.endIndex
        let path = afterAuthority[..<pathEnd]
        if pathEnd < afterAuthority.endIndex, afterAuthority.utf8[pathEnd] == UInt8(ascii: "?") {
            let afterMark = afterAuthority[afterAuthority.utf8.index(after: pathEnd)...]
            query = String(afterMark[..<(afterMark.utf8.firstIndex(of: UInt8(ascii: "#")) ?? afterMark.endIndex)])
        }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        self.path = path.isEmpty ? "/" : String(path)
    }

    func sameOrigin(as other: URLParts) -> Bool {
        scheme == other.scheme && host == other.host && port == other.port
    }

    /// The URL a redirect's Location names, resolved against the URL it answered (RFC 3986 §5.2
    /// for the forms servers send: absolute, scheme-relative, absolute-path, relative), its path
    /// without dot segments. The fragment is dropped. Nil when the result is not an http(s) URL.
    static func resolve(_ location: String, against base: String) -> String? {
        joined(location, base).map(removingDotSegments)
    }

    /// RFC 3986 §5.2.2 without its last step (dot segments).
    private static func joined(_ location: String, _ base: String) -> String? {
        // On the bytes, like init: a mark after "#", "/" or "?" must not hide it.
        var location = Substring(location.trimmedWhitespace)
        if let hash = location.utf8.firstIndex(of: UInt8(ascii: "#")) { location = location[..<hash] }
        // An empty reference (or a fragment alone) is the base itself.
        if location.isEmpty {
            let end = base.utf8.firstIndex(of: UInt8(ascii: "#")) ?? base.endIndex
            return URLParts(base) == nil ? nil : String(base[..<end])
        }
        // Absolute when it starts with a scheme, not when "://" is anywhere (a query's
        // "destination=https://..." is common); only http(s) ones are followed ("javascript:" is
        // no path on the site).
        if startsWithScheme(location) {
            return URLParts(String(location)) == nil ? nil : String(location)
        }
        guard let parts = URLParts(base) else { return nil }
        let authority = parts.port == (parts.scheme == "https" ? 443 : 80) ? parts.host : "\(parts.host):\(parts.port)"
        if location.utf8.starts(with: "//".utf8) {
            let url = parts.scheme + ":" + location
            return URLParts(url) == nil ? nil : url
        }
        let origin = parts.scheme + "://" + authority
        if location.utf8.first == UInt8(ascii: "/") { return origin + location }
        if location.utf8.first == UInt8(ascii: "?") { return origin + parts.path + location }
        // Up to and with the last "/" (an index past a byte: `...` would step a whole Character).
        let directoryEnd = parts.path.utf8.lastIndex(of: UInt8(ascii: "/")).map { parts.path.utf8.index(after: $0) }
            ?? parts.path.startIndex
        return origin + parts.path[..<directoryEnd] + location
    }

    /// The URL with "." and ".." segments of its path resolved (RFC 3986 §5.2.4), as libcurl
    /// sends it: cookies must be chosen for the path the server will see, "/site/a/../b" being
    /// "/site/b". The query is left as it is.
    static func removingDotSegments(_ url: String) -> String {
        let bytes = url.utf8
        guard let schemeEnd = bytes.firstRange(of: "://".utf8) else { return url }
        let afterScheme = bytes[schemeEnd.upperBound...]
        let isDelimiter = { (byte: UInt8) in byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") }
        guard let pathStart = afterScheme.firstIndex(where: isDelimiter), bytes[pathStart] == UInt8(ascii: "/") else { return url }
        let pathEnd = bytes[pathStart...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let segments = url[pathStart..<pathEnd].utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        let isDot = { (segment: Substring.UTF8View.SubSequence) in segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) }
        guard segments.contains(where: isDot) else { return url }
        var kept: [Substring.UTF8View.SubSequence] = []
        for segment in segments {
            if segment.elementsEqual("..".utf8) {
                _ = kept.popLast()
            } else if !segment.elementsEqual(".".utf8) {
                kept.append(segment)
            }
        }
        // A path ending in "." or ".." names a directory: "/a/b/.." is "/a/".
        let directory = segments.last.map(isDot) == true
        var path = "/" + kept.map { String(Substring($0)) }.joined(separator: "/")
        if directory && !kept.isEmpty { path += "/" }
        return String(url[..<pathStart]) + path + String(url[pathEnd...])
    }

    /// Whether a URL reference starts with a scheme (RFC 3986 §3.1): a letter, then letters,
    /// digits, "+", "-" or ".", then ":".
    private static func startsWithScheme(_ reference: Substring) -> Bool {
        guard let first = reference.utf8.first, isLetter(first) else { return false }
        for byte in reference.utf8.dropFirst() {
            if byte == UInt8(ascii: ":") { return true }
            let allowed = isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !allowed { return false }
        }
        return false
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}
