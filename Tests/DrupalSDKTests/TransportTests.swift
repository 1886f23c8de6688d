import Foundation
import XCTest
@testable import DrupalSDK

/// The libcurl transport against the fake server: keep-alive, concurrency, timeouts,
/// cancellation, size limits and broken servers.
final class TransportTests: FakeDrupalTestCase {
    func testHundredSequentialRequestsUseOneConnection() async throws {
        let client = try makeClient()
        for _ in 0..<100 {
            let response = try await client.get("node", "1")
            XCTAssertEqual(response.status, 200)
        }
        XCTAssertEqual(try server.stats().connections, 1)
    }

    func testFiftyConcurrentRequestsOnOneClient() async throws {
        let client = try makeClient()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask { try await client.get("node", String(index % 3 + 1)).status }
            }
            var all: [Int] = []
            for try await status in group { all.append(status) }
            return all
        }
        XCTAssertEqual(statuses.count, 50)
        XCTAssertTrue(statuses.allSatisfy { $0 == 200 })
    }

    func testTimeoutAgainstAStallingServer() async throws {
        let client = try makeClient { $0.transport.timeout = 0.5 }
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "stall;seconds=5")
        let started = Date()
        let error = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(error?.code, .timeout)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "the timeout, not the stall, ended the call")
    }

    func testCancellationEndsAnInFlightRequest() async throws {
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "stall;seconds=5")
        let task = Task {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch let error as DrupalError {
            XCTAssertEqual(error.code, .cancelled)
        }
        // The client still works afterwards.
        let after = try await client.get("node", "1")
        XCTAssertEqual(after.status, 200)
    }

    func testResponseLargerThanTheLimitFailsClearly() async throws {
        let client = try makeClient { $0.transport.maxBodySize = 1_000_000 }
        let error = await expectError { try await client.request(faulted("huge;bytes=50000000")) }
        XCTAssertEqual(error?.code, .tooLarge)
    }

    func testConnectionResetIsANetworkError() async throws {
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "reset")
        let error = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(error?.code, .network)
    }

    func testMalformedJSONIsADecodeError() async throws {
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "malformed")
        let response = try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        XCTAssertThrowsError(try response.json()) { error in
            XCTAssertEqual((error as? DrupalError)?.code, .decode)
        }
    }

    func testRefusedConnectionIsANetworkError() async throws {
        let client = try DrupalClient.live(baseURL: "http://127.0.0.1:1")
        let error = await expectError { try await client.get("node", "1") }
        XCTAssertEqual(error?.code, .network)
    }
}

final class RedirectTests: FakeDrupalTestCase {
    func testRedirectsAreReturnedNotFollowedByDefault() async throws {
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "redirect;to=/node/2;code=302")
        // Not followed, and no success either: a redirect error with its Location.
        let error = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(error?.status, 302)
        XCTAssertEqual(error?.redirectLocation, "/node/2")
    }

    func testCredentialsAreNotSentToAnotherHostOnRedirect() async throws {
        let other = FakeDrupalServer(extraArguments: [])
        let client = try makeClient { $0.transport.followRedirects = true }
        _ = try await client.login("admin", "admin")   // a session cookie...
        try client.setAuthentication(.basic(user: "admin", password: "admin"))   // ...and Authorization
        // A one-shot fault on this server only (a header would follow the redirect too).
        try server.control("POST", "/__fake/faults",
                           json: #"{"mode": "redirect", "to": "\#(other.baseURL)/node/1?_format=json", "count": 1}"#)
        let response = try await client.get("node", "1")
        XCTAssertEqual(response.status, 200)
        let seen = String(decoding: try other.control("GET", "/__fake/last-request"), as: UTF8.self)
        XCTAssertTrue(seen.contains("/node/1"), seen)
        XCTAssertFalse(seen.lowercased().contains("authorization"), seen)
        XCTAssertFalse(seen.lowercased().contains("cookie"), seen)
    }
}

/// The mock's blocking calls run on the caller's thread: no hand-off to another thread.
final class MockBlockingRunTests: XCTestCase {
    func testMockBlockingCallRunsOnTheCallingThread() throws {
        let site = MockDrupal()
        let caller = pthread_self()
        let seen = LineLog()
        var configuration = DrupalClient.Configuration()
        configuration.middleware = [Middleware(onRequest: { _ in seen.add("\(pthread_equal(pthread_self(), caller) != 0)") })]
        let client = DrupalClient.mock(site, configuration: configuration)
        let outcome = try client.run(.view(path: "/api/articles", query: [])) { _ in }
        XCTAssertEqual(try outcome.get()?.status, 200)
        XCTAssertEqual(seen.lines, ["true"])
    }
}
