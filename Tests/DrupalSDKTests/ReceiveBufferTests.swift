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
        let taken = buffer.take()
        XCTAssertEqual(taken.data, first + second)
        XCTAssertEqual(buffer.count, 0)
        XCTAssertEqual(buffer.take().data, Data(), "taken once")
        XCTAssertNil(buffer.take().start)
    }

    func testAnAllocationThatFailsIsReportedAndLeavesTheBytes() {
        var buffer = ReceiveBuffer()
        XCTAssertTrue(Data("kept".utf8).withUnsafeBytes { buffer.append($0) })
        XCTAssertFalse(buffer.reserve(Int.max / 2), "no machine has that much memory")
        XCTAssertEqual(buffer.count, 4)
        XCTAssertEqual(buffer.take().data, Data("kept".utf8))
        buffer.release()
    }

    func testReleaseFreesWhatWasNeverTaken() {
        var buffer = ReceiveBuffer()
        XCTAssertTrue(buffer.reserve(4_096))
        XCTAssertTrue(Data("x".utf8).withUnsafeBytes { buffer.append($0) })
        buffer.release()
        XCTAssertEqual(buffer.count, 0)
        XCTAssertEqual(buffer.take().data, Data())
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

    func testTakenBytesEndWithANulAndAreTheDatasStorage() {
        var buffer = ReceiveBuffer()
        let text = String(repeating: "{\"title\":\"x\"}", count: 100)
        XCTAssertTrue(buffer.reserve(text.utf8.count), "sized by a Content-Length: the NUL still fits")
        XCTAssertTrue(Data(text.utf8).withUnsafeBytes { buffer.append($0) })
        let taken = buffer.take()
        guard let start = taken.start else { return XCTFail("no bytes") }
        XCTAssertEqual(String(cString: start), text, "the bytes, then a NUL")
        XCTAssertEqual(taken.data.withUnsafeBytes { $0.baseAddress }, UnsafeRawPointer(start), "no copy")
    }

    func testAResponseHandsOutItsReceivedBodyUntilTheBodyIsSet() {
        var buffer = ReceiveBuffer()
        let text = String(repeating: "a", count: 1_000)
        XCTAssertTrue(Data(text.utf8).withUnsafeBytes { buffer.append($0) })
        let taken = buffer.take()
        let response = HTTPResponse(status: 200, headers: HTTPHeaders(), body: taken.data, nulTerminatedAt: taken.start)
        guard let received = response.receivedBody else { return XCTFail("a 1,000-byte body is the Data's storage") }
        XCTAssertEqual(String(cString: received), text)
        var changed = response
        changed.body.append(0x62)
        XCTAssertNil(changed.receivedBody, "a changed body is not the one received")
        XCTAssertEqual(response.receivedBody, received, "the original keeps its bytes")
        XCTAssertEqual(String(cString: received), text)
        var replaced = response
        replaced.body = Data("b".utf8)
        XCTAssertNil(replaced.receivedBody)
        XCTAssertNil(HTTPResponse(status: 200, body: Data(text.utf8)).receivedBody, "not from the transport")
        let other = Data(text.utf8)
        let wrong = other.withUnsafeBytes { _ in
            HTTPResponse(status: 200, headers: HTTPHeaders(), body: other, nulTerminatedAt: taken.start)
        }
        XCTAssertNil(wrong.receivedBody, "bytes that are not the body's storage are not handed out")
    }

    func testASmallBodyIsHandedOutOnlyIfItIsTheDatasStorage() {
        var buffer = ReceiveBuffer()
        XCTAssertTrue(Data("{}".utf8).withUnsafeBytes { buffer.append($0) })
        let taken = buffer.take()
        let response = HTTPResponse(status: 200, headers: HTTPHeaders(), body: taken.data, nulTerminatedAt: taken.start)
        XCTAssertEqual(response.body, Data("{}".utf8))
        if let received = response.receivedBody {
            XCTAssertEqual(received, taken.data.withUnsafeBytes { $0.baseAddress }?.assumingMemoryBound(to: CChar.self))
            XCTAssertEqual(String(cString: received), "{}")
        }
    }
}
