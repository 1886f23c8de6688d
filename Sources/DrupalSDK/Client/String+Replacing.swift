#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// Every occurrence of `target` replaced (FoundationEssentials has no such method).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension String {
    /// Runs `body` over the UTF-8 bytes in one buffer: a plain loop over bytes, without the
    /// per-byte cost of iterating `utf8` (this runs for every path, id and query item).
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        // Native strings (all of them on Linux) lend their bytes in place. `withUTF8` would need
        // a mutable copy: a retain and a release, ~7 ns a call, at ~20 calls a request.
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self   // withUTF8 makes the copy contiguous
        return try copy.withUTF8(body)
    }

    /// Whether the string starts with `prefix`, byte for byte: `hasPrefix` makes a C string copy
    /// and `utf8.starts(with:)` walks both views generically, at every request's URL.
    func hasUTF8Prefix(_ prefix: StaticString) -> Bool {
        withUTF8Bytes { bytes in
            bytes.count >= prefix.utf8CodeUnitCount
                && memcmp(bytes.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
        }
    }

    func utf8AllSatisfy(_ predicate: (UInt8) -> Bool) -> Bool {
        withUTF8Bytes { bytes in
            for byte in bytes where !predicate(byte) { return false }
            return true
        }
    }
}

extension String {
    /// The parts joined in one allocation, without the per-append work of `+=` (every request's
    /// path and URL are built this way). Fixed arity: a variadic list would allocate an array.
    static func concatenating(_ a: String, _ b: String, _ c: String = "", _ d: String = "") -> String {
        let total = a.utf8.count + b.utf8.count + c.utf8.count + d.utf8.count
        return String(unsafeUninitializedCapacity: total) { buffer in
            var offset = 0
            func append(_ part: String) {
                part.withUTF8Bytes { bytes in
                    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
                    UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(from: source, byteCount: bytes.count)
                    offset += bytes.count
                }
            }
            append(a)
            append(b)
            append(c)
            append(d)
            return offset
        }
    }
}
