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

    /// A server's text reaches `message`, which callers print and log: its control characters
    /// (an ANSI colour, a CR that starts a fake log line) used to go through as they were. They
    /// are shown as escapes now, line breaks and tabs kept; `drupalMessage` stays verbatim.
    func testMessagesShowAServersControlCharactersAsEscapes() async throws {
        let client = try makeClient { $0.retry.maxRetries = 0 }
        let cases: [(fault: [String: Any], message: String, drupal: String?)] = [
            (["code": 422, "body": "b\u{1B}[31mred\r\nFAKE\tline\u{9B}1m."], #"b\u{1b}[31mred\u{d}"# + "\nFAKE\tline" + #"\u{9b}1m."#, nil),
            (["code": 403, "body": #"{"message": "m\u001b[2J\u0000tail\nnext"}"#], #"m\u{1b}[2J\u{0}tail"# + "\nnext",
             "m\u{1B}[2J\u{0}tail\nnext"),
        ]
        for (fault, message, drupal) in cases {
            var headers = HTTPHeaders()
            let value = fault.map { "\($0.key)=\("\($0.value)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
            headers.add("X-Fake-Fault", (["status"] + value).joined(separator: ";"))
            let error = await expectError {
                try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
            }
            XCTAssertEqual(error?.message, message)
            XCTAssertEqual(error?.drupalMessage, drupal)
        }
    }

    /// The typed API's decode error names the path to the value it could not decode, and a
    /// dictionary's keys on that path are the server's: an escape sequence or a line break in one
    /// reached `message` as it was.
    func testADecodeErrorShowsTheServersKeysWithTheirControlCharactersEscaped() async throws {
        struct Fields: Decodable { let fields: [String: Int] }
        try server.lie(#"{"fields": {"a\u001b[2J\r\nFAKE": "not a number"}}"#, under: "/node/1", count: 1)
        defer { _ = try? server.control("DELETE", "/__fake/faults") }
        let error = await expectError { try await self.makeClient().get(Fields.self, "node", id: "1") }
        XCTAssertEqual(error?.code, .decode)
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains(#"a\u{1b}[2J\u{d}\u{a}FAKE"#), message)
        XCTAssertFalse(message.unicodeScalars.contains { $0.properties.generalCategory == .control }, message)
    }

    /// A hostile server's huge message went whole into `message`, which callers log.
    func testAServersHugeMessageIsCutWithANote() async throws {
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "status;code=403;body=%7B%22message%22%3A%22" + String(repeating: "m", count: 60_000) + "%22%7D")
        let error = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(error?.message, String(repeating: "m", count: 4096) + "... (cut: 55904 characters more)")
        XCTAssertEqual(error?.drupalMessage?.count, 60_000, "Drupal's message stays whole")
        // 3,000 characters are not cut, though their UTF-8 is over 4,096 bytes.
        var accented = HTTPHeaders()
        accented.add("X-Fake-Fault", "status;code=403;body=%7B%22message%22%3A%22" + String(repeating: "%C3%A9", count: 3000) + "%22%7D")
        let whole = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: accented))
        }
        XCTAssertEqual(whole?.message, String(repeating: "\u{E9}", count: 3000))
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

    /// Recording 125: a JSON:API 422 with two errors keeps both, and each is a violation.
    func testEveryJSONAPIErrorIsKept() async throws {
        let client = try makeClient { $0.authentication = .basic(user: "admin", password: "admin") }
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/vnd.api+json")
        let body = Data(#"{"data":{"type":"node--article","attributes":{"langcode":"xx","body":{"value":"x","format":"basic_html"}}}}"#.utf8)
        let error = await expectError {
            try await client.request(DrupalRequest(method: "POST", path: "/jsonapi/node/article", headers: headers,
                                                   body: body, format: nil))
        }
        XCTAssertEqual(error?.status, 422)
        XCTAssertEqual(error?.jsonAPIErrors.count, 2)
        XCTAssertEqual(error?.jsonAPIErrors.map(\.status), ["422", "422"], "status as sent: a string")
        XCTAssertEqual(error?.jsonAPIErrors.map(\.title), ["Unprocessable Content", "Unprocessable Content"])
        XCTAssertEqual(error?.jsonAPIErrors.first?.member("source.pointer"), "/data/attributes/langcode/0")
        XCTAssertEqual(error?.violations, [
            .init(path: "/data/attributes/langcode/0", message: "langcode.0: The value you selected is not a valid choice."),
            .init(path: "/data/attributes/title", message: "title: This value should not be null."),
        ])
        XCTAssertEqual(error?.drupalMessage, "langcode.0: The value you selected is not a valid choice.")
        XCTAssertEqual(error?.message, "langcode.0: The value you selected is not a valid choice.\n"
                       + "title: This value should not be null.")
    }

    func testJSONAPIErrorLinksAreMembers() async throws {
        let client = try makeClient()
        let error = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/jsonapi/node/article/0000", format: nil))
        }
        XCTAssertEqual(error?.jsonAPIErrors.count, 1)
        XCTAssertNotNil(error?.jsonAPIErrors.first?.member("links.via.href"))
        XCTAssertEqual(error?.violations, [], "only 422 entries are violations")
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
