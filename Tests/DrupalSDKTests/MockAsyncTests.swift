import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// A mock client's async calls are answered on a thread of the client's (`MockAnswerer`), as a
/// live client's are on its curl thread: not on the caller's thread, in the order they started,
/// cancellable until answered, and every one answered when the client goes away.
final class MockAsyncTests: XCTestCase {
    private func stubbedSite() -> MockDrupal {
        let site = MockDrupal()
        site.stub(method: "GET", path: "/node/1", status: 200, json: .object(["nid": .array([.object(["value": .number(1)])])]))
        return site
    }

    /// The calling thread's name, as the kernel has it.
    private static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAsyncCallsAreAnsweredInOrderOnTheMockThread() throws {
        let client = DrupalClient.mock(stubbedSite())
        let seen = Mutex<[(Int, String, Int?)]>([])
        let done = DispatchSemaphore(value: 0)
        let count = 50
        for index in 0..<count {
            _ = try client.start(.get(entityType: "node", id: "1")) { outcome in
                let status = try? outcome.get()?.status
                seen.withLock { $0.append((index, MockAsyncTests.threadName(), status)) }
                done.signal()
            }
        }
        for _ in 0..<count { XCTAssertEqual(done.wait(timeout: .now() + 10), .success) }
        let results = seen.withLock { $0 }
        XCTAssertEqual(results.map(\.0), Array(0..<count), "answered in the order started")
        XCTAssertTrue(results.allSatisfy { $0.1 == MockAnswerer.threadName }, "on the mock's thread: \(results.map(\.1))")
        XCTAssertTrue(results.allSatisfy { $0.2 == 200 })
    }

    func testACallCancelledBeforeItsTurnEndsCancelledAndIsNotAnswered() throws {
        let site = stubbedSite()
        let client = DrupalClient.mock(site)
        let release = DispatchSemaphore(value: 0)
        let first = DispatchSemaphore(value: 0)
        // The first completion holds the mock's thread until the second call is cancelled.
        _ = try client.start(.get(entityType: "node", id: "1")) { _ in
            first.signal()
            release.wait()
        }
        XCTAssertEqual(first.wait(timeout: .now() + 10), .success)
        let second = Mutex<DrupalClient.Outcome?>(nil)
        let secondDone = DispatchSemaphore(value: 0)
        let cancel = try client.start(.get(entityType: "node", id: "1")) { outcome in
            second.withLock { $0 = outcome }
            secondDone.signal()
        }
        cancel()
        let answeredBefore = site.requestCount
        release.signal()
        XCTAssertEqual(secondDone.wait(timeout: .now() + 10), .success)
        let outcome = try XCTUnwrap(second.withLock { $0 })
        XCTAssertThrowsError(try outcome.get()) { XCTAssertEqual(($0 as? DrupalError)?.code, .cancelled) }
        XCTAssertEqual(site.requestCount, answeredBefore, "the cancelled request never reached the site")
    }

    func testCallsStillQueuedWhenTheClientGoesAwayEndCancelled() throws {
        let release = DispatchSemaphore(value: 0)
        let first = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[DrupalClient.Outcome]>([])
        let allDone = DispatchSemaphore(value: 0)
        do {
            let client = DrupalClient.mock(stubbedSite())
            _ = try client.start(.get(entityType: "node", id: "1")) { _ in
                first.signal()
                release.wait()
            }
            XCTAssertEqual(first.wait(timeout: .now() + 10), .success)
            for _ in 0..<3 {
                _ = try client.start(.get(entityType: "node", id: "1")) { outcome in
                    outcomes.withLock { $0.append(outcome) }
                    allDone.signal()
                }
            }
            // Letting the client go waits for the completion that is running (as freeing a live
            // client does), so another thread lets that one end.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { release.signal() }
        }
        for _ in 0..<3 { XCTAssertEqual(allDone.wait(timeout: .now() + 10), .success) }
        let results = outcomes.withLock { $0 }
        XCTAssertEqual(results.count, 3)
        for outcome in results {
            XCTAssertThrowsError(try outcome.get()) { XCTAssertEqual(($0 as? DrupalError)?.code, .cancelled) }
        }
    }

    /// Threads of this process named as the mock's answering thread.
    private static func mockThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.trimmingCharacters(in: .whitespacesAndNewlines) == MockAnswerer.threadName
        }.count
    }

    /// The mock threads left after waiting up to 2 s for them to end.
    private static func mockThreadsAfterAWhile() -> Int {
        for _ in 0..<200 where mockThreads() > 0 { usleep(10_000) }
        return mockThreads()
    }

    /// Regression: a task-free call kept its transfer's cancel until it was freed, and the mock's
    /// cancel held the queued job, which held the call's completion, which held the call: a
    /// cycle. So a mock client that had answered an async call was never freed (its session and
    /// its site stayed), and from C (whose completion holds the client) its thread never ended.
    func testAMockClientIsFreedAfterAnsweringAsyncCalls() throws {
        weak var weakSite: MockDrupal?
        try {
            let site = stubbedSite()
            weakSite = site
            let client = DrupalClient.mock(site)
            let done = DispatchSemaphore(value: 0)
            for _ in 0..<3 {
                _ = try client.start(.get(entityType: "node", id: "1")) { _ in done.signal() }
                XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            }
            XCTAssertEqual(MockAsyncTests.mockThreads(), 1, "the client answers on its thread")
        }()
        // The answering thread lets go of its last job as it ends.
        for _ in 0..<200 where weakSite != nil || MockAsyncTests.mockThreads() > 0 { usleep(10_000) }
        XCTAssertNil(weakSite, "the site is freed with its client")
        XCTAssertEqual(MockAsyncTests.mockThreads(), 0, "the thread ends with the client")
    }

    /// A mock transport shut down twice (a client's last copy and its session both do it) joins
    /// its thread once: a second join of an ended thread is undefined (the TSan run of this suite
    /// stopped at it once mock clients were freed).
    func testShuttingAMockTransportDownTwiceJoinsItsThreadOnce() {
        let transport = stubbedSite().transport
        let answered = DispatchSemaphore(value: 0)
        let request = HTTPRequest(method: "GET", url: "http://mock.invalid/node/1?_format=json")
        _ = transport.start?(request) { _ in answered.signal() }
        XCTAssertEqual(answered.wait(timeout: .now() + 10), .success)
        transport.shutdown()
        transport.shutdown()
        XCTAssertEqual(MockAsyncTests.mockThreadsAfterAWhile(), 0)
    }
}
