import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// Views REST exports (query, pages) and arbitrary requests.
final class ViewAndRequestTests: FakeDrupalTestCase {
    func testViewPagesAndFilter() async throws {
        let client = try makeClient()
        let first = try await client.view("/api/articles", []).json()
        XCTAssertEqual(first.arrayValue?.count, 2)
        XCTAssertEqual(first[0]?["title"]?.stringValue, "Article 1")
        XCTAssertEqual(first[0]?["nid"]?.stringValue, "1")

        let second = try await client.view("/api/articles", [("page", "1")]).json()
        XCTAssertNotEqual(second[0]?["nid"], first[0]?["nid"])

        let past = try await client.view("api/articles", [("page", "999")]).json()
        XCTAssertEqual(past.arrayValue?.count, 0)

        let filtered = try await client.view("/api/articles", [("title", "Article 1")]).json()
        XCTAssertEqual(filtered[0]?["title"]?.stringValue, "Article 1")
    }

    func testViewPageIteration() async throws {
        let client = try makeClient()
        let rows = try await client.viewAllPages("/api/articles", [], maxPages: 50)
        XCTAssertGreaterThanOrEqual(rows.count, 3)
        let nids = rows.compactMap { $0["nid"]?.stringValue }
        XCTAssertEqual(Set(nids).count, nids.count, "no row twice")
    }

    func testArbitraryRequestReturnsStatusHeadersBody() async throws {
        let client = try makeClient()
        let response = try await client.request(DrupalRequest(method: "GET", path: "/session/token", format: nil))
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.headers["content-type"]?.hasPrefix("text/plain") ?? false)
        XCTAssertFalse(response.text.isEmpty)
    }

    func testUnsafePathsAreRejectedBeforeAnythingIsSent() async throws {
        let client = try makeClient()
        let before = try server.stats().requests
        for path in ["/../etc/passwd", "/node/%2e%2e/x", "//evil.example/x", "http://evil.example/", "/node\r\nX: y",
                     "/node?x=1", "/a\\b"] {
            let error = await expectError { try await client.request(DrupalRequest(method: "GET", path: path)) }
            XCTAssertEqual(error?.code, .invalidArgument, path)
        }
        var headers = HTTPHeaders()
        headers.add("X-Test", "a\r\nInjected: yes")
        let headerError = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(headerError?.code, .invalidArgument)
        XCTAssertEqual(try server.stats().requests, before)
    }

    func testBaseURLValidation() {
        XCTAssertThrowsError(try DrupalClient.live(baseURL: "ftp://x"))
        XCTAssertThrowsError(try DrupalClient.live(baseURL: "http://user:pw@host"))
        XCTAssertThrowsError(try DrupalClient.live(baseURL: "http://host/?q=1"))
        XCTAssertThrowsError(try DrupalClient.live(baseURL: "http://"))
    }

    func testSubdirectoryBaseURLKeepsItsPrefix() async throws {
        let recorder = RecordingTransport()
        let client = try DrupalClient.live(baseURL: "https://example.com/en/", configuration: .init(),
                                           transport: recorder.transport)
        _ = try await client.get("node", "5")
        XCTAssertEqual(recorder.urls, ["https://example.com/en/node/5?_format=json"])
    }
}

/// A transport that answers 200 {} and remembers the URLs (for URL-building tests).
final class RecordingTransport: Sendable {
    private let recorded = Mutex<[HTTPRequest]>([])
    var urls: [String] { recorded.withLock { $0.map(\.url) } }
    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    var transport: Transport {
        Transport(send: { request in
            self.recorded.withLock { $0.append(request) }
            var headers = HTTPHeaders()
            headers.add("Content-Type", "application/json")
            return HTTPResponse(status: 200, headers: headers, body: Data("{}".utf8))
        })
    }
}
