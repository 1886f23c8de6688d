import FoundationEssentials

/// One request as the mock server sees it: method, the path under the site, the decoded query and
/// the raw headers and body. Parsed from the absolute URL the live client puts on the wire.
struct MockRequest {
    let method: String
    /// Scheme and authority, e.g. "http://drupal.mock": absolute URLs in answers are built on it.
    let origin: String
    /// The path as sent (still percent-encoded), without the query and without a trailing slash.
    let path: String
    /// The path's segments, percent-decoded.
    let segments: [String]
    let query: [(String, String)]
    let headers: HTTPHeaders
    let body: Data?

    init(_ http: HTTPRequest) {
        method = http.method.uppercased()
        headers = http.headers
        body = http.body
        var rest = Substring(http.url)
        var origin = ""
        if let scheme = rest.firstRange(of: "://") {
            let afterScheme = rest[scheme.upperBound...]
            let pathStart = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
            origin = String(rest[..<pathStart])
            rest = rest[pathStart...]
        }
        self.origin = origin
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = String(parts.first ?? "")
        // Drupal ignores trailing slashes.
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.path = path.isEmpty ? "/" : path
        segments = self.path.split(separator: "/").map { PathSafety.percentDecode(String($0)) }
        let rawQuery = parts.count > 1 ? parts[1] : ""
        query = rawQuery.split(separator: "&").map { pair in
            let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            // PHP decodes "+" as a space in query strings.
            let decode = { (text: Substring) in PathSafety.percentDecode(String(text).replacingOccurrences(of: "+", with: " ")) }
            return (decode(keyValue[0]), keyValue.count > 1 ? decode(keyValue[1]) : "")
        }
    }

    func queryValue(_ key: String) -> String? { query.first { $0.0 == key }?.1 }

    var format: String? { queryValue("_format") }

    /// What Drupal names in "No route found" messages: method and absolute URL without the query.
    var routeDescription: String { "\(method) \(origin)\(path)" }

    /// The media type of the body, lower-cased and without parameters such as charset.
    var contentType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        return String(value.split(separator: ";").first ?? "").trimmedWhitespace.lowercased()
    }

    var isUnsafeMethod: Bool { !["GET", "HEAD", "OPTIONS", "TRACE"].contains(method) }
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

    static func empty(_ status: Int, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers)
    }

    static func fail(_ status: Int, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> MockAnswer {
        MockAnswer(response: message(status, text, headers: headers))
    }

    static func notFound(_ request: MockRequest) -> HTTPResponse {
        message(404, "No route found for \"\(request.routeDescription)\"")
    }

    static func methodNotAllowed(_ request: MockRequest, allow: [String]) -> HTTPResponse {
        let list = allow.joined(separator: ", ")
        return message(405, "No route found for \"\(request.routeDescription)\": Method Not Allowed (Allow: \(list))",
                       headers: HTTPHeaders([("Allow", list)]))
    }

    /// The generic page Drupal sends for uncaught exceptions: text, never JSON.
    static let serverError = text(500, "The website encountered an unexpected error. Try again later.")
}
