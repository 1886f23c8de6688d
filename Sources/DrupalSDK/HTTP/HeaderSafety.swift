/// Which headers a caller may send: names that are HTTP tokens, values without control
/// characters other than a horizontal tab (CR or LF could smuggle a second header; RFC 9110
/// allows no other, and a server such as Apache answers them with a bare 400), and none of the
/// headers that frame the request, which the library writes itself (a caller's Content-Length or
/// Transfer-Encoding could make the server read a second request from the same connection).
enum HeaderSafety {
    /// The headers only the library may set.
    static let framingHeaders = ["Content-Length", "Transfer-Encoding", "Host", "Connection", "Upgrade", "TE",
                                 "Trailer", "Keep-Alive", "Proxy-Connection"]

    /// What is wrong with a header, or nil. Never quotes the value: it may be a secret.
    static func problem(name: String, value: String) -> String? {
        let tokenBytes = name.utf8
        if tokenBytes.isEmpty || !tokenBytes.allSatisfy(isTokenByte) {
            return "invalid header name \"\(printable(name))\": not an HTTP token"
        }
        if hasControlCharacter(value) {
            return "the value of header \(name) contains a control character (CR, LF, NUL or another; only a tab is allowed)"
        }
        // Compared without allocating: this runs for every header of every request.
        if framingHeaders.contains(where: { $0.utf8.count == tokenBytes.count && $0.caseInsensitiveEquals(name) }) {
            return "header \(name) frames the request and is set by the library; it cannot be given"
        }
        return nil
    }

    /// Whether a field value holds a control byte other than a tab (RFC 9110 allows none; RFC
    /// 6265bis ignores a Set-Cookie with one).
    static func hasControlCharacter(_ value: some StringProtocol) -> Bool {
        value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }

    /// Whether a token (a CSRF or logout token from the server, a caller's Bearer token) can go
    /// into a header or a query as it is: not empty, printable ASCII without spaces.
    static func isPlainToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// A header name fit for an error message: at most 64 characters, control characters escaped.
    private static func printable(_ name: String) -> String {
        let text = String(String.UnicodeScalarView(name.unicodeScalars.prefix(64))).escapingControlCharacters()
        return name.unicodeScalars.count > 64 ? text + "..." : text
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }
}
