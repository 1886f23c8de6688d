import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// Task-free requests (`DrupalClient.callbackMode`, what the C API runs plain requests on):
/// the same outcomes as the async operations, over real HTTP to the fake server.
final class CallbackModeTests: FakeDrupalTestCase {
    /// Starts a request and waits for its completion; fails if it does not qualify.
    private func startAndWait(_ mode: CallbackMode, _ request: DrupalRequest,
                              cancelAfter delay: Double? = nil) throws -> Result<DrupalResponse, DrupalError> {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<[Result<DrupalResponse, DrupalError>]>([])
        let cancel = try XCTUnwrap(mode.start(request) { result in
            outcome.withLock { $0.append(result) }
            done.signal()
        })
        if let delay {
            Thread.sleep(forTimeInterval: delay)
            cancel()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the completion ran")
        Thread.sleep(forTimeInterval: 0.05)   // a second completion would have arrived by now
        let results = outcome.withLock { $0 }
        XCTAssertEqual(results.count, 1, "the completion runs exactly once")
        return try XCTUnwrap(results.first)
    }

    /// What the fake server saw last: the request target and headers.
    private func lastRequest() throws -> (target: String, headers: [String: String], userAgents: [String]) {
        let data = try server.control("GET", "/__fake/last-request")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pairs = try XCTUnwrap(object["headers"] as? [[String]])
        return (try XCTUnwrap(object["target"] as? String),
                Dictionary(pairs.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first }),
                pairs.filter { $0[0].lowercased() == "user-agent" }.map { $0[1] })
    }

    func testUserAgentIsSentOnceAndARequestsOwnWins() async throws {
        let client = try makeClient()
        _ = try await client.get("node", "1")
        XCTAssertEqual(try lastRequest().userAgents, ["drupalsdk/\(DrupalSDKVersion.string)"])
        var headers = HTTPHeaders()
        headers.add("User-Agent", "importer/2.0")
        _ = try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        XCTAssertEqual(try lastRequest().userAgents, ["importer/2.0"])
        _ = try? await client.request(DrupalRequest(method: "OPTIONS", path: "/node/1"))
        XCTAssertEqual(try lastRequest().userAgents, ["drupalsdk/\(DrupalSDKVersion.string)"])
        let custom = try makeClient { $0.transport.userAgent = "migrate-bot/1" }
        _ = try await custom.get("node", "1")
        XCTAssertEqual(try lastRequest().userAgents, ["migrate-bot/1"])
        XCTAssertThrowsError(try makeClient { $0.transport.userAgent = "bad\r\nX-Injected: 1" })
    }

    func testStartedGetAnswersLikeTheAsyncGet() async throws {
        let client = try makeClient()
        let mode = try XCTUnwrap(client.callbackMode)
        let request = DrupalRequest(method: "GET", path: try mode.entityPath("node", "1"))
        let viaCallback = try startAndWait(mode, request).get()
        let viaTask = try await client.get("node", "1")
        XCTAssertEqual(viaCallback.status, 200)
        XCTAssertEqual(viaCallback.body, viaTask.body)
        XCTAssertEqual(viaCallback.headers["Content-Type"], viaTask.headers["Content-Type"])
        XCTAssertEqual(try lastRequest().target, "/node/1?_format=json")
    }

    func testErrorsCarryDrupalsMessageAsInTheAsyncPath() async throws {
        let client = try makeClient()
        let mode = try XCTUnwrap(client.callbackMode)
        let request = DrupalRequest(method: "GET", path: try mode.entityPath("node", "999999"))
        let callbackError = try XCTUnwrap(startAndWait(mode, request).failureValue)
        let taskError = await expectError { try await client.get("node", "999999") }
        XCTAssertEqual(callbackError.code, taskError?.code)
        XCTAssertEqual(callbackError.status, 404)
        XCTAssertEqual(callbackError.message, taskError?.message)
    }

    func testRequestsThatNeedACSRFTokenDoNotQualify() throws {
        let client = try makeClient()
        let mode = try XCTUnwrap(client.callbackMode)
        let called = Mutex(false)
        let cancel = mode.start(DrupalRequest(method: "POST", path: "/node", body: Data("{}".utf8))) { _ in
            called.withLock { $0 = true }
        }
        XCTAssertNil(cancel)
        XCTAssertNil(mode.run(DrupalRequest(method: "DELETE", path: "/node/1")) { _ in })
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertFalse(called.withLock { $0 })
    }

    func testCancelEndsAStalledRequest() throws {
        let client = try makeClient()
        let mode = try XCTUnwrap(client.callbackMode)
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "stall;seconds=5")
        let started = Date()
        let result = try startAndWait(mode, DrupalRequest(method: "GET", path: "/node/1", headers: headers),
                                      cancelAfter: 0.2)
        XCTAssertEqual(result.failureValue?.code, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testEventsAndMiddlewareRunAsInTheAsyncPath() throws {
        let log = LineLog()
        let client = try makeClient { configuration in
            configuration.middleware = [Middleware(onRequest: { request in request.headers.add("X-Trace", "on") })]
        }
        let token = client.addObserver { event in
            switch event {
            case .requestStarted(let method, let path): log.add("started \(method) \(path)")
            case .requestFinished(let method, let path, let status, _): log.add("finished \(method) \(path) \(status ?? 0)")
            default: break
            }
        }
        defer { client.removeObserver(token) }
        let mode = try XCTUnwrap(client.callbackMode)
        _ = try startAndWait(mode, DrupalRequest(method: "GET", path: "/node/1")).get()
        XCTAssertEqual(log.lines, ["started GET /node/1", "finished GET /node/1 200"])
        XCTAssertEqual(try lastRequest().headers["X-Trace"], "on")
    }

    func testBlockingRunsReuseOneConnectionOnTheCallingThread() throws {
        let client = try makeClient()
        let mode = try XCTUnwrap(client.callbackMode)
        for _ in 0..<20 {
            let result = try XCTUnwrap(mode.run(DrupalRequest(method: "GET", path: "/node/1")) { _ in })
            XCTAssertEqual(try result.get().status, 200)
        }
        XCTAssertEqual(try server.stats().connections, 1)
    }

    func testBlockingRunsWorkWithAndWithoutBusyPolling() throws {
        for microseconds in [0, 50, 100_000] {
            let client = try makeClient { $0.transport.busyPollMicroseconds = microseconds }
            let mode = try XCTUnwrap(client.callbackMode)
            for _ in 0..<5 {
                let result = try XCTUnwrap(mode.run(DrupalRequest(method: "GET", path: "/node/1")) { _ in })
                XCTAssertEqual(try result.get().status, 200, "busyPollMicroseconds = \(microseconds)")
            }
        }
        // A slow answer still arrives after the busy poll gives up and the thread sleeps.
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "delay;ms=200")
        let result = try XCTUnwrap(try XCTUnwrap(client.callbackMode).run(
            DrupalRequest(method: "GET", path: "/node/1", headers: headers)) { _ in })
        XCTAssertEqual(try result.get().status, 200)
    }

    func testBlockingRunCanBeCancelled() throws {
        let client = try makeClient()
        let mode = try XCTUnwrap(client.callbackMode)
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "stall;seconds=5")
        let started = Date()
        let result = mode.run(DrupalRequest(method: "GET", path: "/node/1", headers: headers)) { cancel in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { cancel() }
        }
        XCTAssertEqual(result?.failureValue?.code, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testEntityPathFollowsTheClientsPathTable() throws {
        let client = try makeClient { $0.entityPaths["recipe"] = EntityPath(canonical: "/recipes/{id}", create: "/recipes") }
        let mode = try XCTUnwrap(client.callbackMode)
        XCTAssertEqual(try mode.entityPath("node", "7"), "/node/7")
        XCTAssertEqual(try mode.entityPath("recipe", "a b"), "/recipes/a%20b")
        XCTAssertEqual(try mode.entityPath("unknown_type", "3"), "/entity/unknown_type/3")
        XCTAssertThrowsError(try mode.entityPath("Bad-Type", "1"))
        XCTAssertThrowsError(try mode.entityPath("node", ".."))
    }

    func testMockAndUnimplementedClientsHaveNoCallbackMode() {
        XCTAssertNil(DrupalClient.unimplemented.callbackMode)
        XCTAssertNil(DrupalClient.mock(MockDrupal()).callbackMode)
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
