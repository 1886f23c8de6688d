import FoundationEssentials

/// XML as Drupal's serializer (Symfony's XmlEncoder) reads and writes it, for the user routes,
/// which take every serializer format, xml included (serialization's UserRouteAlterSubscriber;
/// the fake's xmlenc.py does the same).
/// - decode: the root element's children as an object (a repeated name a list, an element with
///   children an object, text a string); nil for an empty body, a document type or bad XML,
///   which the user controllers do not catch (500).
/// - encode: `<?xml version="1.0"?>\n<response>...</response>\n`, lists as repeated elements,
///   true/false as 1/0, text with < > & inside CDATA.
enum MockXML {
    static func decode(_ data: Data) -> JSONValue? {
        var parser = Parser(bytes: Array(data))
        return parser.document()
    }

    /// What an element holds: a value (a list is repeated elements), or ordered children.
    enum Content {
        case value(JSONValue)
        case members([(String, Content)])
    }

    static func encode(_ members: [(String, Content)]) -> Data {
        Data(("<?xml version=\"1.0\"?>\n<response>" + elements(members) + "</response>\n").utf8)
    }

    private static func elements(_ members: [(String, Content)]) -> String {
        members.map { name, content in
            switch content {
            case .members(let children): return "<\(name)>" + elements(children) + "</\(name)>"
            case .value(let value): return (value.arrayValue ?? [value]).map { "<\(name)>" + text($0) + "</\(name)>" }.joined()
            }
        }.joined()
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .bool(let flag): return flag ? "1" : "0"
        case .null: return ""
        case .string(let string):
            if string.contains(where: { "<>&".contains($0) }) { return "<![CDATA[" + string + "]]>" }
            return string
        default: return value.idString ?? ""
        }
    }

    /// A small reader of element trees: a declaration, elements, text, entities and CDATA.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        /// Elements open now: a body nested deeper than `JSONParser.maxDepth` is refused, not
        /// read into a stack overflow.
        var depth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func document() -> JSONValue? {
            skipSpace()
            if starts("<?xml") {
                guard let end = find("?>") else { return nil }
                index = end + 2
            }
            skipSpace()
            guard !starts("<!"), let root = element() else { return nil }   // no document type
            skipSpace()
            return index == bytes.count ? root : nil
        }

        /// One element, `index` at its "<": its value.
        private mutating func element() -> JSONValue? {
            guard depth < JSONParser.maxDepth, starts("<"), let name = name(after: 1) else { return nil }
            depth += 1
            defer { depth -= 1 }
            index += 1 + name.utf8.count
            skipSpace()
            if starts("/>") { index += 2; return .string("") }
            guard starts(">") else { return nil }   // attributes are not read
            index += 1
            var text: [UInt8] = []
            var members: [(String, JSONValue)] = []
            while index < bytes.count {
                if starts("</") {
                    guard name == self.name(after: 2) else { return nil }
                    index += 2 + name.utf8.count
                    skipSpace()
                    guard starts(">") else { return nil }
                    index += 1
                    return members.isEmpty ? .string(String(decoding: text, as: UTF8.self)) : MockXML.object(members)
                } else if starts("<![CDATA[") {
                    guard let end = find("]]>") else { return nil }
                    text += bytes[(index + 9)..<end]
                    index = end + 3
                } else if starts("<") {
                    guard let childName = self.name(after: 1), let child = element() else { return nil }
                    members.append((childName, child))
                } else if bytes[index] == UInt8(ascii: "&") {
                    guard let entity = entity() else { return nil }
                    text += Array(entity.utf8)
                } else {
                    text.append(bytes[index])
                    index += 1
                }
            }
            return nil
        }

        private mutating func entity() -> String? {
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ";")), end - index <= 10 else { return nil }
            let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            index = end + 1
            switch body {
            case "lt": return "<"
            case "gt": return ">"
            case "amp": return "&"
            case "quot": return "\""
            case "apos": return "'"
            default:
                let number = body.hasPrefix("#x") ? UInt32(body.dropFirst(2), radix: 16)
                    : body.hasPrefix("#") ? UInt32(body.dropFirst(), radix: 10) : nil
                return number.flatMap(UnicodeScalar.init).map { String($0) }
            }
        }

        private func name(after offset: Int) -> String? {
            var end = index + offset
            while end < bytes.count, bytes[end] == UInt8(ascii: "_") || bytes[end] == UInt8(ascii: "-")
                    || bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ":")
                    || (bytes[end] >= 0x30 && bytes[end] <= 0x39) || (bytes[end] | 0x20 >= 0x61 && bytes[end] | 0x20 <= 0x7A)
                    || bytes[end] >= 0x80 {
                end += 1
            }
            return end > index + offset ? String(decoding: bytes[(index + offset)..<end], as: UTF8.self) : nil
        }

        private func starts(_ text: String) -> Bool {
            let pattern = Array(text.utf8)
            return bytes.count - index >= pattern.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
        }

        private func find(_ text: String) -> Int? {
            let pattern = Array(text.utf8)
            guard bytes.count >= pattern.count else { return nil }
            return (index...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
    }

    /// Children as XmlEncoder gives them: a name seen twice becomes a list.
    private static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for (name, value) in members {
            switch object[name] {
            case nil: object[name] = value
            case .array(let list)?: object[name] = .array(list + [value])
            case let first?: object[name] = .array([first, value])
            }
        }
        return .object(object)
    }
}
