import FoundationEssentials

/// One HTTP request as the transport sends it: an absolute URL and everything to put on the wire.
///
/// Its fields live in one box that its copies share until one changes (`SharedFields`).
public struct HTTPRequest: Sendable {
    public var method: String {
        get { fields.read.method }
        _modify { yield &fields.write().method }
    }
    public var url: String {
        get { fields.read.url }
        _modify { yield &fields.write().url }
    }
    public var headers: HTTPHeaders {
        get { fields.read.headers }
        _modify { yield &fields.write().headers }
    }
    public var body: Data? {
        get { fields.read.body }
        _modify { yield &fields.write().body }
    }
    /// A body streamed from a file instead (see HTTPStreams.swift).
    public var bodyFile: HTTPBodyFile? {
        get { fields.read.bodyFile }
        _modify { yield &fields.write().bodyFile }
    }
    /// Called as the bytes move; false cancels.
    public var progress: TransferProgress? {
        get { fields.read.progress }
        _modify { yield &fields.write().progress }
    }
    /// Takes a successful answer's body as it arrives (the response's `body` then stays empty).
    public var bodySink: BodySink? {
        get { fields.read.bodySink }
        _modify { yield &fields.write().bodySink }
    }
    /// Seconds this exchange may take, when less than the transport's timeout: what is left of
    /// its call's time after the hops and attempts before it (nil: the transport's).
    public var timeout: Double? {
        get { fields.read.timeout }
        _modify { yield &fields.write().timeout }
    }

    private var fields: SharedFields<Fields>

    /// Written only through `SharedFields.write()`, so accesses cannot overlap: no run-time
    /// exclusivity checks.
    private final class Fields: CopyableBox {
        @exclusivity(unchecked) var method: String
        @exclusivity(unchecked) var url: String
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var body: Data?
        @exclusivity(unchecked) var bodyFile: HTTPBodyFile?
        @exclusivity(unchecked) var progress: TransferProgress?
        @exclusivity(unchecked) var bodySink: BodySink?
        @exclusivity(unchecked) var timeout: Double?

        init(method: String, url: String, headers: HTTPHeaders, body: Data?) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }

        func copy() -> Fields {
            let copy = Fields(method: method, url: url, headers: headers, body: body)
            copy.bodyFile = bodyFile
            copy.progress = progress
            copy.bodySink = bodySink
            copy.timeout = timeout
            return copy
        }
    }

    public init(method: String, url: String, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil) {
        fields = SharedFields(Fields(method: method, url: url, headers: headers, body: body))
    }

    /// The request line and headers with every secret replaced by "<redacted>", safe to log.
    public var redactedDescription: String { redactedDescription(secretHeaders: []) }

    /// `redactedDescription`, also hiding the values of `secretHeaders` (your own credential headers).
    public func redactedDescription(secretHeaders: [String]) -> String {
        var lines = ["\(method) \(Redaction.redactURL(url))"]
        for (name, value) in headers {
            lines.append("\(name): \(Redaction.isSecret(name, secretHeaders) ? "<redacted>" : value)")
        }
        return lines.joined(separator: "\n")
    }
}

/// One HTTP response: status, headers and the whole body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data {
        get { storedBody }
        set {
            storedBody = newValue
            receivedBody = nil
        }
    }

    private var storedBody: Data
    /// The body's bytes followed by a NUL, while the body is the one received (nil once it is
    /// set, or when it did not come from the transport): the C response hands them out without
    /// a copy. Valid as long as this response's `body` lives: they are its storage. (Sendable as
    /// the body is: the bytes are never written after the response is made.)
    nonisolated(unsafe) package private(set) var receivedBody: UnsafePointer<CChar>?

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.storedBody = body
    }

    /// A response whose body was made over bytes at `start` followed by a NUL (ReceiveBuffer).
    /// Data may copy a small body into itself instead: then the bytes are not its storage, and
    /// the response does not point at them.
    init(status: Int, headers: HTTPHeaders, body: Data, nulTerminatedAt start: UnsafePointer<CChar>?) {
        self.init(status: status, headers: headers, body: body)
        let storage = body.withUnsafeBytes { $0.baseAddress }
        if let start, storage == UnsafeRawPointer(start) { receivedBody = start }
    }

    /// The response with its Set-Cookie values hidden, safe to log (the server's control
    /// characters shown as escapes).
    public var redactedDescription: String {
        var lines = ["HTTP \(status)"]
        for (name, value) in headers {
            let shown = Redaction.isSecretHeader(name) ? "<redacted>"
                : (Redaction.isURLHeader(name) ? Redaction.redactURL(value) : value).escapingControlCharacters(keeping: ["\t"])
            lines.append("\(name.escapingControlCharacters()): \(shown)")
        }
        return lines.joined(separator: "\n")
    }
}

/// Which parts of a request or response carry secrets that must never reach a log.
enum Redaction {
    static let secretHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "x-csrf-token",
                                             "proxy-authorization"]
    static let secretQueryKeys: Set<String> = ["token", "pass", "password", "access_token", "refresh_token",
                                               "client_secret", "code"]

    static func isSecretHeader(_ name: String) -> Bool { secretHeaders.contains(name.lowercased()) }

    /// Headers whose value is a URL, shown as `redactURL` shows one (a redirect's Location may
    /// carry a token or a password).
    static func isURLHeader(_ name: String) -> Bool {
        name.caseInsensitiveEquals("Location") || name.caseInsensitiveEquals("Content-Location")
    }

    static func isSecret(_ name: String, _ extra: [String]) -> Bool {
        isSecretHeader(name) || extra.contains { $0.caseInsensitiveEquals(name) }
    }

    /// Hides the values of query parameters such as the logout `token`. Split on the bytes, as
    /// the server splits: "=" or "&" followed by a combining mark is no Character of its own. A
    /// key is compared as PHP reads it (`serverKeyName`).
    static func redactURL(_ given: String) -> String {
        let url = hidingUserinfo(given)
        guard let questionMark = url.utf8.firstIndex(of: UInt8(ascii: "?")) else { return url }
        let query = url.utf8[url.utf8.index(after: questionMark)...]
        let parts = query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { pair -> String in
            let key = pair.prefix { $0 != UInt8(ascii: "=") }
            return secretQueryKeys.contains(serverKeyName(key))
                ? String(decoding: key, as: UTF8.self) + "=<redacted>" : String(decoding: pair, as: UTF8.self)
        }
        return url[..<questionMark] + "?" + parts.joined(separator: "&")
    }

    /// The URL with its user info ("user:password@") replaced by "<redacted>@".
    static func hidingUserinfo(_ url: String) -> String {
        var bytes = Array(url.utf8)
        guard let userinfo = PathSafety.userinfoRange(bytes) else { return url }
        bytes.replaceSubrange(userinfo, with: Array("<redacted>@".utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The name PHP gives a query key, lower-cased: decoded ("%74oken" and "+" for a space),
    /// leading spaces dropped, cut at "[" (`token[]=...` is the array `token`), and spaces and
    /// dots turned into "_" (`access.token` is `access_token`), so a secret is hidden under
    /// every spelling the site would read as its name.
    static func serverKeyName<Bytes: Collection<UInt8>>(_ key: Bytes) -> String {
        let plus = UInt8(ascii: "+"), space = UInt8(ascii: " ")
        let decoded = PathSafety.percentDecodedBytes(key.map { $0 == plus ? space : $0 })
        let name = decoded.drop { $0 == space }.prefix { $0 != UInt8(ascii: "[") }
            .map { $0 == space || $0 == UInt8(ascii: ".") ? UInt8(ascii: "_") : $0 }
        return String(decoding: name, as: UTF8.self).lowercased()
    }
}
