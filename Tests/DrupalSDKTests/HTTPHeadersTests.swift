import XCTest
@testable import DrupalSDK

/// Headers as received (raw bytes, read lazily) behave exactly like headers built from Strings.
final class HTTPHeadersTests: XCTestCase {
    private func raw(_ fields: [(String, String)]) -> HTTPHeaders {
        var block = RawHeaderBlock()
        block.reset()
        for (name, value) in fields {
            var line = Array("\(name): \(value)".utf8)
            let nameCount = name.utf8.count
            line.withUnsafeMutableBufferPointer { bytes in
                block.append(line: UnsafeBufferPointer(bytes), nameCount: nameCount, valueStart: nameCount + 2)
            }
        }
        return HTTPHeaders(raw: block)
    }

    private let sample = [("Content-Type", "application/json"), ("Set-Cookie", "a=1; path=/"),
                          ("X-Drupal-Cache", "MISS"), ("set-cookie", "b=2"), ("Date", "Sun, 29 Nov 2026 16:00:00 GMT")]

    func testRawHeadersAnswerLikeParsedOnes() {
        let received = raw(sample)
        let built = HTTPHeaders(sample.map { (name: $0.0, value: $0.1) })
        XCTAssertEqual(received, built)
        XCTAssertEqual(received.count, 5)
        XCTAssertEqual(received["content-type"], "application/json")
        XCTAssertEqual(received["CONTENT-TYPE"], built["CONTENT-TYPE"])
        XCTAssertEqual(received.values(for: "Set-Cookie"), ["a=1; path=/", "b=2"])
        XCTAssertEqual(received.values(for: "Set-Cookie"), built.values(for: "Set-Cookie"))
        XCTAssertNil(received["Content-Typ"])
        XCTAssertNil(received["Content-Typex"])
        XCTAssertTrue(received.contains("x-drupal-cache"))
        XCTAssertEqual(received.map(\.name), sample.map(\.0))
        XCTAssertEqual(received.map(\.value), sample.map(\.1))
    }

    func testNamesDifferingOnlyOutsideLettersDoNotMatch() {
        // ASCII case folding is for letters only: "-" (0x2D) and "\r" (0x0D) differ by 0x20.
        let received = raw([("X-A", "1")])
        XCTAssertEqual(received["x-a"], "1")
        XCTAssertNil(received["X\ra"])
    }

    func testMutatingRawHeadersKeepsTheRest() {
        var received = raw(sample)
        received.set("X-Drupal-Cache", "HIT")
        received.add("X-New", "yes")
        received.remove("set-cookie")
        XCTAssertEqual(received["x-drupal-cache"], "HIT")
        XCTAssertEqual(received["X-New"], "yes")
        XCTAssertEqual(received.values(for: "Set-Cookie"), [])
        XCTAssertEqual(received.count, 4)
        XCTAssertEqual(received["Date"], "Sun, 29 Nov 2026 16:00:00 GMT")
    }

    func testUTF8ValuesSurvive() {
        let received = raw([("X-Title", "Crème brûlée")])
        XCTAssertEqual(received["x-title"], "Crème brûlée")
    }
}
