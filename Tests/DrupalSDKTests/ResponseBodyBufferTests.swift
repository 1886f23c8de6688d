import Foundation
import XCTest
@testable import DrupalSDK

/// The buffer libcurl's body chunks go into: it grows, hands its bytes to a Data without a copy,
/// and says so (instead of trapping) when memory cannot be had.
final class ResponseBodyBufferTests: XCTestCase {
    func testChunksBecomeOneDataAndTheBufferEmpties() {
        var buffer = ResponseBodyBuffer()
        let first = Data("{\"nid\":".utf8), second = Data(repeating: 0x37, count: 1_000)
        XCTAssertTrue(first.withUnsafeBytes { buffer.append($0) })
        XCTAssertTrue(second.withUnsafeBytes { buffer.append($0) })
        XCTAssertEqual(buffer.count, first.count + second.count)
        XCTAssertEqual(buffer.take(), first + second)
        XCTAssertEqual(buffer.count, 0)
        XCTAssertEqual(buffer.take(), Data(), "taken once")
    }

    func testAnAllocationThatFailsIsReportedAndLeavesTheBytes() {
        var buffer = ResponseBodyBuffer()
        XCTAssertTrue(Data("kept".utf8).withUnsafeBytes { buffer.append($0) })
        XCTAssertFalse(buffer.reserve(Int.max / 2), "no machine has that much memory")
        XCTAssertEqual(buffer.count, 4)
        XCTAssertEqual(buffer.take(), Data("kept".utf8))
        buffer.release()
    }

    func testReleaseFreesWhatWasNeverTaken() {
        var buffer = ResponseBodyBuffer()
        XCTAssertTrue(buffer.reserve(4_096))
        XCTAssertTrue(Data("x".utf8).withUnsafeBytes { buffer.append($0) })
        buffer.release()
        XCTAssertEqual(buffer.count, 0)
        XCTAssertEqual(buffer.take(), Data())
    }
}
