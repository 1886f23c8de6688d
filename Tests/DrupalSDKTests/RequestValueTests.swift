import DrupalSDK
import FoundationEssentials
import XCTest

/// DrupalRequest and HTTPRequest keep their fields in a box their copies share: a change to one
/// copy must never show in another. (HTTPResponse is checked too, should it get a box as well.)
final class RequestValueTests: XCTestCase {
    func testChangingACopyOfADrupalRequestLeavesTheOriginalAlone() {
        let original = DrupalRequest(method: "GET", path: "/node/1", query: [("a", "1")],
                                     headers: HTTPHeaders([("X-One", "1")]), body: Data("x".utf8))
        var copy = original
        copy.method = "PATCH"
        copy.path = "/node/2"
        copy.query.append(("b", "2"))
        copy.headers.add("X-Two", "2")
        copy.body = Data("y".utf8)
        copy.format = nil
        copy.sendsCSRFToken = false
        copy.expectedBody = .array

        XCTAssertEqual(original.method, "GET")
        XCTAssertEqual(original.path, "/node/1")
        XCTAssertEqual(original.query.map { $0.0 }, ["a"])
        XCTAssertEqual(original.headers.count, 1)
        XCTAssertNil(original.headers["X-Two"])
        XCTAssertEqual(original.body, Data("x".utf8))
        XCTAssertEqual(original.format, "json")
        XCTAssertTrue(original.sendsCSRFToken)
        XCTAssertEqual(copy.method, "PATCH")
        XCTAssertEqual(copy.path, "/node/2")
        XCTAssertEqual(copy.query.map { $0.0 }, ["a", "b"])
        XCTAssertEqual(copy.headers["X-Two"], "2")
        XCTAssertEqual(copy.body, Data("y".utf8))
        XCTAssertNil(copy.format)
        XCTAssertFalse(copy.sendsCSRFToken)
    }

    func testChangingTheOriginalAfterACopyLeavesTheCopyAlone() {
        var original = HTTPRequest(method: "GET", url: "http://drupal.test/node/1",
                                   headers: HTTPHeaders([("Accept", "application/json")]))
        let copy = original
        original.url = "http://drupal.test/node/2"
        original.headers.set("Accept", "text/html")
        original.body = Data("z".utf8)
        original.progress = { _, _ in true }

        XCTAssertEqual(copy.url, "http://drupal.test/node/1")
        XCTAssertEqual(copy.headers["Accept"], "application/json")
        XCTAssertNil(copy.body)
        XCTAssertNil(copy.progress)
        XCTAssertEqual(original.url, "http://drupal.test/node/2")
        XCTAssertEqual(original.headers["Accept"], "text/html")
        XCTAssertNotNil(original.progress)
    }

    func testChangingACopyOfAResponseLeavesTheOriginalAlone() {
        var original = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]),
                                    body: Data("{}".utf8))
        var copy = original
        copy.status = 404
        copy.headers.set("Content-Type", "text/html")
        copy.body.append(contentsOf: Data(" ".utf8))
        XCTAssertEqual(original.status, 200)
        XCTAssertEqual(original.headers["Content-Type"], "application/json")
        XCTAssertEqual(original.body, Data("{}".utf8))

        let second = original
        original.body = Data()
        original.headers.add("Set-Cookie", "a=b")
        XCTAssertEqual(second.body, Data("{}".utf8))
        XCTAssertNil(second.headers["Set-Cookie"])
        XCTAssertEqual(copy.status, 404)
        XCTAssertEqual(copy.headers["Content-Type"], "text/html")
        XCTAssertEqual(copy.body, Data("{} ".utf8))
    }

    func testAnUnsharedRequestChangesInPlace() {
        var request = HTTPRequest(method: "GET", url: "http://drupal.test/")
        for index in 0..<100 { request.headers.add("X-\(index)", "\(index)") }
        XCTAssertEqual(request.headers.count, 100)
        XCTAssertEqual(request.headers["X-99"], "99")
    }
}
