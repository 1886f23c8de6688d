import FoundationEssentials
import XCTest
@testable import DrupalSDK

/// Regression (found by Tests/fuzz, target error_body): a message starting with a newline,
/// "\nUnprocessable Entity: validation failed.\n...", gave violations although its first line is
/// empty, because empty lines were dropped before the first line was compared.
final class ViolationLinesTests: XCTestCase {
    private func error(_ message: String, status: Int = 422) -> DrupalError {
        let body = try! JSONEncoder().encode(["message": message])
        return DrupalError(response: HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json")]),
                                                  body: body),
                           method: "POST", path: "/node")
    }

    func testOnlyAnExactFirstLineGivesViolations() {
        XCTAssertEqual(error("\nUnprocessable Entity: validation failed.\ntitle: x").violations, [])
        XCTAssertEqual(error("\n\nUnprocessable Entity: validation failed.\ntitle: x").violations, [])
        XCTAssertEqual(error(" Unprocessable Entity: validation failed.\ntitle: x").violations, [])
        XCTAssertEqual(error("Unprocessable Entity: validation failed.\ntitle: x", status: 400).violations, [])
    }

    func testEmptyLinesAfterTheFirstAreStillSkipped() {
        XCTAssertEqual(error("Unprocessable Entity: validation failed.\n\ntitle: x\n\nbody: has spaces: y\n").violations,
                       [.init(path: "title", message: "x"), .init(path: "body", message: "has spaces: y")])
        XCTAssertEqual(error("Unprocessable Entity: validation failed.\nA line without a path").violations,
                       [.init(path: "", message: "A line without a path")])
    }
}
