import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// Uploads streamed from a path (progress, cancellation, safe file names) and downloads to a path
/// or a sink (public and private files, by URL and by file entity, progress, the size cap).
final class FileTests: FakeDrupalTestCase {
    var directory: URL!

    override func setUp() async throws {
        try await super.setUp()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("drupalsdk-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file of `count` bytes (a PNG signature, then a pattern).
    func makeFile(_ name: String, _ count: Int) throws -> (path: String, data: Data) {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        data.append(contentsOf: (0..<(count - 8)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return (url.path, data)
    }

    func admin() throws -> DrupalClient { try makeClient { $0.authentication = .basic(user: "admin", password: "admin") } }

    /// The part files a download to `target` left beside it ("<target>.<random>.part").
    func partFiles(of target: String) throws -> [String] {
        let name = URL(fileURLWithPath: target).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix(name + ".") && $0.hasSuffix(".part") }
    }

    final class Steps: Sendable {
        let steps = Mutex<[(Int64, Int64?)]>([])
        func add(_ done: Int64, _ total: Int64?) { steps.withLock { $0.append((done, total)) } }
        var all: [(Int64, Int64?)] { steps.withLock { $0 } }
    }

    func testUploadStreamsAFileWithProgress() async throws {
        // Over 1 MB: libcurl would ask "Expect: 100-continue" first unless told not to.
        let (path, data) = try makeFile("big.png", 1_500_000)
        let steps = Steps()
        let client = try admin()
        let upload = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: path) {
            steps.add($0, $1)
            return true
        }
        let file = try await client.uploadFile(upload).json()
        XCTAssertEqual(file["filename"]?[0]?["value"]?.stringValue, "big.png")
        XCTAssertEqual(file["filesize"]?[0]?["value"]?.idString, "1500000")
        let sent = try XCTUnwrap(try server.lastRequest())
        let names = sent["headers"]?.arrayValue?.compactMap { $0[0]?.stringValue?.lowercased() } ?? []
        XCTAssertTrue(names.contains("content-length"))
        XCTAssertFalse(names.contains("expect"))
        let last = try XCTUnwrap(steps.all.last)
        XCTAssertEqual(last.0, 1_500_000)
        XCTAssertEqual(last.1, 1_500_000)
        XCTAssertTrue(zip(steps.all, steps.all.dropFirst()).allSatisfy { $0.0 <= $1.0 })
        // The total is the file's size from the first step (libcurl's own total reads 0 until
        // it has started sending: it was reported as unknown).
        XCTAssertTrue(steps.all.allSatisfy { $0.1 == 1_500_000 }, "\(steps.all.prefix(3))")
        // The stored bytes are the file's.
        let url = try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
        let content = Data(try server.control("GET", url))
        XCTAssertEqual(content, data)
    }

    /// Regression: an upload sent again after a CSRF token refresh reported its progress from 0
    /// again, so a caller's progress bar went back (1,500,000 -> 0).
    func testAnUploadSentAgainAfterACSRFRefreshNeverReportsLessProgress() async throws {
        let (path, _) = try makeFile("again.png", 1_500_000)
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        try server.control("POST", "/__fake/invalidate-csrf")
        let steps = Steps()
        let upload = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: path) {
            steps.add($0, $1)
            return true
        }
        let sends = LineLog()
        _ = client.addObserver { event in
            if case .requestFinished(let method, let path, let status, _) = event {
                sends.add("\(method) \(path) \(status ?? 0)")
            }
        }
        let file = try await client.uploadFile(upload).json()
        XCTAssertEqual(file["filesize"]?[0]?["value"]?.idString, "1500000")
        XCTAssertEqual(sends.lines.filter { $0.hasPrefix("POST") }.count, 2, "\(sends.lines)")
        let backwards = zip(steps.all, steps.all.dropFirst()).first { $0.0 > $1.0 }
        XCTAssertNil(backwards.map { "\($0.0) -> \($1.0)" }, "progress went back")
        XCTAssertEqual(steps.all.last?.0, 1_500_000)
    }

    func testAnUploadIsCancelledByItsProgressCallback() async throws {
        let (path, _) = try makeFile("cancel.png", 2_000_000)
        let client = try admin()
        let upload = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: path) { done, _ in
            done < 100_000
        }
        let error = await expectError { try await client.uploadFile(upload) }
        XCTAssertEqual(error?.code, .cancelled)
    }

    func testFileNamesAreSafe() async throws {
        let (path, _) = try makeFile("source.png", 100)
        let client = try admin()
        for bad in ["a\"b.png", "a\r\nX-Evil: 1.png", "", "dir/", "tab\t.png"] {
            let upload = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: path, filename: bad)
            XCTAssertThrowsError(try upload.validate(), bad) { XCTAssertEqual(($0 as? DrupalError)?.code, .invalidArgument) }
        }
        let accented = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: path,
                                  filename: "C:\\photos\\café été.png")
        let file = try await client.uploadFile(accented).json()
        XCTAssertEqual(file["filename"]?[0]?["value"]?.stringValue, "café été.png")
        let disposition = try server.sentHeaderValues("Content-Disposition").first
        XCTAssertNotNil(disposition)
        let missing = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: directory.path + "/nope.png")
        XCTAssertThrowsError(try missing.validate())
        let folder = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: directory.path)
        XCTAssertThrowsError(try folder.validate())
    }

    func testDownloadToAPathAndASink() async throws {
        let (path, data) = try makeFile("photo.png", 200_000)
        let client = try admin()
        let file = try await client.uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                          path: path)).json()
        let fid = try XCTUnwrap(file["fid"]?[0]?["value"]?.idString)
        let url = try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
        let target = directory.appendingPathComponent("copy.png").path
        let steps = Steps()
        let answer = try await client.download(FileDownload(.url(url), to: .file(target)) { steps.add($0, $1); return true })
        XCTAssertEqual(answer.status, 200)
        XCTAssertTrue(answer.body.isEmpty)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), data)
        XCTAssertEqual(try partFiles(of: target), [])
        XCTAssertEqual(steps.all.last?.0, 200_000)
        XCTAssertEqual(steps.all.last?.1, 200_000)

        let received = Mutex(Data())
        let chunks = Mutex(0)
        _ = try await client.download(FileDownload(.fileEntity(fid), to: .sink({ bytes in
            received.withLock { $0.append(contentsOf: bytes) }
            chunks.withLock { $0 += 1 }
            return true
        })))
        XCTAssertEqual(received.withLock { $0 }, data)
        XCTAssertGreaterThan(chunks.withLock { $0 }, 1)

        let stopped = await expectError {
            try await client.download(FileDownload(.url(url), to: .sink({ _ in false })))
        }
        XCTAssertEqual(stopped?.code, .cancelled)
    }

    /// Regression: a path was a String, so a Linux name that is not UTF-8 (Latin-1 "caf\xE9.png")
    /// could not be named. A LocalPath holds its bytes; the name sent to Drupal must still be text.
    func testPathsThatAreNotUTF8() async throws {
        let (path, data) = try makeFile("source.png", 30_000)
        let directoryBytes = Array(directory.path.utf8)
        let latin1 = LocalPath(bytes: directoryBytes + Array("/caf".utf8) + [0xE9] + Array(".png".utf8))
        XCTAssertEqual(try latin1.withCString { Glibc.rename(path, $0) }, 0)
        XCTAssertEqual(latin1.description, directory.path + "/caf\\xE9.png")
        let client = try admin()
        let unnamed = await expectError {
            try await client.uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image", path: latin1))
        }
        XCTAssertEqual(unnamed?.code, .invalidArgument)
        XCTAssertTrue(unnamed?.message.contains("\"caf\\xE9.png\" is not UTF-8") ?? false, unnamed?.message ?? "")
        let file = try await client.uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                          path: latin1, filename: "cafe.png")).json()
        XCTAssertEqual(file["filename"]?[0]?["value"]?.stringValue, "cafe.png")
        let url = try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
        let target = LocalPath(bytes: directoryBytes + Array("/t".utf8) + [0xE9, 0x0A] + Array(".png".utf8))
        _ = try await client.download(FileDownload(.url(url), to: .file(target)))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertEqual(names.count, 2, "\(names)")
        var info = stat()
        XCTAssertEqual(try target.withCString { stat($0, &info) }, 0)
        XCTAssertEqual(Int(info.st_size), data.count)
        XCTAssertThrowsError(try LocalPath("a\0b").withCString { _ in 0 }) {
            XCTAssertEqual(($0 as? DrupalError)?.code, .invalidArgument)
        }
    }

    /// Regression: a download over a file replaced it with a file of mode 0666 less the umask.
    func testADownloadKeepsThePermissionsOfTheFileItReplaces() async throws {
        let (path, _) = try makeFile("mode.png", 10_000)
        let client = try admin()
        let file = try await client.uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                          path: path)).json()
        let url = try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
        let target = directory.appendingPathComponent("private.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        XCTAssertEqual(chmod(target, 0o600), 0)
        _ = try await client.download(FileDownload(.url(url), to: .file(target)))
        var info = stat()
        XCTAssertEqual(stat(target, &info), 0)
        XCTAssertEqual(info.st_mode & 0o7777, 0o600)
        XCTAssertEqual(info.st_size, 10_000)
    }

    func testTheSizeCapAndErrorsLeaveNoFile() async throws {
        let (path, _) = try makeFile("large.png", 50_000)
        let file = try await admin().uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                           path: path)).json()
        let url = try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
        let small = try makeClient {
            $0.authentication = .basic(user: "admin", password: "admin")
            $0.transport.maxBodySize = 10_000
        }
        let target = directory.appendingPathComponent("capped.png").path
        let tooLarge = await expectError { try await small.download(FileDownload(.url(url), to: .file(target))) }
        XCTAssertEqual(tooLarge?.code, .tooLarge)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertEqual(try partFiles(of: target), [])
        let missing = await expectError {
            try await small.download(FileDownload(.url("/sites/default/files/nope.png"), to: .file(target)))
        }
        XCTAssertEqual(missing?.status, 404)
        XCTAssertEqual(try partFiles(of: target), [])
        XCTAssertThrowsError(try small.start(.download(FileDownload(.url("https://elsewhere.example/x"), to: .file(target)))) { _ in })
        XCTAssertThrowsError(try small.start(.download(FileDownload(.url(url), to: .file("")))) { _ in })
    }

    /// Regression: every download wrote to "<path>.part" and removed it on failure, also when
    /// the file was the caller's own and the download had not made it.
    func testAFailedDownloadLeavesAFileNamedLikeItsPartFileAlone() async throws {
        let target = directory.appendingPathComponent("keep").path
        try Data("user data".utf8).write(to: URL(fileURLWithPath: target + ".part"))
        let missing = await expectError {
            try await self.admin().download(FileDownload(.url("/sites/default/files/none.png"), to: .file(target)))
        }
        XCTAssertEqual(missing?.status, 404)
        XCTAssertEqual(try String(contentsOfFile: target + ".part", encoding: .utf8), "user data")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
    }

    /// Regression: a symbolic link at "<path>.part" was followed, so the download overwrote the
    /// file it pointed at, and the link itself became the destination.
    func testADownloadNeverWritesThroughALink() async throws {
        let (path, data) = try makeFile("s.png", 5_000)
        let client = try admin()
        let file = try await client.uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                          path: path)).json()
        let url = try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
        let victim = directory.appendingPathComponent("victim").path
        try Data("victim".utf8).write(to: URL(fileURLWithPath: victim))
        let target = directory.appendingPathComponent("copy.png").path
        try FileManager.default.createSymbolicLink(atPath: target + ".part", withDestinationPath: victim)
        _ = try await client.download(FileDownload(.url(url), to: .file(target)))
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "victim")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: target)[.type] as? FileAttributeType, .typeRegular)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), data)
    }

    /// Regression: two downloads to one path shared its part file: the second truncated the
    /// first's bytes, the first renamed the mix into place and reported success, and the second
    /// failed ("cannot complete ...: No such file or directory").
    func testTwoDownloadsToOnePathEachCompleteTheirOwnFile() throws {
        let target = directory.appendingPathComponent("same.png").path
        let first = try DownloadWriter(.file(target)), second = try DownloadWriter(.file(target))
        func write(_ writer: DownloadWriter, _ text: String) -> Bool {
            Array(text.utf8).withUnsafeBytes { writer.sink($0) }
        }
        XCTAssertTrue(write(first, "AAAA"))
        XCTAssertTrue(write(second, "BB"))
        XCTAssertTrue(write(first, "AAAA"))
        try first.finish()
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "AAAAAAAA")
        XCTAssertTrue(write(second, "BB"))
        try second.finish()
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "BBBB")
        XCTAssertEqual(try partFiles(of: target), [])
    }

    /// A download's own file failing is a file error, not a network one (which callers retry):
    /// a path it cannot end at is refused before anything is sent, and a directory that appears
    /// at the path during the transfer fails the rename.
    func testLocalFileFailuresOfADownloadAreFileErrors() async throws {
        let (path, _) = try makeFile("f.png", 5_000)
        let client = try admin()
        let file = try await client.uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                          path: path)).json()
        let url = try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
        let before = try server.stats().requests
        for (target, why) in [(directory.path + "/missing/x.png", "cannot write the download into"),
                              (directory.path, "is a directory")] {
            let error = await expectError { try await client.download(FileDownload(.url(url), to: .file(target))) }
            XCTAssertEqual(error?.code, .invalidArgument, target)
            XCTAssertTrue(error?.message.contains(why) ?? false, error?.message ?? "")
        }
        XCTAssertEqual(try server.stats().requests, before, "nothing is sent for a path the download cannot end at")

        let target = directory.appendingPathComponent("taken.png").path
        let inTheWay = await expectError {
            try await client.download(FileDownload(.url(url), to: .file(target)) { _, _ in
                mkdir(target, 0o755)
                return true
            })
        }
        XCTAssertEqual(inTheWay?.code, .file, inTheWay?.message ?? "")
        XCTAssertEqual(inTheWay?.osError, EISDIR, "the system's error number, for callers that act on it")
        XCTAssertEqual(try partFiles(of: target), [])
    }

    /// Regression: a part file's name added up to 14 bytes to a valid name near the 255-byte
    /// limit ("File name too long" after the first byte arrived, or not, by chance).
    func testADownloadToANameNearTheLimitCompletes() throws {
        let target = directory.appendingPathComponent(String(repeating: "é", count: 125) + "a.png").path
        let writer = try DownloadWriter(.file(target))
        XCTAssertTrue(Array("content".utf8).withUnsafeBytes { writer.sink($0) })
        try writer.finish()
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "content")
        let partPath = DownloadWriter.partPath(for: LocalPath(target)).bytes
        let part = URL(fileURLWithPath: String(decoding: partPath, as: UTF8.self)).lastPathComponent
        XCTAssertLessThanOrEqual(part.utf8.count, 255)
        XCTAssertTrue(part.hasSuffix(".part") && part.hasPrefix("é"), part)
        XCTAssertThrowsError(try DownloadWriter(.file(directory.path + "/" + String(repeating: "b", count: 256)))) {
            XCTAssertEqual(($0 as? DrupalError)?.code, .invalidArgument)
        }
    }

    /// Regression: a 206 Partial Content to a download that asked for no range was saved as the
    /// whole file (RFC 9110 §15.3.7: a server sends 206 only to a Range request).
    func testAPartialAnswerToAWholeDownloadIsAnError() async throws {
        let client = try makeClient {
            $0.authentication = .basic(user: "admin", password: "admin")
            $0.defaultHeaders.add("X-Fake-Fault", "status;code=206;body=part")
        }
        let target = directory.appendingPathComponent("partial.png").path
        let error = await expectError {
            try await client.download(FileDownload(.url("/sites/default/files/any.png"), to: .file(target)))
        }
        XCTAssertEqual(error?.code, .network, error?.message ?? "")
        XCTAssertEqual(error?.status, 206)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertEqual(try partFiles(of: target), [])
    }

    func testPrivateFilesNeedTheClientsCredentials() async throws {
        let made = JSONValue.parse(try server.control("POST", "/__fake/private-file",
                                                      json: #"{"name": "report.txt", "uid": 2, "data_base64": "c2VjcmV0IHJlcG9ydA=="}"#))
        let fid = try XCTUnwrap(made?["fid"]?.idString)
        let target = directory.appendingPathComponent("report.txt").path
        let anonymous = try makeClient()
        let refused = await expectError {
            try await anonymous.download(FileDownload(.url(try XCTUnwrap(made?["url"]?.stringValue)), to: .file(target)))
        }
        XCTAssertEqual(refused?.status, 403)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        let owner = try makeClient()
        _ = try await owner.login("editor", "editor")
        _ = try await owner.download(FileDownload(.fileEntity(fid), to: .file(target)))
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "secret report")
    }

    /// Regression: a download asked for compressed answers like every request, and libcurl
    /// decoded what came labelled `Content-Encoding: gzip`. A .gz file that a server labels so
    /// (Apache's `AddEncoding x-gzip .gz`) was saved uncompressed: not the file, not its size.
    func testADownloadSavesTheBytesTheServerSent() async throws {
        let stored = Data([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x2b, 0x49, 0x2d, 0x2e,
                           0x01, 0x00, 0x0c, 0x7e, 0x7f, 0xd8, 0x04, 0x00, 0x00, 0x00])   // gzip of "test"
        let made = JSONValue.parse(try server.control("POST", "/__fake/private-file",
                                                      json: #"{"name": "dump.sql.gz", "data_base64": "\#(stored.base64EncodedString())"}"#))
        let url = try XCTUnwrap(made?["url"]?.stringValue)
        try server.control("POST", "/__fake/faults", json: #"{"mode": "gzip", "labelled": true, "path_prefix": "/system/files", "count": 1}"#)
        let target = directory.appendingPathComponent("dump.sql.gz").path
        let client = try makeClient()
        _ = try await client.login("admin", "admin")   // a private file: a session, as on Drupal
        _ = try await client.download(FileDownload(.url(url), to: .file(target)))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), stored)
        XCTAssertEqual(try server.sentHeaderValues("Accept-Encoding"), ["identity"])
    }

    /// The URL of a file uploaded as admin from `path`.
    func uploadedURL(_ path: String) async throws -> String {
        let file = try await admin().uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                           path: path)).json()
        return try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
    }

    /// A timeout of 2 s: libcurl measures a stall second by second, so a shorter one leaves a
    /// loaded machine little margin.
    func adminWithATimeoutOfTwoSeconds() throws -> DrupalClient {
        try makeClient {
            $0.authentication = .basic(user: "admin", password: "admin")
            $0.transport.timeout = 2
            $0.retry.maxRetries = 0
        }
    }

    /// Regression: `timeout` bounded a whole file transfer, so a file that took longer than it to
    /// move (a large download or upload on a slow link) failed with `.timeout` while its bytes
    /// kept coming. For uploads and downloads it now bounds a stall: that long with no byte moving.
    func testAFileTransferThatKeepsMovingOutlastsTheTimeout() async throws {
        let (path, data) = try makeFile("slow.png", 200_000)
        let url = try await uploadedURL(path)
        let client = try adminWithATimeoutOfTwoSeconds()
        // The body dribbles out over 3.5 s, a piece every 0.175 s.
        try server.control("POST", "/__fake/faults", json: #"{"mode": "slow_body", "seconds": 3.5, "path_prefix": "/sites", "count": 1}"#)
        let target = directory.appendingPathComponent("slow-copy.png").path
        let started = Date()
        _ = try await client.download(FileDownload(.url(url), to: .file(target)))
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 3)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), data)
    }

    func testAFileUploadThatKeepsMovingOutlastsTheTimeout() async throws {
        let (path, _) = try makeFile("slow-upload.png", 200_000)
        let client = try adminWithATimeoutOfTwoSeconds()
        // Slowed by its own progress callback, which runs between the pieces libcurl sends.
        let calls = Mutex(0)
        let slowUpload = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: path) { _, _ in
            calls.withLock { $0 += 1 }
            usleep(600_000)
            return true
        }
        let uploadStarted = Date()
        let uploaded = try await client.uploadFile(slowUpload).json()
        XCTAssertGreaterThan(Date().timeIntervalSince(uploadStarted), 2.2, "progress calls: \(calls.withLock { $0 })")
        XCTAssertEqual(uploaded["filesize"]?[0]?["value"]?.idString, "200000")
    }

    /// Regression: an upload file that grew while it was sent (a log being appended to) went out
    /// whole, past the Content-Length announced, and the server read the extra bytes as the next
    /// request on the connection: file content could smuggle a request (and the answer to it
    /// would be taken for the answer to the client's next one).
    func testAnUploadFileThatGrowsSendsOnlyTheSizeItAnnounced() async throws {
        let (path, data) = try makeFile("growing.png", 200_000)
        let grown = Mutex(false)
        let growing = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: path) { _, _ in
            grown.withLock { done in
                if !done, let handle = FileHandle(forWritingAtPath: path) {
                    handle.seekToEndOfFile()
                    handle.write(Data("GET /node/2?_format=json&smuggled=1 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                    handle.closeFile()
                    done = true
                }
            }
            return true
        }
        let before = try server.stats().requests
        let file = try await admin().uploadFile(growing).json()
        XCTAssertTrue(grown.withLock { $0 })
        let last = try server.lastRequest()?["target"]?.stringValue ?? ""
        XCTAssertEqual(try server.stats().requests, before + 1, "the server also read \(last)")
        XCTAssertEqual(file["filesize"]?[0]?["value"]?.idString, String(data.count))
    }

    /// A file that shrinks while it is sent cannot fill the Content-Length announced: the call
    /// fails at once and says so, instead of waiting for the server to give up.
    func testAnUploadFileThatShrinksFailsAndSaysSo() async throws {
        let (path, _) = try makeFile("shrinking.png", 200_000)
        let shrinking = FileUpload(entityType: "node", bundle: "article", field: "field_image", path: path) { _, _ in
            _ = truncate(path, 1_000)
            return true
        }
        let started = Date()
        let error = await expectError { try await self.admin().uploadFile(shrinking) }
        XCTAssertEqual(error?.code, .file, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("changed while it was sent") ?? false, error?.message ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    /// What the timeout still catches in a file transfer: a server that stops sending.
    func testAStalledDownloadTimesOut() async throws {
        let (path, _) = try makeFile("stalled.png", 20_000)
        let url = try await uploadedURL(path)
        let client = try adminWithATimeoutOfTwoSeconds()
        try server.control("POST", "/__fake/faults", json: #"{"mode": "stall", "seconds": 8, "after": "headers", "path_prefix": "/sites", "count": 1}"#)
        let target = directory.appendingPathComponent("stalled-copy.png").path
        let started = Date()
        let error = await expectError { try await client.download(FileDownload(.url(url), to: .file(target))) }
        XCTAssertEqual(error?.code, .timeout, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("Less than 1 bytes/sec transferred the last 2 seconds") ?? false,
                      error?.message ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(started), 6)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
    }

    func testTheMockClientStreamsThroughTheWholeBodyFallback() async throws {
        let (path, _) = try makeFile("mock.png", 5_000)
        let client = DrupalClient.mock(MockDrupal())
        _ = try await client.login("admin", "admin")
        let steps = Steps()
        let file = try await client.uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                          path: path) { steps.add($0, $1); return true }).json()
        XCTAssertEqual(steps.all.last?.0, 5_000)
        XCTAssertEqual(file["filesize"]?[0]?["value"]?.idString, "5000")
    }
}
