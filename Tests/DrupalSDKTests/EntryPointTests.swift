import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// The one entry point every call goes through (`DrupalClient.start` and `.run`, what the C API
/// and Swift's async methods call): the same outcomes on every path, over real HTTP to the fake.
final class EntryPointTests: FakeDrupalTestCase {
    /// Starts an operation and waits for its completion.
    private func startAndWait(_ client: DrupalClient, _ operation: DrupalOperation,
                              cancelAfter delay: Double? = nil) throws -> DrupalClient.Outcome {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<[DrupalClient.Outcome]>([])
        let cancel = try client.start(operation) { result in
            outcome.withLock { $0.append(result) }
            done.signal()
        }
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

    /// The transport checks the options it uses, whoever makes it: one made directly took a
    /// User-Agent that could smuggle a header and dropped it silently, and took any proxy string.
    func testTheCurlTransportRefusesAnAgentOrProxyItCannotUse() {
        var options = TransportOptions()
        options.userAgent = "bad\r\nX-Injected: 1"
        XCTAssertThrowsError(try Transport.curl(options)) { error in
            XCTAssertEqual((error as? DrupalError)?.code, .invalidArgument)
        }
        options.userAgent = "importer\t2.0"   // a tab is allowed in a field value
        options.proxy = "ftp://user:s3cret@proxy.example"
        XCTAssertThrowsError(try Transport.curl(options)) { error in
            XCTAssertEqual((error as? DrupalError)?.code, .invalidArgument)
            XCTAssertFalse("\(error)".contains("s3cret"))
        }
        options.proxy = ""
        XCTAssertNoThrow(try Transport.curl(options).shutdown())
    }

    /// Each change makes a live client refuse to be made, and a mock client its first call.
    private func assertRefusedWhenMade(_ bad: [(String, (inout DrupalClient.Configuration) -> Void)]) async {
        for (what, change) in bad {
            XCTAssertThrowsError(try makeClient { change(&$0) }, what) { error in
                XCTAssertEqual((error as? DrupalError)?.code, .invalidArgument, what)
            }
            var configuration = DrupalClient.Configuration()
            change(&configuration)
            let mockError = await expectError { try await DrupalClient.mock(configuration: configuration).get("node", "1") }
            XCTAssertEqual(mockError?.code, .invalidArgument, "the mock refuses \(what) too")
        }
    }

    /// Numbers out of range were taken and bent: a negative or NaN timeout meant none at all, a
    /// pool of 0 or a million became 1 or 10,000, a body limit of 0 refused every body. A Swift
    /// caller now gets the error a C or Python caller got.
    func testOptionsOutOfRangeAreRefusedWhenTheClientIsMade() async throws {
        let bad: [(String, (inout TransportOptions) -> Void)] = [
            ("timeout -1", { $0.timeout = -1 }), ("timeout NaN", { $0.timeout = .nan }),
            ("connect timeout", { $0.connectTimeout = TransportOptions.maxTimeout + 1 }),
            ("body limit 0", { $0.maxBodySize = 0 }), ("pool 0", { $0.maxConnections = 0 }),
            ("pool", { $0.maxConnections = TransportOptions.maxMaxConnections + 1 }),
            ("busy poll -1", { $0.busyPollMicroseconds = -1 }),
            ("busy poll", { $0.busyPollMicroseconds = TransportOptions.maxBusyPollMicroseconds + 1 }),
            ("file rate 0", { $0.minimumFileRate = 0 }),
            ("file rate", { $0.minimumFileRate = TransportOptions.maxMinimumFileRate + 1 }),
        ]
        await assertRefusedWhenMade(bad.map { what, change in (what, { change(&$0.transport) }) })
        let client = try makeClient {
            $0.transport.timeout = 0   // no limit
            $0.transport.connectTimeout = 0
            $0.transport.maxConnections = 1
            $0.transport.busyPollMicroseconds = TransportOptions.maxBusyPollMicroseconds
            $0.transport.minimumFileRate = TransportOptions.maxMinimumFileRate
        }
        let node = try await client.get("node", "1")
        XCTAssertEqual(node.status, 200)
    }

    /// A retry policy whose delays are not numbers of seconds from 0 trapped in the backoff
    /// (a range from 0 to a negative bound) at the first retry: the process died; a negative
    /// number of retries meant none. Refused when the client is made now.
    func testRetryDelaysOutOfRangeAreRefusedWhenTheClientIsMade() async throws {
        let bad: [(String, (inout RetryPolicy) -> Void)] = [
            ("max delay -1", { $0.maxDelay = -1 }), ("base delay NaN", { $0.baseDelay = .nan }),
            ("base delay -1", { $0.baseDelay = -1 }), ("max delay inf", { $0.maxDelay = .infinity }),
            ("retries -1", { $0.maxRetries = -1 }),   // meant "none" without a word
        ]
        await assertRefusedWhenMade(bad.map { what, change in (what, { change(&$0.retry) }) })
        let client = try makeClient {
            $0.retry.baseDelay = 0
            $0.retry.maxDelay = 0
        }
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "status;code=503;retry_after=x")
        let retried = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(retried?.status, 503, "retried at once, twice, then the 503")
    }

    /// libcurl asks "Expect: 100-continue" before a body over 1 MB (a round trip, and servers that
    /// never answer it stall the upload a second); the client turns it off for requests with a
    /// body, and requests without one never need it.
    func testNoRequestWaitsForA100Continue() async throws {
        let client = try makeClient { $0.authentication = .basic(user: "admin", password: "admin") }
        _ = try await client.get("node", "1")
        XCTAssertNil(try lastRequest().headers.first { $0.key.lowercased() == "expect" })
        XCTAssertNotNil(try lastRequest().headers["Authorization"])
        let big = Data("{\"title\": [{\"value\": \"\(String(repeating: "x", count: 2_000_000))\"}]}".utf8)
        _ = try? await client.request(DrupalRequest(method: "POST", path: "/node", body: big))
        let seen = try lastRequest()
        XCTAssertEqual(seen.headers["Content-Length"], String(big.count))
        XCTAssertNil(seen.headers.first { $0.key.lowercased() == "expect" })
    }

    func testStartedGetAnswersLikeTheAsyncGet() async throws {
        let client = try makeClient()
        let viaStart = try XCTUnwrap(try startAndWait(client, .get(entityType: "node", id: "1")).get())
        let viaTask = try await client.get("node", "1")
        XCTAssertEqual(viaStart.status, 200)
        XCTAssertEqual(viaStart.body, viaTask.body)
        XCTAssertEqual(viaStart.headers["Content-Type"], viaTask.headers["Content-Type"])
        XCTAssertEqual(try lastRequest().target, "/node/1?_format=json")
    }

    func testErrorsCarryDrupalsMessageOnEveryPath() async throws {
        let client = try makeClient()
        let started = try XCTUnwrap(startAndWait(client, .get(entityType: "node", id: "999999")).failureValue)
        let ran = try XCTUnwrap(try client.run(.get(entityType: "node", id: "999999")) { _ in }.failureValue)
        let awaited = await expectError { try await client.get("node", "999999") }
        XCTAssertEqual(started.status, 404)
        XCTAssertEqual(started.message, awaited?.message)
        XCTAssertEqual(ran.message, awaited?.message)
    }

    func testRefusedInputThrowsAtOnceAndNothingRuns() throws {
        let client = try makeClient()
        let before = try server.stats().requests
        let called = Mutex(false)
        for operation: DrupalOperation in [.get(entityType: "Bad-Type", id: "1"), .delete(entityType: "node", id: ".."),
                                           .request(DrupalRequest(method: "GE T", path: "/node/1")),
                                           .view(path: "/../x", query: [])] {
            XCTAssertThrowsError(try client.start(operation) { _ in called.withLock { $0 = true } })
            XCTAssertThrowsError(try client.run(operation) { _ in })
        }
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertFalse(called.withLock { $0 })
        XCTAssertEqual(try server.stats().requests, before)
    }

    func testOperationsThatNeedATokenRunAsTasksWithTheSameOutcome() throws {
        let client = try makeClient()
        _ = try client.run(.login(name: "admin", password: "admin")) { _ in }.get()
        let body = try JSONBody(Self.article("through start"))
        let created = try XCTUnwrap(try startAndWait(client, .create(entityType: "node", body: body)).get())
        XCTAssertEqual(created.status, 201)
        let deleted = try client.run(.delete(entityType: "node", id: "1")) { _ in }
        XCTAssertEqual(try deleted.get()?.status, 204)
    }

    func testCancelEndsAStalledRequest() throws {
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "stall;seconds=5")
        let started = Date()
        let result = try startAndWait(client, .request(DrupalRequest(method: "GET", path: "/node/1", headers: headers)),
                                      cancelAfter: 0.2)
        XCTAssertEqual(result.failureValue?.code, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testEventsAndMiddlewareRunOnThePathWithoutATask() throws {
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
        _ = try startAndWait(client, .get(entityType: "node", id: "1")).get()
        XCTAssertEqual(log.lines, ["started GET /node/1", "finished GET /node/1 200"])
        XCTAssertEqual(try lastRequest().headers["X-Trace"], "on")
    }

    func testBlockingRunsReuseOneConnectionOnTheCallingThread() throws {
        let client = try makeClient()
        for _ in 0..<20 {
            XCTAssertEqual(try client.run(.get(entityType: "node", id: "1")) { _ in }.get()?.status, 200)
        }
        XCTAssertEqual(try server.stats().connections, 1)
    }

    func testBlockingRunsWorkWithAndWithoutBusyPolling() throws {
        for microseconds in [0, 50, 100_000] {
            let client = try makeClient { $0.transport.busyPollMicroseconds = microseconds }
            for _ in 0..<5 {
                XCTAssertEqual(try client.run(.get(entityType: "node", id: "1")) { _ in }.get()?.status, 200,
                               "busyPollMicroseconds = \(microseconds)")
            }
        }
        // Off by default: an embedded library does not spin its caller's core.
        XCTAssertEqual(TransportOptions().busyPollMicroseconds, 0)
        // A slow answer still arrives after the busy poll gives up and the thread sleeps.
        let client = try makeClient { $0.transport.busyPollMicroseconds = 50 }
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "delay;ms=200")
        let result = try client.run(.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))) { _ in }
        XCTAssertEqual(try result.get()?.status, 200)
    }

    func testBlockingRunCanBeCancelled() throws {
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "stall;seconds=5")
        let started = Date()
        let result = try client.run(.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))) { cancel in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { cancel() }
        }
        XCTAssertEqual(result.failureValue?.code, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testEntityPathsFollowTheClientsPathTable() throws {
        let client = try makeClient { $0.entityPaths["article_node"] = EntityPath(canonical: "/node/{id}", create: "/node") }
        _ = try client.run(.get(entityType: "article_node", id: "2")) { _ in }.get()
        XCTAssertEqual(try lastRequest().target, "/node/2?_format=json")
        _ = try? client.run(.get(entityType: "unknown_type", id: "a b")) { _ in }.get()
        XCTAssertEqual(try lastRequest().target, "/entity/unknown_type/a%20b?_format=json")
    }

    /// A transport may complete a transfer before its `start` returns (an in-memory one does):
    /// the retry that answer asks for is then what cancelling stops, not the finished transfer.
    func testCancelStopsTheRetryOfATransferThatCompletedAtOnce() throws {
        let starts = Mutex(0)
        let transport = Transport(send: { _ in throw DrupalError(.internal, "not used: the call goes without a task") },
                                  start: { _, completion in
                                      starts.withLock { $0 += 1 }
                                      var headers = HTTPHeaders()
                                      headers.add("Retry-After", "3")
                                      completion(.success(HTTPResponse(status: 503, headers: headers)))
                                      return {}
                                  })
        let client = try DrupalClient.live(baseURL: "http://drupal.test", configuration: DrupalClient.Configuration(),
                                           transport: transport)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<DrupalClient.Outcome?>(nil)
        let cancel = try client.start(.get(entityType: "node", id: "1")) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        cancel()
        XCTAssertEqual(done.wait(timeout: .now() + 1.5), .success, "cancelling ended the wait for the retry")
        XCTAssertEqual(outcome.withLock { $0 }?.failureValue?.code, .cancelled)
        XCTAssertEqual(starts.withLock { $0 }, 1, "the retry was not sent")
    }

    /// Replacing `start` changes what every call sees: Swift's async methods come through it.
    func testAReplacedStartIsWhatEveryCallSees() async throws {
        var client = DrupalClient.unimplemented
        let seen = LineLog()
        client.start = { operation, completion in
            seen.add(operation.name)
            completion(.success(DrupalResponse(status: 200, body: Data(#"{"nid":[{"value":7}]}"#.utf8))))
            return {}
        }
        let node = try await client.get("node", "7").json()
        XCTAssertEqual(node["nid"]?[0]?["value"]?.idString, "7")
        _ = try await client.view("/api/articles")
        XCTAssertEqual(seen.lines, ["get", "view"])
        let login = await expectError { _ = try await DrupalClient.unimplemented.login("a", "b") }
        XCTAssertEqual(login?.code, .unimplemented)
        XCTAssertTrue(login?.message.contains("DrupalClient.login") ?? false)
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
