import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where a download's bytes go: a sink of the caller's, or a part file beside the destination,
/// made on the first byte and renamed to the destination at the end. It records whether bytes
/// were delivered (a request that streamed is not retried) and a write failure (the error the
/// download then gives).
///
/// The part file is `<path>.<random>.part`, created with O_EXCL and O_NOFOLLOW: never a file
/// that was there already (a user's own `x.part`, another download's to the same path) and never
/// through a symbolic link, so a failure removes only what this download made. Over an existing
/// regular file, the renamed file gets that file's permission bits (`keepPermissions`).
final class DownloadWriter: @unchecked Sendable {
    private struct State {
        var descriptor: Int32 = -1
        /// The part file this download made (nil until the first byte, or after it was renamed).
        var partPath: LocalPath?
        var delivered = false
        var failure: DrupalError?
    }

    private let destination: FileDownload.Destination
    private let lock = Mutex(State())

    init(_ destination: FileDownload.Destination) throws {
        if case .file(let path) = destination {
            if path.isEmpty { throw DrupalError.invalidArgument("the download's file path is empty") }
            try Self.checkWritable(path)
        }
        self.destination = destination
    }

    /// Refuses, before anything is sent, a path the download could not end at: its directory
    /// missing or not writable, or a directory where the file would go; and one the rename would
    /// destroy: a FIFO, device or socket (what a symbolic link there points at counts).
    private static func checkWritable(_ path: LocalPath) throws {
        let directory = path.directory
        guard try directory.withCString({ access($0, W_OK | X_OK) }) == 0 else {
            throw DrupalError.invalidArgument("cannot write the download into \(directory): " + String(cString: strerror(errno)))
        }
        guard path.name.count <= maxNameBytes else {
            throw DrupalError.invalidArgument("the download's file name is longer than \(maxNameBytes) bytes")
        }
        var info = stat()
        guard try path.withCString({ stat($0, &info) }) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw DrupalError.invalidArgument("the download path \(path) is a directory")
        default:
            throw DrupalError.invalidArgument("the download path \(path) is not a regular file (a FIFO, device "
                                              + "or socket): the download would replace it")
        }
    }

    var delivered: Bool { lock.withLock { $0.delivered } }
    var failure: DrupalError? { lock.withLock { $0.failure } }

    /// The sink the transfer writes to (on its thread, one chunk at a time).
    var sink: BodySink {
        { [self] bytes in write(bytes) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        switch destination {
        case .sink(let sink):
            lock.withLock { $0.delivered = true }
            return sink(bytes)
        case .file(let path):
            return lock.withLock { state in
                state.delivered = true
                do throws(DrupalError) {
                    try Self.openPart(for: path, in: &state)
                    try Self.writeAll(bytes, to: &state)
                    return true
                } catch {
                    state.failure = error
                    return false
                }
            }
        }
    }

    /// The download succeeded: the file is complete (empty if no byte came) under its name.
    func finish() throws {
        guard case .file(let path) = destination else { return }
        try lock.withLock { state in
            try Self.openPart(for: path, in: &state)
            guard let part = state.partPath else { return }
            do throws(DrupalError) {
                try Self.keepPermissions(of: path, on: state.descriptor, part: part)
                let closed = close(state.descriptor)
                let number = errno
                state.descriptor = -1
                guard closed == 0 else { throw DrupalError.file("cannot complete \(path)", errno: number) }
                let renamed = try part.withCString { from in try? path.withCString { rename(from, $0) } }
                guard renamed == 0 else {
                    let number = errno
                    throw DrupalError.file("cannot complete \(path)", errno: number)
                }
                state.partPath = nil
            } catch {
                if state.descriptor >= 0 { close(state.descriptor) }
                state.descriptor = -1
                _ = try? part.withCString { unlink($0) }
                state.partPath = nil
                throw error
            }
        }
    }

    /// A download over an existing regular file keeps its permission bits, as `curl -o` (which
    /// writes in place) does: a private 0600 file stays private, an executable stays executable.
    /// Only rwx of owner, group and others: a set-user-ID, set-group-ID or sticky bit was set for
    /// the old content, not this one. The owner is this process, as of any file it makes.
    /// Nothing there (or no regular file): the part file keeps 0666 less the umask.
    private static func keepPermissions(of path: LocalPath, on descriptor: Int32, part: LocalPath) throws(DrupalError) {
        var info = stat()
        guard try path.withCString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        guard fchmod(descriptor, info.st_mode & 0o777) == 0 else {
            let number = errno
            throw DrupalError.file("cannot give \(part) the permissions of \(path)", errno: number)
        }
    }

    /// The download failed: the part file it made, if any, is removed; nothing else is touched.
    func abandon() {
        lock.withLock { state in
            if state.descriptor >= 0 {
                close(state.descriptor)
                state.descriptor = -1
            }
            if let part = state.partPath { _ = try? part.withCString { unlink($0) } }
            state.partPath = nil
        }
    }

    /// Makes this download's part file, once.
    private static func openPart(for path: LocalPath, in state: inout State) throws(DrupalError) {
        guard state.descriptor < 0 else { return }
        // A name that exists already is someone else's: another random one is tried.
        for _ in 0..<16 {
            let part = partPath(for: path)
            let descriptor = try part.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666) }
            if descriptor >= 0 {
                state.descriptor = descriptor
                state.partPath = part
                return
            }
            if errno != EEXIST { throw DrupalError.file("cannot create \(part)", errno: errno) }
        }
        throw DrupalError(.file, "cannot create a part file for \(path): every name tried exists")
    }

    /// "<path>.<8 hex digits>.part", its name cut (before a UTF-8 character's first byte) to
    /// fit the file system's 255 bytes: a destination name near that limit is valid, its part
    /// file's must be too.
    static func partPath(for path: LocalPath) -> LocalPath {
        let hex = String(UInt32.random(in: .min ... .max), radix: 16)
        let suffix = "." + String(repeating: "0", count: 8 - hex.utf8.count) + hex + ".part"
        let name = path.name
        var end = name.endIndex
        while end - name.startIndex + suffix.utf8.count > maxNameBytes {
            end -= 1
            while end > name.startIndex && name[end] & 0xC0 == 0x80 { end -= 1 }
        }
        return LocalPath(bytes: path.bytes[..<end] + suffix.utf8)
    }

    static let maxNameBytes = 255

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to state: inout State) throws(DrupalError) {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(state.descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw DrupalError.file("writing \(state.partPath?.description ?? "the download") failed", errno: errno)
            }
            offset += count
        }
    }
}
