import FoundationEssentials

/// Any JSON value. FoundationEssentials has no JSONSerialization, so untyped bodies
/// (error messages, login answers, the mock's entities) decode into this.
public enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { try container.encode(Int64(value)) }
            else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses JSON bytes; nil when they are not JSON (see `JSONParser`).
    public static func parse(_ data: Data) -> JSONValue? { JSONParser.parse(data) }

    public func encoded() -> Data {
        (try? JSONEncoder().encode(self)) ?? Data("null".utf8)
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// A string or a number as text: Drupal sends ids either way ("uid": "1" or 1).
    public var idString: String? {
        switch self {
        case .string(let value): return value
        case .number(let value):
            // exactly: a whole number past Int64 (a server's 1e300) trapped in the conversion.
            return Int64(exactly: value).map { String($0) } ?? String(value)
        default: return nil
        }
    }

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}

extension Data {
    /// Whether the bytes, less surrounding whitespace, open and close like a JSON object (or an
    /// array): a check of shape only (the caller parses), cheap enough for every entity read.
    func looksLikeJSON(object: Bool) -> Bool {
        let open = object ? UInt8(ascii: "{") : UInt8(ascii: "["), close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        // On the raw bytes: Data's own index operations cost ~1k instructions per answer here
        // (and Character's asciiValue ~100 each).
        return withUnsafeBytes { bytes in
            let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }),
                  first < last else { return false }
            return bytes[first] == open && bytes[last] == close
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines.
    var trimmedWhitespace: String {
        // Character.isWhitespace also covers "\r\n", which Swift treats as one Character.
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
