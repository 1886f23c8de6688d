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

    /// A redirect's hop is shown relative to the base URL when it stays under it. One leaving a
    /// base URL with a path ("/sub") was shown as "/node/2" cut by the base's length: "e/2".
    func testARedirectHopOutsideTheBasePathIsShownAsItsURL() async throws {
        let client = try makeClient(baseURL: server.baseURL + "/sub") { $0.transport.followRedirects = true }
        let collected = EventLog()
        let token = client.addObserver { collected.add($0) }
        defer { client.removeObserver(token) }
        for location in ["/sub/node/2?_format=json", "/node/2?_format=json", "/subx/node/2"] {
            try server.control("POST", "/__fake/faults", json: #"{"mode": "redirect", "to": "\#(location)", "code": 302, "count": 1}"#)
            _ = try? await client.request(DrupalRequest(method: "GET", path: "/node/1"))
        }
        let started = collected.events.compactMap { event -> String? in
            if case .requestStarted(_, let path) = event { return path } else { return nil }
        }
        XCTAssertEqual(started, ["/node/1", "/node/2", "/node/1", server.baseURL + "/node/2?_format=json",
                                 "/node/1", server.baseURL + "/subx/node/2"])
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

    /// PHP reads `access.token`, `access token`, ` token` and `token[]` as access_token and
    /// token: a log hides those values too.
    func testLogsHideSecretsUnderEveryNameTheSiteReads() async throws {
        let log = LineLog()
        let client = try makeClient { $0.middleware = [.logging { log.add($0) }] }
        let query = [("access.token", "v-dot"), ("access token", "v-space"), (" token", "v-lead"), ("token[]", "v-array"),
                     ("Refresh_Token[a][b]", "v-nested"), ("tokens", "shown-1"), ("to.ken", "shown-2")]
        _ = try? await client.request(DrupalRequest(method: "GET", path: "/node/1", query: query))
        let text = log.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("access.token=<redacted>"), text)
        for secret in ["v-dot", "v-space", "v-lead", "v-array", "v-nested"] { XCTAssertFalse(text.contains(secret), secret) }
        XCTAssertTrue(text.contains("tokens=shown-1") && text.contains("to.ken=shown-2"), "other keys are shown: \(text)")
        XCTAssertEqual(Redaction.redactURL("https://site.example/x?access+token=a&%20%20pass=b&code%5B%5D=c&pass%2Bword=d"),
                       "https://site.example/x?access+token=<redacted>&%20%20pass=<redacted>&code%5B%5D=<redacted>&pass%2Bword=d")
    }

    /// A response header's value is the server's text: its control characters went into the
    /// log as they were (an ANSI escape colours or clears the terminal that shows the log).
    func testLogsShowAServersControlCharactersAsEscapes() async throws {
        let log = LineLog()
        let client = try makeClient {
            $0.middleware = [.logging { log.add($0) }]
            $0.retry.maxRetries = 0
        }
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "status;code=503;retry_after=1%1B[2J%0Dlater")
        _ = try? await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        let text = log.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains(#"Retry-After: 1\u{1b}[2J\u{d}later"#), text)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x0D }, text)
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
