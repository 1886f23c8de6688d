import DrupalSDK
import Foundation
import XCTest

/// A field of cardinality 1 given more than one item: FieldItemList's Count constraint, a 422 in core
/// REST and JSON:API (its pointer under /data/attributes even for a relationship). No recording;
/// Drupal's source decides, as for the fake (test_cardinality.py).
final class MockFieldCardinalityTests: XCTestCase {
    private func json(_ text: String) -> Data { Data(text.utf8) }

    private func client(_ site: MockDrupal, _ user: String = "admin") -> DrupalClient {
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .basic(user: user, password: user)
        return DrupalClient.mock(site, configuration: configuration)
    }

    private func seeded() -> MockDrupal {
        let site = MockDrupal()
        site.addEntity("taxonomy_term", .object(["vid": .string("tags"), "name": .string("alpha")]))
        site.addEntity("taxonomy_term", .object(["vid": .string("tags"), "name": .string("beta")]))
        site.addEntity("node", .object(["type": .string("article"), "title": .string("Mine"),
                                        "uid": .array([.object(["target_id": .number(2)])])]))
        return site
    }

    func testCoreRESTCountsTheItemsOfSingleValueFields() async throws {
        let site = seeded()
        let admin = client(site)
        let twoTitles = await drupalError {
            _ = try await admin.create("node", self.json(#"{"type": "article", "title": [{"value": "a"}, {"value": "b"}]}"#))
        }
        XCTAssertEqual(twoTitles?.status, 422)
        XCTAssertEqual(twoTitles?.message, "Unprocessable Entity: validation failed.\n"
                       + "title: Title: this field cannot hold more than 1 values.\n")
        XCTAssertNil(site.entity("node", "2"))
        let twoOwners = json(#"{"type": "article", "uid": [{"target_id": 1}, {"target_id": 2}]}"#)
        let patched = await drupalError { _ = try await admin.update("node", "1", twoOwners) }
        XCTAssertEqual(patched?.status, 422)
        XCTAssertEqual(patched?.message, "Unprocessable Entity: validation failed.\n"
                       + "uid: Authored by: this field cannot hold more than 1 values.\n")
        // Field access comes first: the editor may not set an owner at all, even keeping the first.
        let editor = await drupalError { _ = try await self.client(site, "editor").update("node", "1", twoOwners) }
        XCTAssertEqual(editor?.status, 403)
        XCTAssertEqual(editor?.message, "Access denied on updating field 'uid'. The 'administer nodes' permission is required.")
        // A multi-value field takes them.
        let tags = try await admin.update("node", "1", json(#"{"type": "article", "field_tags": [{"target_id": 1}, {"target_id": 2}]}"#))
        XCTAssertEqual(tags.status, 200)
    }

    func testJSONAPICountsAttributesAndRelationships() async throws {
        let site = seeded()
        let admin = client(site)
        let type = try JSONAPIResourceType("node", "article")
        let editor = site.entity("user", "2")?["uuid"]?[0]?["value"]?.stringValue ?? ""
        let owners = await drupalError {
            _ = try await admin.jsonAPICreate(type, document: try JSONBody(self.json(#"""
                {"data": {"type": "node--article", "attributes": {"title": "x"},
                 "relationships": {"uid": {"data": [{"type": "user--user", "id": "\#(editor)"},
                                                    {"type": "user--user", "id": "\#(editor)"}]}}}}
                """#)))
        }
        XCTAssertEqual(owners?.status, 422)
        XCTAssertEqual(owners?.jsonAPIErrors.map(\.detail), ["uid: Authored by: this field cannot hold more than 1 values."])
        XCTAssertEqual(owners?.jsonAPIErrors.map(\.pointer), ["/data/attributes/uid"])
        let titles = await drupalError {
            _ = try await admin.jsonAPICreate(type, document: try JSONBody(self.json(
                #"{"data": {"type": "node--article", "attributes": {"title": ["a", "b"]}}}"#)))
        }
        XCTAssertEqual(titles?.status, 422)
        XCTAssertEqual(titles?.jsonAPIErrors.map(\.detail), ["title: Title: this field cannot hold more than 1 values."])
        XCTAssertEqual(titles?.jsonAPIErrors.map(\.pointer), ["/data/attributes/title"])
        let one = try await admin.jsonAPICreate(type, document: try JSONBody(json(
            #"{"data": {"type": "node--article", "attributes": {"title": ["One of one"]}}}"#)))
        XCTAssertEqual(one.resource?["title"], .string("One of one"))
    }
}
