import XCTest
@testable import DrupalSDK

/// Headers as received (raw bytes, read lazily) behave exactly like headers built from Strings.
final class HTTPHeadersTests: XCTestCase {
    /// The fields as libcurl hands them to a transfer: a status line, "Name: value\r\n" lines, a blank line.
    private func raw(_ fields: [(String, String)]) -> HTTPHeaders {
        let transfer = CurlTransfer(request: HTTPRequest(method: "GET", url: "http://example.invalid/"), maxBodySize: 1 << 16)
        for line in ["HTTP/1.1 200 OK\r\n"] + fields.map({ "\($0.0): \($0.1)\r\n" }) + ["\r\n"] {
            XCTAssertTrue(Array(line.utf8).withUnsafeBytes { transfer.appendHeaderLine($0) })
        }
        return transfer.takeHeaders()
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

    func testLinesAreSplitAtTheFirstColonAndTrimmed() {
        let received = raw([("Date", "Sun, 29 Nov 2026 16:00:00 GMT"), ("X-Empty", ""), ("X-Spaced", " \t a b \t")])
        XCTAssertEqual(received["date"], "Sun, 29 Nov 2026 16:00:00 GMT", "a value may hold colons")
        XCTAssertEqual(received["X-Empty"], "")
        XCTAssertEqual(received["x-spaced"], "a b")
        XCTAssertNil(received["Date:"], "a name never holds a colon")
        XCTAssertNil(received["Date: Sun"])
        XCTAssertEqual(received.count, 3, "the status line and the blank line are no fields")
    }

    func testOnlyTheLastResponsesHeadersAreKept() {
        let transfer = CurlTransfer(request: HTTPRequest(method: "GET", url: "http://example.invalid/"), maxBodySize: 1 << 16)
        let lines = ["HTTP/1.1 100 Continue\r\n", "X-First: 1\r\n", "\r\n", "HTTP/1.1 200 OK\r\n",
                     " folded continuation\r\n", "X-Last: 2\r\n", ": nameless\r\n", "\r\n"]
        for line in lines {
            XCTAssertTrue(Array(line.utf8).withUnsafeBytes { transfer.appendHeaderLine($0) })
        }
        let received = transfer.takeHeaders()
        XCTAssertNil(received["X-First"])
        XCTAssertEqual(received.fields.map(\.name), ["X-Last", ""], "a line without a colon is no field")
        XCTAssertEqual(received[""], "nameless")
        XCTAssertEqual(transfer.takeHeaders().count, 0, "taken once")
    }

    func testManyHeadersGrowTheBuffer() {
        let fields = (0..<200).map { ("X-Header-\($0)", String(repeating: "v", count: $0)) }
        let received = raw(fields)
        XCTAssertEqual(received.count, 200)
        XCTAssertEqual(received["x-header-199"], String(repeating: "v", count: 199))
        XCTAssertEqual(received.fields.map(\.name), fields.map(\.0))
    }
}
