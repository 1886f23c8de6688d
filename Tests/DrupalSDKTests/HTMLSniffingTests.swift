import FoundationEssentials
import XCTest
@testable import DrupalSDK

/// Regression (found by Tests/fuzz, target error_body): a JSON:API error document whose first
/// error has neither detail nor title, and whose text mentions "<html>", had its messages
/// replaced by "answered HTTP 422 ... as an HTML page": the HTML sniffing ignored that the body
/// was a JSON document.
final class HTMLSniffingTests: XCTestCase {
    private func error(_ body: String, contentType: String, status: Int = 422) -> DrupalError {
        DrupalError(response: HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]),
                                           body: Data(body.utf8)),
                    method: "POST", path: "/jsonapi/node/article")
    }

    func testAJSONAPIErrorDocumentMentioningHTMLKeepsItsMessages() {
        let body = #"{"errors":[{"status":"422","source":{"pointer":"/data"}},"#
            + #"{"status":"422","detail":"body: <html> is not allowed"}]}"#
        let error = error(body, contentType: "application/vnd.api+json")
        XCTAssertEqual(error.jsonAPIErrors.count, 2)
        XCTAssertEqual(error.message, "\nbody: <html> is not allowed")
        XCTAssertFalse(error.message.contains("HTML page"))
    }

    func testAnHTMLPageIsStillSaidToBeOne() {
        let error = error("<!DOCTYPE html><html><body>Access denied</body></html>", contentType: "text/html", status: 401)
        XCTAssertTrue(error.message.contains("as an HTML page"), error.message)
    }
}
