import FoundationEssentials

/// One request as the mock server sees it: method, the path under the site, the decoded query and
/// the raw headers and body. Parsed from the absolute URL the live client puts on the wire.
struct MockRequest {
    let method: String
    /// Scheme and authority, e.g. "http://drupal.mock": absolute URLs in answers are built on it.
    let origin: String
    /// The path as sent (still percent-encoded), without the query and without a trailing slash;
    /// for an alias, the system path it names (`routed(to:)`).
    private(set) var path: String
    /// The path as sent, which messages name even when it was an alias.
    let askedPath: String
    /// The language prefix the path came under ("/fr"), which `path` no longer has; "" for none.
    private(set) var languagePrefix = ""
    /// The query string as sent (after "?"), decoded by `query` when asked: a stubbed answer
    /// needs neither it nor `segments` (most stubs match on method and path alone).
    let rawQuery: String
    let headers: HTTPHeaders
    let body: Data?

    init(_ http: HTTPRequest) {
        // The client sends methods upper-case already: uppercased() only for a transport's caller
        // that does not (it allocates, on every mock call).
        method = http.method.utf8AllSatisfy({ $0 < 0x61 || $0 > 0x7A }) ? http.method : http.method.uppercased()
        headers = http.headers
        body = http.body
        // Split on bytes: every mock call parses the URL the client just built.
        let url = Array(http.url.utf8)
        func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        var pathStart = 0
        if let scheme = MockRequest.find([0x3A, 0x2F, 0x2F], in: url) {   // "://"
            let authorityStart = scheme + 3
            pathStart = url[authorityStart...].firstIndex(where: { $0 == 0x2F || $0 == 0x3F }) ?? url.endIndex
        }
        origin = text(url[..<pathStart])
        let queryMark = url[pathStart...].firstIndex(of: 0x3F) ?? url.endIndex
        var pathEnd = queryMark
        // Drupal ignores trailing slashes.
        while pathEnd - pathStart > 1 && url[pathEnd - 1] == 0x2F { pathEnd -= 1 }
        path = pathEnd > pathStart ? text(url[pathStart..<pathEnd]) : "/"
        askedPath = path
        rawQuery = queryMark < url.endIndex ? text(url[(queryMark + 1)...]) : ""
    }

    /// The same request routed to an alias's system path.
    func routed(to systemPath: String) -> MockRequest {
        var routed = self
        routed.path = systemPath
        return routed
    }

    /// The same request without its language's prefix (MockLanguages).
    func negotiated(prefix: String, path unprefixed: String) -> MockRequest {
        var negotiated = self
        negotiated.languagePrefix = prefix
        negotiated.path = unprefixed
        return negotiated
    }

    /// Where JSON:API's links start: the origin and the language prefix the request came under,
    /// which every link keeps (81).
    var linkOrigin: String { origin + languagePrefix }

    /// The path's segments, percent-decoded.
    var segments: [String] {
        path.utf8.split(separator: 0x2F).map { PathSafety.percentDecode($0) }
    }

    /// The decoded query parameters, in order.
    var query: [(String, String)] { PathSafety.formDecodedPairs(Substring(rawQuery)) }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func queryValue(_ key: String) -> String? { query.first { $0.0 == key }?.1 }

    var format: String? { queryValue("_format") }

    /// What Drupal names in "No route found" messages: method and absolute URL without the query.
    var routeDescription: String { "\(method) \(origin)\(askedPath)" }

    /// The media type of the body, lower-cased and without parameters such as charset.
    var contentType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        return String(value.split(separator: ";").first ?? "").trimmedWhitespace.lowercased()
    }

    var isUnsafeMethod: Bool { !["GET", "HEAD", "OPTIONS", "TRACE"].contains(method) }
}

extension MockState {
    /// rawurlencode with "/" kept: Drupal's UrlHelper::buildQuery encoding of a query value, and a
    /// decoded path put back as a request carries it.
    static func rawEncoded(_ text: String) -> String {
        PathSafety.percentEncode(text) { PathSafety.isUnreservedByte($0) || $0 == UInt8(ascii: "/") }
    }
}

/// A finished answer thrown out of a handler: lets checks end a request in one line.
struct MockAnswer: Error {
    let response: HTTPResponse
}

/// The response shapes Drupal uses.
enum MockReply {
    /// `{"message": ...}` with `Content-Type: application/json`, as every `_format=json` 4xx.
    static func message(_ status: Int, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        json(status, .object(["message": .string(text)]), headers: headers)
    }

    /// The text of a `message(...)` answer; nil for any other.
    static func messageOf(_ response: HTTPResponse) -> String? {
        guard response.headers["Content-Type"] == "application/json" else { return nil }
        return JSONValue.parse(response.body)?["message"]?.stringValue
    }

    static func json(_ status: Int, _ value: JSONValue, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: headers, body: value.encoded())
    }

    /// Plain text, as /user/login_status, /session/token, 5xx pages and unknown-format 406s.
    static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=UTF-8")]),
                     body: Data(text.utf8))
    }

    /// A 302 as Symfony's RedirectResponse makes it: the Location and a page that links to it.
    static func redirect(_ target: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        let page = """
            <!DOCTYPE html>
            <html>
                <head>
                    <meta charset="UTF-8" />
                    <meta http-equiv="refresh" content="0;url='\(target)'" />

                    <title>Redirecting to \(target)</title>
                </head>
                <body>
                    Redirecting to <a href="\(target)">\(target)</a>.
                </body>
            </html>
            """
        var headers = headers
        headers.add("Location", target)
        headers.add("Content-Type", "text/html; charset=utf-8")
        return HTTPResponse(status: 302, headers: headers, body: Data(page.utf8))
    }

    static func empty(_ status: Int, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers)
    }

    static func fail(_ status: Int, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> MockAnswer {
        MockAnswer(response: message(status, text, headers: headers))
    }

    /// A 422 of failed validation: one "<property path>: <message>" line per violation.
    static func violations(_ lines: [String]) -> MockAnswer {
        fail(422, "Unprocessable Entity: validation failed.\n" + lines.map { $0 + "\n" }.joined())
    }

    static func notFound(_ request: MockRequest) -> HTTPResponse {
        message(404, "No route found for \"\(request.routeDescription)\"")
    }

    static func methodNotAllowed(_ request: MockRequest, allow: [String]) -> HTTPResponse {
        // Drupal's MethodFilter: a route that takes GET takes HEAD too, and says so (180).
        let list = (allow.contains("GET") && !allow.contains("HEAD") ? allow + ["HEAD"] : allow).joined(separator: ", ")
        return message(405, "No route found for \"\(request.routeDescription)\": Method Not Allowed (Allow: \(list))",
                       headers: HTTPHeaders([("Allow", list)]))
    }

    /// The generic page Drupal sends for uncaught exceptions: text, never JSON.
    static let serverError = text(500, "The website encountered an unexpected error. Try again later.")
}
