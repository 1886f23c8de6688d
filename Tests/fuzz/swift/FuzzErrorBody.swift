// libFuzzer target: reading error answers, DrupalError(response:method:path:) (core REST
// {"message": ...} bodies, 422 "validation failed." lines, JSON:API error documents, and the
// plain-text, XML and HTML bodies where neither applies).
//
// Input: byte 0 picks the status, byte 1 the Content-Type, byte 2 how the rest becomes the body:
// as it is (0), as the text of {"message": ...} (1), as the violation lines after
// "Unprocessable Entity: validation failed.\n" in {"message": ...} (2), or as the titles, details
// and pointers of a JSON:API document's errors (3); its high bits pick how the JSON strings are
// escaped. Asserted, beyond no crash:
//  - the error keeps the status, headers and body, and always has a non-empty message;
//  - without a JSON Content-Type nothing is read from the body as Drupal's (no drupalMessage,
//    violations or JSON:API errors);
//  - for {"message": M}: drupalMessage is exactly M (however M was escaped), and the message is M
//    when M is not empty, as printed: control characters but LF and TAB shown as "\u{hex}", cut
//    at 4,096 characters with a note;
//  - violations only for status 422, and only when the first line is exactly "Unprocessable
//    Entity: validation failed." (core REST) or from JSON:API errors, one per error as
//    (source.pointer, detail);
//  - each core REST violation gives back its line: "path: message" with a path without spaces,
//    or the whole line with an empty path, one per non-empty line after the first;
//  - JSON:API errors come back in order with their title, detail and pointer; drupalMessage is the
//    first one's detail (else title); two or more make the message their details, one a line
//    (as printed, as above).
import FoundationEssentials
@testable import DrupalSDK

private let statuses = [400, 401, 403, 404, 405, 406, 409, 415, 422, 422, 422, 429, 500, 502, 503, 504, 418, 599]
private let contentTypes: [String?] = ["application/json", "application/vnd.api+json", "application/json; charset=utf-8",
                                       "APPLICATION/JSON", "application/problem+json", "text/plain; charset=UTF-8",
                                       "text/html; charset=UTF-8", "text/xml; charset=UTF-8", nil]
private let failedLine = "Unprocessable Entity: validation failed."

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzErrorBody(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size).bytes
    guard input.count >= 3 else { return 0 }
    let status = statuses[Int(input[0]) % statuses.count]
    let contentType = contentTypes[Int(input[1]) % contentTypes.count]
    let mode = input[2] & 3, escaping = Escaping(rawValue: input[2] >> 2)
    let rest = Array(input[3...])

    var message: String?
    var entries: [(title: String?, detail: String?, pointer: String?)]?
    let body: [UInt8]
    switch mode {
    case 0:
        body = rest
    case 1, 2:
        message = (mode == 2 ? failedLine + "\n" : "") + rest.text
        body = Array("{\"message\":".utf8) + jsonString(message!, escaping) + Array("}".utf8)
    default:
        let pieces = FuzzInput(rest).pieces(limit: 9)
        entries = stride(from: 0, to: pieces.count, by: 3).map { index in
            func piece(_ k: Int) -> String? { index + k < pieces.count && !pieces[index + k].isEmpty ? pieces[index + k].text : nil }
            return (piece(0), piece(1), piece(2))
        }
        body = jsonAPIDocument(entries!, escaping)
    }

    var headers = HTTPHeaders()
    if let contentType { headers.add("Content-Type", contentType) }
    let response = HTTPResponse(status: status, headers: headers, body: Data(body))
    let error = DrupalError(response: response, method: "POST", path: "/node")
    let isJSON = contentType?.lowercased().contains("json") ?? false
    checkCommon(error, response, isJSON: isJSON)
    if isJSON, let message { checkMessage(error, message) }
    if isJSON, let entries { checkJSONAPI(error, entries) }
    return 0
}

private func checkCommon(_ error: DrupalError, _ response: HTTPResponse, isJSON: Bool) {
    require(error.code == .http && error.status == response.status, "the error lost its code or status")
    require(error.body == response.body && error.headers == response.headers, "the error lost the body or headers")
    require(!error.message.isEmpty, "an error without a message")
    if !isJSON {
        require(error.drupalMessage == nil && error.violations.isEmpty && error.jsonAPIErrors.isEmpty,
                "a body without a JSON Content-Type was read as Drupal's")
    }
    if !error.violations.isEmpty {
        require(response.status == 422, "violations for status \(response.status)")
        if error.jsonAPIErrors.isEmpty {
            let first = Array((error.drupalMessage ?? "").utf8.prefix { $0 != 0x0A })
            require(first == Array(failedLine.utf8),
                    "violations although the first line is not \(shown(failedLine)): \(shown(error.drupalMessage ?? ""))")
        }
    }
    if !error.jsonAPIErrors.isEmpty {
        // Only an error naming a field (a source.pointer) is a violation.
        let expected = response.status == 422
            ? error.jsonAPIErrors.compactMap { error in error.pointer.map { ($0, error.detail ?? "") } } : []
        require(error.violations.map { ($0.path, $0.message) }.elementsEqual(expected, by: ==),
                "JSON:API violations are not (pointer, detail) of each error that has a pointer")
        let first = error.jsonAPIErrors[0]
        require(error.drupalMessage == first.detail ?? first.title, "drupalMessage is not the first error's detail/title")
    }
    if let drupalMessage = error.drupalMessage, !drupalMessage.isEmpty, error.jsonAPIErrors.count <= 1 {
        require(error.message == expectedMessage(drupalMessage), "the message is not Drupal's non-empty message")
    }
}

private func checkMessage(_ error: DrupalError, _ message: String) {
    require(error.drupalMessage == message,
            "drupalMessage is \(shown(error.drupalMessage ?? "nil")), the body said \(shown(message))")
    require(error.jsonAPIErrors.isEmpty, "JSON:API errors from a {\"message\"} body")
    // The first line as sent (an empty one counts: "\nUnprocessable..." has none), then the
    // non-empty lines after it.
    let allLines = message.split(separator: "\n", omittingEmptySubsequences: false)
    guard error.status == 422, allLines.first.map(String.init) == failedLine else {
        require(error.violations.isEmpty, "violations from \(shown(message))")
        return
    }
    let lines = allLines.dropFirst().filter { !$0.isEmpty }
    require(error.violations.count == lines.count, "\(error.violations.count) violations from \(lines.count) lines")
    for (violation, line) in zip(error.violations, lines) {
        if violation.path.isEmpty {
            require(violation.message == line, "a violation without a path is not its line: \(shown(String(line)))")
            if let colon = line.firstRange(of: ": ") {
                let prefix = line[..<colon.lowerBound]
                require(prefix.isEmpty || prefix.contains { $0.isWhitespace }, "a field path was missed in \(shown(String(line)))")
            }
        } else {
            require(!violation.path.contains { $0.isWhitespace }, "a violation path with whitespace")
            require(violation.path + ": " + violation.message == line, "a violation is not its line: \(shown(String(line)))")
        }
    }
}

private func checkJSONAPI(_ error: DrupalError, _ entries: [(title: String?, detail: String?, pointer: String?)]) {
    require(error.jsonAPIErrors.count == entries.count, "\(error.jsonAPIErrors.count) JSON:API errors from \(entries.count)")
    for (read, sent) in zip(error.jsonAPIErrors, entries) {
        require(read.title == sent.title && read.detail == sent.detail && read.pointer == sent.pointer && read.status == "422",
                "a JSON:API error was read as \(read.members), sent \(sent)")
    }
    if entries.count > 1 {
        let joined = entries.map { $0.detail ?? $0.title ?? "" }.joined(separator: "\n")
        require(joined.isEmpty || error.message == expectedMessage(joined), "the message is not every error's detail, one a line")
    }
}

/// What `message` shows of a server's text: control characters shown (line feeds and tabs
/// kept), then at most 4,096 characters and a note of how many more there were.
private func expectedMessage(_ text: String) -> String {
    let characters = Array(controlCharactersShown(text, keeping: [0x0A, 0x09]))
    guard characters.count > 4096 else { return String(characters) }
    return String(characters[..<4096]) + "... (cut: \(characters.count - 4096) characters more)"
}

/// How the JSON strings of a body are written (Drupal escapes "/" and non-ASCII; others do not).
private struct Escaping: OptionSet {
    let rawValue: UInt8
    static let nonASCII = Escaping(rawValue: 1)
    static let slash = Escaping(rawValue: 2)
    static let upperHex = Escaping(rawValue: 4)
}

/// A JSON string literal, written here rather than by JSONEncoder so the decoder is checked
/// against an independent encoder.
private func jsonString(_ text: String, _ escaping: Escaping) -> [UInt8] {
    func unit(_ value: UInt32) -> [UInt8] {
        let hex = Array((escaping.contains(.upperHex) ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        return Array("\\u".utf8) + [12, 8, 4, 0].map { hex[Int((value >> UInt32($0)) & 0xF)] }
    }
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for scalar in text.unicodeScalars {
        let value = scalar.value
        switch value {
        case 0x22: out += Array("\\\"".utf8)
        case 0x5C: out += Array("\\\\".utf8)
        case 0x2F where escaping.contains(.slash): out += Array("\\/".utf8)
        case 0x0A: out += Array("\\n".utf8)
        case 0..<0x20: out += unit(value)
        case 0x80...0xFFFF where escaping.contains(.nonASCII): out += unit(value)
        case 0x10000... where escaping.contains(.nonASCII):
            let v = value - 0x10000
            out += unit(0xD800 + (v >> 10)) + unit(0xDC00 + (v & 0x3FF))
        default: out += Array(String(scalar).utf8)
        }
    }
    return out + [UInt8(ascii: "\"")]
}

private func jsonAPIDocument(_ entries: [(title: String?, detail: String?, pointer: String?)], _ escaping: Escaping) -> [UInt8] {
    var out = Array("{\"jsonapi\":{\"version\":\"1.0\"},\"errors\":[".utf8)
    for (index, entry) in entries.enumerated() {
        if index > 0 { out += Array(",".utf8) }
        out += Array("{\"status\":\"422\"".utf8)
        if let title = entry.title { out += Array(",\"title\":".utf8) + jsonString(title, escaping) }
        if let detail = entry.detail { out += Array(",\"detail\":".utf8) + jsonString(detail, escaping) }
        if let pointer = entry.pointer {
            out += Array(",\"source\":{\"pointer\":".utf8) + jsonString(pointer, escaping) + Array("}".utf8)
        }
        out += Array("}".utf8)
    }
    return out + Array("]}".utf8)
}
