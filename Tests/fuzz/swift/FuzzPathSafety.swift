// libFuzzer target: PathSafety (normalizePath, normalizeTarget, normalizeBaseURL, encodeSegment)
// and URLParts (the origin that decides where credentials go).
//
// The input is cut at the first 0xFF byte into a base URL candidate and a path/target candidate;
// every function runs on both pieces. Asserted, beyond no crash:
//  - anything with a control byte (< 0x20, DEL) is refused by every function;
//  - a normalized path starts with "/", is ASCII from the path set, has no "//", no "?", "#", "\",
//    no "://" (scheme), no segment that is "." or ".." or decodes to one or holds an encoded
//    slash or backslash (decoded the strict RFC 3986 way), and normalizing it again changes nothing;
//  - an encoded segment is unreserved bytes and %XX only (so no "/"), and decodes to the input;
//  - a normalized base URL is http(s)://host[...] without credentials, query, fragment, spaces or a
//    trailing "/", and normalizing it again changes nothing;
//  - a normalized target is never off-site: base URL + path (+ "?" + query) has the base URL's
//    authority and starts with the base URL followed by "/"; an absolute http(s) target is only
//    accepted when its scheme and authority are the base URL's (case-insensitively) and its
//    path is under the base URL's path; the query is ASCII without spaces, "#" or control bytes;
//  - URLParts reads the host, port and path libcurl reads: the authority ends at the first "/",
//    "?" or "#" byte and the host follows its last "@" (compared with a byte parse of its own).
import Glibc
@testable import DrupalSDK

private let fallbackBase = "https://example.com/drupal"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPathSafety(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let pieces = FuzzInput(data, size).pieces(limit: 2)
    let texts = pieces.map(\.text)
    for text in texts {
        checkPath(text)
        checkSegment(text)
        checkBaseURL(text)
        checkURLParts(text)
    }
    let base = (try? PathSafety.normalizeBaseURL(texts[0])) ?? fallbackBase
    let target = texts.count > 1 ? texts[1] : texts[0]
    checkTarget(target, base: base)
    checkTarget(target, base: nil)
    return 0
}

private func hasControlByte(_ text: String) -> Bool { text.utf8.contains { $0 < 0x20 || $0 == 0x7F } }

private func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
         UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        return true
    default:
        return false
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    default: return nil
    }
}

/// RFC 3986 percent-decoding: "%" and exactly two hex digits; anything else stays as it is.
private func strictDecode<S: Collection>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
    let bytes = Array(bytes)
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
        if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
           let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
            out.append(high << 4 | low)
            i += 3
        } else {
            out.append(bytes[i])
            i += 1
        }
    }
    return out
}

private func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
    let n = Array(needle.utf8)
    guard bytes.count >= n.count else { return false }
    return (0...(bytes.count - n.count)).contains { Array(bytes[$0..<($0 + n.count)]) == n }
}

/// What every path the library sends must be.
private func requireSafePath(_ path: String, from input: String) {
    let bytes = Array(path.utf8)
    let pathBytes: Set<UInt8> = Set("/%:@+,;=".utf8)
    require(bytes.first == UInt8(ascii: "/"), "a normalized path does not start with /: \(shown(path)) from \(shown(input))")
    require(bytes.allSatisfy { isUnreserved($0) || pathBytes.contains($0) },
            "a normalized path has a byte outside the path set: \(shown(path)) from \(shown(input))")
    require(!contains(bytes, "//"), "a normalized path has //: \(shown(path)) from \(shown(input))")
    require(!contains(bytes, "://"), "a normalized path has a scheme: \(shown(path)) from \(shown(input))")
    for segment in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
        let decoded = strictDecode(segment)
        require(decoded != Array(".".utf8) && decoded != Array("..".utf8),
                "a normalized path has a dot segment: \(shown(path)) from \(shown(input))")
        require(!decoded.contains(UInt8(ascii: "/")) && !decoded.contains(UInt8(ascii: "\\")),
                "a normalized path has an encoded slash: \(shown(path)) from \(shown(input))")
    }
}

private func checkPath(_ input: String) {
    guard let path = try? PathSafety.normalizePath(input) else { return }
    require(!hasControlByte(input), "normalizePath accepts a control byte: \(shown(input))")
    requireSafePath(path, from: input)
    require((try? PathSafety.normalizePath(path)) == path, "normalizePath is not idempotent: \(shown(input))")
}

private func checkSegment(_ input: String) {
    guard let segment = try? PathSafety.encodeSegment(input) else {
        require(input == "." || input == ".." || hasControlByte(input),
                "encodeSegment refuses a segment it could encode: \(shown(input))")
        return
    }
    require(input != "." && input != ".." && !hasControlByte(input), "encodeSegment accepts \(shown(input))")
    let bytes = Array(segment.utf8)
    var i = 0
    while i < bytes.count {
        if bytes[i] == UInt8(ascii: "%") {
            require(i + 2 < bytes.count && hexValue(bytes[i + 1]) != nil && hexValue(bytes[i + 2]) != nil,
                    "encodeSegment writes a broken escape: \(shown(segment))")
            i += 3
        } else {
            require(isUnreserved(bytes[i]), "encodeSegment keeps an unsafe byte: \(shown(segment)) from \(shown(input))")
            i += 1
        }
    }
    require(strictDecode(bytes) == Array(input.utf8), "encodeSegment does not decode back: \(shown(input))")
}

/// "scheme://authority" of a URL, the authority ending at "/", "\", "?" or "#" (WHATWG's rule for
/// http(s), which also ends it at a backslash), or nil without "://".
private func origin(_ url: [UInt8]) -> (scheme: [UInt8], authority: [UInt8])? {
    guard let colon = url.firstIndex(of: UInt8(ascii: ":")), url.count >= colon + 3,
          url[colon + 1] == UInt8(ascii: "/"), url[colon + 2] == UInt8(ascii: "/") else { return nil }
    let rest = url[(colon + 3)...]
    let end = rest.firstIndex { "/\\?#".utf8.contains($0) } ?? rest.endIndex
    return (Array(url[..<colon]), Array(rest[..<end]))
}

private func checkBaseURL(_ input: String) {
    guard let base = try? PathSafety.normalizeBaseURL(input) else { return }
    require(!hasControlByte(input), "normalizeBaseURL accepts a control byte: \(shown(input))")
    let lower = asciiLowercased(base)
    require(lower.starts(with: Array("http://".utf8)) || lower.starts(with: Array("https://".utf8)),
            "a base URL that is not http(s): \(shown(base))")
    guard let (_, authority) = origin(Array(base.utf8)) else {
        require(false, "a base URL without an authority: \(shown(base))")
        return
    }
    require(!authority.isEmpty && !authority.contains(UInt8(ascii: "@")),
            "a base URL with an empty authority or credentials: \(shown(base))")
    require(!base.utf8.contains { "?# ".utf8.contains($0) } && base.utf8.last != UInt8(ascii: "/"),
            "a base URL with a query, fragment, space or trailing /: \(shown(base))")
    require((try? PathSafety.normalizeBaseURL(base)) == base, "normalizeBaseURL is not idempotent: \(shown(input))")
}

/// The host, port and path of an absolute URL, parsed on the bytes the way libcurl does, or nil when
/// it is not an http(s) URL with a host and a valid port.
private func curlOrigin(_ url: [UInt8]) -> (host: [UInt8], port: Int, path: [UInt8])? {
    guard let colon = url.firstIndex(of: UInt8(ascii: ":")), url.count >= colon + 3,
          url[colon + 1] == UInt8(ascii: "/"), url[colon + 2] == UInt8(ascii: "/") else { return nil }
    let rest = url[(colon + 3)...]
    let end = rest.firstIndex { "/?#".utf8.contains($0) } ?? rest.endIndex
    var authority = rest[..<end]
    if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
    let scheme = asciiLowercased(Array(url[..<colon]).text)
    var port = scheme == Array("https".utf8) ? 443 : 80
    var host = authority
    let portColon = authority.first == UInt8(ascii: "[")
        ? authority.firstIndex(of: UInt8(ascii: "]")).flatMap { authority[$0...].firstIndex(of: UInt8(ascii: ":")) }
        : authority.lastIndex(of: UInt8(ascii: ":"))
    if let portColon {
        let digits = authority[(portColon + 1)...]
        if !digits.isEmpty {
            guard digits.count <= 5, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let number = Int(Array(digits).text), (1...65535).contains(number) else { return nil }
            port = number
        }
        host = authority[..<portColon]
    }
    let afterAuthority = url[end...]
    let path = afterAuthority.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
    return host.isEmpty ? nil : (Array(host), port, path.isEmpty ? Array("/".utf8) : Array(path))
}

private func checkURLParts(_ input: String) {
    guard let parts = URLParts(input) else { return }
    let bytes = Array(input.utf8)
    guard let expected = curlOrigin(bytes) else {
        require(false, "URLParts reads an origin where libcurl would not: \(shown(input))")
        return
    }
    require(parts.host == Array(expected.host).text.lowercased() && parts.port == expected.port
                && Array(parts.path.utf8) == expected.path,
            "URLParts reads \(shown(parts.host)):\(parts.port) \(shown(parts.path)) where libcurl reads "
                + "\(shown(expected.host.text)):\(expected.port) from \(shown(input))")
}

private func checkTarget(_ target: String, base: String?) {
    guard let (path, query) = try? PathSafety.normalizeTarget(target, baseURL: base) else { return }
    require(!hasControlByte(target), "normalizeTarget accepts a control byte: \(shown(target))")
    requireSafePath(path, from: target)
    if let query {
        require(!query.isEmpty, "normalizeTarget gives an empty query: \(shown(target))")
        require(query.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") },
                "normalizeTarget's query has a space, # or non-ASCII byte: \(shown(query)) from \(shown(target))")
    }
    // Nothing is lost: the path and query decode to what the target said (up to a "#").
    let targetBytes = Array(target.utf8)
    let beforeFragment = targetBytes.prefix { $0 != UInt8(ascii: "#") }
    let mark = beforeFragment.firstIndex(of: UInt8(ascii: "?"))
    let givenQuery = mark.map { Array(beforeFragment[($0 + 1)...]) } ?? []
    require(strictDecode(Array((query ?? "").utf8)) == strictDecode(givenQuery),
            "normalizeTarget's query decodes to something else: \(shown(query ?? "")) from \(shown(target))")
    // The path is the target's own (made absolute), or the end of an absolute target's.
    let given = strictDecode(beforeFragment[..<(mark ?? beforeFragment.endIndex)])
    let decodedPath = strictDecode(Array(path.utf8))
    require(given.reversed().starts(with: decodedPath.reversed()) || decodedPath == [UInt8(ascii: "/")] + given
                || decodedPath == [UInt8(ascii: "/")],
            "normalizeTarget's path is not the target's: \(shown(path)) from \(shown(target))")
    guard let base else { return }
    // What the client sends: base URL + path (+ "?" + query), as LiveSession.requestURL builds it.
    let url = Array((base + path + (query.map { "?" + $0 } ?? "")).utf8)
    let baseBytes = Array(base.utf8)
    require(url.starts(with: baseBytes + [UInt8(ascii: "/")]), "the request URL leaves the base URL: \(shown(target))")
    require(origin(url)?.authority == origin(baseBytes)?.authority,
            "the request URL has another authority: \(shown(target)) under \(shown(base))")
    // An absolute target must name the base URL's own origin and lie under its path.
    let lowerTarget = asciiLowercased(target)
    if lowerTarget.starts(with: Array("http://".utf8)) || lowerTarget.starts(with: Array("https://".utf8)) {
        let targetBytes = Array(target.utf8)
        guard let t = origin(targetBytes), let b = origin(baseBytes) else {
            require(false, "an absolute target without an origin was accepted: \(shown(target))")
            return
        }
        // Case-insensitively, as documented (the library folds case the Unicode way).
        require(t.scheme.text.lowercased() == b.scheme.text.lowercased()
                    && t.authority.text.lowercased() == b.authority.text.lowercased(),
                "an absolute target on another origin was accepted: \(shown(target)) under \(shown(base))")
        let basePath = baseBytes.dropFirst(b.scheme.count + 3 + b.authority.count)
        let targetPath = targetBytes.dropFirst(t.scheme.count + 3 + t.authority.count)
        require(targetPath.starts(with: basePath)
                    && (targetPath.count == basePath.count
                        || "/?#".utf8.contains(targetPath[targetPath.startIndex + basePath.count])),
                "an absolute target outside the base path was accepted: \(shown(target)) under \(shown(base))")
    }
}
