import FoundationEssentials

/// A request relative to the site's base URL, for `DrupalClient.request`.
public struct DrupalRequest: Sendable {
    public var method: String
    /// A path under the base URL, e.g. "/node/1" or "api/articles". Never a full URL.
    public var path: String
    public var query: [(String, String)]
    public var headers: HTTPHeaders
    public var body: Data?
    /// A body streamed from a file instead of `body` (uploads).
    public var bodyFile: HTTPBodyFile?
    /// Reports the bytes as they move; false cancels (`.cancelled`).
    public var progress: TransferProgress?
    /// Takes a successful answer's body as it arrives (downloads); the response's body stays
    /// empty. A request whose sink got bytes is not retried.
    public var bodySink: BodySink?
    /// The `_format` query value added to the request; nil sends none (JSON:API, /session/token).
    public var format: String?
    /// Send X-CSRF-Token on unsafe methods when a session cookie is held (what REST routes need).
    public var sendsCSRFToken: Bool
    /// Send the Authorization header of Basic/Bearer authentication.
    public var sendsAuthorization: Bool
    /// What a successful answer must hold: an entity read that is not a JSON object (an empty
    /// 200, `null`) is a `.decode` error, not an empty entity.
    public var expectedBody: ExpectedBody
    /// Set by the client once it checked the target: `path` is then normalized and the query
    /// string it carried is here, so building the URL checks nothing twice.
    var targetIsNormalized = false
    var targetQuery: String?
    /// Where a download writes (tells the retries whether bytes were delivered).
    var writer: DownloadWriter?
    /// The managed OAuth token this attempt sends (set by the pipeline, so that a 401 tells which
    /// token was refused).
    var bearerToken: String?

    /// The shape a successful answer's body must have.
    public enum ExpectedBody: Sendable {
        case any
        /// A JSON object (entities).
        case object
        /// A JSON array (Views rows).
        case array
    }

    public init(method: String, path: String, query: [(String, String)] = [], headers: HTTPHeaders = HTTPHeaders(),
                body: Data? = nil, format: String? = "json", sendsCSRFToken: Bool = true,
                sendsAuthorization: Bool = true, expectedBody: ExpectedBody = .any) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.format = format
        self.sendsCSRFToken = sendsCSRFToken
        self.sendsAuthorization = sendsAuthorization
        self.expectedBody = expectedBody
    }

    var isUnsafeMethod: Bool {
        switch method {
        case "GET", "HEAD", "OPTIONS", "TRACE": return false
        default: return !["GET", "HEAD", "OPTIONS", "TRACE"].contains { $0.caseInsensitiveEquals(method) }
        }
    }
}

/// A successful answer (status below 400): status, headers and body. The same value the
/// transport returned, with helpers to read the body.
public typealias DrupalResponse = HTTPResponse

extension HTTPResponse {
    /// The body as JSON, or a `.decode` error saying what it was instead.
    public func json() throws -> JSONValue {
        guard let value = JSONValue.parse(body) else {
            throw DrupalError(.decode, "the response body is not JSON (Content-Type: "
                              + "\(headers["Content-Type"] ?? "none"), \(body.count) bytes)",
                              status: status, headers: headers, body: body)
        }
        return value
    }

    /// The body decoded into a Decodable type.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw DrupalError(.decode, "cannot decode \(T.self) from the response: \(error)",
                              status: status, headers: headers, body: body)
        }
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}
