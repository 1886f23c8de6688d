import FoundationEssentials

/// The one error type of the SDK. Its codes are the C API's `drupal_code` values.
public struct DrupalError: Error, Sendable, CustomStringConvertible {
    public enum Code: Int32, Sendable {
        case invalidArgument = 1
        case network = 2
        case timeout = 3
        case http = 4
        case decode = 5
        case cancelled = 6
        case unimplemented = 7
        case tooLarge = 8
        case tls = 9
        case notFound = 10
        case noMemory = 11
        case state = 12
        case `internal` = 13
    }

    /// One 422 validation failure: the field path Drupal named and its message.
    public struct Violation: Sendable, Equatable {
        public var path: String
        public var message: String
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    public var code: Code
    /// The HTTP status when the server answered, else nil.
    public var status: Int?
    /// Drupal's own message when it sent one, else a description of what failed.
    public var message: String
    public var violations: [Violation]
    /// The response as received, when there was one.
    public var headers: HTTPHeaders
    public var body: Data

    public init(_ code: Code, _ message: String, status: Int? = nil, violations: [Violation] = [],
                headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.code = code
        self.message = message
        self.status = status
        self.violations = violations
        self.headers = headers
        self.body = body
    }

    public var description: String {
        if let status { return "\(code) (HTTP \(status)): \(message)" }
        return "\(code): \(message)"
    }

    static func invalidArgument(_ message: String) -> DrupalError { DrupalError(.invalidArgument, message) }
    static func cancelled() -> DrupalError { DrupalError(.cancelled, "the request was cancelled") }
}

extension DrupalError {
    /// The error for a response whose status is 400 or more, with Drupal's message when it gave one.
    /// Drupal answers `{"message": ...}` to `_format=json` requests, but plain text for 5xx, XML or
    /// HTML for other formats, and sometimes an empty message: each still gives a useful error.
    init(response: HTTPResponse, method: String, path: String) {
        let drupalMessage = DrupalError.drupalMessage(in: response)
        var message = drupalMessage ?? DrupalError.textSummary(of: response)
        if message.isEmpty {
            message = "\(method) \(path) answered HTTP \(response.status) \(reasonPhrase(response.status))"
                + " with no message"
        }
        self.init(.http, message, status: response.status,
                  violations: response.status == 422 ? DrupalError.violations(in: message) : [],
                  headers: response.headers, body: response.body)
    }

    static func drupalMessage(in response: HTTPResponse) -> String? {
        guard let contentType = response.headers["Content-Type"]?.lowercased(),
              contentType.contains("json"),
              let object = JSONValue.parse(response.body)
        else { return nil }
        if let message = object["message"]?.stringValue { return message }
        // JSON:API error documents: errors[0].detail (or title).
        if let first = object["errors"]?[0] {
            return first["detail"]?.stringValue ?? first["title"]?.stringValue
        }
        return nil
    }

    /// A short, printable excerpt of a non-JSON body (plain-text 500s, XML 406s, HTML pages).
    static func textSummary(of response: HTTPResponse) -> String {
        guard !response.body.isEmpty else { return "" }
        let text = String(decoding: response.body.prefix(512), as: UTF8.self)
        if text.contains("<message>"), let start = text.firstRange(of: "<message>"),
           let end = text.firstRange(of: "</message>"), start.upperBound <= end.lowerBound {
            return String(text[start.upperBound..<end.lowerBound])
        }
        if text.lowercased().contains("<html") {
            return "HTTP \(response.status) \(reasonPhrase(response.status)) (HTML page)"
        }
        return text.trimmedWhitespace
    }

    /// Splits "Unprocessable Entity: validation failed.\ntitle: msg\n..." into (path, message)
    /// pairs. A field path has no spaces ("title", "field_tags.0.target_id"); a line without one
    /// (e.g. "Only files with the following extensions are allowed: png gif") is kept whole, with
    /// an empty path.
    static func violations(in message: String) -> [Violation] {
        let lines = message.split(separator: "\n").dropFirst()
        return lines.map { line in
            if let colon = line.firstRange(of: ": ") {
                let path = line[..<colon.lowerBound]
                if !path.isEmpty && !path.contains(where: { $0.isWhitespace }) {
                    return Violation(path: String(path), message: String(line[colon.upperBound...]))
                }
            }
            return Violation(path: "", message: String(line))
        }
    }
}

func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 406: return "Not Acceptable"
    case 409: return "Conflict"
    case 415: return "Unsupported Media Type"
    case 422: return "Unprocessable Content"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default: return ""
    }
}
