import DrupalSDK
import Foundation
import XCTest

/// Path aliases on the mock: a saved `path` item gets the new path_alias entity's id as `pid`
/// (PathItem::postSave), a read computes the item from the alias (PathFieldItemList::computeValue),
/// a request for the alias routes as the entity's path (AliasPathProcessor) and decoupled_router
/// resolves it. No recording saves an alias; Drupal's source decides, as for the fake (test_path_aliases.py).
final class MockPathAliasTests: XCTestCase {
    private func json(_ text: String) -> Data { Data(text.utf8) }

    private func admin(_ site: MockDrupal) -> DrupalClient {
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .basic(user: "admin", password: "admin")
        return DrupalClient.mock(site, configuration: configuration)
    }

    private func item(_ alias: JSONValue, _ pid: JSONValue, _ langcode: JSONValue) -> JSONValue {
        .array([.object(["alias": alias, "pid": pid, "langcode": langcode])])
    }

    /// The node's path as a core REST read shows it.
    private func readPath(_ client: DrupalClient, _ nid: String) async throws -> JSONValue? {
        try await client.get("node", nid).json()["path"]
    }

    private func article(path: String) -> Data {
        json(#"{"type": "article", "title": [{"value": "Aliased"}], "path": \#(path)}"#)
    }

    func testRESTWritesGiveTheAliasItsID() async throws {
        let site = MockDrupal()
        let client = admin(site)
        var read: JSONValue?
        let created = try await client.create("node", article(path: #"[{"alias": " /hello/ "}]"#)).json()
        // The answer: the item as written (trimmed), its langcode as sent, the new alias's id.
        XCTAssertEqual(created["path"], item(.string("/hello/"), .number(1), .null))
        // A read: the stored alias (trailing slash dropped by PathAlias::preSave), in the node's language.
        read = try await readPath(client, "1")
        XCTAssertEqual(read, item(.string("/hello"), .number(1), .string("en")))

        // With its pid, the alias is renamed; without one, a new alias is made and a read shows the newest.
        let renamed = item(.string("/hello-2"), .number(1), .string("en"))
        let patched = try await client.update("node", "1", article(path: #"[{"alias": "/hello-2", "pid": 1, "langcode": "en"}]"#))
        XCTAssertEqual(try patched.json()["path"], renamed)
        read = try await readPath(client, "1")
        XCTAssertEqual(read, renamed)
        let added = try await client.update("node", "1", article(path: #"[{"alias": "/hello-3"}]"#)).json()
        XCTAssertEqual(added["path"], item(.string("/hello-3"), .number(2), .null))
        read = try await readPath(client, "1")
        XCTAssertEqual(read, item(.string("/hello-3"), .number(2), .string("en")))

        // An empty alias with a pid deletes that alias; the older one shows again.
        let cleared = try await client.update("node", "1", article(path: #"[{"alias": "", "pid": 2}]"#)).json()
        XCTAssertEqual(cleared["path"], item(.string(""), .number(2), .null))
        read = try await readPath(client, "1")
        XCTAssertEqual(read, renamed)
        _ = try await client.update("node", "1", article(path: #"[{"alias": null, "pid": 1}]"#))
        read = try await readPath(client, "1")
        XCTAssertEqual(read, item(.null, .null, .string("en")))

        // A pid that names no alias fails on a null in postSave.
        let unknown = await drupalError {
            _ = try await client.update("node", "1", self.article(path: #"[{"alias": "/x", "pid": 99}]"#))
        }
        XCTAssertEqual(unknown?.status, 500)
    }

    func testTermsHaveAliasesToo() async throws {
        let site = MockDrupal()
        let term = try await admin(site).create("taxonomy_term", json(
            #"{"vid": "tags", "name": [{"value": "gamma"}], "path": [{"alias": "/gamma"}]}"#)).json()
        XCTAssertEqual(term["path"], item(.string("/gamma"), .number(1), .null))
        XCTAssertEqual(site.entity("taxonomy_term", "1")?["path"], item(.string("/gamma"), .number(1), .string("en")))
    }

    func testJSONAPIWritesGiveTheAliasItsID() async throws {
        let site = MockDrupal()
        let client = admin(site)
        let type = try JSONAPIResourceType("node", "article")
        var read: JSONValue?
        let created = try await client.jsonAPICreate(type, document: try JSONBody(json(
            #"{"data": {"type": "node--article", "attributes": {"title": "Aliased", "path": {"alias": "/api"}}}}"#)))
        let resource = try XCTUnwrap(created.resource)
        XCTAssertEqual(resource["path"], .object(["alias": .string("/api"), "pid": .number(1), "langcode": .null]))
        read = try await client.jsonAPIGet(type, id: resource.id).resource?["path"]
        XCTAssertEqual(read, .object(["alias": .string("/api"), "pid": .number(1), "langcode": .string("en")]))
        read = try await readPath(client, "1")
        XCTAssertEqual(read, item(.string("/api"), .number(1), .string("en")))

        let renamed: JSONValue = .object(["alias": .string("/api-2"), "pid": .number(1), "langcode": .string("en")])
        let updated = try await client.jsonAPI(.update(type, id: resource.id, document: try JSONBody(json(
            #"{"data": {"type": "node--article", "id": "\#(resource.id)", "#
            + #""attributes": {"path": {"alias": "/api-2", "pid": 1, "langcode": "en"}}}}"#))))
        XCTAssertEqual(try JSONAPIDocument(updated).resource?["path"], renamed)
        read = try await client.jsonAPIGet(type, id: resource.id).resource?["path"]
        XCTAssertEqual(read, renamed)
    }

    func testASeededPathMakesItsAlias() {
        let site = MockDrupal()
        site.addEntity("node", .object(["type": .string("page"), "title": .string("About"),
                                        "path": .array([.object(["alias": .string("/about")])])]))
        XCTAssertEqual(site.entity("node", "1")?["path"], item(.string("/about"), .number(1), .string("en")))
    }

    func testARequestForAnAliasRoutesAsTheEntitysPath() async throws {
        let site = MockDrupal()
        let client = admin(site)
        _ = try await client.create("node", article(path: #"[{"alias": "/about/us"}]"#))
        // Trailing slashes are trimmed and LIKE ignores ASCII case.
        for asked in ["/about/us", "/about/us/", "/About/US"] {
            let read = try await client.request(DrupalRequest(method: "GET", path: asked)).json()
            XCTAssertEqual(read["nid"], .array([.object(["value": .number(1)])]), asked)
        }
        let edited = try await client.request(DrupalRequest(method: "PATCH", path: "/about/us", body: json(
            #"{"type": "article", "title": [{"value": "Edited"}]}"#)))
        XCTAssertEqual(try edited.json()["title"], .array([.object(["value": .string("Edited")])]))
        // A message names the URL asked, not the system path it routed to.
        let refused = await drupalError { _ = try await client.request(DrupalRequest(method: "PUT", path: "/about/us")) }
        XCTAssertEqual(refused?.status, 405)
        XCTAssertEqual(refused?.message, "No route found for \"PUT http://drupal.mock/about/us\": "
                       + "Method Not Allowed (Allow: GET, POST, HEAD, DELETE, PATCH)")
        // Deleting the node deletes its aliases.
        _ = try await client.request(DrupalRequest(method: "DELETE", path: "/about/us"))
        let gone = await drupalError { _ = try await client.request(DrupalRequest(method: "GET", path: "/about/us")) }
        XCTAssertEqual(gone?.status, 404)
    }

    func testDecoupledRouterResolvesAnAliasToTheEntitysAliasedURL() async throws {
        let site = MockDrupal()
        _ = try await admin(site).create("node", json(
            #"{"type": "article", "title": [{"value": "Über"}], "status": [{"value": true}], "path": [{"alias": "/über-uns"}]}"#))
        let anonymous = DrupalClient.mock(site)
        for asked in ["/über-uns", "/%C3%BCber-uns", "/über-UNS/", "/node/1", "über-uns?x=1#top"] {
            let resolved = try await anonymous.resolvePath(asked)
            XCTAssertEqual(resolved.entityType, "node", asked)
            XCTAssertEqual(resolved.id, "1")
            XCTAssertEqual(resolved.label, "Über")
            // Drupal writes an entity's URL with its alias, percent-encoded (UrlGenerator).
            XCTAssertEqual(resolved.resolved, "http://drupal.mock/%C3%BCber-uns")
            XCTAssertEqual(resolved.canonical, "http://drupal.mock/%C3%BCber-uns")
            XCTAssertEqual(resolved.jsonAPIResourceName, "node--article")
            XCTAssertEqual(resolved.jsonAPIIndividual, "http://drupal.mock/jsonapi/node/article/" + (resolved.uuid ?? "-"))
        }
        let missing = await drupalError { _ = try await anonymous.resolvePath("/no/such/page") }
        XCTAssertEqual(missing?.status, 404)
        XCTAssertEqual(missing?.message, "Unable to resolve path /no/such/page.")
        // An unpublished node is not resolved for someone who may not view it.
        _ = try await admin(site).create("node", json(#"{"type": "article", "title": [{"value": "Draft"}], "status": [{"value": false}]}"#))
        let denied = await drupalError { _ = try await anonymous.resolvePath("/node/2") }
        XCTAssertEqual(denied?.status, 403)
        XCTAssertEqual(denied?.message, "Access denied for entity.")
        // The route takes no Basic auth (basic_auth is not a global provider).
        let basic = await drupalError { _ = try await self.admin(site).resolvePath("/node/1") }
        XCTAssertEqual(basic?.status, 403)
    }
}
