import CCurlShim
import FoundationEssentials

/// The content coding of an answer, from its Content-Encoding (RFC 9110 §8.4): the codings the
/// client asks for (DefaultHeaderLine) and decodes itself, with the C decoders of CCurlShim.
enum ContentCoding: UInt8 {
    case none = 0   // no Content-Encoding, or only `identity`
    case gzip = 1   // gzip, x-gzip
    case deflate = 2
    case br = 3
    /// One the client does not decode (or more stacked than CONTENT_DECODER_MAX_STACK).
    case unknown = 0xFF

    /// The `decodeFailure` of an answer in a coding the client does not decode.
    static let unknownFailure: Int32 = 100

    /// The coding a Content-Encoding token names, ignoring case; nil for `identity` (no coding).
    static func named(_ token: UnsafeBufferPointer<UInt8>) -> ContentCoding? {
        func equals(_ word: StaticString) -> Bool {
            token.count == word.utf8CodeUnitCount && asciiLowercaseEquals(token.baseAddress!, word)
        }
        if equals("identity") { return nil }
        return equals("gzip") || equals("x-gzip") ? .gzip : equals("deflate") ? .deflate : equals("br") ? .br : .unknown
    }

    var name: String {
        switch self {
        case .gzip: "gzip"
        case .deflate: "deflate"
        case .br: "br"
        case .none, .unknown: "identity"
        }
    }
}

extension CurlTransfer {
    /// The codings listed in `value` of a Content-Encoding line of the answer arriving (after its
    /// colon, or the whole of a line folded from it).
    func noteContentCodings(_ line: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) {
        var start = value.lowerBound
        while start < value.upperBound {
            var end = start
            while end < value.upperBound && line[end] != 0x2C { end += 1 }
            var first = start, last = end
            while first < last && (line[first] == 0x20 || line[first] == 0x09) { first += 1 }
            while last > first && (line[last - 1] == 0x20 || line[last - 1] == 0x09) { last -= 1 }
            if last > first { noteCoding(UnsafeBufferPointer(rebasing: line[first..<last])) }
            start = end + 1
        }
    }

    private func noteCoding(_ token: UnsafeBufferPointer<UInt8>) {
        guard let coding = ContentCoding.named(token) else { return }
        if contentCodings.last == .unknown {
            unknownCodingName = (unknownCodingName ?? "") + ", " + String(decoding: token, as: UTF8.self)
        } else if coding == .unknown || contentCodings.count == Int(CONTENT_DECODER_MAX_STACK) {
            // What cannot be decoded is named as the server listed it.
            unknownCodingName = (contentCodings.map(\.name) + [String(decoding: token, as: UTF8.self)])
                .joined(separator: ", ")
            contentCodings = [.unknown]
        } else {
            // Several codings applied one after another (RFC 9110 §8.4): undone last first.
            contentCodings.append(coding)
        }
    }

    /// The codings as the answer lists them, for messages: "gzip", "gzip, br".
    private var codingNames: String { contentCodings.map(\.name).joined(separator: ", ") }

    /// A new status line (after 100 Continue, or another interim answer): only the final answer's
    /// coding counts.
    func forgetContentCoding() {
        contentCodings.removeAll()
        unknownCodingName = nil
        content_decoder_free(contentDecoder)
        contentDecoder = nil
    }

    /// Body bytes in the answer's coding, decoded into `appendDecodedBody`; false stops the transfer
    /// (its reason in a flag: `decodeFailure`, or those of `appendDecodedBody`).
    func decodeBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if contentCodings.last == .unknown {
            decodeFailure = ContentCoding.unknownFailure
            return false
        }
        if contentDecoder == nil {
            let made = contentCodings.map { Int32($0.rawValue) }.withUnsafeBufferPointer {
                content_decoder_new_stack($0.baseAddress, $0.count)
            }
            guard let made else {
                outOfMemory = true
                return false
            }
            contentDecoder = made
        }
        let result = content_decoder_feed(contentDecoder, bytes.baseAddress, bytes.count, decodedBytesSink,
                                          Unmanaged.passUnretained(self).toOpaque())
        switch Int(result) {
        case CONTENT_DECODER_OK: return true
        case CONTENT_DECODER_STOPPED: return false   // appendDecodedBody set its flag
        case CONTENT_DECODER_NO_MEMORY: outOfMemory = true
        default: decodeFailure = result
        }
        return false
    }

    /// The end of a transfer libcurl completed: an error when the body's compressed stream did
    /// not end with it (cut short, its gzip trailer missing).
    func finishDecoding() -> DrupalError? {
        guard let decoder = contentDecoder else { return nil }
        let result = content_decoder_finish(decoder)
        if result == Int32(CONTENT_DECODER_OK) { return nil }
        decodeFailure = result
        return decodeError()
    }

    /// The DRUPAL_E_DECODE for `decodeFailure`.
    func decodeError() -> DrupalError {
        let call = "\(request.method) \(Redaction.redactURL(request.url))"
        let coding = codingNames
        let says = "\(call): the answer cannot be decoded as its Content-Encoding (\(coding)) says (a protocol "
            + "error of the server)"
        switch decodeFailure {
        case ContentCoding.unknownFailure:
            let name = (unknownCodingName ?? "").escapingControlCharacters()
            let listed = (unknownCodingName ?? "").split(separator: ",").map { Substring($0.trimmedWhitespace) }
            if listed.allSatisfy({ Array($0.utf8).withUnsafeBufferPointer(ContentCoding.named) != .unknown }) {
                return DrupalError(.decode, "\(call): the answer's Content-Encoding \"\(name)\" stacks more than "
                                   + "\(CONTENT_DECODER_MAX_STACK) codings (a protocol error of the server)")
            }
            return DrupalError(.decode, "\(call): the answer's Content-Encoding \"\(name)\" is not a coding this "
                               + "client decodes (\(DefaultHeaderLine.decodedCodings); a protocol error of the "
                               + "server, which was not asked for it)")
        case Int32(CONTENT_DECODER_TRUNCATED):
            return DrupalError(.decode, "\(call): the answer's \(coding) body ends early: its compressed data stops "
                               + "before the end of its stream (Content-Encoding: \(coding); a protocol error of "
                               + "the server, or a connection cut short)")
        case Int32(CONTENT_DECODER_TRAILING):
            let what = contentCodings == [.gzip] ? "bytes that are not another gzip member" : "bytes"
            return DrupalError(.decode, "\(says): \(what) follow the end of its compressed data")
        default:
            let detail = contentDecoder.map { String(cString: content_decoder_detail($0)) } ?? ""
            return DrupalError(.decode, "\(says)" + (detail.isEmpty ? "" : ": \(detail)"))
        }
    }
}

/// The decoder's output, into the transfer whose body it is (the engine holds the transfer).
private let decodedBytesSink: @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int32 = {
    context, bytes, count in
    guard let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef {
        $0.appendDecodedBody(UnsafeRawBufferPointer(start: bytes, count: count))
    } ? 1 : 0
}
