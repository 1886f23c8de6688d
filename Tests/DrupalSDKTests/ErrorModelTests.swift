import Foundation
import XCTest
@testable import DrupalSDK

/// What errors carry: Drupal's own message verbatim next to the description for humans, and
/// violations only where Drupal sent a violation list.
final class ErrorModelTests: FakeDrupalTestCase {
    /// Recording 24g: an editor reading an unpublished node it does not own gets {"message":""}.
    func testEmptyDrupalMessageIsKeptVerbatim() async throws {
        let admin = try makeClient { $0.authentication = .basic(user: "admin", password: "admin") }
        let body = Data(#"{"type":[{"target_id":"article"}],"title":[{"value":"hidden"}],"status":[{"value":false}]}"#.utf8)
        let nid = try await admin.create("node", body).json()["nid"]?[0]?["value"]?.idString ?? ""
        let editor = try makeClient { $0.authentication = .basic(user: "editor", password: "editor") }
        let error = await expectError { try await editor.get("node", nid) }
        XCTAssertEqual(error?.status, 403)
        XCTAssertEqual(error?.drupalMessage, "", "Drupal's message, empty as sent")
        XCTAssertEqual(error?.message, "GET /node/\(nid) answered HTTP 403 Forbidden with no message")
    }

    func testNonEmptyMessageIsBothMessageAndDrupalMessage() async throws {
        let error = await expectError { try await self.makeClient().get("node", "999") }
        XCTAssertEqual(error?.status, 404)
        XCTAssertEqual(error?.message, error?.drupalMessage)
        XCTAssertTrue(error?.drupalMessage?.hasPrefix("The \"node\" parameter was not converted") ?? false)
    }

    func testNoDrupalMessageWithoutAJSONBody() async throws {
        var configuration = DrupalClient.Configuration()
        configuration.defaultHeaders.add("X-Fake-Fault", "status;code=500")
        let client = try DrupalClient.live(baseURL: server.baseURL, configuration: configuration)
        let error = await expectError { try await client.get("node", "1") }
        XCTAssertEqual(error?.status, 500)
        XCTAssertNil(error?.drupalMessage, "a plain-text 500 carries no Drupal message")
        XCTAssertEqual(error?.message, "The website encountered an unexpected error. Try again later.")
    }

    /// Recording 52e: a file that fails validation is a 422 whose message is not a violation list.
    func testFileValidationFailureHasNoViolations() async throws {
        let client = try makeClient { $0.authentication = .basic(user: "admin", password: "admin") }
        let upload = FileUpload(entityType: "node", bundle: "article", field: "field_image", filename: "notes.txt",
                                data: Data("plain text".utf8))
        let error = await expectError { try await client.uploadFile(upload) }
        XCTAssertEqual(error?.status, 422)
        XCTAssertTrue(error?.drupalMessage?.hasPrefix("Unprocessable Entity: file validation failed.\n") ?? false,
                      error?.drupalMessage ?? "")
        XCTAssertEqual(error?.violations, [])
    }

    func testValidationFailureLinesAreViolations() async throws {
        let client = try makeClient { $0.authentication = .basic(user: "admin", password: "admin") }
        let error = await expectError {
            try await client.create("node", Data(#"{"type":[{"target_id":"article"}]}"#.utf8))
        }
        XCTAssertEqual(error?.status, 422)
        XCTAssertEqual(error?.violations, [.init(path: "title", message: "This value should not be null.")])
        XCTAssertEqual(error?.jsonAPIErrors, [])
    }
}
