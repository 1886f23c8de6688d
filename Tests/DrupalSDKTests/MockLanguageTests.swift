import DrupalSDK
import Foundation
import XCTest

/// Languages on the mock (`addLanguage`, `addTranslation`): what a client's `inLanguage` reads and
/// writes, as drupal10-oauth-language-transcripts 80-85 record it and the fake's extended site
/// answers (the parity tour test_language_parity.py compares the two step by step).
final class MockLanguageTests: XCTestCase {
    private func json(_ text: String) -> Data { Data(text.utf8) }

    /// A seeded site with French at /fr and node 1 translated; node 2 is not.
    private func frenchSite() throws -> MockDrupal {
        let site = MockDrupal()
        for n in 1...2 {
            site.addEntity("node", .object(["type": .string("article"), "title": .string("Article \(n)"),
                                            "body": .string("<p>Body \(n)</p>")]))
        }
        try site.addLanguage("fr")
        try site.addTranslation("node", "1", language: "fr",
                                .object(["title": .string("Article 1 FR"), "body": .string("<p>Corps 1</p>")]))
        return site
    }

    private func admin(_ site: MockDrupal) -> DrupalClient {
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .basic(user: "admin", password: "admin")
        return DrupalClient.mock(site, configuration: configuration)
    }

    private func title(_ response: DrupalResponse) throws -> String? {
        try response.json()["title"]?[0]?["value"]?.stringValue
    }

    private func jsonapi(_ client: DrupalClient, _ method: String, _ path: String, _ body: String? = nil,
                         query: [(String, String)] = []) async throws -> DrupalResponse {
        var request = DrupalRequest(method: method, path: path, query: query, body: body.map { Data($0.utf8) },
                                    format: nil)
        if body != nil { request.headers.set("Content-Type", "application/vnd.api+json") }
        do {
            return try await client.request(request)
        } catch let error as DrupalError where error.status != nil {
            // A refusal: the answer it carries.
            return HTTPResponse(status: error.status ?? 0, headers: error.headers, body: error.body)
        }
    }

    func testFrenchReadsAndTheirFallback() async throws {
        let site = try frenchSite()
        let client = DrupalClient.mock(site)
        let french = try client.inLanguage("fr")
        let translated = try await french.get("node", "1")
        XCTAssertEqual(try title(translated), "Article 1 FR")
        XCTAssertEqual(translated.langcode, "fr")
        XCTAssertEqual(translated.headers["Content-Language"], "fr")
        let entity = try translated.json()
        XCTAssertEqual(entity["default_langcode"]?[0]?["value"], .bool(false))
        XCTAssertEqual(entity["content_translation_source"]?[0]?["value"], .string("en"))
        XCTAssertEqual(entity["body"]?[0]?["value"], .string("<p>Corps 1</p>"))
        XCTAssertEqual(entity["path"]?[0]?["langcode"], .string("fr"))
        // Shared fields are the original's; comment statistics belong to it alone (80).
        XCTAssertEqual(entity["nid"]?[0]?["value"], .number(1))
        XCTAssertEqual(entity["comment"]?[0]?["comment_count"], .null)
        let untranslated = try await french.get("node", "2")   // the original, no 404 (80c)
        XCTAssertEqual(try title(untranslated), "Article 2")
        XCTAssertEqual(untranslated.langcode, "en")
        XCTAssertEqual(untranslated.headers["Content-Language"], "fr")
        let english = try await client.get("node", "1")
        XCTAssertEqual(try title(english), "Article 1")
        XCTAssertEqual(english.headers["Content-Language"], "en")
        // A bundle with translation on shows content_translation's fields on its originals (80b).
        XCTAssertEqual(try english.json()["content_translation_source"]?[0]?["value"], .string("und"))
        // A prefix the site does not have is no language: no route.
        let unknown = await expectError { try await client.inLanguage("de").get("node", "1") }
        XCTAssertEqual(unknown?.status, 404)
    }

    func testCoreRESTWritesUnderThePrefix() async throws {
        let site = try frenchSite()
        let client = admin(site)
        let french = try client.inLanguage("fr", force: true)
        // An existing translation is edited; the original is untouched (82, 82b).
        let updated = try await french.update("node", "1", json(#"{"type":"article","title":[{"value":"FR (modifié)"}]}"#))
        XCTAssertEqual(try title(updated), "FR (modifié)")
        XCTAssertEqual(updated.langcode, "fr")
        let englishAfter = try await client.get("node", "1"), frenchAfter = try await french.get("node", "1")
        XCTAssertEqual(try title(englishAfter), "Article 1")
        XCTAssertEqual(try title(frenchAfter), "FR (modifié)")
        // On an entity without one, the original is edited: its language changes (82g, 82h).
        _ = try await french.update("node", "2", json(#"{"type":"article","langcode":[{"value":"fr"}]}"#))
        let original = try await client.get("node", "2")
        XCTAssertEqual(original.langcode, "fr")
        XCTAssertEqual(try original.json()["default_langcode"]?[0]?["value"], .bool(true))
        // POST makes a new entity in the default language, at a URL without the prefix (82c).
        let created = try await french.create("node", json(#"{"type":"article","title":[{"value":"Nouveau"}]}"#))
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(created.langcode, "en")
        XCTAssertEqual(created.headers["Location"], "http://drupal.mock/node/3")
        // Nor is a translation made by POSTing the node's uuid: the storage's duplicate key, a 500 (82e).
        let uuid = try await client.get("node", "1").json()["uuid"]?[0]?["value"]?.stringValue ?? ""
        let duplicate = await expectError {
            try await french.create("node", self.json(#"{"type":"article","uuid":[{"value":"\#(uuid)"}],"title":[{"value":"X"}]}"#))
        }
        XCTAssertEqual(duplicate?.status, 500)
        XCTAssertNil(site.entity("node", "4"))
        // DELETE under the prefix deletes the whole entity, translations too (85).
        _ = try await french.delete("node", "1")
        let gone = await expectError { try await client.get("node", "1") }
        XCTAssertEqual(gone?.status, 404)
    }

    func testJSONAPIUnderThePrefix() async throws {
        let site = try frenchSite()
        let client = admin(site)
        let french = try client.inLanguage("fr")
        let collection = try await jsonapi(french, "GET", "/jsonapi/node/article", query: [("sort", "drupal_internal__nid")])
        let document = try collection.json()
        XCTAssertEqual(document["data"]?[0]?["attributes"]?["title"], .string("Article 1 FR"))
        XCTAssertEqual(document["data"]?[1]?["attributes"]?["langcode"], .string("en"))   // 81d
        let links = [document["links"]?["self"]?["href"], document["data"]?[0]?["links"]?["self"]?["href"]]
        for link in links.map({ $0?.stringValue ?? "" }) {
            XCTAssertTrue(link.hasPrefix("http://drupal.mock/fr/jsonapi/"), link)   // 81
        }
        // A filter matches an entity when one of its translations does, shown in the request's
        // language: French content listed by its langcode, in English without the prefix.
        for (client, expected) in [(french, "Article 1 FR"), (client, "Article 1")] {
            let byLanguage = try await jsonapi(client, "GET", "/jsonapi/node/article", query: [("filter[langcode]", "fr")])
            let titles = try byLanguage.json()["data"]?.arrayValue?.compactMap { $0["attributes"]?["title"]?.stringValue }
            XCTAssertEqual(titles, [expected])
        }
        let uuid = try XCTUnwrap(document["data"]?[0]?["id"]?.stringValue)
        let untranslatedUUID = try XCTUnwrap(document["data"]?[1]?["id"]?.stringValue)
        // A translation is edited (83b)...
        let patched = try await jsonapi(french, "PATCH", "/jsonapi/node/article/" + uuid, #"""
            {"data": {"type": "node--article", "id": "\#(uuid)", "attributes": {"title": "JSON:API FR"}}}
            """#)
        XCTAssertEqual(patched.status, 200)
        XCTAssertEqual(try patched.json()["data"]?["attributes"]?["title"], .string("JSON:API FR"))
        let english = try await client.get("node", "1")
        XCTAssertEqual(try title(english), "Article 1")
        // ...but not made (83), nor deleted (83c): 405s that allow GET.
        let refused = try await jsonapi(french, "PATCH", "/jsonapi/node/article/" + untranslatedUUID, #"""
            {"data": {"type": "node--article", "id": "\#(untranslatedUUID)", "attributes": {"title": "X"}}}
            """#)
        XCTAssertEqual(refused.status, 405)
        XCTAssertEqual(refused.headers["Allow"], "GET")
        XCTAssertEqual(try refused.json()["errors"]?[0]?["detail"], .string(
            "The requested translation of the resource object does not exist, instead modify one of the "
            + "translations that do exist: en."))
        // The check comes when {entity} is converted: before access (anonymous), and on the
        // relationship routes' PATCH.
        let anonymous = try await jsonapi(try DrupalClient.mock(site).inLanguage("fr"), "PATCH",
                                          "/jsonapi/node/article/" + untranslatedUUID, #"""
            {"data": {"type": "node--article", "id": "\#(untranslatedUUID)", "attributes": {"title": "X"}}}
            """#)
        XCTAssertEqual(anonymous.status, 405)
        let relationship = try await jsonapi(french, "PATCH",
                                             "/jsonapi/node/article/\(untranslatedUUID)/relationships/field_tags",
                                             #"{"data": []}"#)
        XCTAssertEqual(relationship.status, 405)
        let deleted = try await jsonapi(french, "DELETE", "/jsonapi/node/article/" + uuid)
        XCTAssertEqual(deleted.status, 405)
        XCTAssertEqual(try deleted.json()["errors"]?[0]?["detail"], .string(
            "Deleting a resource object translation is not yet supported. See "
            + "https://www.drupal.org/docs/8/modules/jsonapi/translations."))
        // POST makes a new entity in the language sent, which the site now has (83d).
        let created = try await jsonapi(french, "POST", "/jsonapi/node/article", #"""
            {"data": {"type": "node--article", "attributes": {"title": "Nouvel article", "langcode": "fr"}}}
            """#)
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(try created.json()["data"]?["attributes"]?["langcode"], .string("fr"))
        XCTAssertTrue(created.headers["Location"]?.hasPrefix("http://drupal.mock/fr/jsonapi/") == true)
        let badLanguage = try await jsonapi(client, "POST", "/jsonapi/node/article", #"""
            {"data": {"type": "node--article", "attributes": {"title": "Neu", "langcode": "de"}}}
            """#)
        XCTAssertEqual(badLanguage.status, 422)
    }

    /// JSON:API's entity converter: a PATCH only of the translation in the request's language, a
    /// DELETE only of a default translation in it; entities of bundles without translation are
    /// not checked. A French original is written under /fr and refused without a prefix (the
    /// mock refused only under a prefix, and every bundle there).
    func testJSONAPIWritesOnlyTheTranslationInTheRequestLanguage() async throws {
        let site = try frenchSite()
        let client = admin(site)
        let french = try client.inLanguage("fr")
        func patch(_ client: DrupalClient, _ bundle: String, _ uuid: String) async throws -> Int {
            try await jsonapi(client, "PATCH", "/jsonapi/node/\(bundle)/\(uuid)", #"""
                {"data": {"type": "node--\#(bundle)", "id": "\#(uuid)", "attributes": {"title": "changed"}}}
                """#).status
        }
        let created = try await jsonapi(french, "POST", "/jsonapi/node/article", #"""
            {"data": {"type": "node--article", "attributes": {"title": "Français", "langcode": "fr"}}}
            """#)
        let uuid = try XCTUnwrap(try created.json()["data"]?["id"]?.stringValue)
        let refused = try await jsonapi(client, "PATCH", "/jsonapi/node/article/" + uuid, #"""
            {"data": {"type": "node--article", "id": "\#(uuid)", "attributes": {"title": "changed"}}}
            """#)
        XCTAssertEqual(refused.status, 405)
        XCTAssertEqual(try refused.json()["errors"]?[0]?["detail"], .string(
            "The requested translation of the resource object does not exist, instead modify one of the "
            + "translations that do exist: fr."))
        let deletedInEnglish = try await jsonapi(client, "DELETE", "/jsonapi/node/article/" + uuid)
        XCTAssertEqual(deletedInEnglish.status, 405)
        let patchedInFrench = try await patch(french, "article", uuid)
        XCTAssertEqual(patchedInFrench, 200)
        let deletedInFrench = try await jsonapi(french, "DELETE", "/jsonapi/node/article/" + uuid)
        XCTAssertEqual(deletedInFrench.status, 204)
        let page = try await jsonapi(client, "POST", "/jsonapi/node/page", #"""
            {"data": {"type": "node--page", "attributes": {"title": "Page"}}}
            """#)
        let pageUUID = try XCTUnwrap(try page.json()["data"]?["id"]?.stringValue)
        let pagePatched = try await patch(french, "page", pageUUID)
        XCTAssertEqual(pagePatched, 200)
        let pageDeleted = try await jsonapi(french, "DELETE", "/jsonapi/node/page/" + pageUUID)
        XCTAssertEqual(pageDeleted.status, 204)
    }

    /// Relationship writes and file uploads under the prefix change shared fields: the original's
    /// own fields stay its own. They stored the French view over the original (its title French).
    func testSharedFieldWritesUnderThePrefixLeaveTheOriginal() async throws {
        let site = try frenchSite()
        site.addEntity("taxonomy_term", .object(["vid": .string("tags"), "name": .string("alpha")]))
        let client = admin(site)
        let french = try client.inLanguage("fr")
        let node = try await jsonapi(french, "GET", "/jsonapi/node/article", query: [("filter[drupal_internal__nid]", "1")])
        let uuid = try XCTUnwrap(try node.json()["data"]?[0]?["id"]?.stringValue)
        let terms = try await jsonapi(client, "GET", "/jsonapi/taxonomy_term/tags")
        let term = try XCTUnwrap(try terms.json()["data"]?[0]?["id"]?.stringValue)
        let linked = try await jsonapi(french, "PATCH", "/jsonapi/node/article/\(uuid)/relationships/field_tags", #"""
            {"data": [{"type": "taxonomy_term--tags", "id": "\#(term)"}]}
            """#)
        XCTAssertEqual(linked.status, 204)
        var upload = DrupalRequest(method: "POST", path: "/jsonapi/node/article/\(uuid)/field_image",
                                   body: Data([0x89, 0x50, 0x4E, 0x47]), format: nil)
        upload.headers.set("Content-Type", "application/octet-stream")
        upload.headers.set("Content-Disposition", #"file; filename="a.png""#)
        let uploaded = try await french.request(upload)
        XCTAssertEqual(uploaded.status, 200)
        let english = try await client.get("node", "1").json()
        XCTAssertEqual(english["title"]?[0]?["value"], .string("Article 1"))
        XCTAssertEqual(english["langcode"]?[0]?["value"], .string("en"))
        XCTAssertEqual(english["field_tags"]?[0]?["target_id"], .number(1))
        XCTAssertEqual(english["field_image"]?.arrayValue?.count, 1)
        let translation = try await french.get("node", "1").json()
        XCTAssertEqual(translation["title"]?[0]?["value"], .string("Article 1 FR"))
    }

    func testPathsAndAliasesInALanguage() async throws {
        let site = try frenchSite()
        let client = admin(site)
        // decoupled_router takes the prefix off and answers the original at its own URL (84b).
        let resolved = try await DrupalClient.mock(site).resolvePath("/fr/node/1")   // Basic is refused there
        XCTAssertEqual(resolved.resolved, "http://drupal.mock/node/1")
        XCTAssertEqual(resolved.label, "Article 1")
        // An alias of the French translation routes under /fr only.
        let french = try client.inLanguage("fr", force: true)
        _ = try await french.update("node", "1", json(#"{"type":"article","path":[{"alias":"/bonjour"}]}"#))
        let aliased = try await client.request(DrupalRequest(method: "GET", path: "/fr/bonjour"))
        XCTAssertEqual(try title(aliased), "Article 1 FR")
        let english = await expectError { try await client.request(DrupalRequest(method: "GET", path: "/bonjour")) }
        XCTAssertEqual(english?.status, 404)
        let frenchPath = try await french.get("node", "1").json()["path"]
        let englishPath = try await client.get("node", "1").json()["path"]
        XCTAssertEqual(frenchPath?[0]?["alias"], .string("/bonjour"))
        XCTAssertEqual(englishPath?[0]?["alias"], .null)
    }

    /// A translation seeded with a path gets its alias in its language, as a save makes it; and a
    /// term translates as a node does (its name).
    func testSeededTranslationsOfOtherFieldsAndTypes() async throws {
        let site = try frenchSite()
        try site.addTranslation("node", "2", language: "fr",
                                .object(["title": .string("Article 2 FR"), "path": .array([.object(["alias": .string("/deux")])])]))
        let tid = site.addEntity("taxonomy_term", .object(["vid": .string("tags"), "name": .string("alpha")]))
        try site.addTranslation("taxonomy_term", tid, language: "fr", .object(["name": .string("alpha FR")]))
        let client = DrupalClient.mock(site)
        let aliased = try await client.request(DrupalRequest(method: "GET", path: "/fr/deux"))
        XCTAssertEqual(try title(aliased), "Article 2 FR")
        let term = try await client.inLanguage("fr").get("taxonomy_term", tid).json()
        XCTAssertEqual(term["name"]?[0]?["value"], .string("alpha FR"))
        XCTAssertEqual(term["langcode"]?[0]?["value"], .string("fr"))
        let english = try await client.get("taxonomy_term", tid).json()
        XCTAssertEqual(english["name"]?[0]?["value"], .string("alpha"))
    }

    func testASiteWithoutTheLanguageRefusesItsTranslations() throws {
        let site = MockDrupal()
        let nid = site.addEntity("node", .object(["type": .string("article"), "title": .string("A")]))
        XCTAssertThrowsError(try site.addTranslation("node", nid, language: "fr", .object([:]))) {
            XCTAssertEqual(($0 as? DrupalError)?.code, .invalidArgument)
        }
        try site.addLanguage("pt-br", prefix: "br")
        XCTAssertThrowsError(try site.addTranslation("node", "99", language: "pt-br", .object([:]))) {
            XCTAssertEqual(($0 as? DrupalError)?.code, .notFound)
        }
        for bad in ["en", "", "f r", "fr/x"] {
            XCTAssertThrowsError(try site.addLanguage(bad), bad) { XCTAssertEqual(($0 as? DrupalError)?.code, .invalidArgument) }
        }
        XCTAssertThrowsError(try site.addLanguage("de", prefix: "a/b"))
    }

    /// A prefix need not be the langcode: Brazilian Portuguese at /br answers "pt-br".
    func testAPrefixThatIsNotItsLangcode() async throws {
        let site = MockDrupal()
        site.addEntity("node", .object(["type": .string("article"), "title": .string("Article")]))
        try site.addLanguage("pt-br", prefix: "br")
        try site.addTranslation("node", "1", language: "pt-br", .object(["title": .string("Artigo")]))
        let client = admin(site)
        let read = try await client.inLanguage("br").get("node", "1")
        XCTAssertEqual(read.headers["Content-Language"], "pt-br")
        XCTAssertEqual(read.langcode, "pt-br")
        let updated = try await client.inLanguage("br").update("node", "1", json(#"{"type":"article","title":[{"value":"Artigo 2"}]}"#))
        XCTAssertEqual(try title(updated), "Artigo 2")
    }
}
