import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// Compressed answers, over loopback: the fake server's `gzip` fault compresses an answer as
/// nginx with `gzip on` does, when the request allows it.
final class CompressionTests: FakeDrupalTestCase {
    /// The Accept-Encoding the last request carried (one, unless something is wrong).
    private func sentAcceptEncoding() throws -> String? {
        let values = try server.sentHeaderValues("Accept-Encoding")
        XCTAssertLessThanOrEqual(values.count, 1, "\(values)")
        return values.first
    }

    func testAnswersAreAskedForCompressedAndDecoded() async throws {
        let client = try makeClient()
        let response = try await client.request(faulted("gzip"))
        XCTAssertEqual(response.headers["Content-Encoding"], "gzip", "the server compressed it")
        XCTAssertEqual(try response.json()["nid"]?[0]?["value"]?.idString, "1", "and the body arrives decoded")
        let offered = try XCTUnwrap(try sentAcceptEncoding())
        XCTAssertTrue(offered.contains("gzip") && offered.contains("deflate"), offered)
        let blocking = try client.run(.request(faulted("gzip"))) { _ in }
        XCTAssertEqual(try XCTUnwrap(try blocking.get()).json()["nid"]?[0]?["value"]?.idString, "1")
    }

    /// The line is sent once whatever the request: a plain GET (the engine's shared header list),
    /// a request with headers of its own, and one that names its own Accept-Encoding, which wins.
    func testTheAcceptEncodingLineIsSentOnceAndTheCallersWins() async throws {
        let client = try makeClient()
        _ = try await client.get("node", "1")
        let plain = try XCTUnwrap(try sentAcceptEncoding())
        XCTAssertTrue(plain.contains("gzip"), plain)
        var headers = HTTPHeaders()
        headers.add("X-Extra", "1")
        _ = try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        XCTAssertEqual(try sentAcceptEncoding(), plain)
        headers.add("Accept-Encoding", "identity")
        _ = try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        XCTAssertEqual(try sentAcceptEncoding(), "identity")
    }

    /// A few kilobytes that decode to megabytes: maxBodySize counts the decoded bytes.
    func testADecompressionBombIsTooLarge() async throws {
        let client = try makeClient {
            $0.transport.maxBodySize = 1 << 20
            $0.retry.maxRetries = 0
        }
        let request = faulted("gzip;bomb=8000000")
        let error = await expectError { try await client.request(request) }
        XCTAssertEqual(error?.code, .tooLarge, error?.message ?? "")
        let small = try makeClient()
        let decoded = try await small.request(request)
        XCTAssertEqual(decoded.body.count, 8_000_002, "under the limit it decodes whole")
    }

    /// An answer labelled gzip that is not: the server's protocol error, not a network failure
    /// (which a caller might retry).
    func testAnAnswerThatIsNotWhatItsEncodingSaysIsADecodeError() async throws {
        let client = try makeClient { $0.retry.maxRetries = 0 }
        let error = await expectError { try await client.request(faulted("gzip;broken")) }
        XCTAssertEqual(error?.code, .decode, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("Content-Encoding") ?? false, error?.message ?? "")
    }

    func testCompressionOffAsksForNone() async throws {
        let client = try makeClient { $0.transport.compression = false }
        let response = try await client.request(faulted("gzip"))
        XCTAssertNil(try sentAcceptEncoding())
        XCTAssertNil(response.headers["Content-Encoding"], "nothing was asked, nothing compressed")
        XCTAssertEqual(try response.json()["nid"]?[0]?["value"]?.idString, "1")
        // A server that compresses anyway: the bytes are handed over as they arrived.
        let bomb = try await client.request(faulted("gzip;bomb=100000"))
        XCTAssertEqual(bomb.headers["Content-Encoding"], "gzip")
        XCTAssertEqual(Array(bomb.body.prefix(2)), [0x1F, 0x8B], "gzip's magic bytes, not decoded")
    }

    /// Half a gzip body in a whole HTTP answer: libcurl 7.88 returned the first half decoded as a
    /// success. The client decodes it itself and fails the call.
    func testAGzipBodyCutShortIsADecodeError() async throws {
        let client = try makeClient { $0.retry.maxRetries = 0 }
        let error = await expectError { try await client.request(faulted("gzip;cut")) }
        XCTAssertEqual(error?.code, .decode, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("gzip body ends early") ?? false, error?.message ?? "")
    }

    /// The offered codings are exactly those the client decodes itself.
    func testTheOfferedCodingsAreTheDecodedOnes() async throws {
        let client = try makeClient()
        _ = try await client.get("node", "1")
        XCTAssertEqual(try sentAcceptEncoding(), "gzip, deflate, br")
    }

    /// A streamed answer (a body sink) gets the decoded bytes, and a cut one fails.
    func testAStreamedAnswerGetsTheDecodedBytes() async throws {
        let client = try makeClient { $0.retry.maxRetries = 0 }
        let received = Mutex<[UInt8]>([])
        var request = faulted("gzip")
        request.bodySink = { bytes in
            received.withLock { $0.append(contentsOf: bytes) }
            return true
        }
        let response = try await client.request(request)
        XCTAssertEqual(response.headers["Content-Encoding"], "gzip")
        let body = received.withLock { String(decoding: $0, as: UTF8.self) }
        XCTAssertTrue(body.hasPrefix("{") && body.contains("\"nid\""), body)
        var cut = faulted("gzip;cut")
        cut.bodySink = { _ in true }
        let error = await expectError { try await client.request(cut) }
        XCTAssertEqual(error?.code, .decode, error?.message ?? "")
    }
}
