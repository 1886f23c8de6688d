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

    /// Regression: an offset near Int.max overflowed offset + limit, a trap that killed the
    /// process hosting the mock (a Python or C program).
    func testAHugePageOffsetIsAnEmptyPage() {
        let site = baseline()
        let answer = site.respond(to: HTTPRequest(
            method: "GET", url: "http://drupal.mock/jsonapi/node/article?page%5Boffset%5D=9223372036854775807"))
        XCTAssertEqual(answer.status, 200)
        let document = JSONValue.parse(answer.body)
        XCTAssertEqual(document?["data"], .array([]))
        XCTAssertNil(document?["links"]?["next"])
        XCTAssertNotNil(document?["links"]?["prev"])
        // So did appending after the largest index ("sort[]" after "sort[9223372036854775807]").
        let appended = site.respond(to: HTTPRequest(
            method: "GET", url: "http://drupal.mock/jsonapi/node/article?sort%5B9223372036854775807%5D=title&sort%5B%5D=nid"))
        XCTAssertNotEqual(appended.status, 500)
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

    // MARK: Writes

    private func document(_ json: String) throws -> JSONBody { try JSONBody(Data(json.utf8)) }

    /// 120: 201 with Location, relationships set by UUID, the owner as revision author; the node
    /// is then a REST entity too.
    func testCreateWithRelationships() async throws {
        let site = baseline()
        let (alpha, beta, editor) = (uuid(site, "taxonomy_term", "1"), uuid(site, "taxonomy_term", "2"), uuid(site, "user", "2"))
        let response = try await client(site).jsonAPI(.create(article, document: try document(#"""
            {"data": {"type": "node--article", "attributes": {"title": "JSON:API with relationships",
              "body": {"value": "<p>rel body</p>", "format": "basic_html"}},
             "relationships": {"field_tags": {"data": [{"type": "taxonomy_term--tags", "id": "\#(alpha)"},
                                                       {"type": "taxonomy_term--tags", "id": "\#(beta)"}]},
                               "uid": {"data": {"type": "user--user", "id": "\#(editor)"}}}}}
            """#)))
        XCTAssertEqual(response.status, 201)
        let resource = try XCTUnwrap(JSONAPIDocument(response).resource)
        XCTAssertEqual(response.headers["Location"],
                       "http://drupal.mock/jsonapi/node/article/\(resource.id)?resourceVersion=id%3A6")
        XCTAssertEqual(resource["drupal_internal__nid"], .number(6))
        XCTAssertEqual(resource["body"], .object(["value": .string("<p>rel body</p>"), "format": .string("basic_html"),
                                                  "processed": .string("<p>rel body</p>"), "summary": .null]))
        XCTAssertEqual(resource.identifiers("field_tags").map(\.id), [alpha, beta])
        XCTAssertEqual(resource.identifiers("uid").map(\.id), [editor])
        XCTAssertEqual(resource.identifiers("revision_uid").map(\.id), [editor])
        XCTAssertEqual(site.entity("node", "6")?["title"]?[0]?["value"], .string("JSON:API with relationships"))
        XCTAssertEqual(site.entity("node", "6")?["uid"]?[0]?["target_id"], .number(2))
    }

    /// 121, 122, 122b: a client-generated UUID is kept; the same again is 409; a bad one 422.
    func testClientGeneratedIDs() async throws {
        let site = baseline()
        let admin = client(site)
        let id = "3f1e7c2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
        let made = try await admin.jsonAPICreate(article, document: try document(
            #"{"data": {"type": "node--article", "id": "\#(id)", "attributes": {"title": "Client-generated id"}}}"#))
        XCTAssertEqual(made.resource?.id, id)
        XCTAssertEqual(made.resource?["body"], .null)
        let again = await drupalError {
            _ = try await admin.jsonAPICreate(self.article, document: try self.document(
                #"{"data": {"type": "node--article", "id": "\#(id)", "attributes": {"title": "Same id again"}}}"#))
        }
        XCTAssertEqual(again?.status, 409)
        XCTAssertEqual(again?.jsonAPIErrors.first?.detail, "Conflict: Entity already exists.")
        let malformed = await drupalError {
            _ = try await admin.jsonAPICreate(self.article, document: try self.document(
                #"{"data": {"type": "node--article", "id": "not-a-uuid", "attributes": {"title": "Bad id"}}}"#))
        }
        XCTAssertEqual(malformed?.status, 422)
        XCTAssertEqual(malformed?.jsonAPIErrors.first?.detail,
                       "IDs should be properly generated and formatted UUIDs as described in RFC 4122.")
        XCTAssertEqual(malformed?.jsonAPIErrors.first?.member("links.via.href"), "http://drupal.mock/jsonapi/node/article")
        XCTAssertNil(malformed?.jsonAPIErrors.first?.member("links.info.href"))
    }

    /// A write whose query is refused (400) changes nothing: the query is read before the store.
    func testAWriteWithARefusedQueryChangesNothing() {
        let site = baseline()
        let authorization = ("Authorization", "Basic YWRtaW46YWRtaW4=")
        let created = site.respond(to: HTTPRequest(
            method: "POST", url: "http://drupal.mock/jsonapi/node/article?page%5Blimit%5D=0",
            headers: HTTPHeaders([authorization, ("Content-Type", "application/vnd.api+json")]),
            body: Data(#"{"data": {"type": "node--article", "attributes": {"title": "Twice?"}}}"#.utf8)))
        XCTAssertEqual(created.status, 400)
        XCTAssertNil(site.entity("node", "6"), "the node was stored before the 400")
    }

    /// 44d, 126, 127, 126b, 44c: validation, field access, missing targets, anonymous.
    func testCreateRefusalsAsRecorded() async throws {
        let site = baseline()
        let missingTitle = await drupalError {
            _ = try await self.client(site).jsonAPICreate(self.article, document: try self.document(
                #"{"data": {"type": "node--article", "attributes": {}}}"#))
        }
        XCTAssertEqual(missingTitle?.status, 422)
        XCTAssertEqual(missingTitle?.jsonAPIErrors.first?.title, "Unprocessable Content")
        XCTAssertEqual(missingTitle?.jsonAPIErrors.first?.detail, "title: This value should not be null.")
        XCTAssertEqual(missingTitle?.jsonAPIErrors.first?.pointer, "/data/attributes/title")
        XCTAssertNil(missingTitle?.jsonAPIErrors.first?.member("links.via.href"))
        let admin = uuid(site, "user", "1")
        let setsOwner = await drupalError {
            _ = try await self.client(site, as: "editor").jsonAPICreate(self.article, document: try self.document(#"""
                {"data": {"type": "node--article", "attributes": {"title": "Editor sets uid"},
                 "relationships": {"uid": {"data": {"type": "user--user", "id": "\#(admin)"}}}}}
                """#))
        }
        XCTAssertEqual(setsOwner?.status, 403)
        XCTAssertEqual(setsOwner?.jsonAPIErrors.first?.detail, "The current user is not allowed to POST the selected field "
                       + "(uid). The 'administer nodes' permission is required.")
        XCTAssertEqual(setsOwner?.jsonAPIErrors.first?.pointer, "/data/relationships/uid")
        let missing = "11111111-1111-4111-8111-111111111111"
        let noTarget = await drupalError {
            _ = try await self.client(site).jsonAPICreate(self.article, document: try self.document(#"""
                {"data": {"type": "node--article", "attributes": {"title": "x"},
                 "relationships": {"field_tags": {"data": [{"type": "taxonomy_term--tags", "id": "\#(missing)"}]}}}}
                """#))
        }
        XCTAssertEqual(noTarget?.status, 404)
        XCTAssertEqual(noTarget?.jsonAPIErrors.first?.detail, "The resource identified by `taxonomy_term--tags:\(missing)` "
                       + "(given as a relationship item) could not be found.")
        let anonymous = await drupalError {
            _ = try await self.client(site, as: nil).jsonAPICreate(self.article, document: try self.document(
                #"{"data": {"type": "node--article", "attributes": {"title": "anon"}}}"#))
        }
        XCTAssertEqual(anonymous?.status, 401)
        XCTAssertEqual(anonymous?.jsonAPIErrors.first?.detail, "No authentication credentials provided.")
        XCTAssertEqual(anonymous?.jsonAPIErrors.first?.member("links.info.href"),
                       "http://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.2")
        XCTAssertNotNil(anonymous?.headers["WWW-Authenticate"])
    }

    /// A name the article lacks, or a relationship sent as an attribute: Drupal's 422 (the fake
    /// server's texts, from JSON:API's denormalizer); a write with the article's names works.
    func testUnknownFieldNamesAreRefused() async throws {
        let site = baseline()
        let refusals = [
            (#"{"data": {"type": "node--article", "attributes": {"title": "x", "nosuch": 1}}}"#,
             "The attribute nosuch does not exist on the node--article resource type."),
            (#"{"data": {"type": "node--article", "attributes": {"title": "x"}, "relationships": {"nosuch": {"data": null}}}}"#,
             "The relationship nosuch does not exist on the node--article resource type."),
            (#"{"data": {"type": "node--article", "attributes": {"title": "x", "uid": "1"}}}"#,
             "The following relationship fields were provided as attributes: [ uid ]"),
        ]
        for (document, detail) in refusals {
            let refused = await drupalError {
                _ = try await self.client(site).jsonAPICreate(self.article, document: try self.document(document))
            }
            XCTAssertEqual(refused?.status, 422, document)
            XCTAssertEqual(refused?.jsonAPIErrors.first?.detail, detail)
            XCTAssertNil(refused?.jsonAPIErrors.first?.member("links.info.href"))
        }
        let node = uuid(site, "node", "1")
        let patched = await drupalError {
            _ = try await self.client(site).jsonAPIUpdate(self.article, id: node, document: try self.document(
                #"{"data": {"type": "node--article", "id": "\#(node)", "attributes": {"titel": "typo"}}}"#))
        }
        XCTAssertEqual(patched?.jsonAPIErrors.first?.detail, "The attribute titel does not exist on the node--article resource type.")
        let created = try await client(site).jsonAPICreate(article, document: document(#"""
            {"data": {"type": "node--article", "attributes": {"title": "Known", "body": {"value": "b", "format": "basic_html"},
             "promote": false, "revision_log": "r"}}}
            """#))
        XCTAssertEqual(created.resource?.raw["attributes"]?["title"], .string("Known"))
    }

    /// 44e, 44g: a cookie session needs X-CSRF-Token; the client fetches it and the write works.
    func testCookieWritesNeedTheCSRFToken() async throws {
        let site = baseline()
        let session = DrupalClient.mock(site)
        _ = try await session.login("admin", "admin")
        let made = try await session.jsonAPICreate(article, document: try document(
            #"{"data": {"type": "node--article", "attributes": {"title": "JSON:API via cookie"}}}"#))
        XCTAssertEqual(made.resource?["title"], .string("JSON:API via cookie"))
        let cookie = try XCTUnwrap(site.receivedRequests.last?.headers["Cookie"])
        let bare = site.respond(to: HTTPRequest(
            method: "POST", url: "http://drupal.mock/jsonapi/node/article",
            headers: HTTPHeaders([("Cookie", cookie), ("Content-Type", "application/vnd.api+json")]),
            body: Data(#"{"data": {"type": "node--article", "attributes": {"title": "no token"}}}"#.utf8)))
        XCTAssertEqual(bare.status, 403)
        XCTAssertEqual(JSONValue.parse(bare.body)?["errors"]?[0]?["detail"], .string("X-CSRF-Token request header is missing"))
    }

    /// 129, 123, 124, 131, 133, 133b, 133c: PATCH rules.
    func testUpdateAsRecorded() async throws {
        let site = baseline()
        let admin = client(site)
        let id = uuid(site, "node", "1")
        func patch(_ body: String, _ client: DrupalClient? = nil) async -> DrupalError? {
            await drupalError { _ = try await (client ?? admin).jsonAPIUpdate(self.article, id: id, document: try self.document(body)) }
        }
        let wrongType = site.respond(to: HTTPRequest(
            method: "PATCH", url: "http://drupal.mock/jsonapi/node/article/" + id,
            headers: HTTPHeaders([("Authorization", "Basic YWRtaW46YWRtaW4="), ("Content-Type", "application/json")]),
            body: Data(#"{"data": {"type": "node--article", "id": "\#(id)", "attributes": {"title": "x"}}}"#.utf8)))
        XCTAssertEqual(wrongType.status, 415)
        XCTAssertEqual(JSONValue.parse(wrongType.body)?["errors"]?[0]?["detail"],
                       .string("No route found that matches \"Content-Type: application/json\""))
        let updated = try await admin.jsonAPIUpdate(article, id: id, document: try document(
            #"{"data": {"type": "node--article", "id": "\#(id)", "attributes": {"title": "Edited", "revision_log": "Changed"}}}"#))
        XCTAssertEqual(updated.resource?["title"], .string("Edited"))
        XCTAssertEqual(updated.resource?["revision_log"], .string("Changed"))
        XCTAssertEqual(updated.resource?.identifiers("field_tags").map(\.id), [uuid(site, "taxonomy_term", "2")])
        XCTAssertEqual(updated.resource?["drupal_internal__vid"], .number(6), "a PATCH makes a new revision")
        // Revision ids are one sequence: a node made next has revision 7 (it took its id, 6,
        // which the PATCH's revision had).
        let next = try await admin.create("node", Data(#"{"type": [{"target_id": "article"}], "title": [{"value": "Next"}]}"#.utf8))
        XCTAssertEqual(try next.json()["vid"]?[0]?["value"], .number(7))
        XCTAssertEqual(updated.link("self"), "http://drupal.mock/jsonapi/node/article/" + id)
        XCTAssertEqual(site.entity("node", "1")?["title"]?[0]?["value"], .string("Edited"))
        let notOwner = await patch(#"{"data": {"type": "node--article", "id": "\#(id)", "attributes": {"title": "Hijack"}}}"#,
                                   client(site, as: "editor"))
        XCTAssertEqual(notOwner?.status, 403)
        XCTAssertEqual(notOwner?.jsonAPIErrors.first?.detail, "The 'edit any article content' permission is required.")
        let other = uuid(site, "node", "2")
        let mismatch = await patch(#"{"data": {"type": "node--article", "id": "\#(other)", "attributes": {"title": "x"}}}"#)
        XCTAssertEqual(mismatch?.status, 400)
        XCTAssertEqual(mismatch?.jsonAPIErrors.first?.detail,
                       "The selected entity (\(id)) does not match the ID in the payload (\(other)).")
        let noID = await patch(#"{"data": {"type": "node--article", "attributes": {"title": "No id"}}}"#)
        XCTAssertEqual(noID?.jsonAPIErrors.first?.detail, "The selected entity (\(id)) does not match the ID in the payload ().")
    }

    /// 195, 195b: DELETE is 204, then the delete route's 404; REST no longer finds the node.
    func testDeleteAsRecorded() async throws {
        let site = baseline()
        let admin = client(site)
        let id = uuid(site, "node", "5")
        try await admin.jsonAPIDelete(article, id: id)
        XCTAssertNil(site.entity("node", "5"))
        let again = await drupalError { try await admin.jsonAPIDelete(self.article, id: id) }
        XCTAssertEqual(again?.status, 404)
        XCTAssertEqual(again?.jsonAPIErrors.first?.detail, "The \"entity\" parameter was not converted for the path "
                       + "\"/jsonapi/node/article/{entity}\" (route name: \"jsonapi.node--article.individual.delete\")")
    }

    // MARK: Entry point, related and relationship routes, revisions, the anonymous user

    /// A GET answered by the site itself, as Basic admin (for what the client's calls refuse or
    /// parse: an HTML page, a 405).
    private func rawGet(_ site: MockDrupal, _ path: String) -> HTTPResponse {
        site.respond(to: HTTPRequest(method: "GET", url: "http://drupal.mock" + path,
                                     headers: HTTPHeaders([("Authorization", "Basic YWRtaW46YWRtaW4=")])))
    }

    /// 173 (session cookie), 173b (anonymous), 173c (Basic): data [], a link per resource type and
    /// `self`, and meta.links.me {meta.id, href} for whoever is logged in; anonymous gets no meta.
    func testEntryPointAsRecorded() async throws {
        let site = baseline()
        let (admin, editor) = (uuid(site, "user", "1"), uuid(site, "user", "2"))
        let basic = try await client(site, as: "editor").jsonAPIEntryPoint()
        XCTAssertEqual(basic.me, editor)
        XCTAssertEqual(basic.document.meta, .object(["links": .object(["me": .object([
            "meta": .object(["id": .string(editor)]), "href": .string("http://drupal.mock/jsonapi/user/user/" + editor),
        ])])]))
        XCTAssertEqual(basic.document.raw["data"], .array([]))
        XCTAssertEqual(basic.document.raw["jsonapi"]?["version"], .string("1.0"))
        XCTAssertEqual(basic.document.link("self"), "http://drupal.mock/jsonapi")
        for name in ["node--article", "node--page", "taxonomy_term--tags", "user--user", "file--file", "comment--comment"] {
            XCTAssertEqual(basic.resourceTypes[name], "http://drupal.mock/jsonapi/" + name.replacingOccurrences(of: "--", with: "/"))
        }
        // Every type it lists answers its collection.
        for href in basic.resourceTypes.values {
            let status = try await client(site).jsonAPI(.follow(href)).status
            XCTAssertEqual(status, 200, href)
        }

        let session = client(site, as: nil)
        _ = try await session.login("admin", "admin")
        let cookie = try await session.jsonAPIEntryPoint()
        XCTAssertEqual(cookie.me, admin)
        XCTAssertEqual(cookie.document.meta?["links"]?["me"]?["href"], .string("http://drupal.mock/jsonapi/user/user/" + admin))

        let anonymous = try await client(site, as: nil).jsonAPIEntryPoint()
        XCTAssertNil(anonymous.me)
        XCTAssertNil(anonymous.document.raw["meta"])
        XCTAssertEqual(anonymous.resourceTypes, basic.resourceTypes)
    }

    /// A node as 120 made it: tags alpha and beta, owned by editor (node 6, revision 6).
    private func nodeSix(_ site: MockDrupal) async throws -> String {
        let (alpha, beta, editor) = (uuid(site, "taxonomy_term", "1"), uuid(site, "taxonomy_term", "2"), uuid(site, "user", "2"))
        let made = try await client(site).jsonAPICreate(article, document: try document(#"""
            {"data": {"type": "node--article", "attributes": {"title": "JSON:API with relationships"},
             "relationships": {"field_tags": {"data": [{"type": "taxonomy_term--tags", "id": "\#(alpha)"},
                                                       {"type": "taxonomy_term--tags", "id": "\#(beta)"}]},
                               "uid": {"data": {"type": "user--user", "id": "\#(editor)"}}}}}
            """#))
        return try XCTUnwrap(made.resource).id
    }

    /// 150: the related user itself; 151, 162: the identifiers with their meta, links.self this
    /// URL and links.related with the revision.
    func testRelatedAndRelationshipReadsAsRecorded() async throws {
        let site = baseline()
        let node = try await nodeSix(site)
        let admin = client(site)
        let base = "http://drupal.mock/jsonapi/node/article/" + node
        let related = try JSONAPIDocument(try await admin.jsonAPI(.related(article, id: node, field: "uid")))
        let user = try XCTUnwrap(related.resource)
        XCTAssertEqual(user.type, "user--user")
        XCTAssertEqual(user.id, uuid(site, "user", "2"))
        XCTAssertEqual(user["display_name"], .string("editor"))
        XCTAssertEqual(user["drupal_internal__uid"], .number(2))
        XCTAssertEqual(user.raw["links"]?["self"]?["href"], .string("http://drupal.mock/jsonapi/user/user/" + user.id))
        XCTAssertEqual(related.link("self"), base + "/uid")
        let tags = try JSONAPIDocument(try await admin.jsonAPI(.related(article, id: node, field: "field_tags")))
        XCTAssertEqual(tags.resources.map { $0["name"] }, [.string("alpha"), .string("beta")])

        let identifiers = try JSONAPIDocument(try await admin.jsonAPI(.relationship(article, id: node, field: "field_tags")))
        XCTAssertEqual(identifiers.raw["data"], .array([
            .object(["type": .string("taxonomy_term--tags"), "id": .string(uuid(site, "taxonomy_term", "1")),
                     "meta": .object(["drupal_internal__target_id": .number(1)])]),
            .object(["type": .string("taxonomy_term--tags"), "id": .string(uuid(site, "taxonomy_term", "2")),
                     "meta": .object(["drupal_internal__target_id": .number(2)])]),
        ]))
        XCTAssertEqual(identifiers.link("related"), base + "/field_tags?resourceVersion=id%3A6")
        XCTAssertEqual(identifiers.link("self"), base + "/relationships/field_tags")
        let image = try JSONAPIDocument(try await admin.jsonAPI(.relationship(article, id: node, field: "field_image")))
        XCTAssertEqual(image.raw["data"], .null)

        // 158, 158c: a name that is no relationship is the site's HTML 404; 158b: /{id}/nosuch
        // has the file upload route's shape, POST only.
        for path in ["/relationships/nosuch", "/relationships/title"] {
            let page = rawGet(site, "/jsonapi/node/article/" + node + path)
            XCTAssertEqual(page.status, 404)
            XCTAssertEqual(page.headers["Content-Type"], "text/html; charset=UTF-8")
            XCTAssertTrue(String(decoding: page.body, as: UTF8.self).contains("<title>Page not found"))
        }
        let upload = rawGet(site, "/jsonapi/node/article/" + node + "/nosuch")
        XCTAssertEqual(upload.status, 405)
        XCTAssertEqual(upload.headers["Allow"], "POST")
        XCTAssertEqual(JSONValue.parse(upload.body)?["errors"]?[0]?["detail"],
                       .string("No route found for \"GET \(base)/nosuch\": Method Not Allowed (Allow: POST)"))
        let missing = await drupalError {
            _ = try await admin.jsonAPI(.relationship(self.article, id: "0b6a3c1e-0000-4000-8000-000000000000", field: "uid"))
        }
        XCTAssertEqual(missing?.status, 404)
    }

    /// 152 (PATCH replace: 204), 153 (POST add: 200, the whole list), 154 (DELETE remove: 204),
    /// 155 (what is left; no new revision), 156 (POST to a to-one: 409), 157 (a wrong type: 400).
    func testRelationshipWritesAsRecorded() async throws {
        let site = baseline()
        let node = try await nodeSix(site)
        let admin = client(site)
        let (alpha, beta) = (uuid(site, "taxonomy_term", "1"), uuid(site, "taxonomy_term", "2"))
        func tags(_ ids: String...) throws -> JSONBody {
            try document(#"{"data": ["# + ids.map { #"{"type": "taxonomy_term--tags", "id": "\#($0)"}"# }
                .joined(separator: ", ") + "]}")
        }
        func change(_ change: JSONAPICall.RelationshipChange, _ field: String, _ body: JSONBody) async throws -> DrupalResponse {
            try await admin.jsonAPI(.changeRelationship(article, id: node, field: field, change, identifiers: body))
        }
        let replaced = try await change(.replace, "field_tags", try tags(alpha))
        XCTAssertEqual(replaced.status, 204)
        XCTAssertTrue(replaced.body.isEmpty)
        let added = try await change(.add, "field_tags", try tags(beta))
        XCTAssertEqual(added.status, 200)
        XCTAssertEqual(try JSONAPIDocument(added).raw["data"]?.arrayValue?.map { $0["id"] }, [.string(alpha), .string(beta)])
        XCTAssertEqual(try JSONAPIDocument(added).link("self"),
                       "http://drupal.mock/jsonapi/node/article/\(node)/relationships/field_tags")
        let removed = try await change(.remove, "field_tags", try tags(alpha))
        XCTAssertEqual(removed.status, 204)
        let after = try JSONAPIDocument(try await admin.jsonAPI(.relationship(article, id: node, field: "field_tags")))
        XCTAssertEqual(after.raw["data"]?.arrayValue?.map { $0["id"] }, [.string(beta)])
        XCTAssertEqual(after.link("related"),
                       "http://drupal.mock/jsonapi/node/article/\(node)/field_tags?resourceVersion=id%3A6")
        XCTAssertEqual(site.entity("node", "6")?["field_tags"]?.arrayValue?.map { $0["target_id"] }, [.number(2)])

        let toOne = await drupalError {
            _ = try await change(.add, "uid", try self.document(#"{"data": {"type": "user--user", "id": "\#(self.uuid(site, "user", "1"))"}}"#))
        }
        XCTAssertEqual(toOne?.status, 409)
        XCTAssertEqual(toOne?.jsonAPIErrors.first?.detail, "You can only POST to to-many relationships. uid is a to-one relationship.")
        let wrongType = await drupalError {
            _ = try await change(.replace, "field_tags",
                                 try self.document(#"{"data": [{"type": "user--user", "id": "\#(self.uuid(site, "user", "1"))"}]}"#))
        }
        XCTAssertEqual(wrongType?.status, 400)
        XCTAssertEqual(wrongType?.jsonAPIErrors.first?.detail,
                       "The provided type (user--user) does not match the destination resource types (taxonomy_term--tags).")
        XCTAssertEqual(site.entity("node", "6")?["field_tags"]?.arrayValue?.map { $0["target_id"] }, [.number(2)])
    }

    /// 142 (rel:latest-version: the current revision, links self only), 143 (id of an old
    /// revision: its values, and links to the latest version and the working copy), 144 (an
    /// unknown id: 404), 145 (a malformed one: 400), 147 (terms have revisions), 148 (users do
    /// not: 501), 149 (collections take rel: versions only).
    func testResourceVersionReadsAsRecorded() async throws {
        let site = baseline()
        let node = try await nodeSix(site)
        let admin = client(site)
        _ = try await admin.jsonAPIUpdate(article, id: node, document: try document(#"""
            {"data": {"type": "node--article", "id": "\#(node)", "attributes": {"title": "Changed", "revision_log": "Changed the title"}}}
            """#))
        let base = "http://drupal.mock/jsonapi/node/article/" + node
        func read(_ version: String) async throws -> JSONAPIResource {
            var query = JSONAPIQuery()
            try query.fields("node--article", ["title", "drupal_internal__vid", "revision_log"])
            try query.parameter("resourceVersion", version)
            let document = try await admin.jsonAPIGet(article, id: node, query: query)
            return try XCTUnwrap(document.resource)
        }
        let latest = try await read("rel:latest-version")
        XCTAssertEqual(latest.attributes, ["title": .string("Changed"), "drupal_internal__vid": .number(7),
                                           "revision_log": .string("Changed the title")])
        XCTAssertEqual(latest.raw["links"], .object(["self": MockJSONAPITests.link(base + "?resourceVersion=id%3A7")]))
        let old = try await read("id:6")
        XCTAssertEqual(old.attributes, ["title": .string("JSON:API with relationships"), "drupal_internal__vid": .number(6),
                                        "revision_log": .null])
        XCTAssertEqual(old.raw["links"], .object([
            "latest-version": MockJSONAPITests.link(base + "?resourceVersion=rel%3Alatest-version"),
            "self": MockJSONAPITests.link(base + "?resourceVersion=id%3A6"),
            "working-copy": MockJSONAPITests.link(base + "?resourceVersion=rel%3Aworking-copy"),
        ]))
        let workingCopy = try await read("rel:working-copy")
        XCTAssertEqual(workingCopy["title"], .string("Changed"))

        let unknown = await drupalError { _ = try await read("id:99999") }
        XCTAssertEqual(unknown?.status, 404)
        XCTAssertEqual(unknown?.jsonAPIErrors.first?.detail, "The requested version, identified by `id:99999`, could not be found.")
        let malformed = await drupalError { _ = try await read("latest") }
        XCTAssertEqual(malformed?.status, 400)
        XCTAssertEqual(malformed?.jsonAPIErrors.first?.detail,
                       "A resource version identifier was provided in an invalid format: `latest`")

        var first = JSONAPIQuery()
        try first.resourceVersion("id:1")
        let term = try await admin.jsonAPIGet(try JSONAPIResourceType("taxonomy_term", "tags"), id: uuid(site, "taxonomy_term", "1"),
                                              query: first)
        XCTAssertEqual(term.resource?["name"], .string("alpha"))
        XCTAssertEqual(term.resource?["drupal_internal__revision_id"], .number(1))
        let user = await drupalError {
            _ = try await admin.jsonAPIGet(try JSONAPIResourceType("user", "user"), id: self.uuid(site, "user", "1"), query: first)
        }
        XCTAssertEqual(user?.status, 501)
        XCTAssertEqual(user?.jsonAPIErrors.first?.detail, "Resource versioning is not yet supported for this resource type.")
        let collection = await drupalError { _ = try await admin.jsonAPICollection(self.article, query: first) }
        XCTAssertEqual(collection?.status, 400)
        XCTAssertEqual(collection?.jsonAPIErrors.first?.detail, "Collection resources only support the following resource "
                       + "version identifiers: rel:latest-version, rel:working-copy")
        var current = JSONAPIQuery()
        try current.resourceVersion("rel:latest-version")
        let currentRows = try await admin.jsonAPICollection(article, query: current).resources.count
        XCTAssertEqual(currentRows, 6)
    }

    private static func link(_ href: String) -> JSONValue { .object(["href": .string(href)]) }

    /// 171b: the users' collection starts with the anonymous user, "Anonymous", shown by its
    /// label; its UUID reads as that user too. (That administrators also see its label only is
    /// Drupal's user access rule, which no recording shows.)
    func testUserCollectionListsTheAnonymousUser() async throws {
        let site = baseline()
        let users = try JSONAPIResourceType("user", "user")
        let listed = try await client(site, as: nil).jsonAPICollection(users)
        XCTAssertEqual(listed.resources.map(\.attributes), [["display_name": .string("Anonymous")],
                                                           ["display_name": .string("admin")],
                                                           ["display_name": .string("editor")]])
        let anonymous = try XCTUnwrap(listed.resources.first)
        XCTAssertEqual(anonymous.type, "user--user")
        XCTAssertEqual(anonymous.raw["links"]?["self"]?["href"], .string("http://drupal.mock/jsonapi/user/user/" + anonymous.id))
        XCTAssertNotEqual(anonymous.id, uuid(site, "user", "1"))
        let individual = try await client(site, as: nil).jsonAPIGet(users, id: anonymous.id)
        XCTAssertEqual(individual.resource?.attributes, ["display_name": .string("Anonymous")])
        let byAdmin = try await client(site).jsonAPICollection(users)
        XCTAssertEqual(byAdmin.resources.first?.attributes, ["display_name": .string("Anonymous")])
        XCTAssertEqual(byAdmin.resources.dropFirst().first?["name"], .string("admin"))
        let deleted = await drupalError { try await self.client(site).jsonAPIDelete(users, id: anonymous.id) }
        XCTAssertEqual(deleted?.status, 403)
        XCTAssertNil(site.entity("user", "0"))
    }

    /// 160, 161: a file uploaded alone is temporary; uploaded to a node's field, it is attached and
    /// permanent; 164: an extension the field does not take. The bytes are served at the file's URL.
    func testFileUploadsAsRecorded() async throws {
        let site = baseline()
        let admin = client(site)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52,
                        0, 0, 0, 2, 0, 0, 0, 3])
        let alone = try JSONAPIDocument(try await admin.jsonAPI(.upload(article, field: "field_image", filename: "red.png", data: png)))
        XCTAssertEqual(alone.resource?.type, "file--file")
        XCTAssertEqual(alone.resource?["status"], .bool(false))
        let node = uuid(site, "node", "1")
        let attached = try await admin.jsonAPI(.upload(article, id: node, field: "field_image", filename: "red.png", data: png))
        XCTAssertEqual(attached.status, 200)
        let file = try XCTUnwrap(JSONAPIDocument(attached).resource)
        XCTAssertEqual(file["filename"], .string("red_0.png"), "renamed: red.png is taken")
        XCTAssertEqual(file["status"], .bool(true))
        let image = site.entity("node", "1")?["field_image"]?[0]
        XCTAssertEqual(image?["width"], .number(2))
        XCTAssertEqual(image?["height"], .number(3))
        let url = try XCTUnwrap(file["uri"]?["url"]?.stringValue)
        let served = try await admin.request(DrupalRequest(method: "GET", path: url, format: nil))
        XCTAssertEqual(served.body, png)
        let refused = await drupalError {
            _ = try await admin.jsonAPI(.upload(self.article, field: "field_image", filename: "notes.txt", data: Data("x".utf8)))
        }
        XCTAssertEqual(refused?.status, 422)
    }
}
