/// Paths and query strings: percent-encoding, and the rule that a path can never leave the
/// base URL (no "..", no "//", no scheme, no CR/LF) — checked before anything is sent.
public enum PathSafety {
    /// Bytes that may appear unencoded in a path segment (RFC 3986 unreserved + sub-delims we keep).
    private static func isUnreservedByte(_ byte: UInt8) -> Bool {
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

    /// Encodes one path segment (an id): "/" is encoded too, and "." / ".." are refused.
    public static func encodeSegment(_ segment: String) throws -> String {
        if segment == "." || segment == ".." {
            throw DrupalError.invalidArgument("path segment \"\(segment)\" would leave the resource")
        }
        try rejectControlCharacters(segment, what: "path segment")
        return percentEncode(segment)
    }

    /// A segment that needs no encoding and stays inside its resource: unreserved bytes only,
    /// not empty, "." or "..".
    static func isPlainSegment(_ segment: String) -> Bool {
        !segment.isEmpty && segment != "." && segment != ".." && segment.utf8AllSatisfy(isUnreservedByte)
    }

    /// Checks a caller-given path ("/api/articles", "node/1") and returns it absolute and encoded.
    /// Bytes outside the safe set are percent-encoded; existing %XX escapes are kept.
    public static func normalizePath(_ path: String) throws -> String {
        if isPlainAbsolutePath(path) { return path }
        try rejectControlCharacters(path, what: "path")
        if path.contains("?") || path.contains("#") {
            throw DrupalError.invalidArgument("the path \"\(path)\" contains '?' or '#': pass query items separately")
        }
        if path.contains("://") || path.hasPrefix("//") || path.contains("\\") {
            throw DrupalError.invalidArgument("the path \"\(path)\" must be relative to the site's base URL")
        }
        let absolute = path.hasPrefix("/") ? path : "/" + path
        let segments = absolute.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let decoded = percentDecode(String(segment))
            if decoded == "." || decoded == ".." {
                throw DrupalError.invalidArgument("the path \"\(path)\" contains a \"\(decoded)\" segment")
            }
            if decoded.contains("/") || decoded.contains("\\") {
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

    /// The common case, checked in one pass: "/" followed by segments of unreserved bytes, none
    /// empty, "." or "..". Such a path needs no encoding and cannot leave the base URL.
    static func isPlainAbsolutePath(_ path: String) -> Bool {
        path.withUTF8Bytes { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            var segmentLength = 0
            var segmentIsDots = true
            for byte in bytes.dropFirst() {
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

    /// `key=value&...` with both sides encoded (brackets kept readable for PHP array keys).
    public static func queryString(_ items: [(String, String)]) -> String {
        var query = ""
        appendQuery(items, to: &query, separator: "")
        return query
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

    static func rejectControlCharacters(_ text: String, what: String) throws {
        if !text.utf8AllSatisfy({ $0 >= 0x20 && $0 != 0x7F }) {
            throw DrupalError.invalidArgument("the \(what) contains control characters (CR, LF, NUL...)")
        }
    }

    static func percentDecode(_ text: String) -> String {
        if text.utf8AllSatisfy({ $0 != UInt8(ascii: "%") }) { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
               let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Checks a base URL: http(s), a host, no query, fragment, or credentials.
    public static func normalizeBaseURL(_ baseURL: String) throws -> String {
        try rejectControlCharacters(baseURL, what: "base URL")
        let lower = baseURL.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw DrupalError.invalidArgument("the base URL \"\(baseURL)\" must start with http:// or https://")
        }
        let afterScheme = baseURL[baseURL.index(baseURL.firstIndex(of: ":")!, offsetBy: 3)...]
        let authority = afterScheme.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if authority.isEmpty { throw DrupalError.invalidArgument("the base URL \"\(baseURL)\" has no host") }
        if authority.contains("@") {
            throw DrupalError.invalidArgument("the base URL must not carry credentials; use Basic authentication")
        }
        if baseURL.contains("?") || baseURL.contains("#") || baseURL.contains(" ") {
            throw DrupalError.invalidArgument("the base URL \"\(baseURL)\" must not have a query, fragment or spaces")
        }
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }
}
