import FoundationEssentials

/// Reading Drupal's error answers: `{"message": ...}` bodies of core REST, JSON:API error
/// documents, and the plain-text, XML and HTML bodies Drupal sends where neither applies.
extension DrupalError {
    /// The error for a response whose status is 400 or more. `message` stays useful for humans
    /// even when Drupal's own message is empty or missing, and safe to print (the server's
    /// control characters escaped, line breaks and tabs kept); `drupalMessage` keeps it verbatim.
    init(response: HTTPResponse, method: String, path: String) {
        let body = ErrorBody(response)
        var message = body.drupalMessage ?? DrupalError.textSummary(of: response)
        if body.jsonAPIErrors.count > 1 {
            message = body.jsonAPIErrors.map { $0.detail ?? $0.title ?? "" }.joined(separator: "\n")
        }
        if message.isEmpty {
            message = "\(method) \(path) answered HTTP \(response.status) \(reasonPhrase(response.status))"
                + " with no message"
        } else if body.drupalMessage == nil && body.jsonAPIErrors.isEmpty && DrupalError.isHTMLPage(response) {
            // Drupal's HTML error pages say nothing a caller can use: say what was asked instead.
            message = "\(method) \(path) answered HTTP \(response.status) \(reasonPhrase(response.status))"
                + " as an HTML page" + (response.status == 401
                    ? ": the site did not accept the credentials (missing, wrong, expired or revoked)" : "")
        }
        var oauth = body.oauthError
        if response.status == 401, let challenge = response.headers.values(for: "WWW-Authenticate").lazy
            .compactMap(OAuthError.bearerChallenge).first {
            // simple_oauth's refusal of a Bearer token: what it says is in the challenge (the body
            // is a generic message, or an HTML page on JSON:API).
            oauth = challenge
            if let why = challenge.errorDescription, !why.isEmpty {
                message += "; the Bearer token was refused: " + why
            }
        } else if let oauth, body.drupalMessage == nil {
            message = oauth.summary
        }
        self.init(.http, DrupalError.printable(message), status: response.status, drupalMessage: body.drupalMessage,
                  violations: response.status == 422 ? body.violations : [], jsonAPIErrors: body.jsonAPIErrors,
                  headers: response.headers, body: response.body)
        self.oauthError = oauth
    }

    /// A redirect that was not followed: an error of its own kind (code `.http`, a 3xx status),
    /// with the Location in its message (query hidden) and headers.
    init(redirect response: HTTPResponse, method: String, path: String) {
        let location = response.headers["Location"]
            .map { " to \(Redaction.redactURL($0).escapingControlCharacters())" } ?? " without a Location"
        self.init(.http, "\(method) \(path) answered HTTP \(response.status) \(reasonPhrase(response.status)), a "
                  + "redirect\(location) that was not followed (redirects are followed only when the client is told to)",
                  status: response.status, headers: response.headers, body: response.body)
    }

    /// The Location of a redirect that was not followed (nil for other errors).
    public var redirectLocation: String? {
        guard let status, (300..<400).contains(status) else { return nil }
        return headers["Location"]
    }

    /// The longest message made of a server's text: a hostile server's megabytes stay out of
    /// logs.
    public static let maxMessageLength = 4096

    /// A server's text as a message: control characters shown as escapes (line breaks and tabs
    /// kept unless told otherwise), cut at `maxMessageLength` characters with a note.
    static func printable(_ text: String, keeping kept: Set<Unicode.Scalar> = ["\n", "\t"]) -> String {
        let escaped = text.escapingControlCharacters(keeping: kept)
        // Bytes first: no character count for the usual short message.
        guard escaped.utf8.count > maxMessageLength else { return escaped }
        let characters = escaped.count
        guard characters > maxMessageLength else { return escaped }
        return escaped.prefix(maxMessageLength) + "... (cut: \(characters - maxMessageLength) characters more)"
    }

    /// Drupal's message in a JSON error body, if any (see `drupalMessage`).
    static func drupalMessage(in response: HTTPResponse) -> String? { ErrorBody(response).drupalMessage }

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

    static func isHTMLPage(_ response: HTTPResponse) -> Bool {
        String(decoding: response.body.prefix(512), as: UTF8.self).lowercased().contains("<html")
    }

    /// The first line core REST puts before its violation lines; any other 422 message (e.g.
    /// "Unprocessable Entity: file validation failed.") carries no violation list.
    static let validationFailedLine = "Unprocessable Entity: validation failed."

    /// Splits "Unprocessable Entity: validation failed.\ntitle: msg\n..." into (path, message)
    /// pairs; other messages give none. A field path has no spaces ("title",
    /// "field_tags.0.target_id"); a line without one is kept whole, with an empty path.
    static func violations(in message: String) -> [Violation] {
        // Empty lines are skipped after the first line, not before it: "\nUnprocessable..." is
        // another message.
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(validationFailedLine) else { return [] }
        return lines.dropFirst().filter { !$0.isEmpty }.map { line in
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

/// One entry of a JSON:API error document's `errors` array.
public struct JSONAPIError: Sendable, Equatable {
    public var title: String?
    /// The status exactly as sent: JSON:API sends it as a string ("422").
    public var status: String?
    public var detail: String?
    public var code: String?
    /// `source.pointer`, e.g. "/data/attributes/title".
    public var pointer: String?
    /// Every string, number and boolean member of the entry by dotted path ("source.pointer",
    /// "links.via.href"), sorted by name: what the entry says beyond the common members.
    public var members: [(name: String, value: String)]

    public init(members: [(name: String, value: String)]) {
        self.members = members
        func member(_ name: String) -> String? { members.first { $0.name == name }?.value }
        title = member("title")
        status = member("status")
        detail = member("detail")
        code = member("code")
        pointer = member("source.pointer")
    }

    public func member(_ name: String) -> String? { members.first { $0.name == name }?.value }

    public static func == (lhs: JSONAPIError, rhs: JSONAPIError) -> Bool {
        lhs.members.elementsEqual(rhs.members) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Flattens an entry object into dotted members (arrays index their items: "meta.trace.0").
    init(_ object: JSONValue) {
        var members: [(name: String, value: String)] = []
        func flatten(_ value: JSONValue, _ prefix: String) {
            switch value {
            case .object(let fields):
                for (key, member) in fields.sorted(by: { $0.key < $1.key }) {
                    flatten(member, prefix.isEmpty ? key : prefix + "." + key)
                }
            case .array(let items):
                for (index, item) in items.enumerated() { flatten(item, prefix + "." + String(index)) }
            case .string(let text): members.append((prefix, text))
            case .bool(let flag): members.append((prefix, flag ? "true" : "false"))
            case .number(let number):
                members.append((prefix, number.rounded() == number && abs(number) < 9.0e15
                                    ? String(Int64(number)) : String(number)))
            case .null: break
            }
        }
        flatten(object, "")
        self.init(members: members)
    }
}

/// What an error body says, read once: Drupal's message, violations and JSON:API errors.
private struct ErrorBody {
    var drupalMessage: String?
    var violations: [DrupalError.Violation] = []
    var jsonAPIErrors: [JSONAPIError] = []
    var oauthError: OAuthError?

    init(_ response: HTTPResponse) {
        guard let contentType = response.headers["Content-Type"]?.lowercased(), contentType.contains("json"),
              let document = JSONValue.parse(response.body)
        else { return }
        if let message = document["message"]?.stringValue {
            drupalMessage = message
            violations = DrupalError.violations(in: message)
        } else if let errors = document["errors"]?.arrayValue {
            jsonAPIErrors = errors.filter { $0.objectValue != nil }.map(JSONAPIError.init)
            if let first = jsonAPIErrors.first { drupalMessage = first.detail ?? first.title }
            // Only an entry that names a field is a violation (a refused upload names none), as
            // core REST's message lists only "field: message" lines.
            violations = jsonAPIErrors.compactMap { error in
                error.pointer.map { DrupalError.Violation(path: $0, message: error.detail ?? "") }
            }
        }
        oauthError = OAuthError.document(document)
    }
}
