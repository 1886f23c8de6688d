import FoundationEssentials

/// One HTTP request as the transport sends it: an absolute URL and everything to put on the wire.
///
/// Its fields live in one shared box until a copy is changed (as `DrupalRequest`'s): a request
/// is handed from the client to the transport through several closures.
public struct HTTPRequest: Sendable {
    public var method: String {
        get { fields.method }
        _modify { yield &unique().method }
    }
    public var url: String {
        get { fields.url }
        _modify { yield &unique().url }
    }
    public var headers: HTTPHeaders {
        get { fields.headers }
        _modify { yield &unique().headers }
    }
    public var body: Data? {
        get { fields.body }
        _modify { yield &unique().body }
    }
    /// A body streamed from a file instead (see HTTPStreams.swift).
    public var bodyFile: HTTPBodyFile? {
        get { fields.bodyFile }
        _modify { yield &unique().bodyFile }
    }
    /// Called as the bytes move; false cancels.
    public var progress: TransferProgress? {
        get { fields.progress }
        _modify { yield &unique().progress }
    }
    /// Takes a successful answer's body as it arrives (the response's `body` then stays empty).
    public var bodySink: BodySink? {
        get { fields.bodySink }
        _modify { yield &unique().bodySink }
    }

    private var fields: Fields

    /// Changed only through `unique()`, so a box two values share is never written (hence
    /// Sendable, and no run-time exclusivity checks: accesses cannot overlap).
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var method: String
        @exclusivity(unchecked) var url: String
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var body: Data?
        @exclusivity(unchecked) var bodyFile: HTTPBodyFile?
        @exclusivity(unchecked) var progress: TransferProgress?
        @exclusivity(unchecked) var bodySink: BodySink?

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
            return copy
        }
    }

    /// The box, copied first when another value shares it.
    private mutating func unique() -> Fields {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        return fields
    }

    public init(method: String, url: String, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil) {
        fields = Fields(method: method, url: url, headers: headers, body: body)
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
    public var body: Data

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The response with its Set-Cookie values hidden, safe to log.
    public var redactedDescription: String {
        var lines = ["HTTP \(status)"]
        for (name, value) in headers {
            lines.append("\(name): \(Redaction.isSecretHeader(name) ? "<redacted>" : value)")
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

    static func isSecret(_ name: String, _ extra: [String]) -> Bool {
        isSecretHeader(name) || extra.contains { $0.caseInsensitiveEquals(name) }
    }

    /// Hides the values of query parameters such as the logout `token`.
    static func redactURL(_ url: String) -> String {
        guard let questionMark = url.firstIndex(of: "?") else { return url }
        let query = url[url.index(after: questionMark)...]
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let key = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return secretQueryKeys.contains(key.lowercased()) ? "\(key)=<redacted>" : String(pair)
        }
        return url[..<questionMark] + "?" + parts.joined(separator: "&")
    }
}
