import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// Request events and middleware, including logs that never show secrets.
final class EventsAndMiddlewareTests: FakeDrupalTestCase {
    func testRequestEventsCarryMethodPathStatusAndDuration() async throws {
        let client = try makeClient()
        let collected = EventLog()
        let token = client.addObserver { collected.add($0) }
        _ = try await client.get("node", "1")
        _ = await expectError { try await client.get("node", "999999") }
        client.removeObserver(token)
        _ = try await client.get("node", "1")
        let events = collected.events
        XCTAssertEqual(events.count, 4)
        guard case .requestStarted(let method, let path) = events[0] else { return XCTFail("\(events[0])") }
        XCTAssertEqual(method, "GET")
        XCTAssertEqual(path, "/node/1")
        guard case .requestFinished(_, _, let status, let duration) = events[1] else { return XCTFail("\(events[1])") }
        XCTAssertEqual(status, 200)
        XCTAssertGreaterThan(duration, .zero)
        guard case .requestFinished(_, _, let missing, _) = events[3] else { return XCTFail("\(events[3])") }
        XCTAssertEqual(missing, 404)
    }

    func testMiddlewareAddsHeadersAndLogsWithoutSecrets() async throws {
        let log = LineLog()
        let client = try makeClient {
            $0.middleware = [.header("X-Trace", "abc"), .logging { log.add($0) }]
            $0.authentication = .basic(user: "admin", password: "s3cret-pass")
        }
        _ = try await client.get("node", "1")
        let other = try makeClient { $0.middleware = [.logging { log.add($0) }] }
        _ = try await other.login("admin", "admin")
        _ = try await other.create("node", Self.article("logged"))
        try await other.logout()
        let text = log.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("X-Trace: abc"))
        XCTAssertTrue(text.contains("Authorization: <redacted>"))
        XCTAssertTrue(text.contains("X-CSRF-Token: <redacted>"))
        XCTAssertTrue(text.contains("token=<redacted>"))
        XCTAssertFalse(text.contains("s3cret-pass"))
        XCTAssertFalse(text.contains(Data("admin:s3cret-pass".utf8).base64EncodedString()))
        XCTAssertFalse(text.contains("SESS"), "no cookie value or name appears in the log")
    }

    func testResponseMiddlewareCanObserveEveryResponse() async throws {
        let statuses = LineLog()
        let client = try makeClient {
            $0.middleware = [Middleware(onResponse: { _, response in statuses.add(String(response.status)) })]
        }
        _ = try await client.get("node", "1")
        _ = try await client.view("/api/articles", [])
        XCTAssertEqual(statuses.lines, ["200", "200"])
    }
}

final class EventLog: Sendable {
    private let stored = Mutex<[DrupalEvent]>([])
    func add(_ event: DrupalEvent) { stored.withLock { $0.append(event) } }
    var events: [DrupalEvent] { stored.withLock { $0 } }
}

final class LineLog: Sendable {
    private let stored = Mutex<[String]>([])
    func add(_ line: String) { stored.withLock { $0.append(line) } }
    var lines: [String] { stored.withLock { $0 } }
}
