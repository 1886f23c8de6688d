import FoundationEssentials

/// A request relative to the site's base URL, for `DrupalClient.request`.
///
/// A value type whose fields live in one box that its copies share until one changes
/// (`SharedFields`).
public struct DrupalRequest: Sendable {
    public var method: String {
        get { fields.read.method }
        _modify { yield &fields.write().method }
    }
    /// A path under the base URL, e.g. "/node/1" or "api/articles". Never a full URL.
    public var path: String {
        get { fields.read.path }
        _modify { yield &fields.write().path }
    }
    public var query: [(String, String)] {
        get { fields.read.query }
        _modify { yield &fields.write().query }
    }
    public var headers: HTTPHeaders {
        get { fields.read.headers }
        _modify { yield &fields.write().headers }
    }
    public var body: Data? {
        get { fields.read.body }
        _modify { yield &fields.write().body }
    }
    /// A body streamed from a file instead of `body` (uploads).
    public var bodyFile: HTTPBodyFile? {
        get { fields.read.bodyFile }
        _modify { yield &fields.write().bodyFile }
    }
    /// Reports the bytes as they move; false cancels (`.cancelled`).
    public var progress: TransferProgress? {
        get { fields.read.progress }
        _modify { yield &fields.write().progress }
    }
    /// Takes a successful answer's body as it arrives (downloads); the response's body stays
    /// empty. A request whose sink got bytes is not retried.
    public var bodySink: BodySink? {
        get { fields.read.bodySink }
        _modify { yield &fields.write().bodySink }
    }
    /// A file streamed up or down: its timeout bounds a stall (no byte moving), not the call,
    /// as the transport applies it (`CurlTransfer.isFileTransfer`).
    var isFileTransfer: Bool { bodyFile != nil || bodySink != nil }
    /// The `_format` query value added to the request; nil sends none (JSON:API, /session/token).
    public var format: String? {
        get { fields.read.format }
        _modify { yield &fields.write().format }
    }
    /// Send X-CSRF-Token on unsafe methods when a session cookie is held (what REST routes need).
    public var sendsCSRFToken: Bool {
        get { fields.read.sendsCSRFToken }
        _modify { yield &fields.write().sendsCSRFToken }
    }
    /// Send the Authorization header of Basic/Bearer authentication.
    public var sendsAuthorization: Bool {
        get { fields.read.sendsAuthorization }
        _modify { yield &fields.write().sendsAuthorization }
    }
    /// What a successful answer must hold: an entity read that is not a JSON object (an empty
    /// 200, `null`) is a `.decode` error, not an empty entity.
    public var expectedBody: ExpectedBody {
        get { fields.read.expectedBody }
        _modify { yield &fields.write().expectedBody }
    }
    /// Set by the client once it checked the target: `path` is then normalized and the query
    /// string it carried is here, so building the URL checks nothing twice.
    var targetIsNormalized: Bool {
        get { fields.read.targetIsNormalized }
        _modify { yield &fields.write().targetIsNormalized }
    }
    var targetQuery: String? {
        get { fields.read.targetQuery }
        _modify { yield &fields.write().targetQuery }
    }
    /// Where a download writes (tells the retries whether bytes were delivered).
    var writer: DownloadWriter? {
        get { fields.read.writer }
        _modify { yield &fields.write().writer }
    }
    /// The path is from the site's root, not under the base URL's path: a file's URL, which
    /// carries no language prefix when the base URL ends in one ("https://site/fr").
    var fromSiteRoot: Bool {
        get { fields.read.fromSiteRoot }
        _modify { yield &fields.write().fromSiteRoot }
    }
    /// Send the session's cookies: all but the OAuth token request, which takes no session.
    var sendsCookies: Bool {
        get { fields.read.sendsCookies }
        _modify { yield &fields.write().sendsCookies }
    }
    /// The managed OAuth token this attempt sends (set by the pipeline, so that a 401 tells which
    /// token was refused).
    var bearerToken: String? {
        get { fields.read.bearerToken }
        _modify { yield &fields.write().bearerToken }
    }

    private var fields: SharedFields<Fields>

    /// Written only through `SharedFields.write()`, so accesses cannot overlap: no run-time
    /// exclusivity checks.
    private final class Fields: CopyableBox {
        @exclusivity(unchecked) var method: String
        @exclusivity(unchecked) var path: String
        @exclusivity(unchecked) var query: [(String, String)]
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var body: Data?
        @exclusivity(unchecked) var bodyFile: HTTPBodyFile?
        @exclusivity(unchecked) var progress: TransferProgress?
        @exclusivity(unchecked) var bodySink: BodySink?
        @exclusivity(unchecked) var format: String?
        @exclusivity(unchecked) var sendsCSRFToken: Bool
        @exclusivity(unchecked) var sendsAuthorization: Bool
        @exclusivity(unchecked) var expectedBody: ExpectedBody
        @exclusivity(unchecked) var targetIsNormalized = false
        @exclusivity(unchecked) var targetQuery: String?
        @exclusivity(unchecked) var writer: DownloadWriter?
        @exclusivity(unchecked) var bearerToken: String?
        @exclusivity(unchecked) var fromSiteRoot = false
        @exclusivity(unchecked) var sendsCookies = true

        init(method: String, path: String, query: [(String, String)], headers: HTTPHeaders, body: Data?,
             format: String?, sendsCSRFToken: Bool, sendsAuthorization: Bool, expectedBody: ExpectedBody) {
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

        func copy() -> Fields {
            let copy = Fields(method: method, path: path, query: query, headers: headers, body: body, format: format,
                              sendsCSRFToken: sendsCSRFToken, sendsAuthorization: sendsAuthorization,
                              expectedBody: expectedBody)
            copy.bodyFile = bodyFile
            copy.progress = progress
            copy.bodySink = bodySink
            copy.targetIsNormalized = targetIsNormalized
            copy.targetQuery = targetQuery
            copy.writer = writer
            copy.bearerToken = bearerToken
            copy.fromSiteRoot = fromSiteRoot
            copy.sendsCookies = sendsCookies
            return copy
        }
    }

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
        fields = SharedFields(Fields(method: method, path: path, query: query, headers: headers, body: body,
                                     format: format, sendsCSRFToken: sendsCSRFToken,
                                     sendsAuthorization: sendsAuthorization, expectedBody: expectedBody))
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
            // The error names the path to the value, and a dictionary's keys on it are the server's.
            throw DrupalError(.decode, "cannot decode \(T.self) from the response: "
                              + DrupalError.printable("\(error)", keeping: []),
                              status: status, headers: headers, body: body)
        }
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}
