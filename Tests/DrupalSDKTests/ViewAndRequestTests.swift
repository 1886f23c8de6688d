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

    /// A display without a full pager ignores `page`: its pages end when one repeats.
    func testPagesEndWhenAPageRepeats() async throws {
        let client = try makeClient()
        let pages = try client.viewPages("/api/articles-all")
        let first = try await pages.next()
        XCTAssertEqual(try first?.json().arrayValue?.count, 5)
        let second = try await pages.next()
        XCTAssertNil(second, "page 1 repeats page 0")
        let rows = try await client.viewAllPages("/api/articles-all")
        XCTAssertEqual(rows.count, 5)
    }

    /// Regression: of two fetches that overlap, the one started second is refused when it
    /// starts. The pager was held only once a call's task ran, so the first call could be the
    /// one refused (its start returned, and its completion got `.state`).
    func testOverlappingFetchesRefuseTheOneStartedSecond() async throws {
        let client = try makeClient()
        let pages = try client.viewPages("/api/articles")
        let first = Steps()
        let started = try client.start(.nextPage(pages)) { first.add($0) }
        XCTAssertThrowsError(try client.start(.nextPage(pages)) { _ in XCTFail("the second call ran") }) {
            XCTAssertEqual(($0 as? DrupalError)?.code, .state)
        }
        let outcome = try await first.wait()
        XCTAssertNotNil(try outcome.get(), "the first call gets its page")
        _ = started
        // Once it ended, the next fetch goes on from the page it got.
        let second = try await pages.next()
        XCTAssertNotEqual(try second?.json(), try outcome.get()?.json())
        // A call started and cancelled before it ran lets go of the pager.
        try client.start(.nextPage(pages)) { _ in }()
        var freed = false
        for _ in 0..<200 where !freed {
            do {
                _ = try await pages.next()
                freed = true
            } catch let error as DrupalError where error.code == .state {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        XCTAssertTrue(freed, "a cancelled call let go of the pager")
    }

    /// The pages count on from the query's `page`: from the largest integer the next page number
    /// overflowed and the process died. The walk ends there; a `page` that is no number starts
    /// at 0 as before.
    func testAPageNumberNearTheLargestIntegerEndsTheWalk() async throws {
        let client = try makeClient()
        let pages = try client.viewPages("/api/articles-all", [("page", String(Int.max))])
        let first = try await pages.next()
        XCTAssertEqual(try first?.json().arrayValue?.count, 5, "a display without a pager answers its rows")
        let second = try await pages.next()
        XCTAssertNil(second, "no page number follows Int.max")
    }

    func testPagesStartAtTheQuerysPageAndStopAtMaxPages() async throws {
        let client = try makeClient()
        let fromOne = try await client.viewAllPages("/api/articles", [("page", "1")])
        XCTAssertEqual(fromOne.compactMap { $0["nid"]?.stringValue }, ["3", "4", "5"])
        let two = try await client.viewAllPages("/api/articles", maxPages: 2)
        XCTAssertEqual(two.count, 4)
    }

    func testPathWithQueryAndAbsoluteURLUnderTheBase() async throws {
        let client = try makeClient()
        let withQuery = try await client.request(DrupalRequest(method: "GET", path: "/api/articles?page=1&title=article"))
        XCTAssertEqual(try withQuery.json()[0]?["nid"]?.stringValue, "3")
        let absolute = try await client.request(DrupalRequest(method: "GET", path: server.baseURL + "/node/2"))
        XCTAssertEqual(try absolute.json()["nid"]?[0]?["value"]?.idString, "2")
        let own = try await client.request(DrupalRequest(method: "GET",
                                                         path: server.baseURL + "/api/articles?_format=json&page=2"))
        XCTAssertEqual(try own.json()[0]?["nid"]?.stringValue, "5", "the target's own _format is kept, not doubled")
    }

    func testTargetQueryAndItemsAreJoined() async throws {
        let recorder = RecordingTransport()
        let client = try DrupalClient.live(baseURL: "https://example.com/sub", configuration: .init(),
                                           transport: recorder.transport)
        _ = try await client.request(DrupalRequest(method: "GET", path: "/jsonapi/node/article?page%5Blimit%5D=2&x=a b",
                                                   query: [("sort", "-created")], format: nil))
        _ = try await client.request(DrupalRequest(method: "GET", path: "HTTPS://EXAMPLE.COM/sub/node/1#top"))
        XCTAssertEqual(recorder.urls, ["https://example.com/sub/jsonapi/node/article?page%5Blimit%5D=2&x=a%20b&sort=-created",
                                       "https://example.com/sub/node/1?_format=json"])
        for outside in ["https://example.com/other/node/1", "https://example.com/subway/x", "https://evil.example/sub/x"] {
            let error = await expectError { try await client.request(DrupalRequest(method: "GET", path: outside)) }
            XCTAssertEqual(error?.code, .invalidArgument, outside)
        }
        XCTAssertEqual(recorder.urls.count, 2, "nothing outside the base URL was sent")
    }

    func testArbitraryRequestReturnsStatusHeadersBody() async throws {
        let client = try makeClient()
        let response = try await client.request(DrupalRequest(method: "GET", path: "/session/token", format: nil))
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.headers["content-type"]?.hasPrefix("text/plain") ?? false)
        XCTAssertFalse(response.text.isEmpty)
    }

    /// A method is sent upper-cased, however the caller wrote it (HTTP methods are
    /// case-sensitive: the server would not know "get").
    func testLowerCaseMethodIsSentUpperCase() async throws {
        let client = try makeClient()
        let response = try await client.request(DrupalRequest(method: "get", path: "/session/token", format: nil))
        XCTAssertEqual(response.status, 200)
        XCTAssertFalse(response.text.isEmpty)
    }

    func testUnsafePathsAreRejectedBeforeAnythingIsSent() async throws {
        let client = try makeClient()
        let before = try server.stats().requests
        for path in ["/../etc/passwd", "/node/%2e%2e/x", "//evil.example/x", "http://evil.example/", "/node\r\nX: y",
                     "/a\\b", "/node/../..?x=1", server.baseURL + "evil/node/1", server.baseURL + ".evil/x"] {
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

    /// RFC 9110 allows no control character in a field value but a tab, and Apache answers one
    /// with a bare 400: a caller's value with one used to be sent (only CR, LF and NUL were refused).
    func testHeaderValuesWithControlCharactersAreRefusedButTabsAndUTF8AreSent() async throws {
        let client = try makeClient()
        let before = try server.stats().requests
        for value in ["a\u{1}b", "a\u{8}", "\u{B}", "\u{1B}[31m", "a\u{1F}", "del\u{7F}"] {
            var headers = HTTPHeaders()
            headers.add("X-Test", value)
            let error = await expectError {
                try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
            }
            XCTAssertEqual(error?.code, .invalidArgument, value.debugDescription)
            XCTAssertTrue(error?.message.contains("control character") ?? false, error?.message ?? "")
        }
        XCTAssertEqual(try server.stats().requests, before, "nothing was sent")
        var headers = HTTPHeaders()
        headers.add("X-Test", "tab\there, caf\u{E9}")
        _ = try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        let sent = try server.sentHeaderValues("X-Test").first
        // The fake server reads header bytes as Latin-1, as HTTP does: the two bytes of UTF-8's é.
        XCTAssertEqual(sent, "tab\there, caf\u{C3}\u{A9}")
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

/// The one outcome of a call started with `DrupalClient.start`, awaited.
private final class Steps: Sendable {
    private let outcome = Mutex<DrupalClient.Outcome?>(nil)
    func add(_ value: DrupalClient.Outcome) { outcome.withLock { $0 = value } }
    func wait() async throws -> DrupalClient.Outcome {
        for _ in 0..<1000 {
            if let value = outcome.withLock({ $0 }) { return value }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw DrupalError(.timeout, "the call never completed")
    }
}
