import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// How long a call waits for an OAuth token: no longer than its timeout, and not at all once
/// cancelled, whether another call or itself fetches the token (from a provider or the token
/// endpoint); the fetch goes on and its token serves the calls after it.
final class OAuthWaitTests: XCTestCase {
    var server: FakeDrupalServer { FakeDrupalServer.extended }

    override func setUp() async throws {
        try server.reset()
        try server.control("POST", "/__fake/bearer", json: #"{"token": "minted-elsewhere", "uid": 2}"#)
    }

    /// A provider that takes `seconds` (not cancellable: as a C provider blocking on a vault).
    final class SlowProvider: Sendable {
        let calls = Atomic<Int>(0)
        let seconds: Double
        init(_ seconds: Double) { self.seconds = seconds }

        var provider: TokenProvider {
            TokenProvider { [self] _ in
                calls.add(1, ordering: .relaxed)
                let end = ContinuousClock.now + .seconds(seconds)
                while ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(50)) }
                return AccessToken("minted-elsewhere", expiresIn: 300)
            }
        }
    }

    func makeClient(_ authentication: Authentication, timeout: Double) throws -> DrupalClient {
        var configuration = DrupalClient.Configuration()
        configuration.authentication = authentication
        configuration.transport.timeout = timeout
        return try DrupalClient.live(baseURL: server.baseURL, configuration: configuration)
    }

    /// Regression (the session's review): a blocking call that gave up waiting for a token
    /// fetched from the endpoint left the token request on the engine its own thread drives,
    /// which nothing drove after: the calls after it waited for that fetch and timed out.
    func testABlockingCallGivingUpLeavesTheTokenFetchToEnd() async throws {
        let settings = OAuthSettings(clientID: "sdk-client", clientSecret: "sdk-secret", grant: .clientCredentials)
        let client = try makeClient(.oauth(settings), timeout: 1)
        try server.control("POST", "/__fake/faults",
                           json: #"{"mode": "delay", "ms": 2500, "path_prefix": "/oauth/token", "count": 1}"#)
        defer { _ = try? server.control("DELETE", "/__fake/faults") }
        let blocking = try client.run(.get(entityType: "node", id: "1")) { _ in }
        XCTAssertEqual(blocking.failureValue?.code, .timeout)
        try await Task.sleep(for: .seconds(2.5))   // the token endpoint has answered by now
        let response = try await client.get("node", "1")
        XCTAssertEqual(response.status, 200)
    }

    /// Regression (the session's review): a call cancelled before it asked for its token still
    /// started the provider, and drupal_client_free (which cancels calls) then waited for it.
    /// Regression (CI, under TSan): an already-cancelled task's call was started anyway, as a task
    /// of its own that the cancel reached only after `start` returned; that task could get to the
    /// token fetch first and run the provider. Many rounds, a fresh client each, so that the race
    /// shows on an idle machine too.
    func testACancelledCallStartsNoProvider() async throws {
        let slow = SlowProvider(0)
        for _ in 0..<300 {
            let client = try makeClient(.tokenProvider(slow.provider), timeout: 30)
            let call = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.get("user", "2")
            }
            let error = await expectError { _ = try await call.value }
            XCTAssertEqual(error?.code, .cancelled)
        }
        XCTAssertEqual(slow.calls.load(ordering: .relaxed), 0, "the provider ran for a cancelled call")
    }

    /// Regression: a call whose timeout was 1 s waited the 6 s of its token provider.
    func testACallWaitsForItsProvidersTokenNoLongerThanItsTimeout() async throws {
        let slow = SlowProvider(6)
        let client = try makeClient(.tokenProvider(slow.provider), timeout: 1)
        let started = ContinuousClock.now
        let error = await expectError { try await client.get("user", "2") }
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(error?.code, .timeout)
        XCTAssertLessThan(elapsed, .seconds(4), "waited for the provider past the timeout")
        XCTAssertTrue(error?.message.contains("timed out") ?? false, error?.message ?? "")
        // A second call waiting for the same fetch gives up at its own timeout too.
        let second = await expectError { try await client.get("user", "2") }
        XCTAssertEqual(second?.code, .timeout)
        XCTAssertEqual(slow.calls.load(ordering: .relaxed), 1)
    }

    /// Regression: the call running the provider could not be cancelled until the provider
    /// returned. It stops at once now; the provider ends in its own time and its token is kept.
    func testCancellingTheCallThatRunsTheProviderStopsItAtOnce() async throws {
        let slow = SlowProvider(3)
        let client = try makeClient(.tokenProvider(slow.provider), timeout: 30)
        let started = ContinuousClock.now
        let call = Task { try await client.get("user", "2") }
        try await Task.sleep(for: .milliseconds(300))
        call.cancel()
        let error = await expectError { try await call.value }
        XCTAssertEqual(error?.code, .cancelled)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2), "waited for the provider after a cancel")
        // The token the provider gives after all serves the next call: no second run.
        let user = try await client.get("user", "2")
        XCTAssertEqual(user.status, 200)
        XCTAssertEqual(slow.calls.load(ordering: .relaxed), 1)
    }

    /// Regression: the refresh after a 401 got a whole timeout of its own from the token
    /// endpoint, so a call could take about twice its timeout.
    func testARefreshAtTheTokenEndpointEndsWithTheCallsTimeout() async throws {
        let client = try makeClient(.oauth(OAuthTests.password()), timeout: 3)
        _ = try await client.get("node", "1")
        try server.control("POST", "/__fake/oauth-expire")
        try server.control("POST", "/__fake/faults",
                           json: #"{"mode": "delay", "ms": 6000, "path_prefix": "/oauth/token", "count": 1}"#)
        var request = DrupalRequest(method: "GET", path: "/node/1")
        request.headers.add("X-Fake-Fault", "delay;ms=2500")       // the 401 comes after 2.5 s
        let started = ContinuousClock.now
        let error = await expectError { try await client.request(request) }
        XCTAssertEqual(error?.code, .timeout)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(4.5), "the refresh outlived the call's timeout")
        // The delayed token request lands here, not in the next test.
        try await Task.sleep(for: .seconds(3))
    }
}
