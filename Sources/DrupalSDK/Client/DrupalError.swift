import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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
        /// A local file failed while a file moved (a download's destination, an upload's source).
        case file = 14
    }

    /// What an HTTP failure means for the caller, decided once here: language bindings map it to
    /// their error classes. From the status, except where the operation says more (a 400 from
    /// login is bad credentials).
    public enum Kind: Int32, Sendable {
        case other = 0
        /// 401, and the 400 Drupal answers a login with bad credentials.
        case authentication = 1
        case authorization = 2
        case notFound = 3
        case validation = 4
        /// A redirect (3xx) that was not followed.
        case redirect = 5

        init(code: Code, status: Int?) {
            guard code == .http, let status else { self = .other; return }
            switch status {
            case 300..<400: self = .redirect
            case 401: self = .authentication
            case 403: self = .authorization
            case 404: self = .notFound
            case 422: self = .validation
            default: self = .other
            }
        }
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
    /// A description for humans: Drupal's own message when it sent a non-empty one, else a
    /// summary of what failed (e.g. "GET /node/7 answered HTTP 403 Forbidden with no message").
    /// Safe to print and log: a server's control characters are shown as escapes, and a server's
    /// text is cut at `maxMessageLength` characters, with a note (`drupalMessage`, `violations`
    /// and `jsonAPIErrors` keep all of it).
    public var message: String
    /// Drupal's message exactly as it sent it, empty included: the `message` of a core REST
    /// error body, or the `detail` (else `title`) of a JSON:API document's first error. Nil when
    /// the answer carried none (plain-text 500s, HTML pages, network errors).
    public var drupalMessage: String?
    /// 422 validation failures: (field path, message) from core REST's "validation failed."
    /// lines, or (source.pointer, detail) from JSON:API errors. Empty for other answers.
    public var violations: [Violation]
    /// Every entry of a JSON:API error document's `errors`, in order (empty for other bodies).
    public var jsonAPIErrors: [JSONAPIError]
    /// An OAuth 2 failure: the token endpoint's error document, or the `WWW-Authenticate: Bearer`
    /// challenge of a 401 that refused the token sent (nil otherwise).
    public var oauthError: OAuthError?
    /// The system's error number (errno) of a `.file` failure, when the system gave one: ENOSPC
    /// for a full disk, EISDIR for a directory at a download's path. Nil otherwise.
    public var osError: Int32? {
        get { osErrorValue == 0 ? nil : Int32(truncatingIfNeeded: osErrorValue) }
        set { osErrorValue = Int(newValue ?? 0) }
    }
    /// Stored as a whole Int, as `connectionFailureValue` below is (0: none; errno is never 0).
    private var osErrorValue = 0
    /// The response as received, when there was one.
    public var headers: HTTPHeaders
    public var body: Data
    /// For network errors: whether the request may have reached the server (retry decisions).
    /// Kept as a whole Int: a small enum's spare bits inside the Result and Optional enums that
    /// carry errors make valgrind report reads of their undefined neighbours.
    private var connectionFailureValue = 0
    var connectionFailure: ConnectionFailure {
        get { ConnectionFailure(rawValue: connectionFailureValue) ?? .unknown }
        set { connectionFailureValue = newValue.rawValue }
    }
    /// Stored as a whole Int for the same reason.
    private var kindValue: Int
    public var kind: Kind {
        get { Kind(rawValue: Int32(truncatingIfNeeded: kindValue)) ?? .other }
        set { kindValue = Int(newValue.rawValue) }
    }

    public init(_ code: Code, _ message: String, status: Int? = nil, drupalMessage: String? = nil,
                violations: [Violation] = [], jsonAPIErrors: [JSONAPIError] = [],
                headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.code = code
        self.message = message
        self.status = status
        self.kindValue = Int(Kind(code: code, status: status).rawValue)
        self.drupalMessage = drupalMessage
        self.violations = violations
        self.jsonAPIErrors = jsonAPIErrors
        self.headers = headers
        self.body = body
    }

    public var description: String {
        if let status { return "\(code) (HTTP \(status)): \(message)" }
        return "\(code): \(message)"
    }

    static func invalidArgument(_ message: String) -> DrupalError { DrupalError(.invalidArgument, message) }

    /// A local file's failure: the message, then the system's text for `number`, kept in `osError`.
    static func file(_ message: String, errno number: Int32) -> DrupalError {
        var error = DrupalError(.file, message + ": " + String(cString: strerror(number)))
        error.osError = number
        return error
    }
    static func cancelled() -> DrupalError { DrupalError(.cancelled, "the request was cancelled") }
}

func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 303: return "See Other"
    case 307: return "Temporary Redirect"
    case 308: return "Permanent Redirect"
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
    case 501: return "Not Implemented"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default: return ""
    }
}
