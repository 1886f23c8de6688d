import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A file for Drupal's file upload resource (POST /file/upload/{entity_type}/{bundle}/{field}):
/// bytes in memory, or a file on disk streamed as it is sent (never read whole), with progress.
public struct FileUpload: Sendable {
    public var entityType: String
    public var bundle: String
    public var field: String
    /// The name Drupal stores (only its base name is sent; quotes and control characters are
    /// refused, other characters, non-ASCII included, are sent as UTF-8). nil: the base name of
    /// `path`, which must then be UTF-8 (see `sentName`).
    public var filename: String?
    public var data: Data
    /// A file to stream instead of `data`.
    public var path: LocalPath?
    /// Bytes sent so far and the total, on the thread sending them; false cancels the upload.
    public var progress: TransferProgress?

    public init(entityType: String, bundle: String, field: String, filename: String, data: Data) {
        self.entityType = entityType
        self.bundle = bundle
        self.field = field
        self.filename = filename
        self.data = data
    }

    /// An upload streamed from the file at `path`, named `filename` (default: the path's base name).
    public init(entityType: String, bundle: String, field: String, path: LocalPath, filename: String? = nil,
                progress: TransferProgress? = nil) {
        self.entityType = entityType
        self.bundle = bundle
        self.field = field
        self.filename = filename
        self.data = Data()
        self.path = path
        self.progress = progress
    }

    public init(entityType: String, bundle: String, field: String, path: String, filename: String? = nil,
                progress: TransferProgress? = nil) {
        self.init(entityType: entityType, bundle: bundle, field: field, path: LocalPath(path), filename: filename,
                  progress: progress)
    }

    /// Throws `.invalidArgument` for a file name or path part that cannot be sent safely, or a
    /// path that is not a readable regular file, exactly as `uploadFile` would before sending.
    public func validate() throws { _ = try request() }

    /// POST /file/upload/{entity_type}/{bundle}/{field} with the raw bytes.
    func request() throws -> DrupalRequest {
        let segments = try [entityType, bundle, field].map(PathSafety.encodeSegment)
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/octet-stream")
        headers.add("Content-Disposition", "file; filename=\"\(try FileUpload.sentName(filename, path: path))\"")
        var request = DrupalRequest(method: "POST", path: "/file/upload/" + segments.joined(separator: "/"),
                                    headers: headers, body: path == nil ? data : nil, expectedBody: .object)
        if let path { request.bodyFile = HTTPBodyFile(path: path, size: try LocalFiles.regularFileSize(path)) }
        request.progress = progress
        return request
    }

    /// The name an upload sends: the base name of `filename`, else of the file's `path`. Drupal
    /// stores text, so a path's name that is not UTF-8 (Latin-1 "caf\xE9.png") is refused, not
    /// guessed at: its encoding is unknown, and U+FFFD would store a name the caller never gave.
    static func sentName(_ filename: String?, path: LocalPath?) throws -> String {
        if let filename { return try baseName(filename) }
        let last = path?.bytes.split(whereSeparator: isSeparator).last ?? []
        guard let name = String(validating: last, as: UTF8.self) else {
            throw DrupalError.invalidArgument("the file's name \"\(LocalPath(bytes: last))\" is not UTF-8, and the "
                                              + "name Drupal stores is text: give that name as the filename")
        }
        return try baseName(name)
    }

    /// Split on the bytes: "/" followed by a combining mark is no Character of its own.
    static func lastComponent(_ path: String) -> String {
        path.utf8.split(whereSeparator: isSeparator).last.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private static func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") }

    /// Drupal keeps only the base name and wants it quoted, without quotes, CR or LF inside (it
    /// cannot be escaped: Drupal's parser ends the name at the first quote; `filename*=` is refused).
    static func baseName(_ filename: String) throws -> String {
        let endsInSeparator = filename.utf8.last.map(isSeparator) ?? false
        let base = endsInSeparator ? "" : lastComponent(filename)
        if base.isEmpty || base == "." || base == ".." {
            throw DrupalError.invalidArgument("the upload file name is empty or a directory")
        }
        if base.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") }) {
            throw DrupalError.invalidArgument("the upload file name contains quotes or control characters")
        }
        return base
    }
}

/// A file's content to fetch (`DrupalOperation.download`): by URL (public files under
/// /sites/default/files, private ones under /system/files, sent with the client's credentials),
/// or by file entity id (its `uri` URL is read first); into a file or a sink, with progress,
/// within the client's response size cap.
public struct FileDownload: Sendable {
    public enum Source: Sendable {
        /// A path or absolute URL under the base URL.
        case url(String)
        /// A file entity's id: GET /entity/file/{id}, then its `uri[0].url`.
        case fileEntity(String)
    }

    public enum Destination: Sendable {
        /// Written to a new file beside it, `<path>.<random>.part`, and renamed to `path` once
        /// complete (removed on failure), with the permission bits of a regular file it replaces.
        case file(LocalPath)
        case sink(BodySink)

        public static func file(_ path: String) -> Destination { .file(LocalPath(path)) }
    }

    public var source: Source
    public var destination: Destination
    /// Bytes received so far and the total when known; false cancels the download.
    public var progress: TransferProgress?

    public init(_ source: Source, to destination: Destination, progress: TransferProgress? = nil) {
        self.source = source
        self.destination = destination
        self.progress = progress
    }
}

/// Local files: the checks made before anything is sent, and reading a file whole for transports
/// that cannot stream.
enum LocalFiles {
    static func regularFileSize(_ path: LocalPath) throws -> Int64 {
        if path.isEmpty { throw DrupalError.invalidArgument("the file path is empty") }
        var info = stat()
        guard try path.withCString({ stat($0, &info) }) == 0 else {
            throw DrupalError.invalidArgument("cannot read \(path): " + String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DrupalError.invalidArgument("\(path) is not a regular file")
        }
        guard try path.withCString({ access($0, R_OK) }) == 0 else {
            throw DrupalError.invalidArgument("cannot read \(path): " + String(cString: strerror(errno)))
        }
        return Int64(info.st_size)
    }

    static func read(_ path: LocalPath) throws -> Data {
        let descriptor = try path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw DrupalError.invalidArgument("cannot open the upload file \(path): " + String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw DrupalError.file("reading the upload file \(path) failed", errno: errno)
            }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}
