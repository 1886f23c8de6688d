import Foundation
import XCTest
import Synchronization
@testable import DrupalSDK

/// Languages by path prefix against the fake's extended site (French at /fr, Article 1 translated):
/// reads and their fallback, JSON:API under the prefix, updates of translations, the guarded
/// traps of core REST, and one session shared by every language.
final class LanguageTests: XCTestCase {
    var server: FakeDrupalServer { FakeDrupalServer.extended }

    override func setUp() async throws {
        try server.reset()
    }

    func admin() throws -> DrupalClient {
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .basic(user: "admin", password: "admin")
        return try DrupalClient.live(baseURL: server.baseURL, configuration: configuration)
    }

    static func title(_ response: DrupalResponse) throws -> String? {
        try response.json()["title"]?[0]?["value"]?.stringValue
    }

    func lastRequests() throws -> [JSONValue] {
        JSONValue.parse(try server.control("GET", "/__fake/requests"))?["requests"]?.arrayValue ?? []
    }

    func testFrenchReadsAndTheirFallback() async throws {
        let client = try DrupalClient.live(baseURL: server.baseURL)
        let french = try client.inLanguage("fr")
        let translated = try await french.get("node", "1")
        XCTAssertEqual(try Self.title(translated), "Article 1 FR")
        XCTAssertEqual(translated.langcode, "fr")
        let untranslated = try await french.get("node", "2")   // no translation: the original, no 404
        XCTAssertEqual(try Self.title(untranslated), "Article 2")
        XCTAssertEqual(untranslated.langcode, "en")
        let english = try await client.get("node", "1")
        XCTAssertEqual(english.langcode, "en")
        // Per call, and the call's own language wins over the client's ("" is the default language).
        let perCall = try await client.perform(.inLanguage("fr", .get(entityType: "node", id: "1")))
        XCTAssertEqual(try Self.title(try XCTUnwrap(perCall)), "Article 1 FR")
        let back = try await french.perform(.inLanguage("", .get(entityType: "node", id: "1")))
        XCTAssertEqual(back?.langcode, "en")
        let targets = try lastRequests().compactMap { $0["target"]?.stringValue }
        XCTAssertEqual(targets, ["/fr/node/1?_format=json", "/fr/node/2?_format=json", "/node/1?_format=json",
                                 "/fr/node/1?_format=json", "/node/1?_format=json"])
    }

    func testJSONAPIUnderThePrefix() async throws {
        let french = try DrupalClient.live(baseURL: server.baseURL).inLanguage("fr")
        let collection = try await french.request(DrupalRequest(
            method: "GET", path: "/jsonapi/node/article", query: [("filter[drupal_internal__nid]", "1")], format: nil))
        let document = try collection.json()
        XCTAssertEqual(document["data"]?[0]?["attributes"]?["title"]?.stringValue, "Article 1 FR")
        let link = try XCTUnwrap(document["links"]?["self"]?["href"]?.stringValue)
        XCTAssertTrue(link.contains("/fr/jsonapi/"), link)
        // A link that carries the prefix already is not prefixed twice.
        let again = try await french.request(DrupalRequest(method: "GET", path: link, format: nil))
        XCTAssertEqual(again.status, 200)
        let uuid = try XCTUnwrap(document["data"]?[0]?["id"]?.stringValue)
        let individual = try await french.request(DrupalRequest(method: "GET", path: "/jsonapi/node/article/" + uuid,
                                                                format: nil))
        XCTAssertEqual(individual.langcode, "fr")
        XCTAssertEqual(LanguagePrefix.apply("fr", to: "/"), "/fr")
        XCTAssertEqual(LanguagePrefix.apply("fr", to: "/fr"), "/fr")
        XCTAssertEqual(LanguagePrefix.apply("fr", to: "/fra/x"), "/fr/fra/x")
    }

    func testUpdatingAnExistingTranslationLeavesTheOriginal() async throws {
        let client = try admin()
        let body = Data(#"{"type":[{"target_id":"article"}],"title":[{"value":"Article 1 FR (modifié)"}]}"#.utf8)
        let updated = try await client.inLanguage("fr").update("node", "1", body)
        XCTAssertEqual(try Self.title(updated), "Article 1 FR (modifié)")
        XCTAssertEqual(updated.langcode, "fr")
        let english = try await client.get("node", "1")
        XCTAssertEqual(try Self.title(english), "Article 1")
        let methods = try lastRequests().compactMap { $0["method"]?.stringValue }
        XCTAssertEqual(methods, ["GET", "PATCH", "GET"])   // the guard's GET, then the PATCH
    }

    func testAnUpdateOfAnUntranslatedEntityIsRefusedUnlessForced() async throws {
        let client = try admin()
        let body = Data(#"{"type":[{"target_id":"article"}],"langcode":[{"value":"fr"}],"title":[{"value":"Devenu français"}]}"#.utf8)
        do {
            _ = try await client.inLanguage("fr").update("node", "2", body)
            XCTFail("expected the guard")
        } catch let error as DrupalError {
            XCTAssertEqual(error.code, .state)
            XCTAssertTrue(error.message.contains("has no fr translation"), error.message)
        }
        XCTAssertEqual(try lastRequests().compactMap { $0["method"]?.stringValue }, ["GET"])
        let unchanged = try await client.get("node", "2")
        XCTAssertEqual(try Self.title(unchanged), "Article 2")
        // Forced, Drupal does what 82g recorded: the original changes its language.
        let forced = try await client.inLanguage("fr", force: true).update("node", "2", body)
        XCTAssertEqual(forced.langcode, "fr")
        let original = try await client.get("node", "2")
        XCTAssertEqual(original.langcode, "fr")
    }

    func testADeleteUnderAPrefixIsRefusedUnlessForced() async throws {
        let client = try admin()
        do {
            _ = try await client.inLanguage("fr").delete("node", "1")
            XCTFail("expected the guard")
        } catch let error as DrupalError {
            XCTAssertEqual(error.code, .state)
            XCTAssertTrue(error.message.contains("deletes the whole node"), error.message)
        }
        XCTAssertTrue(try lastRequests().isEmpty)
        _ = try await client.inLanguage("fr", force: true).delete("node", "1")   // 85: the whole node
        do {
            _ = try await client.get("node", "1")
            XCTFail("expected a 404")
        } catch let error as DrupalError {
            XCTAssertEqual(error.status, 404)
        }
    }

    func testOneSessionForEveryLanguage() async throws {
        let client = try DrupalClient.live(baseURL: server.baseURL)
        _ = try await client.login("admin", "admin")
        let french = try client.inLanguage("fr")
        XCTAssertTrue(french.hasSession())
        let body = Data(#"{"type":[{"target_id":"article"}],"title":[{"value":"Session FR"}]}"#.utf8)
        let updated = try await french.update("node", "1", body)   // the same cookie and CSRF token
        XCTAssertEqual(try Self.title(updated), "Session FR")
        let logins = try lastRequests().filter { $0["target"]?.stringValue?.hasPrefix("/user/login") == true }
        XCTAssertEqual(logins.count, 1)
    }

    /// The header promises the session endpoints without the prefix: login and login_status
    /// went under it (/fr/user/login), unlike /session/token and /user/logout.
    func testASessionMadeThroughALanguageViewUsesNoPrefix() async throws {
        let french = try DrupalClient.live(baseURL: server.baseURL).inLanguage("fr")
        _ = try server.control("POST", "/__fake/reset")
        _ = try await french.login("admin", "admin")
        _ = try await french.loginStatus()
        _ = try await french.logout()
        // Paths only: the logout's query holds its token.
        let targets = try lastRequests().compactMap { $0["target"]?.stringValue?.split(separator: "?").first }
            .filter { $0.contains("/user/") || $0.contains("/session/") }
        XCTAssertFalse(targets.isEmpty)
        XCTAssertFalse(targets.contains { $0.hasPrefix("/fr/") }, "\(targets)")
    }

    /// Regression: with a base URL that ends in a language prefix, a file's URL (which has
    /// none) was "not under the site's base URL", by file entity and as an absolute URL.
    func testABaseURLWithALanguagePrefixDownloadsFiles() async throws {
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .basic(user: "admin", password: "admin")
        let french = try DrupalClient.live(baseURL: server.baseURL + "/fr", configuration: configuration)
        let bytes = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0) })
        let file = try await french.uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                          filename: "p.png", data: bytes)).json()
        let fid = try XCTUnwrap(file["fid"]?[0]?["value"]?.idString)
        let url = try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
        XCTAssertFalse(url.hasPrefix("/fr/"), url)
        for source in [FileDownload.Source.fileEntity(fid), .url(server.baseURL + url)] {
            let received = Mutex(Data())
            _ = try await french.download(FileDownload(source, to: .sink({ chunk in
                received.withLock { $0.append(contentsOf: chunk) }
                return true
            })))
            XCTAssertEqual(received.withLock { $0 }, bytes, "\(source)")
        }
        let elsewhere = await expectError {
            try await french.download(FileDownload(.url("http://elsewhere.invalid" + url), to: .sink({ _ in true })))
        }
        XCTAssertEqual(elsewhere?.code, .invalidArgument)
    }

    /// A prefix need not be its langcode (Brazilian Portuguese "pt-br" at /br): the guard read
    /// the translation served under /br as "no br translation" and refused every update of it.
    /// Drupal names the language it negotiated in Content-Language (recordings 80, 80c): the
    /// entity must be in that one; a fallback to another translation is not.
    func testAnUpdateUnderAPrefixThatIsNotItsLangcodeIsAllowedForATranslation() async throws {
        let site = MockDrupal()
        func stub(_ method: String, _ path: String, negotiated: String, langcode: String) {
            let node = JSONValue.object(["nid": .array([.object(["value": .number(1)])]),
                                         "langcode": .array([.object(["value": .string(langcode)])]),
                                         "default_langcode": .array([.object(["value": .bool(false)])])])
            site.stub(method: method, path: path, status: 200,
                      headers: HTTPHeaders([("Content-Type", "application/json"), ("Content-Language", negotiated)]),
                      body: node.encoded())
        }
        stub("GET", "/br/node/1", negotiated: "pt-br", langcode: "pt-br")
        stub("PATCH", "/br/node/1", negotiated: "pt-br", langcode: "pt-br")
        // No French translation: Drupal falls back to another one (English, of a German original).
        stub("GET", "/fr/node/1", negotiated: "fr", langcode: "en")
        let client = DrupalClient.mock(site)
        let body = Data(#"{"type":[{"target_id":"article"}],"title":[{"value":"Título"}]}"#.utf8)
        let updated = try await client.inLanguage("br").update("node", "1", body)
        XCTAssertEqual(updated.status, 200)
        let refused = await expectError { try await client.inLanguage("fr").update("node", "1", body) }
        XCTAssertEqual(refused?.code, .state)
    }

    func testLanguagesThatAreNotPrefixesAreRefused() throws {
        let client = try DrupalClient.live(baseURL: server.baseURL)
        for bad in ["../x", "f r", "fr/", "fr?x", String(repeating: "a", count: 65), "fr\r\n"] {
            XCTAssertThrowsError(try client.inLanguage(bad)) { XCTAssertEqual(($0 as? DrupalError)?.code, .invalidArgument) }
            XCTAssertThrowsError(try client.start(.inLanguage(bad, .get(entityType: "node", id: "1"))) { _ in })
        }
        XCTAssertNoThrow(try client.inLanguage(nil))
        XCTAssertNoThrow(try client.inLanguage("pt-br"))
    }
}

/// JSON:API calls under a language (81-83e): translations read, Drupal's refusal to write a
/// missing translation surfaced as it answered, and French links.next followed once prefixed.
extension LanguageTests {
    private var article: JSONAPIResourceType { get throws { try JSONAPIResourceType("node--article") } }

    private func uuid(nid: Int) async throws -> String {
        let client = try DrupalClient.live(baseURL: server.baseURL)
        var query = JSONAPIQuery()
        try query.filter("drupal_internal__nid", "\(nid)")
        let collection = try await client.jsonAPICollection(try article, query: query)
        return try XCTUnwrap(collection.resources.first?.id)
    }

    func testJSONAPIGetOfATranslation() async throws {
        let one = try await uuid(nid: 1), two = try await uuid(nid: 2)
        let french = try DrupalClient.live(baseURL: server.baseURL).inLanguage("fr")
        let translated = try await french.jsonAPIGet(try article, id: one)
        XCTAssertEqual(translated.resource?["title"]?.stringValue, "Article 1 FR")
        XCTAssertEqual(translated.resource?["langcode"]?.stringValue, "fr")
        let response = try await french.jsonAPI(.get(try article, id: one))
        XCTAssertEqual(response.langcode, "fr")
        XCTAssertEqual(response.headers["Content-language"], "fr")
        // No translation: Drupal answers the original (81d), no error.
        let untranslated = try await french.jsonAPIGet(try article, id: two)
        XCTAssertEqual(untranslated.resource?["title"]?.stringValue, "Article 2")
        XCTAssertEqual(untranslated.resource?["langcode"]?.stringValue, "en")
    }

    func testJSONAPIWritesOfAMissingTranslationGiveDrupalsError() async throws {
        let two = try await uuid(nid: 2), one = try await uuid(nid: 1)
        let french = try admin().inLanguage("fr")
        let patch = try JSONBody(Data(#"{"data": {"type": "node--article", "id": "\#(two)", "attributes": {"title": "Article 2 FR"}}}"#.utf8))
        do {
            _ = try await french.jsonAPIUpdate(try article, id: two, document: patch)
            XCTFail("expected Drupal's 405")
        } catch let error as DrupalError {
            XCTAssertEqual(error.status, 405)
            XCTAssertTrue(error.message.contains("The requested translation of the resource object does not exist, "
                                                 + "instead modify one of the translations that do exist: en."),
                          error.message)
            XCTAssertEqual(error.jsonAPIErrors.first?.status, "405")
            XCTAssertEqual(error.headers["Allow"], "GET")
        }
        do {
            _ = try await french.jsonAPIDelete(try article, id: one)
            XCTFail("expected Drupal's 405")
        } catch let error as DrupalError {
            XCTAssertEqual(error.status, 405)
            XCTAssertTrue(error.message.contains("Deleting a resource object translation is not yet supported."),
                          error.message)
        }
        // The English original is untouched.
        let english = try await admin().jsonAPIGet(try article, id: two)
        XCTAssertEqual(english.resource?["title"]?.stringValue, "Article 2")
    }

    func testFrenchLinksNextAreNotPrefixedTwice() async throws {
        let french = try DrupalClient.live(baseURL: server.baseURL).inLanguage("fr")
        var query = JSONAPIQuery()
        try query.sort("drupal_internal__nid")
        try query.pageLimit(2)
        let first = try await french.jsonAPICollection(try article, query: query)
        let next = try XCTUnwrap(first.next)
        XCTAssertTrue(next.contains("/fr/jsonapi/node/article"), next)
        let second = try JSONAPIDocument(try await french.jsonAPI(.follow(next)))
        XCTAssertEqual(second.resources.compactMap { $0["title"]?.stringValue }, ["Article 3", "Article 4"])
        // The pager follows the same links.
        var titles: [String] = []
        let pages = try french.jsonAPIPages(try article, query: query)
        while let page = try await pages.next() { titles += try JSONAPIDocument(page).resources.compactMap { $0["title"]?.stringValue } }
        XCTAssertEqual(titles, ["Article 1 FR", "Article 2", "Article 3", "Article 4", "Article 5"])
        let targets = try lastRequests().compactMap { $0["target"]?.stringValue }
        XCTAssertFalse(targets.isEmpty)
        XCTAssertTrue(targets.allSatisfy { $0.hasPrefix("/fr/jsonapi/") && !$0.hasPrefix("/fr/fr/") }, "\(targets)")
    }
}
