@testable import DrupalSDK
import XCTest

/// The first transfer of each minute runs with libcurl's 60 s DNS cache timeout (it re-resolves
/// an older answer and prunes the cache); every other keeps the cache as it is.
final class DNSCachePruningTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000

    func testTheFirstTransferOfEachMinutePrunes() {
        var pruning = DNSCachePruning()
        let start = 5 * second
        XCTAssertEqual(pruning.timeout(startingAt: start), 60, "the first transfer prunes")
        XCTAssertEqual(pruning.timeout(startingAt: start), -1)
        XCTAssertEqual(pruning.timeout(startingAt: start + 59 * second), -1, "within the minute")
        XCTAssertEqual(pruning.timeout(startingAt: start + 60 * second), 60, "a minute later")
        XCTAssertEqual(pruning.timeout(startingAt: start + 61 * second), -1)
        XCTAssertEqual(pruning.timeout(startingAt: start + 3600 * second), 60, "after an idle hour, at once")
        XCTAssertEqual(pruning.timeout(startingAt: start + 3600 * second + 1), -1)
    }
}
