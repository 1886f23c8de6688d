import DrupalSDK
import Foundation
import XCTest

/// JSON:API on the mock, over the same entities as its core REST routes, checked through the
/// client's JSON:API calls against drupal10-jsonapi-transcripts (numbers in the test names'
/// comments are those recordings).
final class MockJSONAPITests: XCTestCase {
    // MARK: Helpers

    private let article = try! JSONAPIResourceType("node", "article")

    /// The recordings' baseline: tags alpha (tid 1) and beta (tid 2); Article 1-3 by admin,
    /// 4-5 by editor, tagged beta, alpha, beta, alpha, beta.
    private func baseline() -> MockDrupal {
        let site = MockDrupal()
        site.addEntity("taxonomy_term", .object(["vid": .string("tags"), "name": .string("alpha")]))
        site.addEntity("taxonomy_term", .object(["vid": .string("tags"), "name": .string("beta")]))
        for number in 1...5 {
            site.addEntity("node", .object([
                "type": .string("article"), "title": .string("Article \(number)"),
                "uid": .array([.object(["target_id": .number(number <= 3 ? 1 : 2)])]),
                "field_tags": .array([.object(["target_id": .number(number % 2 == 1 ? 2 : 1)])]),
            ]))
        }
        return site
    }

    private func client(_ site: MockDrupal, as user: String? = "admin") -> DrupalClient {
        var configuration = DrupalClient.Configuration()
        if let user { configuration.authentication = .basic(user: user, password: user) }
        return DrupalClient.mock(site, configuration: configuration)
    }

    private func uuid(_ site: MockDrupal, _ entityType: String, _ id: String) -> String {
        site.entity(entityType, id)?["uuid"]?[0]?["value"]?.stringValue ?? ""
    }

    private func drupalError(_ operation: () async throws -> Void, file: StaticString = #filePath,
                             line: UInt = #line) async -> DrupalError? {
        do {
            try await operation()
            XCTFail("expected a DrupalError", file: file, line: line)
        } catch let error as DrupalError {
            return error
        } catch {
            XCTFail("expected a DrupalError, got \(error)", file: file, line: line)
        }
        return nil
    }

    private func titles(_ document: JSONAPIDocument) -> [String] {
        document.resources.compactMap { $0["title"]?.stringValue }
    }

    // MARK: Reading

    /// 140: attributes flattened, relationships with identifiers and links, links.self, jsonapi.
    func testIndividualReadIsARecordedResourceObject() async throws {
        let site = baseline()
        let id = uuid(site, "node", "1")
        let response = try await client(site).jsonAPI(.get(article, id: id))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["Content-Type"], "application/vnd.api+json")
        let document = try JSONAPIDocument(response)
        XCTAssertEqual(document.raw["jsonapi"]?["version"], .string("1.0"))
        XCTAssertEqual(document.raw["jsonapi"]?["meta"]?["links"]?["self"]?["href"], .string("http://jsonapi.org/format/1.0/"))
        let resource = try XCTUnwrap(document.resource)
        XCTAssertEqual(resource.type, "node--article")
        XCTAssertEqual(resource.id, id)
        XCTAssertEqual(resource["title"], .string("Article 1"))
        XCTAssertEqual(resource["drupal_internal__nid"], .number(1))
        XCTAssertEqual(resource["drupal_internal__vid"], .number(1))
        XCTAssertEqual(resource["status"], .bool(true))
        XCTAssertEqual(resource["revision_log"], .null)
        XCTAssertEqual(resource["path"], .object(["alias": .null, "pid": .null, "langcode": .string("en")]))
        XCTAssertNil(resource["uuid"])
        XCTAssertEqual(resource.raw["links"]?["self"]?["href"],
                       .string("http://drupal.mock/jsonapi/node/article/\(id)?resourceVersion=id%3A1"))
        XCTAssertEqual(Set(resource.relationships.keys), ["node_type", "revision_uid", "uid", "field_image", "field_tags"])
        let uid = resource.raw["relationships"]?["uid"]
        XCTAssertEqual(uid?["data"]?["type"], .string("user--user"))
        XCTAssertEqual(uid?["data"]?["id"], .string(uuid(site, "user", "1")))
        XCTAssertEqual(uid?["data"]?["meta"]?["drupal_internal__target_id"], .number(1))
        XCTAssertEqual(uid?["links"]?["related"]?["href"],
                       .string("http://drupal.mock/jsonapi/node/article/\(id)/uid?resourceVersion=id%3A1"))
        XCTAssertEqual(uid?["links"]?["self"]?["href"],
                       .string("http://drupal.mock/jsonapi/node/article/\(id)/relationships/uid?resourceVersion=id%3A1"))
        XCTAssertEqual(resource.raw["relationships"]?["node_type"]?["data"]?["meta"]?["drupal_internal__target_id"],
                       .string("article"))
        XCTAssertEqual(resource.raw["relationships"]?["field_image"]?["data"], .null)
        XCTAssertEqual(resource.identifiers("field_tags").map(\.id), [uuid(site, "taxonomy_term", "2")])
        XCTAssertEqual(resource.identifiers("field_tags").map(\.type), ["taxonomy_term--tags"])
        XCTAssertEqual(document.link("self"), "http://drupal.mock/jsonapi/node/article/\(id)")
    }

    /// 141, 141b: an unknown or malformed UUID is the recorded 404 error document.
    func testUnknownUUIDIsTheRecorded404() async throws {
        let site = baseline()
        for id in ["0b6a3c1e-8f7d-4c2b-9e5a-7d6c5b4a3f21", "not-a-uuid"] {
            let error = await drupalError { _ = try await self.client(site).jsonAPIGet(self.article, id: id) }
            XCTAssertEqual(error?.status, 404)
            XCTAssertEqual(error?.headers["Content-Type"], "application/vnd.api+json")
            let entry = try XCTUnwrap(error?.jsonAPIErrors.first)
            XCTAssertEqual(entry.title, "Not Found")
            XCTAssertEqual(entry.status, "404")
            XCTAssertEqual(entry.detail, "The \"entity\" parameter was not converted for the path "
                           + "\"/jsonapi/node/article/{entity}\" (route name: \"jsonapi.node--article.individual\")")
            XCTAssertEqual(entry.member("links.via.href"), "http://drupal.mock/jsonapi/node/article/\(id)")
            XCTAssertEqual(entry.member("links.info.href"), "http://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.5")
        }
    }

    /// REST and JSON:API share the store: a node created over REST reads over JSON:API.
    func testRESTCreatedNodeIsAJSONAPIResource() async throws {
        let site = MockDrupal()
        let admin = client(site)
        let body = #"{"type": [{"target_id": "article"}], "title": [{"value": "Made over REST"}]}"#
        let created = try await admin.create("node", Data(body.utf8))
        let id = try XCTUnwrap(JSONValue.parse(created.body)?["uuid"]?[0]?["value"]?.stringValue)
        let document = try await admin.jsonAPIGet(article, id: id)
        XCTAssertEqual(document.resource?["title"], .string("Made over REST"))
        let collection = try await admin.jsonAPICollection(article)
        XCTAssertEqual(collection.resources.map(\.id), [id])
    }

    /// 183c, 24g: anonymous visitors read published articles without revision_log; a draft is
    /// hidden from them (401 challenge on the individual, left out of collections).
    func testAnonymousSeesPublishedOnly() async throws {
        let site = baseline()
        site.addEntity("node", .object(["type": .string("article"), "title": .string("Draft"), "status": .bool(false)]))
        let anonymous = client(site, as: nil)
        let first = try await anonymous.jsonAPIGet(article, id: uuid(site, "node", "1"))
        XCTAssertEqual(first.resource?["title"], .string("Article 1"))
        XCTAssertNil(first.resource?.attributes["revision_log"])
        let error = await drupalError { _ = try await anonymous.jsonAPIGet(self.article, id: self.uuid(site, "node", "6")) }
        XCTAssertEqual(error?.status, 401)
        XCTAssertEqual(error?.jsonAPIErrors.first?.detail, "No authentication credentials provided.")
        let listed = try await anonymous.jsonAPICollection(article)
        XCTAssertEqual(titles(listed), ["Article 1", "Article 2", "Article 3", "Article 4", "Article 5"])
        let all = try await client(site).jsonAPICollection(article)
        XCTAssertEqual(titles(all).last, "Draft")
    }

    /// 171b, 171c: anonymous callers see users by their label only.
    func testAnonymousSeesUsersByLabel() async throws {
        let site = baseline()
        let user = try JSONAPIResourceType("user", "user")
        let editor = try await client(site, as: nil).jsonAPIGet(user, id: uuid(site, "user", "2"))
        XCTAssertEqual(editor.resource?.attributes, ["display_name": .string("editor")])
        let admin = try await client(site).jsonAPIGet(user, id: uuid(site, "user", "2"))
        XCTAssertEqual(admin.resource?["name"], .string("editor"))
        XCTAssertEqual(admin.resource?["display_name"], .string("editor"))
        XCTAssertEqual(admin.resource?["drupal_internal__uid"], .number(2))
    }

    /// Stubs still answer before the built-in JSON:API routes.
    func testStubWinsOverBuiltInJSONAPI() async throws {
        let site = baseline()
        let id = uuid(site, "node", "1")
        let body = #"{"data": {"type": "node--article", "id": "stubbed", "attributes": {"title": "Stubbed"}}}"#
        site.stub(method: "GET", path: "/jsonapi/node/article/" + id, status: 200,
                  headers: HTTPHeaders([("Content-Type", "application/vnd.api+json")]), body: Data(body.utf8))
        let document = try await client(site).jsonAPIGet(article, id: id)
        XCTAssertEqual(document.resource?["title"], .string("Stubbed"))
    }

    // MARK: Collection queries

    private func query(_ build: (inout JSONAPIQuery) throws -> Void) rethrows -> JSONAPIQuery {
        var query = JSONAPIQuery()
        try build(&query)
        return query
    }

    /// 100, 101, 102: page links as Drupal rebuilds them; no `last`, no `meta`.
    func testPagingLinksAreTheRecordedOnes() async throws {
        let site = baseline()
        let admin = client(site)
        // The pager links keep the order the client sent (it puts sort before fields), then the page.
        let base = "http://drupal.mock/jsonapi/node/article?sort=drupal_internal__nid&fields%5Bnode--article%5D=title"
        func page(_ offset: Int) throws -> JSONAPIQuery {
            try query {
                try $0.fields("node--article", ["title"])
                try $0.sort("drupal_internal__nid")
                try $0.pageLimit(2)
                try $0.pageOffset(offset)
            }
        }
        let middle = try await admin.jsonAPICollection(article, query: try page(2))
        XCTAssertEqual(titles(middle), ["Article 3", "Article 4"])
        XCTAssertEqual(middle.resources.first?.attributes.keys.sorted(), ["title"])
        XCTAssertNil(middle.resources.first?.raw["relationships"])
        XCTAssertEqual(middle.link("first"), base + "&page%5Boffset%5D=0&page%5Blimit%5D=2")
        XCTAssertEqual(middle.link("prev"), base + "&page%5Boffset%5D=0&page%5Blimit%5D=2")
        XCTAssertEqual(middle.link("next"), base + "&page%5Boffset%5D=4&page%5Blimit%5D=2")
        XCTAssertEqual(middle.link("self"), "http://drupal.mock/jsonapi/node/article?fields%5Bnode--article%5D=title"
                       + "&page%5Blimit%5D=2&page%5Boffset%5D=2&sort=drupal_internal__nid")
        XCTAssertNil(middle.link("last"))
        XCTAssertNil(middle.meta)
        let last = try await admin.jsonAPICollection(article, query: try page(4))
        XCTAssertEqual(titles(last), ["Article 5"])
        XCTAssertNil(last.next)
        let past = try await admin.jsonAPICollection(article, query: try page(10))
        XCTAssertEqual(past.resources.count, 0)
        XCTAssertEqual(past.link("prev"), base + "&page%5Boffset%5D=8&page%5Blimit%5D=2")
        XCTAssertEqual(past.link("first"), base + "&page%5Boffset%5D=0&page%5Blimit%5D=2")
    }

    /// 190: page[limit]=100 gives 50, `next` carries the capped size, `self` the asked one.
    func testPageLimitIsCappedAt50() async throws {
        let site = baseline()
        for number in 1...48 {
            site.addEntity("node", .object(["type": .string("article"), "title": .string("Bulk \(number)")]))
        }
        let document = try await client(site).jsonAPICollection(article, query: try query {
            try $0.fields("node--article", ["drupal_internal__nid"])
            try $0.sort("drupal_internal__nid")
            try $0.pageLimit(100)
        })
        XCTAssertEqual(document.resources.count, 50)
        XCTAssertEqual(document.next, "http://drupal.mock/jsonapi/node/article?sort=drupal_internal__nid"
                       + "&fields%5Bnode--article%5D=drupal_internal__nid&page%5Boffset%5D=50&page%5Blimit%5D=50")
        XCTAssertEqual(document.link("self"), "http://drupal.mock/jsonapi/node/article?fields%5Bnode--article%5D="
                       + "drupal_internal__nid&page%5Blimit%5D=100&sort=drupal_internal__nid")
        let pages = try client(site).jsonAPIPages(article, query: try query { try $0.pageLimit(100) })
        var sizes: [Int] = []
        while let page = try await pages.next() { sizes.append(try JSONAPIDocument(page).resources.count) }
        XCTAssertEqual(sizes, [50, 3], "the pager walks the mock's next links")
    }

    /// 103: several sort fields, a relationship path, descending.
    func testSortByRelationshipAndDescending() async throws {
        let document = try await client(baseline()).jsonAPICollection(article, query: try query {
            try $0.sort("uid.name")
            try $0.sort("title", descending: true)
        })
        XCTAssertEqual(titles(document), ["Article 3", "Article 2", "Article 1", "Article 5", "Article 4"])
    }

    /// 105-114: the filter forms and operators the recordings use, and groups.
    func testFiltersAsRecorded() async throws {
        let admin = client(baseline())
        func found(_ build: (inout JSONAPIQuery) throws -> Void) async throws -> [String] {
            titles(try await admin.jsonAPICollection(article, query: try query(build)))
        }
        let shorthand = try await found { try $0.filter("title", "Article 3") }
        XCTAssertEqual(shorthand, ["Article 3"])
        let contains = try await found { try $0.filter("title", "cle 4", operator: .contains, key: "t") }
        XCTAssertEqual(contains, ["Article 4"])
        let startsWith = try await found { try $0.filter("title", "Art", operator: .startsWith) }
        XCTAssertEqual(startsWith.count, 5)
        let among = try await found { try $0.filter("drupal_internal__nid", values: ["1", "3", "5"], operator: .in) }
        XCTAssertEqual(among, ["Article 1", "Article 3", "Article 5"])
        let between = try await found { try $0.filter("drupal_internal__nid", values: ["2", "4"], operator: .between) }
        XCTAssertEqual(between, ["Article 2", "Article 3", "Article 4"])
        let isNull = try await found { try $0.filter("revision_log", nil, operator: .isNull) }
        XCTAssertEqual(isNull.count, 5)
        let notEqual = try await found { try $0.filter("title", "Article 1", operator: .notEqual) }
        XCTAssertEqual(notEqual, ["Article 2", "Article 3", "Article 4", "Article 5"])
        let byAuthor = try await found { try $0.filter("uid.name", "editor") }
        XCTAssertEqual(byAuthor, ["Article 4", "Article 5"])
        let either = try await found {
            try $0.group("g", conjunction: .or)
            try $0.filter("title", "Article 1", memberOf: "g")
            try $0.filter("title", "Article 4", memberOf: "g")
        }
        XCTAssertEqual(either, ["Article 1", "Article 4"])
        // 113: title = Article 1 OR (uid.name = editor AND field_tags.name = beta).
        let nested = try await found {
            try $0.group("or", conjunction: .or)
            try $0.group("and", conjunction: .and, memberOf: "or")
            try $0.filter("title", "Article 1", memberOf: "or")
            try $0.filter("uid.name", "editor", memberOf: "and")
            try $0.filter("field_tags.name", "beta", memberOf: "and")
        }
        XCTAssertEqual(nested, ["Article 1", "Article 5"])
    }

    /// 115, 115b, 116, 118, 43c: the recorded 400s for bad fields, operators and page sizes.
    func testInvalidQueriesAreTheRecorded400s() async throws {
        let admin = client(baseline())
        func detail(_ query: String) async -> String? {
            let error = await drupalError {
                _ = try await admin.request(DrupalRequest(method: "GET", path: "/jsonapi/node/article?" + query, format: nil))
            }
            XCTAssertEqual(error?.status, 400, query)
            XCTAssertEqual(error?.jsonAPIErrors.first?.title, "Bad Request")
            return error?.jsonAPIErrors.first?.detail
        }
        let nested = await detail("filter%5Buid.nosuch%5D=x")
        XCTAssertEqual(nested, "Invalid nested filtering. The field `nosuch`, given in the path `uid.nosuch`, does not exist.")
        let plain = await detail("filter%5Bnosuchfield%5D=1")
        XCTAssertEqual(plain, "Invalid nested filtering. The field `nosuchfield`, given in the path `nosuchfield`, "
                       + "does not exist.")
        let like = await detail("filter%5Bt%5D%5Bcondition%5D%5Bpath%5D=title&filter%5Bt%5D%5Bcondition%5D%5Boperator%5D"
                                + "=LIKE&filter%5Bt%5D%5Bcondition%5D%5Bvalue%5D=Art")
        XCTAssertEqual(like, "The 'LIKE' operator is not allowed in a filter parameter.")
        let sort = await detail("sort=nosuch")
        XCTAssertEqual(sort, "Invalid nested filtering. The field `nosuch`, given in the path `nosuch`, does not exist.")
        let size = await detail("fields%5Bnode--article%5D=title&page%5Blimit%5D=0")
        XCTAssertEqual(size, "The page size needs to be a positive integer.")
    }

    /// 170, 171: access filtering is silent; an administrator finds the user.
    func testUserFilterIsSilentForAnonymous() async throws {
        let site = baseline()
        let user = try JSONAPIResourceType("user", "user")
        let byName = try query { try $0.filter("name", "editor") }
        let anonymous = try await client(site, as: nil).jsonAPICollection(user, query: byName)
        XCTAssertEqual(anonymous.resources.count, 0)
        let admin = try await client(site).jsonAPICollection(user, query: byName)
        XCTAssertEqual(admin.resources.map { $0["name"] }, [.string("editor")])
    }

    // MARK: Include and sparse fieldsets

    /// 104: sparse fieldsets cut attributes and relationships; `included` holds each resource once.
    func testIncludeWithSparseFieldsets() async throws {
        let site = baseline()
        let document = try await client(site).jsonAPICollection(article, query: try query {
            try $0.fields("node--article", ["title", "uid"])
            try $0.include(["uid", "field_tags"])
            try $0.pageLimit(2)
        })
        XCTAssertEqual(titles(document), ["Article 1", "Article 2"])
        XCTAssertEqual(document.resources.first.map { Array($0.relationships.keys) }, ["uid"])
        XCTAssertEqual(document.included.map(\.type), ["user--user", "taxonomy_term--tags", "taxonomy_term--tags"])
        XCTAssertEqual(document.included.map(\.id),
                       [uuid(site, "user", "1"), uuid(site, "taxonomy_term", "2"), uuid(site, "taxonomy_term", "1")])
        XCTAssertEqual(document.related(document.resources[0], "uid").first?["name"], .string("admin"))
        XCTAssertEqual(document.included[1]["name"], .string("beta"))
        XCTAssertEqual(document.included[1]["drupal_internal__tid"], .number(2))
        XCTAssertNotNil(document.next)
    }

    /// 104b, 140: fieldsets apply to included resources; empty references include nothing.
    func testIncludedFieldsetsAndEmptyReferences() async throws {
        let site = baseline()
        let bare = site.addEntity("node", .object(["type": .string("article"), "title": .string("Client-generated id")]))
        let document = try await client(site).jsonAPIGet(article, id: uuid(site, "node", bare), query: try query {
            try $0.include(["uid", "field_tags", "field_image"])
            try $0.fields("user--user", ["name"])
        })
        XCTAssertEqual(document.resource?.raw["relationships"]?["field_tags"]?["data"], .array([]))
        XCTAssertEqual(document.resource?.raw["relationships"]?["field_image"]?["data"], .null)
        XCTAssertEqual(document.included.map(\.type), ["user--user"])
        XCTAssertEqual(document.included.first?.attributes, ["name": .string("admin")])
        XCTAssertEqual(document.link("self"), "http://drupal.mock/jsonapi/node/article/\(uuid(site, "node", bare))"
                       + "?fields%5Buser--user%5D=name&include=uid%2Cfield_tags%2Cfield_image")
    }

    /// 117: an unknown include lists the article's relationship fields in Drupal's order.
    func testUnknownIncludeIsTheRecorded400() async throws {
        let error = await drupalError {
            _ = try await self.client(self.baseline()).jsonAPICollection(self.article, query: try self.query {
                try $0.include(["nosuch"])
            })
        }
        XCTAssertEqual(error?.status, 400)
        XCTAssertEqual(error?.jsonAPIErrors.first?.detail, "`nosuch` is not a valid relationship field name. Possible values: "
                       + "node_type, revision_uid, uid, field_image, field_tags.")
    }
}
