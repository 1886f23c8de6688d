import Foundation
import XCTest
@testable import DrupalSDK

/// The buffer libcurl's body chunks and header lines go into: it grows, hands its bytes to a Data
/// (or OwnedBytes) without a copy, and says so (instead of trapping) when memory cannot be had.
final class ReceiveBufferTests: XCTestCase {
    func testChunksBecomeOneDataAndTheBufferEmpties() {
        var buffer = ReceiveBuffer()
        let first = Data("{\"nid\":".utf8), second = Data(repeating: 0x37, count: 1_000)
        XCTAssertTrue(first.withUnsafeBytes { buffer.append($0) })
        XCTAssertTrue(second.withUnsafeBytes { buffer.append($0) })
        XCTAssertEqual(buffer.count, first.count + second.count)
        XCTAssertEqual(buffer.take(), first + second)
        XCTAssertEqual(buffer.count, 0)
        XCTAssertEqual(buffer.take(), Data(), "taken once")
    }

    func testAnAllocationThatFailsIsReportedAndLeavesTheBytes() {
        var buffer = ReceiveBuffer()
        XCTAssertTrue(Data("kept".utf8).withUnsafeBytes { buffer.append($0) })
        XCTAssertFalse(buffer.reserve(Int.max / 2), "no machine has that much memory")
        XCTAssertEqual(buffer.count, 4)
        XCTAssertEqual(buffer.take(), Data("kept".utf8))
        buffer.release()
    }

    func testReleaseFreesWhatWasNeverTaken() {
        var buffer = ReceiveBuffer()
        XCTAssertTrue(buffer.reserve(4_096))
        XCTAssertTrue(Data("x".utf8).withUnsafeBytes { buffer.append($0) })
        buffer.release()
        XCTAssertEqual(buffer.count, 0)
        XCTAssertEqual(buffer.take(), Data())
    }

    func testExtendHandsOutRoomAndRemoveAllKeepsIt() {
        var buffer = ReceiveBuffer()
        guard let room = buffer.extend(by: 3) else { return XCTFail("no room for 3 bytes") }
        room.copyMemory(from: Array("abc".utf8), byteCount: 3)
        XCTAssertEqual(buffer.count, 3)
        buffer.removeAll()
        XCTAssertEqual(buffer.count, 0)
        XCTAssertTrue(Data("xy".utf8).withUnsafeBytes { buffer.append($0) })
        XCTAssertNil(buffer.extend(by: Int.max / 2), "no machine has that much memory")
        XCTAssertEqual(buffer.count, 2, "a failed extend leaves the buffer as it was")
        guard let owned = buffer.takeOwned() else { return XCTFail("nothing taken") }
        XCTAssertEqual(Array(UnsafeRawBufferPointer(start: owned.start, count: owned.count)), Array("xy".utf8))
        XCTAssertNil(buffer.takeOwned(), "taken once")
    }
}
