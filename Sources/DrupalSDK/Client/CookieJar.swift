/// The cookies of one client, in memory only, for its site's origin alone: answers from any other
/// origin (a redirect target) never store a cookie, and cookies are only ever sent to the site.
/// Within the site, RFC 6265 rules: a cookie is keyed by name, domain and path; `Domain` must
/// match the site's host (else the cookie is ignored); `Path`
/// limits the request paths it goes to; `Secure` cookies only over https (and only an https site
/// may set them); `Max-Age`/`Expires` are honoured. Never shared, never written anywhere.
struct CookieJar: Sendable {
    struct Cookie: Sendable, Equatable {
        var name: String
        var value: String
        var domain: String
        var path: String
        var secure: Bool
        /// Seconds since 1970; nil for a session cookie (kept for the life of the client).
        var expires: Int64?
    }

    /// Bounds against a server that floods the jar (RFC 6265 §6.1's minimums).
    static let maxCookies = 50
    static let maxCookieBytes = 4096
    /// What the cookies may hold together (names and values): the Cookie header stays under the
    /// request's limit (RequestLimits.maxHeaderBytes), or every later request would fail.
    static let maxTotalBytes = 32 * 1024

    /// The site's host, lower-cased, and whether it is reached over https.
    let host: String
    let secureOrigin: Bool
    private(set) var cookies: [Cookie] = []

    init(host: String, secureOrigin: Bool) {
        self.host = host.lowercased()
        self.secureOrigin = secureOrigin
    }

    var isEmpty: Bool { cookies.isEmpty }

    mutating func removeAll() { cookies.removeAll() }

    /// The Cookie header for a request to `path` on the site (longer paths first), or nil.
    func headerValue(forPath path: String, now: Int64) -> String? {
        if cookies.isEmpty { return nil }
        var matching = cookies.filter { cookie in
            (cookie.expires.map { $0 > now } ?? true) && (!cookie.secure || secureOrigin)
                && CookieJar.pathMatches(cookie.path, path)
        }
        if matching.isEmpty { return nil }
        if matching.count > 1 { matching = stableSorted(matching) }
        var header = ""
        for cookie in matching {
            if !header.isEmpty { header += "; " }
            header += cookie.name
            header += "="
            header += cookie.value
        }
        return header
    }

    /// Longest path first; equal paths keep the order they were stored in.
    private func stableSorted(_ list: [Cookie]) -> [Cookie] {
        list.enumerated().sorted { a, b in
            a.element.path.utf8.count != b.element.path.utf8.count
                ? a.element.path.utf8.count > b.element.path.utf8.count : a.offset < b.offset
        }.map(\.element)
    }

    /// Applies every Set-Cookie of an answer from the site to a request for `requestPath`.
    mutating func store(setCookieHeaders: [String], requestPath: String, now: Int64) {
        for header in setCookieHeaders {
            guard let cookie = parse(header, requestPath: requestPath, now: now) else { continue }
            let existing = cookies.firstIndex {
                $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path
            }
            if let existing { cookies.remove(at: existing) }
            if let expires = cookie.expires, expires <= now { continue }  // a deletion
            if cookies.count >= CookieJar.maxCookies { cookies.removeFirst() }
            cookies.append(cookie)
        }
        cookies.removeAll { $0.expires.map { $0 <= now } ?? false }
        // Over the byte budget, the oldest go first, as past maxCookies; one cookie always fits.
        var total = cookies.reduce(0) { $0 + CookieJar.bytes(of: $1) }
        while total > CookieJar.maxTotalBytes { total -= CookieJar.bytes(of: cookies.removeFirst()) }
    }

    /// A cookie's share of the Cookie header ("name=value; ").
    private static func bytes(of cookie: Cookie) -> Int { cookie.name.utf8.count + cookie.value.utf8.count + 3 }

    /// One Set-Cookie value (RFC 6265 §5.2-5.3), or nil when it must be ignored. Split on bytes:
    /// as Characters, a combining mark after ";" or "=" would hide it.
    private func parse(_ header: String, requestPath: String, now: Int64) -> Cookie? {
        guard header.utf8.count <= CookieJar.maxCookieBytes,
              !HeaderSafety.hasControlCharacter(header) else { return nil }
        var parts = header.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            .map { Substring($0) }.makeIterator()
        guard let pair = parts.next(), let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = pair[..<equals].trimmedWhitespace
        let value = pair[pair.utf8.index(after: equals)...].trimmedWhitespace
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host,
                            path: CookieJar.defaultPath(requestPath), secure: false, expires: nil)
        var maxAge: Int64?
        var expires: Int64?
        while let attribute = parts.next() {
            let (key, argument) = CookieJar.split(attribute)
            switch key {
            case "expires": expires = HTTPDate.parse(argument)
            case "max-age":
                if let seconds = Int64(argument) { maxAge = seconds <= 0 ? Int64.min : seconds }
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                if domain.isEmpty { continue }
                // A Domain the site's host is not in could only plant a cookie for someone else.
                guard domainMatches(domain) else { return nil }
                cookie.domain = domain
            case "path":
                if argument.utf8.first == UInt8(ascii: "/") { cookie.path = argument }
            case "secure":
                cookie.secure = true
            default:
                break
            }
        }
        // An http site cannot set a Secure cookie (RFC 6265bis §5.7 step 9).
        if cookie.secure && !secureOrigin { return nil }
        if let maxAge {
            // Saturating: a Max-Age near Int64.max wrapped around to the past and dropped the cookie.
            let (later, overflow) = now.addingReportingOverflow(maxAge)
            cookie.expires = maxAge == Int64.min ? Int64.min : overflow ? Int64.max : later
        } else if let expires {
            cookie.expires = expires
        }
        return cookie
    }

    /// "Name=value" or "Name" of an attribute: the name lower-cased, both sides trimmed.
    private static func split(_ attribute: Substring) -> (String, String) {
        guard let equals = attribute.utf8.firstIndex(of: UInt8(ascii: "=")) else {
            return (attribute.trimmedWhitespace.lowercased(), "")
        }
        return (attribute[..<equals].trimmedWhitespace.lowercased(),
                attribute[attribute.utf8.index(after: equals)...].trimmedWhitespace)
    }

    /// The site's host is the domain or one of its sub-domains (never for IP addresses).
    private func domainMatches(_ domain: String) -> Bool {
        if host == domain { return true }
        let isAddress = host.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E } || host.contains(":")
        return !isAddress && host.hasSuffix("." + domain)
    }

    /// RFC 6265 §5.1.4: the directory of the request path.
    static func defaultPath(_ requestPath: String) -> String {
        // On the bytes: a redirect's path may hold "/" + a combining mark, one Character.
        guard requestPath.utf8.first == UInt8(ascii: "/"), let lastSlash = requestPath.utf8.lastIndex(of: UInt8(ascii: "/")),
              lastSlash != requestPath.startIndex else { return "/" }
        return String(requestPath[..<lastSlash])
    }

    /// RFC 6265 §5.1.4: the cookie's path is the request path or a directory of it.
    static func pathMatches(_ cookiePath: String, _ requestPath: String) -> Bool {
        if cookiePath == "/" || cookiePath == requestPath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }
}
