import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// JSON:API against the fake server (modelled on drupal10-jsonapi-transcripts).
final class JSONAPITests: FakeDrupalTestCase {
    private let article = try! JSONAPIResourceType("node--article")

    private func admin() throws -> DrupalClient {
        try makeClient { $0.authentication = .basic(user: "admin", password: "admin") }
    }

    private func document(_ json: String) throws -> JSONBody { try JSONBody(Data(json.utf8)) }

    /// Titles only, by nid: the query of the walks below.
    private func titlesByNid(limit: Int? = nil) throws -> JSONAPIQuery {
        var query = JSONAPIQuery()
        try query.fields("node--article", ["title"])
        try query.sort("drupal_internal__nid")
        if let limit { try query.pageLimit(limit) }
        return query
    }

    /// Every page of a pager: the titles in order, and each page's size.
    private func walk(_ pages: DrupalPager) async throws -> (titles: [String], sizes: [Int]) {
        var titles: [String] = []
        var sizes: [Int] = []
        while let page = try await pages.next() {
            let resources = try JSONAPIDocument(page).resources
            sizes.append(resources.count)
            titles += resources.compactMap { $0["title"]?.stringValue }
        }
        return (titles, sizes)
    }

    func testCollectionWithFilterGroupIncludeAndFields() async throws {
        let client = try admin()
        var query = JSONAPIQuery()
        try query.group("or", conjunction: .or)
        try query.filter("title", "Article 1", memberOf: "or")
        try query.group("and", conjunction: .and, memberOf: "or")
        try query.filter("uid.name", "editor", memberOf: "and")
        try query.filter("field_tags.name", "beta", memberOf: "and")
        try query.include(["uid", "field_tags"])
        try query.fields("node--article", ["title", "uid", "field_tags"])
        try query.sort("drupal_internal__nid")
        let page = try await client.jsonAPICollection(article, query: query)
        XCTAssertEqual(page.resources.map { $0["title"]?.stringValue }, ["Article 1", "Article 5"])
        let fifth = page.resources[1]
        XCTAssertEqual(page.related(fifth, "uid").first?["name"]?.stringValue, "editor")
        XCTAssertEqual(page.related(fifth, "field_tags").map { $0["name"]?.stringValue }, ["beta"])
        XCTAssertNil(page.next)
    }

    /// Walking by links.next: every resource once, in order; page[limit] above 50 is capped and
    /// the walk still sees everything.
    func testPagesFollowNextLinksAndTheCap() async throws {
        try server.control("POST", "/__fake/seed", json: #"{"articles": 115}"#)
        let client = try admin()
        let pages = try client.jsonAPIPages(article, query: try titlesByNid(limit: 100))
        let (titles, sizes) = try await walk(pages)
        XCTAssertEqual(titles.count, 120)
        XCTAssertEqual(Set(titles).count, 120)
        XCTAssertEqual(sizes, [50, 50, 20], "Drupal caps page[limit] at 50")
        XCTAssertEqual(titles.prefix(2), ["Article 1", "Article 2"])
        let after = try await pages.next()
        XCTAssertNil(after, "the pager stays at its end")
    }

    /// The concurrent mode returns the same resources in the same order.
    func testConcurrentPagesKeepOrder() async throws {
        try server.control("POST", "/__fake/seed", json: #"{"articles": 95}"#)
        let client = try admin()
        let query = try titlesByNid(limit: 7)
        let sequential = try await walk(try client.jsonAPIPages(article, query: query)).titles
        let concurrent = try await walk(try client.jsonAPIPages(article, query: query, concurrency: 8)).titles
        XCTAssertEqual(sequential.count, 100)
        XCTAssertEqual(concurrent, sequential)
        XCTAssertThrowsError(try client.jsonAPIPages(article, concurrency: 0))
        XCTAssertThrowsError(try client.jsonAPIPages(article, concurrency: 65))
    }

    func testMaxPagesStopsTheWalk() async throws {
        let client = try admin()
        var query = JSONAPIQuery()
        try query.pageLimit(2)
        for concurrency in [1, 4] {
            let pages = try client.jsonAPIPages(article, query: query, concurrency: concurrency, maxPages: 2)
            var count = 0
            while try await pages.next() != nil { count += 1 }
            XCTAssertEqual(count, 2, "concurrency \(concurrency)")
        }
    }

    /// Two closes at once (C's drupal_pager_free and drupal_client_free on two threads): each
    /// returns only once no page fetched ahead is in flight. The second used to return at once,
    /// while the first still waited for the fetches it had cancelled.
    func testEveryCloseWaitsForThePagesFetchedAhead() async throws {
        let flight = RequestsInFlight()
        let client = try makeClient {
            $0.authentication = .basic(user: "admin", password: "admin")
            $0.middleware = [Middleware(onRequest: { _ in
                flight.begin()
                usleep(40_000)   // the fetches ahead are in flight when the pager closes
                flight.end()
            })]
        }
        var query = JSONAPIQuery()
        try query.pageLimit(1)
        let pages = try client.jsonAPIPages(article, query: query, concurrency: 8)
        _ = try await pages.next()
        let closes = (0..<2).map { _ in Task { () -> Int in
            await pages.close()
            return flight.now.running
        } }
        for close in closes {
            let running = await close.value
            XCTAssertEqual(running, 0, "a close returned with fetches ahead still in flight")
        }
        XCTAssertGreaterThan(flight.now.started, 1)
    }

    /// A page whose resources were all hidden is skipped; a lying server answering only such
    /// pages, each with a links.next, kept a walk fetching forever (maxPages counted only the
    /// pages returned). Every page fetched counts now.
    func testMaxPagesBoundsTheFetchesWhenEveryPageIsEmpty() async throws {
        let next = server.baseURL + "/jsonapi/node/article?page%5Boffset%5D=2&page%5Blimit%5D=2"
        let empty = #"{"jsonapi": {"version": "1.0"}, "data": [], "links": {"next": {"href": "\#(next)"}}}"#
        let client = try admin()
        var query = JSONAPIQuery()
        try query.pageLimit(2)
        // One fetch for the sequential walk: its second would follow a links.next that names
        // the page itself, a protocol error of its own (the next test).
        for (concurrency, maxPages) in [(1, 1), (4, 5)] {
            try server.lie(empty, under: "/jsonapi/node/article", count: 40)
            defer { _ = try? server.control("DELETE", "/__fake/faults") }
            let before = try server.stats().requests
            let pages = try client.jsonAPIPages(article, query: query, concurrency: concurrency, maxPages: maxPages)
            let page = try await pages.next()
            XCTAssertNil(page, "concurrency \(concurrency): only empty pages within maxPages")
            await pages.close()
            let fetched = try server.stats().requests - before
            XCTAssertLessThanOrEqual(fetched, maxPages, "concurrency \(concurrency)")
        }
    }

    /// A page whose links.next names the page itself would be fetched again and again (up to
    /// maxPages, 100,000 by default), returned each time: the server's protocol error.
    func testALinksNextNamingItsOwnPageIsTheServersError() async throws {
        let link = server.baseURL + "/jsonapi/node/article?page%5Boffset%5D=2&page%5Blimit%5D=2"
        let page = #"{"data": [{"type": "node--article", "id": "a", "attributes": {}}], "links": {"next": {"href": "\#(link)"}}}"#
        try server.lie(page, under: "/jsonapi/node/article", count: 3)
        defer { _ = try? server.control("DELETE", "/__fake/faults") }
        let pages = try admin().jsonAPIPages(article)
        let first = try await pages.next()
        XCTAssertNotNil(first, "the first page names another one: its links.next was not followed yet")
        let loop = await expectError { try await pages.next() }
        XCTAssertEqual(loop?.code, .decode)
        XCTAssertTrue(loop?.message.contains("names a page this walk already fetched") ?? false, loop?.message ?? "")
    }

    /// Regression: a links.next that was neither a URL nor a link object with an href (a number,
    /// an object without href) read as "no next page": the walk ended, the collection cut short
    /// without a word.
    func testAMalformedLinksNextIsTheServersError() async throws {
        for next in ["7", #"{"meta": {}}"#, #"{"href": 7}"#] {
            let page = #"{"data": [{"type": "node--article", "id": "a", "attributes": {}}], "links": {"next": \#(next)}}"#
            try server.lie(page, under: "/jsonapi/node/article", count: 1)
            defer { _ = try? server.control("DELETE", "/__fake/faults") }
            let pages = try admin().jsonAPIPages(article)
            let error = await expectError { _ = try await pages.next() }
            XCTAssertEqual(error?.code, .decode, next)
            XCTAssertTrue(error?.message.contains("links.next") ?? false, error?.message ?? "")
        }
    }

    /// Regression: a document's members of the wrong shape were read as absent: an `included`
    /// item that is no resource object was left out of the index (its relationship then read as
    /// "not included"), an identifier without a string id was dropped, and a malformed
    /// `links.next` read as the last page. C and Python refuse these (DRUPAL_E_DECODE).
    func testADocumentOfTheWrongShapeIsTheServersError() async throws {
        let resource = #"{"type": "node--article", "id": "a", "attributes": {}}"#
        let cases: [(document: String, names: String)] = [
            (#"{"data": 5}"#, "data"),
            (#"{"data": [5]}"#, "data[0]"),
            (#"{"data": {"type": 5, "id": "a"}}"#, "data.type"),
            (#"{"data": {"type": "node--article", "id": null}}"#, "data.id"),
            (#"{"data": {"type": "node--article", "id": "a", "attributes": []}}"#, "data.attributes"),
            (#"{"data": \#(resource), "included": {}}"#, "included"),
            (#"{"data": \#(resource), "included": ["oops"]}"#, "included[0]"),
            (#"{"data": \#(resource), "included": [{"type": "user--user", "id": 7}]}"#, "included[0].id"),
            (#"{"data": {"type": "node--article", "id": "a", "relationships": {"uid": {"data": "oops"}}}}"#,
             "data.relationships.uid.data"),
            (#"{"data": {"type": "node--article", "id": "a", "relationships": {"tags": {"data": [{"type": "t", "id": 1}]}}}}"#,
             "data.relationships.tags.data[0].id"),
            (#"{"data": [], "links": {"next": 7}}"#, "links.next"),
            (#"{"data": [], "links": []}"#, "links"),
        ]
        let client = try admin()
        for (document, names) in cases {
            try server.lie(document, under: "/jsonapi/node/article", count: 1)
            defer { _ = try? server.control("DELETE", "/__fake/faults") }
            let response = try await client.jsonAPI(.collection(article))
            XCTAssertThrowsError(try JSONAPIDocument(response), document) { error in
                XCTAssertEqual((error as? DrupalError)?.code, .decode, document)
                XCTAssertTrue((error as? DrupalError)?.message.contains(names) ?? false, "\(names): \(error)")
            }
        }
        // The shapes Drupal answers with are read as before: null data, an empty list, null and
        // empty relationships, a next link as an object or a string.
        for document in [#"{"data": null}"#, #"{"data": [], "links": {"next": {"href": "http://x/jsonapi"}}}"#,
                         #"{"data": {"type": "node--article", "id": "a", "relationships": {"uid": {"data": null}, "t": {"data": []}, "l": {"links": {}}}}, "included": []}"#,
                         #"{"data": [], "links": {"next": "http://x/jsonapi", "self": {"href": "http://x"}}}"#] {
            try server.lie(document, under: "/jsonapi/node/article", count: 1)
            defer { _ = try? server.control("DELETE", "/__fake/faults") }
            let response = try await client.jsonAPI(.collection(article))
            XCTAssertNoThrow(try JSONAPIDocument(response), document)
        }
    }

    /// Regression: pages fetched a window at a time trusted the first page's links.next: one
    /// naming no page ended the walk without a word, and one naming the first page again handed
    /// out pages twice. Both are the server's errors there too, after the first page.
    func testAConcurrentWalkRefusesALinksNextItCannotUse() async throws {
        for link in ["/jsonapi/node/article?page%5Boffset%5D=0&page%5Blimit%5D=2", "/jsonapi/node/article?sort=title"] {
            let page = #"{"data": [{"type": "node--article", "id": "a", "attributes": {}}], "links": {"next": {"href": "\#(server.baseURL + link)"}}}"#
            try server.lie(page, under: "/jsonapi/node/article", count: 20)
            defer { _ = try? server.control("DELETE", "/__fake/faults") }
            let pages = try admin().jsonAPIPages(article, concurrency: 4)
            let first = try await pages.next()
            XCTAssertNotNil(first, link)
            let error = await expectError { try await pages.next() }
            XCTAssertEqual(error?.code, .decode, link)
            XCTAssertTrue(error?.message.contains("links.next") ?? false, error?.message ?? "")
        }
    }

    /// Regression: a walk kept every link it followed, whole, to spot cycles: 15,000 empty pages
    /// with 60 KB links took 1.7 GB. 300 such pages must not keep their 18 MB of links.
    func testAWalkDoesNotKeepTheLinksItFollowed() async throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil,
                      "resident memory under ThreadSanitizer's allocator says nothing about the walk")
        let padding = String(repeating: "p", count: 60_000)
        let pages = (1...300).map { offset -> String in
            let link = server.baseURL + "/jsonapi/node/article?page%5Boffset%5D=\(offset * 2)&page%5Blimit%5D=2&pad=\(padding)"
            return offset == 300 ? #"{"data": []}"# : #"{"data": [], "links": {"next": {"href": "\#(link)"}}}"#
        }
        let body = try JSONSerialization.data(withJSONObject: ["mode": "status", "code": 200, "body": pages,
                                                                "path_prefix": "/jsonapi/node/article", "count": 300])
        // 18 MB: too long for curl's command line, so from a file.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("drupalsdk-walk-\(getpid()).json")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try server.control("POST", "/__fake/faults", json: "@" + file.path)
        defer { _ = try? server.control("DELETE", "/__fake/faults") }
        let walk = try admin().jsonAPIPages(article)
        let before = residentBytes()
        let page = try await walk.next()
        let grown = residentBytes() - before
        XCTAssertNil(page, "only empty pages")
        XCTAssertEqual(try server.stats().requests >= 300, true)
        XCTAssertLessThan(grown, 9_000_000, "the walk kept \(grown) bytes")
        await walk.close()
    }

    private func residentBytes() -> Int {
        let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
    }

    /// Pages whose links.next make a longer cycle (A names B, B names A) were fetched again and
    /// again, up to maxPages (100,000 by default): the walk ends with the server's error at the
    /// first link that names a page it fetched.
    func testLinksNextMakingACycleIsTheServersError() async throws {
        func page(_ id: String, next offset: Int) -> String {
            let link = server.baseURL + "/jsonapi/node/article?page%5Boffset%5D=\(offset)&page%5Blimit%5D=2"
            return #"{"data": [{"type": "node--article", "id": "\#(id)", "attributes": {}}], "#
                + #""links": {"next": {"href": "\#(link)"}}}"#
        }
        // The collection's first page names A (offset 2); A names B (4); B names A again.
        try server.lie(page("first", next: 2), page("a", next: 4), page("b", next: 2),
                       under: "/jsonapi/node/article", count: 20)
        defer { _ = try? server.control("DELETE", "/__fake/faults") }
        let pages = try admin().jsonAPIPages(article)
        var ids: [String] = []
        let loop = await expectError {
            while let page = try await pages.next() {
                ids.append(try JSONAPIDocument(page).resources.first?.id ?? "?")
            }
        }
        XCTAssertEqual(ids, ["first", "a"], "B is fetched once, and its link back to A ends the walk")
        XCTAssertEqual(loop?.code, .decode)
        XCTAssertTrue(loop?.message.contains("names a page this walk already fetched") ?? false, loop?.message ?? "")
    }

    /// The concurrent walk adds page sizes to the offset a links.next names (or the query's):
    /// near Int.max the sum overflowed and the process died. The pages past the largest offset
    /// are not fetched.
    func testOffsetsNearTheLargestIntegerEndTheWalk() async throws {
        let link = server.baseURL + "/jsonapi/node/article?page%5Boffset%5D=9223372036854775800&page%5Blimit%5D=50"
        let page = #"{"data": [{"type": "node--article", "id": "a", "attributes": {}}], "links": {"next": {"href": "\#(link)"}}}"#
        try server.lie(page, under: "/jsonapi/node/article", count: 10)
        defer { _ = try? server.control("DELETE", "/__fake/faults") }
        let walked = try admin().jsonAPIPages(article, concurrency: 4)
        var pages = 0
        do {
            while try await walked.next() != nil { pages += 1 }
        } catch let error as DrupalError {
            XCTAssertEqual(error.code, .decode, error.message)
        }
        await walked.close()
        XCTAssertLessThanOrEqual(pages, 2)
        var query = JSONAPIQuery()
        try query.pageOffset(Int.max)
        let fromTheQuery = try admin().jsonAPIPages(article, query: query, concurrency: 4)
        _ = try? await fromTheQuery.next()
        await fromTheQuery.close()
    }

    /// A failed fetch throws, is fetched again by the next call and does not count against
    /// maxPages.
    func testAFailedFetchIsFetchedAgainAndNotCountedAgainstMaxPages() async throws {
        let client = try admin()
        var query = JSONAPIQuery()
        try query.pageLimit(2)
        for concurrency in [1, 4] {
            try server.control("POST", "/__fake/faults",
                               json: #"{"mode": "status", "code": 500, "path_prefix": "/jsonapi/node/article", "count": 1}"#)
            let pages = try client.jsonAPIPages(article, query: query, concurrency: concurrency, maxPages: 2)
            var (returned, failures) = (0, 0)
            while failures < 3 {
                do {
                    guard try await pages.next() != nil else { break }
                    returned += 1
                } catch let error as DrupalError {
                    XCTAssertEqual(error.status, 500)
                    failures += 1
                }
            }
            await pages.close()
            XCTAssertEqual(failures, 1, "concurrency \(concurrency)")
            XCTAssertEqual(returned, 2, "concurrency \(concurrency)")
        }
    }

    func testCreateUpdateDeleteAndRelationships() async throws {
        let client = try admin()
        let tags = try await client.jsonAPICollection(try JSONAPIResourceType("taxonomy_term", "tags")).resources
        let alpha = try XCTUnwrap(tags.first { $0["name"]?.stringValue == "alpha" })
        let beta = try XCTUnwrap(tags.first { $0["name"]?.stringValue == "beta" })
        let id = "3f1e7c2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
        let created = try await client.jsonAPICreate(article, document: try document("""
            {"data": {"type": "node--article", "id": "\(id)", "attributes": {"title": "Made by JSON:API"},
             "relationships": {"field_tags": {"data": [{"type": "taxonomy_term--tags", "id": "\(alpha.id)"}]}}}}
            """))
        XCTAssertEqual(created.resource?.id, id, "the client-generated id is kept")
        XCTAssertEqual(created.resource?.identifiers("field_tags").map(\.id), [alpha.id])

        let updated = try await client.jsonAPIUpdate(article, id: id, document: try document(
            #"{"data": {"type": "node--article", "id": "\#(id)", "attributes": {"title": "Renamed"}}}"#))
        XCTAssertEqual(updated.resource?["title"]?.stringValue, "Renamed")

        let identifiers = try document(#"{"data": [{"type": "taxonomy_term--tags", "id": "\#(beta.id)"}]}"#)
        let added = try await client.jsonAPI(.changeRelationship(article, id: id, field: "field_tags", .add,
                                                                 identifiers: identifiers))
        XCTAssertEqual(added.status, 200)
        let relationship = try JSONAPIDocument(try await client.jsonAPI(.relationship(article, id: id, field: "field_tags")))
        XCTAssertEqual(Set(relationship.raw["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []),
                       [alpha.id, beta.id])
        let removed = try await client.jsonAPI(.changeRelationship(article, id: id, field: "field_tags", .remove,
                                                                   identifiers: identifiers))
        XCTAssertEqual(removed.status, 204)
        let owner = try JSONAPIDocument(try await client.jsonAPI(.related(article, id: id, field: "uid")))
        XCTAssertEqual(owner.resource?["name"]?.stringValue, "admin")

        try await client.jsonAPIDelete(article, id: id)
        let gone = await expectError { try await client.jsonAPIGet(self.article, id: id) }
        XCTAssertEqual(gone?.status, 404)
        XCTAssertEqual(gone?.kind, .notFound)
    }

    /// A 422 keeps every errors[] entry and gives them as violations (pointer, detail).
    func testValidationErrorsBecomeViolations() async throws {
        let client = try admin()
        let error = await expectError {
            try await client.jsonAPICreate(self.article, document: try self.document(
                #"{"data": {"type": "node--article", "attributes": {"langcode": "xx"}}}"#))
        }
        XCTAssertEqual(error?.status, 422)
        XCTAssertEqual(error?.jsonAPIErrors.count, 2)
        XCTAssertEqual(error?.jsonAPIErrors.first?.status, "422")
        let pointers = error?.violations.map(\.path) ?? []
        XCTAssertTrue(pointers.contains("/data/attributes/title"), "\(pointers)")
        XCTAssertTrue(error?.violations.contains { $0.message.contains("This value should not be null") } ?? false)
    }

    /// Regression: every errors[] entry of a 422 became a violation, also those that name no
    /// field: a refused upload ("Unprocessable Entity: file validation failed.", recording 164)
    /// gave one violation with an empty path, where core REST's same refusal gives none.
    func testOnlyErrorsNamingAFieldAreViolations() async throws {
        let fileRefused = #"{"jsonapi": {"version": "1.0"}, "errors": [{"title": "Unprocessable Entity", "status": "422", "#
            + #""detail": "Unprocessable Entity: file validation failed.\nOnly files with the following extensions are allowed: png."}]}"#
        let mixed = #"{"errors": [{"title": "Unprocessable Entity", "status": "422", "detail": "title: This value should not be null.", "#
            + #""source": {"pointer": "/data/attributes/title"}}, {"title": "Unprocessable Entity", "status": "422", "detail": "Whole entity."}]}"#
        let client = try admin()
        for (body, pointers) in [(fileRefused, [String]()), (mixed, ["/data/attributes/title"])] {
            try server.lie(body, status: 422, under: "/jsonapi/node/article", count: 1)
            let error = await expectError { try await client.jsonAPICollection(self.article) }
            XCTAssertEqual(error?.status, 422)
            XCTAssertEqual(error?.violations.map(\.path), pointers)
            XCTAssertEqual(error?.jsonAPIErrors.count, pointers.count + 1, "every entry is kept")
        }
    }

    func testRevisions() async throws {
        let client = try admin()
        let first = try await client.jsonAPICollection(article).resources[0]
        var latest = JSONAPIQuery()
        try latest.resourceVersion("rel:latest-version")
        let read = try await client.jsonAPIGet(article, id: first.id, query: latest)
        XCTAssertEqual(read.resource?.id, first.id)
        let users = try JSONAPIResourceType("user--user")
        let someone = try await client.jsonAPICollection(users).resources.last!
        var byId = JSONAPIQuery()
        try byId.resourceVersion("id:1")
        let unsupported = await expectError { try await client.jsonAPIGet(users, id: someone.id, query: byId) }
        XCTAssertEqual(unsupported?.status, 501)
        XCTAssertTrue(unsupported?.message.contains("Resource versioning is not yet supported") ?? false,
                      unsupported?.message ?? "")
        let onWrite = JSONAPICall.update(article, id: first.id, document: try document("{}"))
        var withVersion = onWrite
        withVersion.query = latest
        XCTAssertThrowsError(try withVersion.request(), "Drupal refuses resourceVersion on a PATCH: refused here")
    }

    func testUploadToAFileFieldAndAttach() async throws {
        let client = try admin()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let loose = try JSONAPIDocument(try await client.jsonAPI(.upload(article, field: "field_image",
                                                                         filename: "dir/red.png", data: png)))
        XCTAssertEqual(loose.resource?.type, "file--file")
        XCTAssertEqual(loose.resource?["filename"]?.stringValue, "red.png")
        let node = try await client.jsonAPICollection(article).resources[0]
        let attached = try await client.jsonAPI(.upload(article, id: node.id, field: "field_image",
                                                        filename: "blue.png", data: png))
        XCTAssertEqual(attached.status, 200)
        XCTAssertThrowsError(try JSONAPICall.upload(article, field: "field_image", filename: "a\"b.png", data: png).request())
    }

    func testEntryPointSaysWhoIsLoggedIn() async throws {
        let anonymous = try await makeClient().jsonAPIEntryPoint()
        XCTAssertNil(anonymous.me)
        XCTAssertTrue(anonymous.resourceTypes["node--article"]?.hasSuffix("/jsonapi/node/article") ?? false,
                      "\(anonymous.resourceTypes)")
        XCTAssertNil(anonymous.resourceTypes["self"])
        let editor = try makeClient { $0.authentication = .basic(user: "editor", password: "editor") }
        let entry = try await editor.jsonAPIEntryPoint()
        let me = try XCTUnwrap(entry.me)
        let user = try await editor.jsonAPIGet(try JSONAPIResourceType("user--user"), id: me)
        XCTAssertEqual(user.resource?["name"]?.stringValue ?? user.resource?["display_name"]?.stringValue, "editor")
    }

    /// A cookie session sends X-CSRF-Token on JSON:API writes, as REST needs.
    func testCookieSessionWrites() async throws {
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        let created = try await client.jsonAPICreate(article, document: try document(
            #"{"data": {"type": "node--article", "attributes": {"title": "By cookie"}}}"#))
        XCTAssertEqual(created.resource?["title"]?.stringValue, "By cookie")
    }

    func testReadOnlySiteSaysWritesAreDisabled() async throws {
        try server.control("POST", "/__fake/config", json: #"{"jsonapi_read_only": true}"#)
        defer { _ = try? server.control("POST", "/__fake/config", json: #"{"defaults": true}"#) }
        let client = try admin()
        let error = await expectError {
            try await client.jsonAPICreate(self.article, document: try self.document(
                #"{"data": {"type": "node--article", "attributes": {"title": "x"}}}"#))
        }
        XCTAssertEqual(error?.status, 405)
        XCTAssertTrue(error?.message.contains("read") ?? false, error?.message ?? "")
    }

    func testNoFormatAndTheMediaType() async throws {
        let client = try admin()
        let request = try JSONAPICall.collection(article).request()
        XCTAssertNil(request.format)
        XCTAssertEqual(request.headers["Accept"], "application/vnd.api+json")
        let response = try await client.jsonAPI(.collection(article))
        XCTAssertTrue(response.headers["Content-Type"]?.hasPrefix("application/vnd.api+json") ?? false)
        XCTAssertThrowsError(try JSONAPICall.get(article, id: "..").request())
        XCTAssertThrowsError(try JSONAPICall.get(article, id: "").request())
    }

    /// A links.next of another site is refused, never followed.
    func testLinksOfOtherSitesAreNotFollowed() async throws {
        let client = try admin()
        let error = await expectError { try await client.jsonAPI(.follow("https://evil.example/jsonapi/node/article")) }
        XCTAssertEqual(error?.code, .invalidArgument)
    }
}

extension JSONAPITests {
    /// On a site with OAuth, JSON:API answers a bad Bearer token with an HTML 401 page: still a
    /// 401 authentication error, with a message that says what happened.
    func testHTMLUnauthorizedPage() async throws {
        try server.control("POST", "/__fake/config", json: #"{"site": "extended"}"#)
        defer { _ = try? server.control("POST", "/__fake/config", json: #"{"defaults": true}"#) }
        let client = try makeClient { $0.authentication = .bearer(token: "not-a-token") }
        let error = await expectError { try await client.jsonAPICollection(self.article) }
        XCTAssertEqual(error?.status, 401)
        XCTAssertEqual(error?.kind, .authentication)
        XCTAssertTrue(error?.headers["Content-Type"]?.hasPrefix("text/html") ?? false)
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("GET /jsonapi/node/article") && message.contains("401")
                      && message.contains("credentials"), message)
        XCTAssertFalse(message.contains("not-a-token"), "the token is never echoed")
    }
}

extension JSONAPITests {
    /// The concurrent pager guesses the pages' offsets from the query (core caps page[limit] at
    /// 50) and checks the guess against the first page's links.next: on a site with another cap
    /// it fetches the right pages, in order.
    func testConcurrentPagesOnASiteWithAnotherPageCap() async throws {
        try server.control("POST", "/__fake/seed", json: #"{"articles": 40}"#)
        try server.control("POST", "/__fake/config", json: #"{"jsonapi_max_page": 6}"#)
        defer { _ = try? server.control("POST", "/__fake/config", json: #"{"defaults": true}"#) }
        let client = try admin()
        for limit in [nil, 10] {
            for concurrency in [1, 4] {
                let query = try titlesByNid(limit: limit)
                let (titles, sizes) = try await walk(try client.jsonAPIPages(article, query: query, concurrency: concurrency))
                XCTAssertEqual(titles.count, 45, "limit \(String(describing: limit)), concurrency \(concurrency)")
                XCTAssertEqual(Set(titles).count, 45)
                XCTAssertEqual(sizes.first, 6)
                XCTAssertEqual(titles.first, "Article 1")
            }
        }
    }
}

extension JSONAPITests {
    final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var steps: [(Int64, Int64?)] = []
        func add(_ done: Int64, _ total: Int64?) { lock.lock(); steps.append((done, total)); lock.unlock() }
        var all: [(Int64, Int64?)] { lock.lock(); defer { lock.unlock() }; return steps }
    }

    /// A file streamed from a path to a file field: to /{field} (201) and to /{id}/{field} (200),
    /// with progress up to the file's size; a missing path is refused before anything is sent.
    func testUploadAFileFromAPathWithProgress() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("drupalsdk-jsonapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        data.append(contentsOf: (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let path = directory.appendingPathComponent("streamed.png").path
        try data.write(to: URL(fileURLWithPath: path))
        let client = try admin()

        let progress = Progress()
        let loose = try await client.jsonAPI(.upload(article, field: "field_image", path: path) {
            progress.add($0, $1)
            return true
        })
        XCTAssertEqual(loose.status, 201)
        let file = try JSONAPIDocument(loose)
        XCTAssertEqual(file.resource?.type, "file--file")
        XCTAssertEqual(file.resource?["filename"]?.stringValue, "streamed.png")
        XCTAssertEqual(file.resource?["filesize"]?.idString, String(data.count))
        let last = try XCTUnwrap(progress.all.last)
        XCTAssertEqual(last.0, Int64(data.count))
        XCTAssertEqual(last.1, Int64(data.count))
        XCTAssertTrue(zip(progress.all, progress.all.dropFirst()).allSatisfy { $0.0 <= $1.0 })
        let request = try server.lastRequest()
        let headers = request?["headers"]?.arrayValue ?? []
        func header(_ name: String) -> String? {
            headers.first { $0[0]?.stringValue?.lowercased() == name.lowercased() }?[1]?.stringValue
        }
        XCTAssertEqual(header("Content-Type"), "application/octet-stream")
        XCTAssertEqual(header("Content-Disposition"), "file; filename=\"streamed.png\"")

        let node = try await client.jsonAPICollection(article).resources[0]
        let attached = try await client.jsonAPI(.upload(article, id: node.id, field: "field_image", path: path,
                                                        filename: "renamed.png"))
        XCTAssertEqual(attached.status, 200)

        let before = try server.stats()
        let error = await expectError {
            try await client.jsonAPI(.upload(self.article, field: "field_image", path: directory.path + "/nope.png"))
        }
        XCTAssertEqual(error?.code, .invalidArgument)
        XCTAssertEqual(try server.stats().requests, before.requests, "nothing was sent")
        XCTAssertThrowsError(try JSONAPICall.upload(article, field: "field_image", path: directory.path).request())
        XCTAssertThrowsError(try JSONAPICall.upload(article, field: "field_image", path: path,
                                                    filename: "a\"b.png").request())
    }
}

/// How many requests a middleware saw start, and how many are inside it now.
private final class RequestsInFlight: Sendable {
    private let state = Mutex((running: 0, started: 0))

    func begin() { state.withLock { $0.running += 1; $0.started += 1 } }
    func end() { state.withLock { $0.running -= 1 } }
    var now: (running: Int, started: Int) { state.withLock { $0 } }
}
