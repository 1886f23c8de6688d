// libFuzzer target: header validation (HeaderSafety, HTTPHeaders.validate), header lines as
// received (CurlTransfer.appendHeaderLine into RawHeaderBlock's records), lookup and redaction.
//
// The input is cut at 0xFF bytes into up to 16 pieces: read in pairs they are (name, value)
// fields to send; read one by one they are header lines as libcurl hands them over. Asserted:
//  - HeaderSafety.problem is nil exactly when the name is a non-empty RFC 9110 token that is not
//    a header framing the request (Content-Length, Transfer-Encoding, Host, Connection, Upgrade,
//    TE, Trailer, Keep-Alive, Proxy-Connection, in any case) and the value has no control
//    character but a tab (RFC 9110), and HTTPHeaders.validate() throws exactly when a field has a
//    problem: every value with CR, LF, NUL or another control character is refused;
//  - received lines become exactly the fields an independent parser finds: the name before the
//    first ":", the value after it without surrounding SP, HT, CR, LF; a line without ":" is
//    skipped; a status line ("HTTP/...") starts over; after a blank line (1 or 2 bytes, CR and LF
//    only: the end of a header section) the lines until the next status line are trailers,
//    skipped; a line starting with a space or tab (obs-fold) joins the field line before it with
//    one space (RFC 9112 §5.2), and is dropped when no field line came just before it;
//  - headers as received (raw bytes) and the same headers built from Strings are equal and answer
//    every lookup (subscript, values(for:), contains) alike, and as the spec says: the fields whose
//    name equals the asked one ASCII case-insensitively, in order (for names that are valid UTF-8;
//    raw lookup compares the bytes as received);
//  - set leaves exactly one value for the name, remove none, add appends; other names are kept;
//  - a redacted request shows "<redacted>" for every Authorization, Cookie, Set-Cookie,
//    X-CSRF-Token and Proxy-Authorization header, whatever its case; a redacted response too,
//    its other headers with control characters shown as "\u{hex}" (a tab kept in values).
@testable import DrupalSDK

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeaders(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let pieces = FuzzInput(data, size).pieces(limit: 16)
    checkValidation(pieces)
    let received = checkReceivedLines(pieces)
    checkLookup(received)
    checkMutations(received, pieces)
    checkRedaction(received)
    return 0
}

private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
        return true
    default:
        return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

private let framingNames: Set<[UInt8]> = Set(["content-length", "transfer-encoding", "host", "connection", "upgrade", "te",
                                          "trailer", "keep-alive", "proxy-connection"].map { Array($0.utf8) })

private func oracleAcceptable(name: String, value: String) -> Bool {
    !name.utf8.isEmpty && name.utf8.allSatisfy(isTokenByte) && !value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
        && !framingNames.contains(asciiLowercased(name))
}

private func checkValidation(_ pieces: [[UInt8]]) {
    var fields: [(name: String, value: String)] = []
    for index in stride(from: 0, to: pieces.count - 1, by: 2) {
        fields.append((pieces[index].text, pieces[index + 1].text))
    }
    for (name, value) in fields {
        let problem = HeaderSafety.problem(name: name, value: value)
        require((problem == nil) == oracleAcceptable(name: name, value: value),
                "HeaderSafety \(problem == nil ? "accepts" : "refuses") \(shown(name)): \(shown(value))")
    }
    let refused = (try? HTTPHeaders(fields).validate()) == nil
    require(refused == fields.contains { !oracleAcceptable(name: $0.name, value: $0.value) },
            "HTTPHeaders.validate \(refused ? "refuses" : "accepts") \(fields)")
}

private func isHeaderSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }

/// The bytes without the SP, HT, CR and LF around them.
private func trimmed(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var start = bytes.startIndex, end = bytes.endIndex
    while start < end && isHeaderSpace(bytes[start]) { start += 1 }
    while end > start && isHeaderSpace(bytes[end - 1]) { end -= 1 }
    return Array(bytes[start..<end])
}

/// Feeds every piece to a transfer as a received header line; returns what it kept.
private func checkReceivedLines(_ pieces: [[UInt8]]) -> HTTPHeaders {
    let transfer = CurlTransfer(request: HTTPRequest(method: "GET", url: "http://fuzz.invalid/"), maxBodySize: 1 << 16)
    // The field lines as kept, a folded line (one starting with a space or tab) joined to the
    // field line before it with a space (RFC 9112 §5.2), unless a line that is no field came between.
    var kept: [[UInt8]] = []
    var canFold = false
    var inTrailers = false
    for line in pieces {
        require(line.withUnsafeBytes { transfer.appendHeaderLine($0) }, "a header line was refused (out of memory)")
        if line.starts(with: "HTTP/".utf8) {
            kept.removeAll()
            (inTrailers, canFold) = (false, false)
            continue
        }
        if !line.isEmpty && line.count <= 2 && line.allSatisfy({ $0 == 0x0D || $0 == 0x0A }) {
            inTrailers = true
            continue
        }
        guard !inTrailers, let first = line.first else { continue }
        if first == 0x20 || first == 0x09 {
            let text = trimmed(line[...])
            guard canFold, !text.isEmpty else { continue }
            var joined = kept.removeLast()
            while let last = joined.last, last == 0x0D || last == 0x0A { joined.removeLast() }
            kept.append(joined + [0x20] + text + [0x0D, 0x0A])
            continue
        }
        canFold = line.contains(UInt8(ascii: ":"))
        if canFold { kept.append(line) }
    }
    let expected = kept.map { line -> (name: [UInt8], value: [UInt8]) in
        let colon = line.firstIndex(of: UInt8(ascii: ":"))!
        return (Array(line[..<colon]), trimmed(line[(colon + 1)...]))
    }
    let received = transfer.takeHeaders()
    let fields = received.fields
    require(fields.count == expected.count && zip(fields, expected).allSatisfy {
        $0.name == $1.name.text && $0.value == $1.value.text
    }, "received lines became \(fields), expected \(expected.map { ($0.name.text, $0.value.text) })")
    require(received == HTTPHeaders(fields), "received headers differ from the same headers built from Strings")
    return received
}

private func checkLookup(_ received: HTTPHeaders) {
    let built = HTTPHeaders(received.fields)
    var names = received.fields.map(\.name)
    names += names.map { String(decoding: asciiLowercased($0), as: UTF8.self) }
    names += names.map(asciiUppercased)
    names += ["Set-Cookie", "content-type", ""]
    for name in names where isValidUTF8(name) {
        let wanted = asciiLowercased(name)
        let expected = received.fields.filter { asciiLowercased($0.name) == wanted }.map(\.value)
        require(received.values(for: name) == expected, "raw values(for: \(shown(name))) is not the matching fields'")
        require(built.values(for: name) == expected, "values(for: \(shown(name))) is not the matching fields'")
        require(received[name] == expected.first && built[name] == expected.first, "subscript \(shown(name)) is wrong")
        require(received.contains(name) == !expected.isEmpty, "contains(\(shown(name))) is wrong")
    }
}

private func asciiUppercased(_ text: String) -> String {
    String(decoding: text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
}

/// False for names with U+FFFD: they may be repaired invalid bytes, which raw lookup compares as
/// received (so such names are skipped, not judged).
private func isValidUTF8(_ name: String) -> Bool { !name.unicodeScalars.contains("\u{FFFD}") }

private func checkMutations(_ received: HTTPHeaders, _ pieces: [[UInt8]]) {
    guard let name = received.fields.first?.name, isValidUTF8(name) else { return }
    let others = received.fields.filter { asciiLowercased($0.name) != asciiLowercased(name) }
    var headers = received
    headers.set(asciiUppercased(name), pieces.last?.text ?? "")
    require(headers.values(for: name) == [pieces.last?.text ?? ""], "set leaves other values for \(shown(name))")
    require(headers.fields.filter { asciiLowercased($0.name) != asciiLowercased(name) }.elementsEqual(others) {
        $0.name == $1.name && $0.value == $1.value
    }, "set changes other headers")
    headers.add(name, "added")
    require(headers.values(for: name).last == "added" && headers.count == others.count + 2, "add does not append")
    headers.remove(String(decoding: asciiLowercased(name), as: UTF8.self))
    require(!headers.contains(name) && headers.count == others.count, "remove leaves a value for \(shown(name))")
}

private let secretNames: Set<[UInt8]> = Set(["authorization", "cookie", "set-cookie", "x-csrf-token",
                                             "proxy-authorization"].map { Array($0.utf8) })

private func checkRedaction(_ received: HTTPHeaders) {
    var headers = received
    headers.add("Cookie", "SESSabc=secret")
    headers.add("AUTHORIZATION", "Basic c2VjcmV0")
    let request = HTTPRequest(method: "GET", url: "http://fuzz.invalid/", headers: headers)
    var expected = ["GET http://fuzz.invalid/"]
    for (name, value) in headers {
        let secret = Redaction.isSecretHeader(name)
        require(secret || !secretNames.contains(asciiLowercased(name)), "the secret header \(shown(name)) is not redacted")
        expected.append("\(name): \(secret ? "<redacted>" : value)")
    }
    require(request.redactedDescription == expected.joined(separator: "\n"), "the redacted description is not as expected")
    // A response's headers are the server's text: printed with their control characters shown
    // (a tab kept in values), a Location's URL as `redactURL` shows it (user info and secret
    // query values hidden).
    let response = HTTPResponse(status: 200, headers: headers)
    let responseLines = headers.map { name, value in
        let url = ["location", "content-location"].contains(String(decoding: asciiLowercased(name), as: UTF8.self))
        return controlCharactersShown(name) + ": "
            + (Redaction.isSecretHeader(name) ? "<redacted>"
               : controlCharactersShown(url ? Redaction.redactURL(value) : value, keeping: [0x09]))
    }
    require(response.redactedDescription == (["HTTP 200"] + responseLines).joined(separator: "\n"),
            "the redacted response description is not as expected")
    // The property itself, not only the function's output: a URL header shows no user info.
    for (name, value) in headers where ["location", "content-location"].contains(String(decoding: asciiLowercased(name), as: UTF8.self)) {
        let shown = Array(Redaction.redactURL(value).utf8)
        if let userinfo = PathSafety.userinfoRange(shown) {
            require(Array(shown[userinfo]) == Array("<redacted>@".utf8), "a URL header shows its user info")
        }
    }
}
