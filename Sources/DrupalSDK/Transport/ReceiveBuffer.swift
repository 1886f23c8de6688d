import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Bytes as libcurl delivers them (a response's body, its header lines), in one malloc'ed buffer
/// that becomes the response's `Data` (or `OwnedBytes`) without a copy. Growing a `Data` chunk by
/// chunk (its storage's exclusivity checks, capacity and replace calls) cost ~540 instructions a
/// response more than this. Owned by one transfer on the engine thread; `release` frees a buffer
/// never taken.
struct ReceiveBuffer {
    private var bytes: UnsafeMutableRawPointer?
    private(set) var count = 0
    private var capacity = 0

    /// Makes room for `total` bytes (a Content-Length); false when memory ran out. One byte more
    /// is allocated, for the NUL that `take` puts after the bytes.
    mutating func reserve(_ total: Int) -> Bool {
        guard total > capacity else { return true }
        guard total < Int.max, let grown = realloc(bytes, total + 1) else { return false }
        bytes = grown
        capacity = total
        return true
    }

    /// Appends a chunk; false when memory ran out (the buffer is left as it was).
    mutating func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard let source = chunk.baseAddress, chunk.count > 0 else { return true }
        guard let destination = extend(by: chunk.count) else { return false }
        destination.copyMemory(from: source, byteCount: chunk.count)
        return true
    }

    /// Counts `byteCount` more bytes in and returns where they go, for the caller to write; nil
    /// when memory ran out (the buffer is left as it was).
    mutating func extend(by byteCount: Int) -> UnsafeMutableRawPointer? {
        let needed = count + byteCount
        if needed > capacity && !reserve(max(needed, capacity * 2, 512)) { return nil }
        let start = bytes! + count
        count = needed
        return start
    }

    /// Forgets the bytes, keeping the memory for the next ones.
    mutating func removeAll() { count = 0 }

    /// Forgets the last `byteCount` bytes (at most all of them).
    mutating func removeLast(_ byteCount: Int) { count -= min(max(byteCount, 0), count) }

    /// Where the byte at `offset` lies, for rewriting bytes already appended; nil past the end.
    /// Valid until the buffer next grows.
    func address(of offset: Int) -> UnsafeMutableRawPointer? {
        guard let bytes, offset >= 0, offset < count else { return nil }
        return bytes + offset
    }

    /// The bytes as `Data`, which now owns them, and where they lie, followed by a NUL (C callers
    /// borrow them as a string: `HTTPResponse.receivedBody`); the buffer is left empty.
    mutating func take() -> (data: Data, start: UnsafePointer<CChar>?) {
        guard let taken = bytes, count > 0 else { return (Data(), nil) }
        taken.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
        let data = Data(bytesNoCopy: taken, count: count, deallocator: .free)
        self = ReceiveBuffer()
        return (data, UnsafePointer(taken.assumingMemoryBound(to: CChar.self)))
    }

    /// The bytes in an object that frees them, for readers that need only a pointer (no `Data`
    /// and its storage's run-time checks); nil when empty. The buffer is left empty.
    mutating func takeOwned() -> OwnedBytes? {
        guard let taken = bytes, count > 0 else { return nil }
        let owned = OwnedBytes(taken, count: count)
        self = ReceiveBuffer()
        return owned
    }

    /// Frees what was never taken.
    mutating func release() {
        free(bytes)
        self = ReceiveBuffer()
    }
}

/// malloc'ed bytes, immutable once made, freed with the object (so sendable: nothing changes).
final class OwnedBytes: @unchecked Sendable {
    let start: UnsafeRawPointer
    let count: Int

    fileprivate init(_ start: UnsafeMutableRawPointer, count: Int) {
        self.start = UnsafeRawPointer(start)
        self.count = count
    }

    deinit { free(UnsafeMutableRawPointer(mutating: start)) }
}
