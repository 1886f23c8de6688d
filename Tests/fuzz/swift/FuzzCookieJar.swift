// libFuzzer target: the cookie jar (CookieJar: RFC 6265 for the site's own origin).
//
// The input is cut at 0xFF bytes into up to 12 Set-Cookie values, each as libcurl can hand it
// over (cut at the first LF or NUL, which libcurl never passes inside a header line, and trimmed
// like a received header value); the first half is stored for one request path, then the second
// for another, on an https site and on an http one. Asserted, beyond no crash:
//  - every cookie has a name without "=" or ";" and a value without ";" (as bytes: a combining
//    mark after them must not hide them), no control byte, a path starting with "/", a domain
//    that is the site's host or one it is in (a Domain the host is not in is ignored), and no
//    Secure cookie on an http site; names are unique per (domain, path); at most 50 cookies;
//  - the Cookie header for a path holds exactly the unexpired cookies whose path matches it
//    (longer paths first), passes HeaderSafety, and parses back into them;
//  - storing the same batch again changes nothing;
//  - "N=v; Path=/" replaces (N, host, /) only; "N=x; Max-Age=0" and an Expires in the past
//    remove exactly it; removeAll empties the jar.
@testable import DrupalSDK

private let now: Int64 = 1_800_000_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookieJar(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let headers = FuzzInput(data, size).pieces(limit: 12).map(asReceived)
    let half = (headers.count + 1) / 2
    for secure in [true, false] {
        var jar = CookieJar(host: "www.example.com", secureOrigin: secure)
        for (batch, path) in [(Array(headers[..<half]), "/node/1"), (Array(headers[half...]), "/api/a/b")] {
            jar.store(setCookieHeaders: batch, requestPath: path, now: now)
            checkInvariants(jar)
            var again = jar
            again.store(setCookieHeaders: batch, requestPath: path, now: now)
            require(again.cookies == jar.cookies, "storing the same Set-Cookie headers again changed the jar: "
                    + batch.map(shown).joined(separator: ", "))
        }
        for path in ["/", "/node/1", "/api/a/b", "/api"] { checkHeader(jar, path) }
        checkProbes(jar)
        jar.removeAll()
        require(jar.isEmpty && jar.headerValue(forPath: "/", now: now) == nil, "removeAll leaves cookies")
    }
    return 0
}

/// A Set-Cookie value as it can come out of CurlTransfer.appendHeaderLine.
private func asReceived(_ piece: [UInt8]) -> String {
    let line = piece.prefix { $0 != 0x0A && $0 != 0x00 }
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    guard let start = line.firstIndex(where: { !isSpace($0) }), let end = line.lastIndex(where: { !isSpace($0) }) else {
        return ""
    }
    return Array(line[start...end]).text
}

private func checkInvariants(_ jar: CookieJar) {
    require(jar.cookies.count <= CookieJar.maxCookies, "more than \(CookieJar.maxCookies) cookies")
    var keys = Set<String>()
    for cookie in jar.cookies {
        let key = "\(cookie.name)\u{0}\(cookie.domain)\u{0}\(cookie.path)"
        require(keys.insert(key).inserted, "two cookies with one name, domain and path: \(shown(cookie.name))")
        require(!cookie.name.isEmpty, "a cookie without a name")
        require(!cookie.name.utf8.contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ";") },
                "a cookie name that holds = or ;: \(shown(cookie.name))")
        require(!cookie.value.utf8.contains(UInt8(ascii: ";")), "a cookie value with ;: \(shown(cookie.value))")
        require(!(cookie.name + cookie.value).utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F },
                "a cookie with a control byte: \(shown(cookie.name))")
        require(cookie.path.utf8.first == UInt8(ascii: "/"), "a cookie path not starting with /: \(shown(cookie.path))")
        require(cookie.domain == jar.host || jar.host.hasSuffix("." + cookie.domain),
                "a cookie for a domain the site is not in: \(shown(cookie.domain))")
        require(jar.secureOrigin || !cookie.secure, "a Secure cookie on an http site")
        require(cookie.expires.map { $0 > now } ?? true, "an expired cookie kept")
    }
}

private func checkHeader(_ jar: CookieJar, _ path: String) {
    let expected = jar.cookies.filter { CookieJar.pathMatches($0.path, path) && (!$0.secure || jar.secureOrigin) }
    guard let header = jar.headerValue(forPath: path, now: now) else {
        require(expected.isEmpty, "no Cookie header for \(path) although cookies match it")
        return
    }
    require(HeaderSafety.problem(name: "Cookie", value: header) == nil, "the Cookie header is refused: \(shown(header))")
    // Bytes, not Characters: a combining mark after the space of "; " would make one Character
    // with it, and dropping that would drop the mark too.
    let pairs = header.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).enumerated().map {
        index, part -> String in
        String(decoding: index == 0 ? part : part.dropFirst(), as: UTF8.self)   // "; " between pairs
    }
    require(pairs.count == expected.count, "the Cookie header for \(path) does not hold the matching cookies")
    require(Set(pairs) == Set(expected.map { "\($0.name)=\($0.value)" }),
            "the Cookie header for \(path) does not parse back: \(shown(header))")
    // RFC 6265 §5.4: longer paths first, equal paths in the order stored. Compared as pairs, not by
    // looking a pair's path up: two cookies can share name and value under different paths.
    let ordered = expected.enumerated().sorted { a, b in
        a.element.path.utf8.count != b.element.path.utf8.count
            ? a.element.path.utf8.count > b.element.path.utf8.count : a.offset < b.offset
    }.map { "\($0.element.name)=\($0.element.value)" }
    require(pairs == ordered, "longer paths do not come first: \(shown(header))")
}

private func checkProbes(_ jar: CookieJar) {
    let name = jar.cookies.first?.name ?? "SSESSprobe"
    var probe = jar
    probe.store(setCookieHeaders: ["\(name)=v2; Path=/; HttpOnly"], requestPath: "/x", now: now)
    let untouched = jar.cookies.filter { !($0.name == name && $0.domain == jar.host && $0.path == "/") }
    require(probe.cookies.filter { !($0.name == name && $0.domain == jar.host && $0.path == "/") } == untouched,
            "storing \(shown(name)) for / changed other cookies")
    require(probe.cookies.last.map { $0.name == name && $0.value == "v2" && $0.path == "/" } == true
            || probe.cookies.count == CookieJar.maxCookies, "\(shown(name))=v2 was not stored last")
    for deletion in ["\(name)=; Max-Age=0; Path=/", "\(name)=x; Path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT",
                     "\(name)=x; Path=/; max-age=-1"] {
        var deleted = probe
        deleted.store(setCookieHeaders: [deletion], requestPath: "/x", now: now)
        require(deleted.cookies == untouched, "\(shown(deletion)) did not delete exactly \(shown(name)) for /")
    }
}
