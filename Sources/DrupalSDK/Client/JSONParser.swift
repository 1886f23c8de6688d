import FoundationEssentials

/// Parses JSON bytes into a `JSONValue` in one pass, without recursion: what `JSONValue.parse`
/// uses for every body the library reads untyped (errors, login and token answers, JSON:API
/// documents). JSONDecoder into `JSONValue` had to guess each value's type by trying Bool, then
/// Double, then String..., and every failed guess built an error with its whole coding path: a
/// 43 KB error body nested 500 deep cost 23 s of CPU, after the transfer, where no timeout
/// applies. Accepts what RFC 8259 does (any value at the top), up to `maxDepth` levels.
struct JSONParser {
    /// As JSONDecoder's limit, so the same documents are accepted.
    static let maxDepth = 512

    /// An open array or object, changed in place on the stack (an enum's payload taken out and
    /// put back was copied at each item: quadratic).
    private struct Container {
        let isArray: Bool
        var items: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        /// The key of the member whose value comes next.
        var key = ""
    }

    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The value `data` holds, or nil when it is not JSON (or nests deeper than `maxDepth`).
    static func parse(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { bytes in
            var parser = JSONParser(bytes)
            return parser.document()
        }
    }

    private mutating func document() -> JSONValue? {
        var open: [Container] = []
        while true {
            // A value: a scalar, an empty container, or the start of one (then its first item).
            skipWhitespace()
            guard let byte = peek() else { return nil }
            var value: JSONValue
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                index += 1
                guard open.count < JSONParser.maxDepth else { return nil }
                skipWhitespace()
                if byte == UInt8(ascii: "[") {
                    if take(UInt8(ascii: "]")) { value = .array([]); break }
                    open.append(Container(isArray: true))
                    continue
                }
                if take(UInt8(ascii: "}")) { value = .object([:]); break }
                guard let key = memberKey() else { return nil }
                open.append(Container(isArray: false, key: key))
                continue
            case UInt8(ascii: "\""):
                guard let text = string() else { return nil }
                value = .string(text)
            case UInt8(ascii: "t"):
                guard literal("true") else { return nil }
                value = .bool(true)
            case UInt8(ascii: "f"):
                guard literal("false") else { return nil }
                value = .bool(false)
            case UInt8(ascii: "n"):
                guard literal("null") else { return nil }
                value = .null
            default:
                guard let number = number() else { return nil }
                value = .number(number)
            }
            // Hand the value to the container it is in; a container it closes is in turn a value.
            while true {
                skipWhitespace()
                guard let last = open.indices.last else { return index == bytes.count ? value : nil }
                if open[last].isArray {
                    open[last].items.append(value)
                    if take(UInt8(ascii: ",")) { break }
                    guard take(UInt8(ascii: "]")) else { return nil }
                    value = .array(open.removeLast().items)
                } else {
                    let key = open[last].key
                    open[last].members[key] = value
                    if take(UInt8(ascii: ",")) {
                        skipWhitespace()
                        guard let next = memberKey() else { return nil }
                        open[last].key = next
                        break
                    }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    value = .object(open.removeLast().members)
                }
            }
        }
    }

    // MARK: Tokens

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// `"key" :`, whitespace allowed around the colon.
    private mutating func memberKey() -> String? {
        guard peek() == UInt8(ascii: "\""), let key = string() else { return nil }
        skipWhitespace()
        return take(UInt8(ascii: ":")) ? key : nil
    }

    /// A string at `index` (its opening quote). Invalid UTF-8 and raw control characters are
    /// refused; a lone surrogate escape becomes U+FFFD (PHP never writes one; a message stays
    /// readable).
    private mutating func string() -> String? {
        index += 1
        let start = index
        // Most strings have no escape: validated straight from the buffer.
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { index += 1 }
        guard let byte = peek(), byte >= 0x20 else { return nil }
        if byte == UInt8(ascii: "\"") {
            index += 1
            return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
        }
        var text = Array(bytes[start..<index])
        while let byte = peek() {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { return nil }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = escapedScalar() else { return nil }
                    UTF8.encode(scalar) { text.append($0) }
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                text.append(byte)
            }
        }
        return nil
    }

    /// The scalar of a `\u` escape (after the "u"), joining a surrogate pair.
    private mutating func escapedScalar() -> Unicode.Scalar? {
        guard let unit = hex4() else { return nil }
        if (0xD800...0xDBFF).contains(unit), bytes.count - index >= 6,
           bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
            let mark = index
            index += 2
            if let low = hex4(), (0xDC00...0xDFFF).contains(low) {
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            index = mark
        }
        return Unicode.Scalar(unit) ?? "\u{FFFD}"
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number as RFC 8259 writes it; nil for anything else or one too large for a Double.
    private mutating func number() -> Double? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            // No leading zeros.
        } else {
            guard digits() > 0 else { return nil }
        }
        if take(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }
}
