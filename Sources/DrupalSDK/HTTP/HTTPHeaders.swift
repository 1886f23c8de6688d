import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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

/// Header lines as received, each kept whole behind its length in one byte buffer, and read
/// (split at the colon, trimmed, compared) only when a field is asked for: a response is usually
/// asked for one header (Set-Cookie), and indexing every line as it arrived cost more than that.
struct RawHeaderBlock: Sendable {
    /// Records: a line's byte count (native UInt32), then the line as libcurl delivered it.
    private let records: OwnedBytes?

    init(records: OwnedBytes? = nil) { self.records = records }

    /// Appends one received line as a record; false when the buffer could not grow. (libcurl
    /// refuses a header line over 100 KiB, so every length fits the UInt32.)
    static func append(line: UnsafeRawBufferPointer, to buffer: inout ReceiveBuffer) -> Bool {
        guard let record = buffer.extend(by: 4 + line.count) else { return false }
        record.storeBytes(of: UInt32(truncatingIfNeeded: line.count), as: UInt32.self)
        if let source = line.baseAddress { (record + 4).copyMemory(from: source, byteCount: line.count) }
        return true
    }

    /// Joins `text` to the line of the record at `offset`, the buffer's last, with a space (a
    /// folded line, RFC 9112 §5.2): "Name: first\r\n" and "second" make "Name: first second\r\n".
    /// False when the buffer could not grow.
    static func continueLastRecord(at offset: Int, with text: UnsafeRawBufferPointer, in buffer: inout ReceiveBuffer) -> Bool {
        guard let line = recordLine(at: offset, in: buffer), offset + 4 + line.count == buffer.count else {
            return true   // not the last record
        }
        var ending = 0
        while ending < line.count && (line[line.count - ending - 1] == 0x0D || line[line.count - ending - 1] == 0x0A) {
            ending += 1
        }
        buffer.removeLast(ending)
        let space: StaticString = " ", lineEnd: StaticString = "\r\n"
        guard buffer.append(UnsafeRawBufferPointer(start: space.utf8Start, count: 1)), buffer.append(text),
              buffer.append(UnsafeRawBufferPointer(start: lineEnd.utf8Start, count: 2)) else { return false }
        buffer.address(of: offset)?.storeBytes(of: UInt32(truncatingIfNeeded: buffer.count - offset - 4), as: UInt32.self)
        return true
    }

    /// The line of the record at `offset` (nil when none starts there); valid until the buffer grows.
    static func recordLine(at offset: Int, in buffer: ReceiveBuffer) -> UnsafeBufferPointer<UInt8>? {
        guard let record = buffer.address(of: offset) else { return nil }
        return UnsafeBufferPointer(start: (record + 4).assumingMemoryBound(to: UInt8.self),
                                   count: Int(record.loadUnaligned(as: UInt32.self)))
    }

    var count: Int {
        var count = 0
        forEachField { _, _ in
            count += 1
            return true
        }
        return count
    }

    func fieldStrings() -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        forEachField { line, nameCount in
            result.append((string(UnsafeBufferPointer(rebasing: line[..<nameCount])), value(line, nameCount)))
            return true
        }
        return result
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

    /// Calls `body` with each line as received until it says stop.
    private func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        guard let records else { return }
        let base = records.start
        var offset = 0
        while offset + 4 <= records.count {
            let length = Int(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let line = UnsafeBufferPointer(start: (base + offset + 4).assumingMemoryBound(to: UInt8.self), count: length)
            offset += 4 + length
            if !body(line) { return }
        }
    }

    /// Calls `body` with each field's line and the length of its name (up to the first colon)
    /// until it says stop. Lines without a colon are not fields.
    private func forEachField(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Bool) {
        forEachLine { line in
            guard let start = line.baseAddress, let colon = memchr(start, 0x3A, line.count) else { return true }
            return body(line, UnsafeRawPointer(colon) - UnsafeRawPointer(start))
        }
    }

    /// Calls `body` with each value whose name matches (ASCII case-insensitively) until it says
    /// stop. A name is what comes before a line's first colon, so a wanted name with a colon
    /// matches nothing, and one without matches where the line has a colon just after it.
    private func forEachValue(named name: String, _ body: (String) -> Bool) {
        name.withUTF8Bytes { wanted in
            guard !wanted.contains(0x3A) else { return }
            forEachLine { line in
                guard line.count > wanted.count && line[wanted.count] == 0x3A
                        && asciiCaseInsensitiveEqual(line, wanted) else { return true }
                return body(value(line, wanted.count))
            }
        }
    }

    /// Whether the line starts with `wanted`, letters compared without regard to case.
    private func asciiCaseInsensitiveEqual(_ line: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<wanted.count {
            let a = line[index], b = wanted[index]
            if a == b { continue }
            let folded = a | 0x20
            if folded != b | 0x20 || folded < 0x61 || folded > 0x7A { return false }
        }
        return true
    }

    /// The value after the colon at `nameCount`.
    private func value(_ line: UnsafeBufferPointer<UInt8>, _ nameCount: Int) -> String {
        string(UnsafeBufferPointer(rebasing: line[headerValueRange(line, colonAt: nameCount)]))
    }

    private func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// Where a header line's value lies: after the colon at `colon`, without the SP, HT, CR and LF
/// around it (the space HTTP allows, and the line's end).
func headerValueRange(_ line: UnsafeBufferPointer<UInt8>, colonAt colon: Int) -> Range<Int> {
    func isHeaderSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
    var start = colon + 1, end = line.count
    while start < end && isHeaderSpace(line[start]) { start += 1 }
    while end > start && isHeaderSpace(line[end - 1]) { end -= 1 }
    return start..<end
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
    /// Throws `.invalidArgument` for a header name that is not an HTTP token, a value with a
    /// control character other than a tab (CR or LF could smuggle a second header), or a header
    /// that frames the request (`HeaderSafety`).
    public func validate() throws {
        for (name, value) in fields {
            if let problem = HeaderSafety.problem(name: name, value: value) { throw DrupalError.invalidArgument(problem) }
        }
    }
}
