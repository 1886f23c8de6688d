// libFuzzer target: the cookie jar (CookieJar.store(setCookieHeaders:), headerValue, hasSession).
//
// The input is cut at 0xFF bytes into up to 12 Set-Cookie values, each as libcurl can hand it
// over (cut at the first LF or NUL, which libcurl never passes inside a header line, and trimmed
// like a received header value); the first half is stored, then the second. Asserted, beyond no
// crash:
//  - names are unique and non-empty, without "=" or ";"; values have no ";";
//  - headerValue is nil exactly when the jar is empty, else "name=value" of every cookie joined
//    by "; ", and it parses back into the same cookies;
//  - hasSession only with a SESS.../SSESS... cookie, and always with an ASCII-named one;
//  - a cookie whose name appears nowhere in a batch keeps its value;
//  - storing the same batch again changes no cookie (the jar is the same set of pairs);
//  - "N=v; Path=/" stores (N, v) last, and "N=; Max-Age=0", "N=x; expires=... 1970 ...",
//    "N=deleted" each remove N, leaving every other cookie as it was; removeAll empties the jar.
// With rfc6265 on, as the RFC 6265 jar must do and today's does not (see README, "Findings"):
//  - ";" and "=" count as bytes: today they count as Characters, so a combining mark after them
//    hides them ("a=deleted;\u{6DA}x" keeps the value "deleted;\u{6DA}x", and the Cookie header
//    then carries a second cookie);
//  - no cookie holds a control byte (RFC 6265bis 5.6 ignores such a Set-Cookie), so the Cookie
//    header always passes HeaderSafety: today "a=b\rX: 1" (libcurl passes a bare CR inside a
//    line) is kept, and every later request of the client is refused ("header Cookie contains
//    CR, LF or NUL").
@testable import DrupalSDK

private let rfc6265 = false

// The jar's API as of today: the RFC 6265 rewrite (domain, path, redirects) changes these lines.
private typealias Cookie = (name: String, value: String)
private func store(_ jar: inout CookieJar, _ headers: [String]) { jar.store(setCookieHeaders: headers) }
private func cookieHeader(_ jar: CookieJar) -> String? { jar.headerValue }
private func cookies(_ jar: CookieJar) -> [Cookie] { jar.cookies }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookieJar(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let headers = FuzzInput(data, size).pieces(limit: 12).map(asReceived)
    let half = (headers.count + 1) / 2
    var jar = CookieJar()
    for batch in [Array(headers[..<half]), Array(headers[half...])] {
        let before = cookies(jar)
        store(&jar, batch)
        checkInvariants(jar)
        checkUntouched(before, cookies(jar), batch)
        var again = jar
        store(&again, batch)
        require(Set(cookies(again).map { "\($0.name)=\($0.value)" }) == Set(cookies(jar).map { "\($0.name)=\($0.value)" }),
                "storing the same Set-Cookie headers again changed the jar: \(batch.map(shown))")
    }
    checkProbes(jar)
    jar.removeAll()
    require(jar.isEmpty && cookieHeader(jar) == nil && !jar.hasSession, "removeAll leaves cookies")
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
    let held = cookies(jar)
    let names = held.map(\.name)
    require(Set(names).count == names.count, "two cookies with one name: \(names.map(shown))")
    for (name, value) in held {
        require(!name.isEmpty, "a cookie without a name")
        if rfc6265 {
            require(!name.utf8.contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ";") },
                    "a cookie name that holds = or ;: \(shown(name))")
            require(!value.utf8.contains(UInt8(ascii: ";")), "a cookie value with ;: \(shown(value))")
            require(!(name + value).utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F },
                    "a cookie with a control byte: \(shown(name))=\(shown(value))")
        } else {
            require(!name.contains("=") && !name.contains(";") && !value.contains(";"),
                    "a cookie holds = or ; as a Character: \(shown(name))=\(shown(value))")
        }
    }
    guard let header = cookieHeader(jar) else {
        require(held.isEmpty && jar.isEmpty, "no Cookie header although cookies are held")
        require(!jar.hasSession, "hasSession without cookies")
        return
    }
    require(!held.isEmpty && !jar.isEmpty, "a Cookie header from an empty jar")
    require(header == held.map { "\($0.name)=\($0.value)" }.joined(separator: "; "), "the Cookie header is not the cookies")
    let parsed = splitPairs(Array(header.utf8)).map { pair -> Cookie in
        guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return (pair.text, "") }
        return (Array(pair[..<equals]).text, Array(pair[(equals + 1)...]).text)
    }
    // (Today a name can hold "=" and a value ";" as bytes; such a header cannot parse back.)
    let splittable = rfc6265 || !held.contains {
        $0.name.utf8.contains { $0 == 0x3B || $0 == 0x3D } || $0.value.utf8.contains(0x3B)
    }
    require(!splittable || parsed.elementsEqual(held) { $0.name == $1.name && $0.value == $1.value },
            "the Cookie header does not parse back: \(shown(header))")
    let sessionNamed = held.filter { $0.name.utf8.starts(with: "SESS".utf8) || $0.name.utf8.starts(with: "SSESS".utf8) }
    if jar.hasSession { require(!sessionNamed.isEmpty, "hasSession without a SESS cookie: \(names.map(shown))") }
    if sessionNamed.contains(where: { $0.name.utf8.allSatisfy { $0 < 0x80 } }) {
        require(jar.hasSession, "hasSession is false with a SESS cookie: \(names.map(shown))")
    }
    if rfc6265 {
        require(HeaderSafety.problem(name: "Cookie", value: header) == nil, "the Cookie header is refused: \(shown(header))")
    }
}

/// A Cookie header's bytes cut at every "; ".
private func splitPairs(_ bytes: [UInt8]) -> [[UInt8]] {
    var pairs: [[UInt8]] = [], current: [UInt8] = [], index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: ";"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: " ") {
            pairs.append(current)
            current = []
            index += 2
        } else {
            current.append(bytes[index])
            index += 1
        }
    }
    return pairs + [current]
}

private func checkUntouched(_ before: [Cookie], _ after: [Cookie], _ batch: [String]) {
    for (name, value) in before where !batch.contains(where: { $0.utf8.firstRange(of: name.utf8) != nil }) {
        require(after.contains { $0.name == name && $0.value == value },
                "\(shown(name)), named nowhere in \(batch.map(shown)), lost its value")
    }
}

private func checkProbes(_ jar: CookieJar) {
    let name = cookies(jar).first?.name ?? "SSESSprobe"
    let others = cookies(jar).filter { $0.name != name }
    var probe = jar
    store(&probe, ["\(name)=v2; Path=/; HttpOnly"])
    require(cookies(probe).last.map { $0.name == name && $0.value == "v2" } == true, "\(shown(name))=v2 was not stored last")
    require(cookies(probe).dropLast().elementsEqual(others) { $0.name == $1.name && $0.value == $1.value },
            "storing \(shown(name)) changed other cookies")
    checkInvariants(probe)
    for deletion in ["\(name)=; Max-Age=0", "\(name)=x; expires=Thu, 01 Jan 1970 00:00:00 GMT", "\(name)=deleted",
                     "\(name)=x; max-age=-1"] {
        var deleted = probe
        store(&deleted, [deletion])
        require(cookies(deleted).elementsEqual(others) { $0.name == $1.name && $0.value == $1.value },
                "\(shown(deletion)) did not delete exactly \(shown(name))")
    }
}
