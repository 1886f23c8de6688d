/// An ordered list of header fields with case-insensitive lookup, as HTTP defines them.
///
/// Headers that arrive off the wire are kept as the raw bytes libcurl delivered (`RawHeaderBlock`)
/// and become Strings only when a field is read: most responses are never asked for most of
/// their headers, and making a String of each one cost more than the rest of reading them.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    private enum Storage: Sendable {
        case fields([(name: String, value: String)])
        case raw(RawHeaderBlock)
    }

    private var storage: Storage

    public init(_ fields: [(name: String, value: String)] = []) { storage = .fields(fields) }

    init(raw: RawHeaderBlock) { storage = .raw(raw) }

    /// Every field, in order, as Strings.
    public var fields: [(name: String, value: String)] {
        switch storage {
        case .fields(let fields): return fields
        case .raw(let block): return block.fieldStrings()
        }
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public var count: Int {
        switch storage {
        case .fields(let fields): return fields.count
        case .raw(let block): return block.count
        }
    }

    /// The first value of a header, compared without regard to case.
    public subscript(name: String) -> String? {
        switch storage {
        case .fields(let fields): return fields.first { $0.name.caseInsensitiveEquals(name) }?.value
        case .raw(let block): return block.firstValue(named: name)
        }
    }

    /// Every value of a header (e.g. several Set-Cookie lines).
    public func values(for name: String) -> [String] {
        switch storage {
        case .fields(let fields): return fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
        case .raw(let block): return block.values(named: name)
        }
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public mutating func add(_ name: String, _ value: String) {
        var fields = takeFields()
        fields.append((name, value))
        storage = .fields(fields)
    }

    /// Replaces every value of the header with one value.
    public mutating func set(_ name: String, _ value: String) {
        var fields = takeFields()
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        fields.append((name, value))
        storage = .fields(fields)
    }

    public mutating func remove(_ name: String) {
        var fields = takeFields()
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        storage = .fields(fields)
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// The fields, leaving the storage empty so a mutation does not copy the array.
    private mutating func takeFields() -> [(name: String, value: String)] {
        let fields = self.fields
        storage = .fields([])
        return fields
    }
}

/// Header lines as received: one byte buffer and where each name and value lies in it.
struct RawHeaderBlock: Sendable {
    private struct Field: Sendable {
        var nameStart: Int32
        var nameCount: Int32
        var valueStart: Int32
        var valueCount: Int32
    }

    private var bytes: [UInt8] = []
    private var ranges: [Field] = []

    var count: Int { ranges.count }

    init() {}

    /// Empties the block for a new response (after a 100 Continue or a redirect), with room for
    /// a typical set of headers.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        ranges.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(512)
        ranges.reserveCapacity(16)
    }

    /// Appends one field from a header line: the name is `line[..<nameCount]`, the value
    /// `line[valueStart...]` (already trimmed). One copy of the line's bytes.
    mutating func append(line: UnsafeBufferPointer<UInt8>, nameCount: Int, valueStart: Int) {
        let base = bytes.count
        bytes.append(contentsOf: line)
        ranges.append(Field(nameStart: Int32(truncatingIfNeeded: base), nameCount: Int32(truncatingIfNeeded: nameCount),
                            valueStart: Int32(truncatingIfNeeded: base + valueStart),
                            valueCount: Int32(truncatingIfNeeded: line.count - valueStart)))
    }

    func fieldStrings() -> [(name: String, value: String)] {
        bytes.withUnsafeBufferPointer { buffer in
            ranges.map { (string(buffer, $0.nameStart, $0.nameCount), string(buffer, $0.valueStart, $0.valueCount)) }
        }
    }

    func firstValue(named name: String) -> String? {
        var result: String?
        forEachValue(named: name) { value in
            result = value
            return false
        }
        return result
    }

    func values(named name: String) -> [String] {
        var result: [String] = []
        forEachValue(named: name) { value in
            result.append(value)
            return true
        }
        return result
    }

    /// Calls `body` with each value whose name matches (ASCII case-insensitively) until it says stop.
    private func forEachValue(named name: String, _ body: (String) -> Bool) {
        var name = name
        name.withUTF8 { wanted in
            bytes.withUnsafeBufferPointer { buffer in
                for field in ranges where Int(field.nameCount) == wanted.count
                    && asciiCaseInsensitiveEqual(buffer, Int(field.nameStart), wanted) {
                    if !body(string(buffer, field.valueStart, field.valueCount)) { return }
                }
            }
        }
    }

    private func asciiCaseInsensitiveEqual(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int,
                                           _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<wanted.count {
            let a = buffer[start + index], b = wanted[index]
            if a == b { continue }
            let folded = a | 0x20
            if folded != b | 0x20 || folded < 0x61 || folded > 0x7A { return false }
        }
        return true
    }

    private func string(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int32, _ count: Int32) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(start)..<Int(start + count)]), as: UTF8.self)
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names need; no allocation.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        if self == other { return true }
        return zip(utf8, other.utf8).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
        }
    }
}

extension HTTPHeaders {
    /// Throws `.invalidArgument` for a header name that is not an HTTP token or a value with
    /// CR, LF or NUL (which could smuggle a second header).
    public func validate() throws {
        for (name, value) in fields {
            if let problem = HeaderSafety.problem(name: name, value: value) { throw DrupalError.invalidArgument(problem) }
        }
    }
}
