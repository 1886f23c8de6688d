/// An ordered list of header fields with case-insensitive lookup, as HTTP defines them.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public var count: Int { fields.count }

    /// The first value of a header, compared without regard to case.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of a header (e.g. several Set-Cookie lines).
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Replaces every value of the header with one value.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
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
