import XCTest
@testable import DrupalSDK

/// The connection pool (TransportOptions.maxConnections) over real loopback HTTP, counted by the
/// fake server: a window of requests in flight keeps its connections across batches (libcurl's
/// default pool shrank as a window drained and churned them).
final class ConnectionPoolTests: FakeDrupalTestCase {
    /// Every answer waits 50 ms, so the requests of a batch are surely in flight together.
    private func held() -> DrupalRequest {
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "delay;ms=50")
        return DrupalRequest(method: "GET", path: "/node/1", headers: headers)
    }

    private func batches(_ client: DrupalClient, window: Int, count: Int) async throws {
        let request = held()
        for _ in 0..<count {
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<window { group.addTask { try await client.request(request).status } }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            XCTAssertEqual(statuses, Array(repeating: 200, count: window))
        }
    }

    func testThirtyTwoInFlightKeepThirtyTwoConnectionsAcrossBatches() async throws {
        let client = try makeClient()
        try await batches(client, window: 32, count: 4)
        XCTAssertEqual(try server.stats().connections, 32)
    }

    func testASmallerPoolClosesWhatItCannotKeep() async throws {
        let client = try makeClient { $0.transport.maxConnections = 4 }
        try await batches(client, window: 16, count: 3)
        XCTAssertGreaterThan(try server.stats().connections, 16)
    }

    func testHTTP2OffStillSpeaksHTTP11() async throws {
        let client = try makeClient { $0.transport.http2 = false }
        let status = try await client.get("node", "1").status
        XCTAssertEqual(status, 200)
    }
}
