import Foundation
import XCTest
@testable import DrupalSDK

/// Entity CRUD over the fake server, and HTTP errors mapped with Drupal's messages.
final class EntityTests: FakeDrupalTestCase {
    func testNodeCreateReadUpdateDelete() async throws {
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        let created = try await client.create("node", Self.article("CRUD"))
        XCTAssertEqual(created.status, 201)
        let node = try created.json()
        let nid = try XCTUnwrap(node["nid"]?[0]?["value"]?.idString)
        XCTAssertTrue(created.headers["Location"]?.hasSuffix("/node/\(nid)") ?? false)

        let read = try await client.get("node", nid).json()
        XCTAssertEqual(read["title"]?[0]?["value"]?.stringValue, "CRUD")

        let patch = Data(#"{"type":[{"target_id":"article"}],"title":[{"value":"CRUD 2"}]}"#.utf8)
        let updated = try await client.update("node", nid, patch)
        XCTAssertEqual(updated.status, 200)
        XCTAssertEqual(try updated.json()["title"]?[0]?["value"]?.stringValue, "CRUD 2")

        let deleted = try await client.delete("node", nid)
        XCTAssertEqual(deleted.status, 204)
        XCTAssertTrue(deleted.body.isEmpty)
        let gone = await expectError { try await client.get("node", nid) }
        XCTAssertEqual(gone?.status, 404)
        XCTAssertEqual(gone?.message,
                       #"The "node" parameter was not converted for the path "/node/{node}" (route name: "rest.entity.node.GET")"#)
    }

    /// The typed conveniences (DrupalClient+Typed): Encodable bodies in, Decodable values out.
    func testTypedCreateReadUpdateAndView() async throws {
        struct Item<Value: Codable & Equatable>: Codable, Equatable { var value: Value }
        struct Target: Codable, Equatable { var target_id: String }
        struct Article: Codable { var type: [Target]; var title: [Item<String>] }
        struct Node: Decodable { var nid: [Item<Int>]; var title: [Item<String>] }
        struct Row: Decodable { var title: String }
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        let created = try await client.create("node", body: Article(type: [Target(target_id: "article")],
                                                                    title: [Item(value: "Typed")]))
        let nid = try created.decode(Node.self).nid[0].value
        let node = try await client.get(Node.self, "node", id: String(nid))
        XCTAssertEqual(node.title, [Item(value: "Typed")])
        _ = try await client.update("node", id: String(nid), body: Article(type: [Target(target_id: "article")],
                                                                           title: [Item(value: "Typed 2")]))
        let updated = try await client.get(Node.self, "node", id: String(nid))
        XCTAssertEqual(updated.title[0].value, "Typed 2")
        let rows = try await client.view(Row.self, "/api/articles", query: [("title", "Typed 2")])
        XCTAssertEqual(rows.map(\.title), ["Typed 2"])

        // A body that cannot be JSON is the caller's mistake, refused before sending.
        struct Bad: Encodable { var weight = Double.nan }
        let refused = await expectError { try await client.create("node", body: Bad()) }
        XCTAssertEqual(refused?.code, .invalidArgument)
        // A value of the wrong shape is a decode error that names the type and keeps the answer.
        let wrong = await expectError { try await client.get(Row.self, "node", id: String(nid)) }
        XCTAssertEqual(wrong?.code, .decode)
        XCTAssertTrue(wrong?.message.contains("cannot decode Row") ?? false, wrong?.message ?? "")
        XCTAssertEqual(wrong?.status, 200)
    }

    func testCommentTermAndUser() async throws {
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        let comment = Data(#"{"entity_id":[{"target_id":1}],"entity_type":[{"value":"node"}],"comment_type":[{"target_id":"comment"}],"field_name":[{"value":"comment"}],"subject":[{"value":"First"}],"comment_body":[{"value":"<p>Nice</p>","format":"basic_html"}]}"#.utf8)
        let createdComment = try await client.create("comment", comment).json()
        let cid = try XCTUnwrap(createdComment["cid"]?[0]?["value"]?.idString)
        let readComment = try await client.get("comment", cid).json()
        XCTAssertEqual(readComment["subject"]?[0]?["value"]?.stringValue, "First")

        let term = Data(#"{"vid":[{"target_id":"tags"}],"name":[{"value":"Swift"}]}"#.utf8)
        let createdTerm = try await client.create("taxonomy_term", term).json()
        let tid = try XCTUnwrap(createdTerm["tid"]?[0]?["value"]?.idString)
        let readTerm = try await client.get("taxonomy_term", tid).json()
        XCTAssertEqual(readTerm["name"]?[0]?["value"]?.stringValue, "Swift")
        let deletedTerm = try await client.delete("taxonomy_term", tid)
        XCTAssertEqual(deletedTerm.status, 204)

        let user = try await client.get("user", "2").json()
        XCTAssertEqual(user["name"]?[0]?["value"]?.stringValue, "editor")
    }

    func testValidationErrorIs422WithViolations() async throws {
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        let error = await expectError {
            try await client.create("node", Data(#"{"type":[{"target_id":"article"}]}"#.utf8))
        }
        XCTAssertEqual(error?.status, 422)
        XCTAssertEqual(error?.violations, [DrupalError.Violation(path: "title", message: "This value should not be null.")])
        XCTAssertTrue(error?.message.hasPrefix("Unprocessable Entity: validation failed.") ?? false)
    }

    func testForbiddenAndUnauthorized() async throws {
        let anonymous = try makeClient()
        let unauthorized = await expectError { try await anonymous.create("node", Self.article("anon")) }
        XCTAssertEqual(unauthorized?.status, 401)
        XCTAssertEqual(unauthorized?.message, "No authentication credentials provided.")

        let editor = try makeClient()
        _ = try await editor.login("editor", "editor")
        let patch = Data(#"{"type":[{"target_id":"article"}],"title":[{"value":"hijack"}]}"#.utf8)
        let forbidden = await expectError { try await editor.update("node", "1", patch) }
        XCTAssertEqual(forbidden?.status, 403)
        XCTAssertEqual(forbidden?.message, "The 'edit any article content' permission is required.")
    }

    func testUnsupportedMediaTypeIs415() async throws {
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain")
        let error = await expectError {
            try await client.request(DrupalRequest(method: "PATCH", path: "/node/1", headers: headers,
                                                   body: Self.article("x")))
        }
        XCTAssertEqual(error?.status, 415)
        XCTAssertEqual(error?.message, #"No route found that matches "Content-Type: text/plain""#)
    }

    func testPlainText500StillGivesAUsefulError() async throws {
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "status;code=500")
        let error = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(error?.code, .http)
        XCTAssertEqual(error?.status, 500)
        XCTAssertEqual(error?.message, "The website encountered an unexpected error. Try again later.")
    }

    func testNonJSONBodyIsRefusedBeforeSending() async throws {
        let client = try makeClient()
        let error = await expectError { try await client.create("node", Data("{not json".utf8)) }
        XCTAssertEqual(error?.code, .invalidArgument)
    }

    func testUnknownEntityTypeUsesTheGenericPathAndCustomPathsWork() async throws {
        let table = EntityPathTable(paths: EntityPath.core)
        XCTAssertEqual(try table.canonicalPath("my_type", id: "7"), "/entity/my_type/7")
        XCTAssertEqual(try table.createPath("my_type"), "/entity/my_type")
        XCTAssertEqual(try table.canonicalPath("media", id: "3"), "/media/3/edit")
        var custom = EntityPath.core
        custom["recipe"] = EntityPath(canonical: "/recipes/{id}", create: "/recipes")
        XCTAssertEqual(try EntityPathTable(paths: custom).canonicalPath("recipe", id: "a b/c"), "/recipes/a%20b%2Fc")
        XCTAssertThrowsError(try table.canonicalPath("node", id: ".."))
        XCTAssertThrowsError(try table.canonicalPath("Node/../x", id: "1"))
    }

    func testFileUpload() async throws {
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        let upload = FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                filename: "../../pic.png", data: Data([0x89, 0x50, 0x4E, 0x47]))
        let response = try await client.uploadFile(upload)
        XCTAssertEqual(response.status, 201)
        let file = try response.json()
        XCTAssertEqual(file["filename"]?[0]?["value"]?.stringValue, "pic.png")
        XCTAssertNil(response.headers["Location"])
    }
}

final class CustomEntityPathTests: FakeDrupalTestCase {
    func testCustomPathsAreUsedAndCheckedWhenTheClientIsMade() async throws {
        let client = try makeClient { $0.entityPaths["article_node"] = EntityPath(canonical: "/node/{id}", create: "/node") }
        let node = try await client.get("article_node", "1").json()
        XCTAssertEqual(node["nid"]?[0]?["value"]?.idString, "1")
        for bad in [EntityPath(canonical: "/x/1", create: "/x"), EntityPath(canonical: "/x/{id}/{id}", create: "/x"),
                    EntityPath(canonical: "/../{id}", create: "/x"), EntityPath(canonical: "/x/{id}", create: "//evil/x")] {
            XCTAssertThrowsError(try makeClient { $0.entityPaths["thing"] = bad }, bad.canonical) { error in
                XCTAssertEqual((error as? DrupalError)?.code, .invalidArgument)
            }
        }
        XCTAssertThrowsError(try makeClient { $0.entityPaths["Not-A-Type"] = EntityPath(canonical: "/x/{id}", create: "/x") })
    }
}

final class ViolationParsingTests: XCTestCase {
    func testFieldLinesAndWholeLines() {
        let fields = DrupalError.violations(in: "Unprocessable Entity: validation failed.\ntitle: This value should not be null.\nfield_tags.0.target_id: The referenced entity (taxonomy_term: 99) does not exist.\n")
        XCTAssertEqual(fields, [
            .init(path: "title", message: "This value should not be null."),
            .init(path: "field_tags.0.target_id", message: "The referenced entity (taxonomy_term: 99) does not exist."),
        ])
        // Only "validation failed." carries a violation list (recording 52e).
        let file = DrupalError.violations(in: "Unprocessable Entity: file validation failed.\nOnly files with the following extensions are allowed: png gif jpg jpeg webp.")
        XCTAssertEqual(file, [])
        XCTAssertEqual(DrupalError.violations(in: "Unprocessable Entity: validation failed. \ntitle: x"), [])
    }
}

/// Answers that are not `{"message": ...}` JSON still give a useful error.
final class UnusualErrorBodyTests: FakeDrupalTestCase {
    func testEmpty403MessageNamesTheRequestAndStatus() async throws {
        let client = try makeClient { $0.authentication = .basic(user: "admin", password: "wrong") }
        let error = await expectError { try await client.create("node", Self.article("x")) }
        XCTAssertEqual(error?.status, 403)
        XCTAssertFalse(error?.message.isEmpty ?? true)
        XCTAssertTrue(error?.message.contains("403") ?? false, error?.message ?? "")
    }

    func testXML406GivesItsMessage() async throws {
        let client = try makeClient()
        let error = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", format: "xml"))
        }
        XCTAssertEqual(error?.status, 406)
        // The XML body's <message>, which Drupal 11.2 words differently (drupal11-transcripts 14c).
        XCTAssertEqual(error?.message, FakeDrupalServer.drupalVersion == "11"
                       ? "A route that returns a rendered array as its response only supports the HTML format."
                       : "Not acceptable format: xml")
    }

    func testHTMLPageIsSummarised() async throws {
        let client = try makeClient()
        let error = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/no/such/page", format: nil))
        }
        XCTAssertEqual(error?.status, 404)
        XCTAssertFalse(error?.message.contains("<") ?? true, error?.message ?? "")
    }
}
