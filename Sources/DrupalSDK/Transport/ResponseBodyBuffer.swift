import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The body of a response as libcurl delivers it, in one malloc'ed buffer that becomes the
/// response's `Data` without a copy. Growing a `Data` chunk by chunk (its storage's exclusivity
/// checks, capacity and replace calls) cost ~540 instructions a response more than this.
/// Owned by one transfer on the engine thread; `release` frees a buffer never taken.
struct ResponseBodyBuffer {
    private var bytes: UnsafeMutableRawPointer?
    private(set) var count = 0
    private var capacity = 0

    /// Makes room for `total` bytes (a Content-Length); false when memory ran out.
    mutating func reserve(_ total: Int) -> Bool {
        guard total > capacity else { return true }
        guard let grown = realloc(bytes, total) else { return false }
        bytes = grown
        capacity = total
        return true
    }

    /// Appends a chunk; false when memory ran out (the buffer is left as it was).
    mutating func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard let source = chunk.baseAddress, chunk.count > 0 else { return true }
        let needed = count + chunk.count
        if needed > capacity && !reserve(max(needed, capacity * 2, 256)) { return false }
        (bytes! + count).copyMemory(from: source, byteCount: chunk.count)
        count = needed
        return true
    }

    /// The bytes as `Data`, which now owns them; the buffer is left empty.
    mutating func take() -> Data {
        guard let taken = bytes, count > 0 else { return Data() }
        let data = Data(bytesNoCopy: taken, count: count, deallocator: .free)
        self = ResponseBodyBuffer()
        return data
    }

    /// Frees what was never taken.
    mutating func release() {
        free(bytes)
        self = ResponseBodyBuffer()
    }
}
