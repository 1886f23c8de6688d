/// Paths and query strings: percent-encoding, and the rule that a path can never leave the
/// base URL (no "..", no "//", no scheme, no CR/LF) — checked before anything is sent.
public enum PathSafety {
    /// Bytes that may appear unencoded in a path segment (RFC 3986 unreserved + sub-delims we keep).
    static func isUnreservedByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): return true
        default: return false
        }
    }

    static func percentEncode(_ text: String, keep: (UInt8) -> Bool = isUnreservedByte) -> String {
        // Most ids, names and values need no escaping at all: keep the string as it is.
        if text.utf8AllSatisfy(keep) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return result
    }

    /// application/x-www-form-urlencoded text: every byte but the unreserved ones escaped.
    static func formEncode(_ text: String) -> String { percentEncode(text) }

    /// Encodes one path segment (an id): "/" is encoded too, and "." / ".." are refused.
    public static func encodeSegment(_ segment: String) throws -> String {
        if segment == "." || segment == ".." {
            throw DrupalError.invalidArgument("path segment \"\(segment)\" would leave the resource")
        }
        try rejectControlCharacters(segment, what: "path segment")
        return percentEncode(segment)
    }

    /// Checks a caller-given path ("/api/articles", "node/1") and returns it absolute and encoded.
    /// Bytes outside the safe set are percent-encoded; existing %XX escapes are kept.
    public static func normalizePath(_ path: String) throws -> String {
        if isPlainAbsolutePath(path) { return path }
        try rejectControlCharacters(path, what: "path")
        // Every check is on the UTF-8 bytes that are sent, not on Characters: "/" followed by a
        // combining mark is one Character, so a Character split would not see that "/" (and
        // "/a/../\u{301}b" would pass with its ".." segment).
        let bytes = path.utf8
        if bytes.contains(UInt8(ascii: "?")) || bytes.contains(UInt8(ascii: "#")) {
            throw DrupalError.invalidArgument("the path \"\(shownURL(path))\" contains '?' or '#' "
                                              + "where only a path is taken")
        }
        if bytes.firstRange(of: "://".utf8) != nil || bytes.starts(with: "//".utf8) || bytes.contains(UInt8(ascii: "\\")) {
            throw DrupalError.invalidArgument("the path \"\(shownURL(path))\" must be relative to the site's base URL")
        }
        let absolute = bytes.first == UInt8(ascii: "/") ? path : "/" + path
        let segments = absolute.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let decoded = percentDecodedBytes(segment)
            if decoded.elementsEqual(".".utf8) || decoded.elementsEqual("..".utf8) {
                throw DrupalError.invalidArgument("the path \"\(path)\" contains a \"\(String(decoding: decoded, as: UTF8.self))\" "
                                                  + "segment")
            }
            if decoded.contains(UInt8(ascii: "/")) || decoded.contains(UInt8(ascii: "\\")) {
                throw DrupalError.invalidArgument("the path \"\(path)\" contains an encoded slash")
            }
            if segment.isEmpty && index < segments.count - 1 {
                throw DrupalError.invalidArgument("the path \"\(path)\" contains an empty segment (\"//\")")
            }
        }
        return percentEncode(absolute) { byte in
            isUnreservedByte(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "%")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "=")
        }
    }

    /// Splits what a caller may give as a request target: a path under the base URL ("/node/1"),
    /// with a query string ("/node?page=1"), or an absolute URL under the base URL (what JSON:API's
    /// `links.next` hands out). Returns the path, checked and encoded as `normalizePath` does, and
    /// the query string (without "?") with unsafe bytes percent-encoded; a fragment is dropped.
    /// Throws `.invalidArgument` for an absolute URL that is not under `baseURL` (nil: not checked,
    /// for callers that check a target before the client sends it) and for anything
    /// `normalizePath` refuses.
    public static func normalizeTarget(_ target: String, baseURL: String?) throws -> (path: String, query: String?) {
        if isPlainAbsolutePath(target) { return (target, nil) }
        if target.isEmpty { throw DrupalError.invalidArgument("the path is empty") }
        try rejectControlCharacters(target, what: "path")
        var rest = Substring(target)
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        if isAbsoluteURL(rest) {
            if let baseURL {
                guard let relative = relativePart(of: rest, under: baseURL) else {
                    throw DrupalError.invalidArgument("the URL \"\(shownURL(rest))\" is not under the site's "
                                                      + "base URL")
                }
                rest = relative
            } else if let scheme = rest.utf8.firstRange(of: "://".utf8) {
                // Checked against the base URL when sent; here only the rest of it is checked.
                let afterScheme = rest[scheme.upperBound...]
                rest = afterScheme.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
                    .map { afterScheme[$0...] } ?? ""
            }
        }
        var query: String?
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = percentEncode(String(rest[rest.utf8.index(after: mark)...]), keep: isQueryByte)
            rest = rest[..<mark]
        }
        let path = try normalizePath(rest.isEmpty ? "/" : String(rest))
        return (path, query?.isEmpty == true ? nil : query)
    }

    /// Whether the absolute `url` is under `baseURL` (what `normalizeTarget` accepts).
    static func isUnder(_ url: String, baseURL: String) -> Bool {
        var rest = Substring(url)
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        return relativePart(of: rest, under: baseURL) != nil
    }

    /// Whether `text` starts with http:// or https://, ASCII case-insensitively.
    static func isAbsoluteURL(_ text: Substring) -> Bool {
        // On the bytes, ASCII case folded: "https:/" + "/\u{301}" is not "https://" to Characters.
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        return text.utf8.starts(with: "http://".utf8) { lower($0) == $1 }
            || text.utf8.starts(with: "https://".utf8) { lower($0) == $1 }
    }

    /// The part of `url` after `baseURL` ("/jsonapi/node/article?page..." of
    /// "https://site/jsonapi/node/article?page..."), or nil when `url` is not under it. Scheme and
    /// host compare without regard to case; the base path must end at a "/" or "?" of `url`.
    private static func relativePart(of url: Substring, under baseURL: String) -> Substring? {
        let base = baseURL.utf8.count
        guard url.utf8.count >= base else { return nil }
        let head = url.utf8.prefix(base)
        guard let schemeEnd = baseURL.utf8.firstRange(of: "://".utf8) else { return nil }
        let authorityEnd = baseURL.utf8[schemeEnd.upperBound...].firstIndex(of: UInt8(ascii: "/")) ?? baseURL.endIndex
        let caseless = baseURL.utf8.distance(from: baseURL.startIndex, to: authorityEnd)
        guard String(decoding: head.prefix(caseless), as: UTF8.self).lowercased()
                == String(baseURL[..<authorityEnd]).lowercased(),
              head.dropFirst(caseless).elementsEqual(baseURL.utf8.dropFirst(caseless))
        else { return nil }
        let rest = url[url.utf8.index(url.startIndex, offsetBy: base)...]
        guard rest.isEmpty || rest.utf8.first == UInt8(ascii: "/") || rest.utf8.first == UInt8(ascii: "?") else { return nil }
        return rest
    }

    /// Bytes kept as they are in a caller's query string: what RFC 3986 allows there, plus "%"
    /// (existing escapes) and the brackets PHP array keys use.
    private static func isQueryByte(_ byte: UInt8) -> Bool {
        if isUnreservedByte(byte) { return true }
        switch byte {
        case UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: ","),
             UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }

    /// A URL or path for an error message: without its query, fragment and user info (found on
    /// the bytes, like every check here), which may hold secrets.
    static func shownURL<Text: StringProtocol>(_ url: Text) -> String {
        var bytes = Array(url.utf8)
        if let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            bytes = Array(bytes[..<end]) + Array("?...".utf8)
        }
        if let userinfo = userinfoRange(bytes) { bytes.replaceSubrange(userinfo, with: Array("...@".utf8)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Where a URL's user info ("user:password@") is, "@" included; nil when it has none.
    static func userinfoRange(_ bytes: [UInt8]) -> Range<Int>? {
        // The authority starts after "://" (also one inside a path: "x/https://user:pw@host"),
        // after a leading "//", or at the start (a proxy given without a scheme,
        // "user:pw@host:3128", which libcurl takes).
        var authorityStart = 0
        if let separator = bytes.firstRange(of: "://".utf8) {
            authorityStart = separator.upperBound
        } else if bytes.starts(with: "//".utf8) {
            authorityStart = 2
        }
        let authorityEnd = bytes[authorityStart...].firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        } ?? bytes.endIndex
        guard let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else { return nil }
        return authorityStart..<(at + 1)
    }

    /// The common case, checked in one pass: "/" followed by segments of unreserved bytes, none
    /// empty, "." or "..". Such a path needs no encoding and cannot leave the base URL.
    static func isPlainAbsolutePath(_ path: String) -> Bool {
        path.withUTF8Bytes { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            var segmentLength = 0
            var segmentIsDots = true
            // An index loop: iterating `dropFirst()` (a slice) cost 40% more, for every request.
            for index in 1..<bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/") {
                    if segmentLength == 0 || (segmentIsDots && segmentLength <= 2) { return false }
                    segmentLength = 0
                    segmentIsDots = true
                } else {
                    guard isUnreservedByte(byte) else { return false }
                    segmentLength += 1
                    if byte != UInt8(ascii: ".") { segmentIsDots = false }
                }
            }
            return !(segmentIsDots && segmentLength > 0 && segmentLength <= 2)
        }
    }

    /// Appends `separator` and `key=value`, then `&key=value` for the rest.
    static func appendQuery(_ items: [(String, String)], to text: inout String, separator: String) {
        var separator = separator
        for (key, value) in items {
            appendQueryItem(key, value, to: &text, separator: separator)
            separator = "&"
        }
    }

    /// Appends `separator` and `key=value`, both sides encoded (brackets kept readable in keys,
    /// for PHP array keys).
    static func appendQueryItem(_ key: String, _ value: String, to text: inout String, separator: String) {
        text += separator
        text += percentEncode(key) { isUnreservedByte($0) || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }
        text += "="
        text += percentEncode(value)
    }

    /// A query value is percent-encoded, so it carries any character a caller's data holds (a
    /// title with a tab or a line break) but NUL, which no C caller can give.
    static func rejectNUL(_ text: String, what: String) throws {
        if !text.utf8AllSatisfy({ $0 != 0 }) { throw DrupalError.invalidArgument("the \(what) contains a NUL") }
    }

    static func rejectControlCharacters(_ text: String, what: String) throws {
        if !text.utf8AllSatisfy({ $0 >= 0x20 && $0 != 0x7F }) {
            throw DrupalError.invalidArgument("the \(what) contains control characters (CR, LF, NUL...)")
        }
    }

    /// %XX escapes (two hex digits) decoded; anything else kept as it is.
    static func percentDecodedBytes<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8] {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: return byte - 0x30
            case 0x41...0x46: return byte - 0x41 + 10
            case 0x61...0x66: return byte - 0x61 + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        var rest = text[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2, let high = hex(rest[rest.startIndex]),
               let low = hex(rest[rest.index(after: rest.startIndex)]) {
                bytes.append(high << 4 | low)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    static func percentDecode(_ text: String) -> String {
        if text.utf8AllSatisfy({ $0 != UInt8(ascii: "%") }) { return text }
        return String(decoding: percentDecodedBytes(text.utf8), as: UTF8.self)
    }

    /// The same for bytes split off a URL (a query key or value, a segment).
    static func percentDecode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if !bytes.contains(UInt8(ascii: "%")) { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: percentDecodedBytes(bytes), as: UTF8.self)
    }

    /// The name-value pairs of a query string (without "?"), in order, decoded as PHP and forms
    /// decode them: "+" is a space, %XX escapes; a pair without "=" has an empty value.
    static func formDecodedPairs(_ query: Substring) -> [(String, String)] {
        func decode(_ bytes: Substring.UTF8View.SubSequence) -> String {
            PathSafety.percentDecode(bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 })
        }
        return query.utf8.split(separator: UInt8(ascii: "&")).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return (decode(pair), "") }
            return (decode(pair[..<equals]), decode(pair[pair.index(after: equals)...]))
        }
    }

    /// Checks a base URL: http(s), a host, no query, fragment, or credentials.
    /// Errors quote the URL without its query, fragment or user info: they may hold secrets.
    public static func normalizeBaseURL(_ baseURL: String) throws -> String {
        try rejectControlCharacters(baseURL, what: "base URL")
        let shown = shownURL(baseURL)
        let lower = baseURL.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw DrupalError.invalidArgument("the base URL \"\(shown)\" must start with http:// or https://")
        }
        // On the bytes, as in normalizePath: a combining mark after "@" or "?" must not hide it.
        let bytes = baseURL.utf8
        let afterScheme = bytes.drop { $0 != UInt8(ascii: ":") }.dropFirst(3)
        let authority = afterScheme.prefix { $0 != UInt8(ascii: "/") }
        if authority.isEmpty { throw DrupalError.invalidArgument("the base URL \"\(shown)\" has no host") }
        if authority.contains(UInt8(ascii: "@")) {
            throw DrupalError.invalidArgument("the base URL must not carry credentials; use Basic authentication")
        }
        if bytes.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: " ") }) {
            throw DrupalError.invalidArgument("the base URL \"\(shown)\" must not have a query, fragment or spaces")
        }
        // Browsers read a backslash as "/" and libcurl does not, so the two disagree on the host.
        if bytes.contains(UInt8(ascii: "\\")) {
            throw DrupalError.invalidArgument("the base URL \"\(shown)\" must not contain a backslash")
        }
        var end = bytes.endIndex
        while bytes[bytes.index(before: end)] == UInt8(ascii: "/") { end = bytes.index(before: end) }
        return String(baseURL[..<end])
    }
}
