import DrupalSDK
import Foundation
import Synchronization
import XCTest

/// The mock client runs the live protocol code against the in-memory Drupal, so these tests check
/// both the mock's answers (as recorded from Drupal 10) and the client's handling of them.
final class MockClientTests: XCTestCase {
    // MARK: Helpers

    private func json(_ text: String) -> Data { Data(text.utf8) }

    private func article(_ title: String) -> Data {
        json(#"{"type": [{"target_id": "article"}], "title": [{"value": "\#(title)"}], "#
             + #""body": [{"value": "<p>\#(title) body</p>", "format": "basic_html"}]}"#)
    }

    private func loggedInAdmin(_ site: MockDrupal = MockDrupal()) async throws -> DrupalClient {
        let client = DrupalClient.mock(site)
        _ = try await client.login("admin", "admin")
        return client
    }

    /// Records a client's events for later assertions.
    private final class EventLog: Sendable {
        private let events = Mutex<[DrupalEvent]>([])
        func append(_ event: DrupalEvent) { events.withLock { $0.append(event) } }
        var all: [DrupalEvent] { events.withLock { $0 } }
        var started: [String] {
            all.compactMap { if case .requestStarted(let method, let path) = $0 { return "\(method) \(path)" } else { return nil } }
        }
        var finishedStatuses: [Int?] {
            all.compactMap { if case .requestFinished(_, _, let status, _) = $0 { return status } else { return nil } }
        }
    }

    private func observe(_ client: DrupalClient) -> EventLog {
        let log = EventLog()
        _ = client.addObserver { log.append($0) }
        return log
    }

    // MARK: Login, status, logout

    func testLoginAsAdminReturnsUserTokensAndRoles() async throws {
        let client = DrupalClient.mock()
        let result = try await client.login("admin", "admin")
        XCTAssertEqual(result.user, CurrentUser(uid: "1", name: "admin", roles: ["authenticated", "administrator"]))
        XCTAssertEqual(result.csrfToken.count, 43)
        XCTAssertEqual(result.logoutToken.count, 43)
        XCTAssertNotEqual(result.csrfToken, result.logoutToken)
        XCTAssertEqual(client.currentUser(), result.user)
        let csrf = client.csrfToken()
        XCTAssertEqual(csrf, result.csrfToken)
    }

    func testLoginAsEditorHidesRoles() async throws {
        let result = try await DrupalClient.mock().login("editor", "editor")
        XCTAssertEqual(result.user.uid, "2")
        XCTAssertEqual(result.user.name, "editor")
        XCTAssertNil(result.user.roles)
    }

    func testLoginWithBadPasswordIs400() async throws {
        let client = DrupalClient.mock()
        let error = await drupalError { _ = try await client.login("admin", "wrong-password") }
        XCTAssertEqual(error?.code, .http)
        XCTAssertEqual(error?.status, 400)
        XCTAssertEqual(error?.message, "Sorry, unrecognized username or password.")
        XCTAssertNil(client.currentUser())
        let unknown = await drupalError { _ = try await client.login("nobody", "admin") }
        XCTAssertEqual(unknown?.status, 400)
    }

    func testLoginWithMissingCredentials() async throws {
        let client = DrupalClient.mock()
        let cases = [("{}", "Missing credentials."), (#"{"pass": "x"}"#, "Missing credentials.name."),
                     (#"{"name": "admin"}"#, "Missing credentials.pass.")]
        for (body, message) in cases {
            let request = DrupalRequest(method: "POST", path: "/user/login", body: json(body), sendsCSRFToken: false)
            let error = await drupalError { _ = try await client.request(request) }
            XCTAssertEqual(error?.status, 400, body)
            XCTAssertEqual(error?.message, message, body)
        }
    }

    func testLoginWhileLoggedInIs403AndSetsASessionCookie() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        // A raw login keeps the client's cookie, so Drupal sees a logged-in session.
        let request = DrupalRequest(method: "POST", path: "/user/login", body: json(#"{"name":"admin","pass":"admin"}"#),
                                    sendsCSRFToken: false)
        let error = await drupalError { _ = try await client.request(request) }
        XCTAssertEqual(error?.status, 403)
        XCTAssertEqual(error?.message, "This route can only be accessed by anonymous users.")

        let raw = site.respond(to: HTTPRequest(method: "POST", url: "http://drupal.mock/user/login?_format=json",
                                               headers: HTTPHeaders([("Content-Type", "application/json")]),
                                               body: json(#"{"name":"editor","pass":"editor"}"#)))
        XCTAssertEqual(raw.status, 200)
        let cookie = try XCTUnwrap(raw.headers["Set-Cookie"])
        XCTAssertTrue(cookie.hasPrefix("SESS"))
        XCTAssertEqual(cookie.split(separator: "=").first?.count, 36)
        XCTAssertTrue(cookie.hasSuffix("; path=/; HttpOnly; SameSite=Lax"))
    }

    func testLoginStatusFollowsTheSession() async throws {
        let client = DrupalClient.mock()
        let before = try await client.loginStatus().loggedIn
        XCTAssertFalse(before)
        _ = try await client.login("editor", "editor")
        let during = try await client.loginStatus().loggedIn
        XCTAssertTrue(during)
        try await client.logout()
        let after = try await client.loginStatus().loggedIn
        XCTAssertFalse(after)
    }

    func testLogoutEndsTheSessionAndNeedsAValidToken() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let missing = await drupalError {
            _ = try await client.request(DrupalRequest(method: "POST", path: "/user/logout", sendsCSRFToken: false))
        }
        XCTAssertEqual(missing?.status, 403)
        XCTAssertEqual(missing?.message, "'csrf_token' URL query argument is missing.")
        let invalid = await drupalError {
            _ = try await client.request(DrupalRequest(method: "POST", path: "/user/logout", query: [("token", "nope")],
                                                       sendsCSRFToken: false))
        }
        XCTAssertEqual(invalid?.message, "'csrf_token' URL query argument is invalid.")
        let stillIn = try await client.loginStatus().loggedIn
        XCTAssertTrue(stillIn)

        try await client.logout()
        XCTAssertNil(client.currentUser())
        let loggedIn = try await client.loginStatus().loggedIn
        XCTAssertFalse(loggedIn)
        let again = await drupalError { try await client.logout() }
        XCTAssertEqual(again?.code, .state)
    }

    func testLogoutAnswers204WithAnExpiredCookie() async throws {
        let site = MockDrupal()
        let login = site.respond(to: HTTPRequest(method: "POST", url: "http://drupal.mock/user/login?_format=json",
                                                 body: json(#"{"name":"admin","pass":"admin"}"#)))
        let setCookie = try XCTUnwrap(login.headers["Set-Cookie"])
        let cookie = String(setCookie.split(separator: ";")[0])
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: login.body) as? [String: Any])
        let token = try XCTUnwrap(answer["logout_token"] as? String)
        let logout = site.respond(to: HTTPRequest(method: "POST", url: "http://drupal.mock/user/logout?_format=json&token=\(token)",
                                                  headers: HTTPHeaders([("Cookie", cookie)])))
        XCTAssertEqual(logout.status, 204)
        XCTAssertTrue(logout.body.isEmpty)
        let name = cookie.split(separator: "=")[0]
        XCTAssertEqual(logout.headers["Set-Cookie"],
                       "\(name)=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly")
    }

    func testGetLogoutWithTheTokenIsTheHTMLRouteLikeRecording61() async throws {
        let site = MockDrupal()
        let login = site.respond(to: HTTPRequest(method: "POST", url: "http://drupal.mock/user/login?_format=json",
                                                 body: json(#"{"name":"editor","pass":"editor"}"#)))
        let cookie = String(try XCTUnwrap(login.headers["Set-Cookie"]).split(separator: ";")[0])
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: login.body) as? [String: Any])
        let token = try XCTUnwrap(answer["logout_token"] as? String)
        let logout = site.respond(to: HTTPRequest(method: "GET", url: "http://drupal.mock/user/logout?_format=json&token=\(token)",
                                                  headers: HTTPHeaders([("Cookie", cookie)])))
        XCTAssertEqual(logout.status, 302)
        XCTAssertEqual(logout.headers["Location"], "http://drupal.mock/?check_logged_in=1")
        XCTAssertEqual(logout.headers["Content-Type"], "text/html; charset=utf-8")
        XCTAssertTrue(logout.headers["Set-Cookie"]?.contains("=deleted; expires=Thu, 01 Jan 1970") ?? false)
        // 61b: the GET ended the session.
        let status = site.respond(to: HTTPRequest(method: "GET", url: "http://drupal.mock/user/login_status?_format=json",
                                                  headers: HTTPHeaders([("Cookie", cookie)])))
        XCTAssertEqual(String(decoding: status.body, as: UTF8.self), "0")
    }

    // MARK: CSRF

    func testCreateFetchesTheCSRFTokenWhenNoneIsHeld() async throws {
        let client = DrupalClient.mock()
        let log = observe(client)
        // A raw login stores the session cookie but not the token, so the client must fetch it.
        _ = try await client.request(DrupalRequest(method: "POST", path: "/user/login",
                                                   body: json(#"{"name":"admin","pass":"admin"}"#), sendsCSRFToken: false))
        let created = try await client.create("node", article("Fetched"))
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(log.started, ["POST /user/login", "GET /session/token", "POST /node"])
        XCTAssertEqual(log.finishedStatuses, [200, 200, 201])
    }

    func testStaleCSRFTokenIsRefreshedAndTheRequestRetriedOnce() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let oldToken = client.csrfToken()
        site.invalidateCSRFTokens()
        let log = observe(client)
        let created = try await client.create("node", article("Retried"))
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(log.started, ["POST /node", "GET /session/token", "POST /node"])
        XCTAssertEqual(log.finishedStatuses, [403, 200, 201])
        let newToken = client.csrfToken()
        XCTAssertNotEqual(newToken, oldToken)
    }

    func testCookieWriteWithoutOrWithWrongTokenIs403() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let noToken = await drupalError {
            _ = try await client.request(DrupalRequest(method: "POST", path: "/node", body: self.article("x"),
                                                       sendsCSRFToken: false))
        }
        XCTAssertEqual(noToken?.status, 403)
        XCTAssertEqual(noToken?.message, "X-CSRF-Token request header is missing")
        let wrong = await drupalError {
            _ = try await client.request(DrupalRequest(method: "POST", path: "/node",
                                                       headers: HTTPHeaders([("X-CSRF-Token", "not-the-token")]),
                                                       body: self.article("x"), sendsCSRFToken: false))
        }
        XCTAssertEqual(wrong?.message, "X-CSRF-Token request header is invalid")
        XCTAssertNil(site.entity("node", "1"))
    }

    // MARK: Entity CRUD

    func testNodeCRUD() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let created = try await client.create("node", article("First"))
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(created.headers["Location"], "http://drupal.mock/node/1")
        XCTAssertEqual(created.headers["Content-Type"], "application/json")
        let node = try created.json()
        XCTAssertEqual(node["nid"]?[0]?["value"], .number(1))
        XCTAssertEqual(node["title"]?[0]?["value"], .string("First"))
        XCTAssertEqual(node["type"]?[0]?["target_id"], .string("article"))
        XCTAssertEqual(node["status"]?[0]?["value"], .bool(true))
        XCTAssertEqual(node["uid"]?[0]?["target_id"], .number(1))
        XCTAssertEqual(node["body"]?[0]?["processed"], .string("<p>First body</p>"))
        XCTAssertEqual(node["uuid"]?[0]?["value"]?.stringValue?.count, 36)
        let createdAt = try XCTUnwrap(node["created"]?[0]?["value"]?.stringValue)
        XCTAssertTrue(createdAt.hasSuffix("+00:00") && createdAt.count == 25, createdAt)
        XCTAssertEqual(node["created"]?[0]?["format"], .string("Y-m-d\\TH:i:sP"))

        let second = try await client.create("node", article("Second")).json()
        XCTAssertEqual(second["nid"]?[0]?["value"], .number(2))

        // The comment module fills in the statistics after the save: the create answer has zeros,
        // a read the creation time and the owner (recordings 120, 123).
        let fetched = try await client.get("node", "1").json()
        XCTAssertEqual(node["comment"]?[0]?["last_comment_uid"], .number(0))
        let fetchedAt = try XCTUnwrap(fetched["comment"]?[0]?["last_comment_timestamp"]?.numberValue)
        XCTAssertGreaterThan(fetchedAt, 1_700_000_000)
        var expected = try XCTUnwrap(node.objectValue)
        var stats = try XCTUnwrap(expected["comment"]?[0]?.objectValue)
        stats["last_comment_uid"] = .number(1)
        stats["last_comment_timestamp"] = .number(fetchedAt)
        expected["comment"] = .array([.object(stats)])
        XCTAssertEqual(fetched, .object(expected))

        let updated = try await client.update("node", "1", json(#"{"type": "article", "title": [{"value": "Renamed"}]}"#))
        XCTAssertEqual(updated.status, 200)
        let renamed = try updated.json()
        XCTAssertEqual(renamed["title"]?[0]?["value"], .string("Renamed"))
        XCTAssertEqual(renamed["body"], node["body"], "PATCH keeps fields it was not given")
        XCTAssertEqual(site.entity("node", "1")?["title"]?[0]?["value"], .string("Renamed"))

        let deleted = try await client.delete("node", "1")
        XCTAssertEqual(deleted.status, 204)
        XCTAssertTrue(deleted.body.isEmpty)
        let gone = await drupalError { _ = try await client.get("node", "1") }
        XCTAssertEqual(gone?.status, 404)
        XCTAssertEqual(gone?.message, #"The "node" parameter was not converted for the path "/node/{node}" (route name: "rest.entity.node.GET")"#)
        let deletedAgain = await drupalError { _ = try await client.delete("node", "1") }
        XCTAssertEqual(deletedAgain?.message,
                       #"The "node" parameter was not converted for the path "/node/{node}" (route name: "rest.entity.node.DELETE")"#)
        XCTAssertNil(site.entity("node", "1"))
        XCTAssertNotNil(site.entity("node", "2"))
    }

    func testACreatedArticleHasEveryFieldLikeRecordings20And24b() async throws {
        let site = MockDrupal()
        let editor = DrupalClient.mock(site)
        _ = try await editor.login("editor", "editor")
        let node = try await editor.create("node", json(#"{"type": [{"target_id": "article"}], "title": [{"value": "Created by editor"}]}"#)).json()
        // Recording 24b's keys.
        XCTAssertEqual(Set(node.objectValue?.keys.map { $0 } ?? []),
                       ["nid", "uuid", "vid", "langcode", "type", "revision_timestamp", "revision_uid", "revision_log", "status",
                        "uid", "title", "created", "changed", "promote", "sticky", "default_langcode",
                        "revision_translation_affected", "path", "body", "comment", "field_image", "field_tags"])
        XCTAssertEqual(node["body"], .array([]))
        XCTAssertEqual(node["field_tags"], .array([]))
        XCTAssertEqual(node["field_image"], .array([]))
        XCTAssertEqual(node["revision_log"], .array([]))
        XCTAssertEqual(node["revision_uid"], node["uid"])
        XCTAssertEqual(node["revision_uid"]?[0]?["target_id"], .number(2))
        XCTAssertEqual(node["revision_timestamp"], node["created"])
        XCTAssertEqual(node["default_langcode"], .array([.object(["value": .bool(true)])]))
        XCTAssertEqual(node["revision_translation_affected"], .array([.object(["value": .bool(true)])]))
        XCTAssertEqual(node["path"], .array([.object(["alias": .null, "pid": .null, "langcode": .string("en")])]))
        XCTAssertEqual(node["comment"], .array([.object(["status": .number(2), "cid": .number(0), "last_comment_timestamp": .number(0),
                                                         "last_comment_name": .null, "last_comment_uid": .number(0),
                                                         "comment_count": .number(0)])]))
        // Recording 20: a body sent without a summary has a null one.
        let admin = try await loggedInAdmin(site)
        let withBody = try await admin.create("node", article("Body")).json()
        XCTAssertEqual(withBody["body"], .array([.object(["value": .string("<p>Body body</p>"), "format": .string("basic_html"),
                                                          "processed": .string("<p>Body body</p>"), "summary": .null])]))
    }

    func testCommentCRUD() async throws {
        let client = try await loggedInAdmin()
        _ = try await client.create("node", article("Host"))
        let body = json(#"{"entity_id": [{"target_id": 1}], "entity_type": [{"value": "node"}], "#
                        + #""comment_type": [{"target_id": "comment"}], "field_name": [{"value": "comment"}], "#
                        + #""subject": [{"value": "First comment"}], "comment_body": [{"value": "<p>Nice</p>", "format": "basic_html"}]}"#)
        let created = try await client.create("comment", body)
        XCTAssertEqual(created.headers["Location"], "http://drupal.mock/comment/1")
        XCTAssertEqual(try created.json()["cid"]?[0]?["value"], .number(1))
        let patch = json(#"{"comment_type": [{"target_id": "comment"}], "subject": [{"value": "Edited"}]}"#)
        let updated = try await client.update("comment", "1", patch).json()
        XCTAssertEqual(updated["subject"]?[0]?["value"], .string("Edited"))
        XCTAssertEqual(updated["comment_body"]?[0]?["value"], .string("<p>Nice</p>"))
        _ = try await client.delete("comment", "1")
        let gone = await drupalError { _ = try await client.get("comment", "1") }
        XCTAssertEqual(gone?.status, 404)
        XCTAssertEqual(gone?.message,
                       #"The "comment" parameter was not converted for the path "/comment/{comment}" (route name: "rest.entity.comment.GET")"#)
    }

    /// Drupal's Comment::preSave numbering (the fake server's test_comment_threads_number_as_drupal_does):
    /// alphadecimal ("09/", "0a/"), one past the highest after a delete, "02.00/" for a reply to "02/".
    func testCommentThreadsNumberAsDrupalDoes() async throws {
        let client = try await loggedInAdmin()
        _ = try await client.create("node", article("Host"))
        func post(_ extra: String = "") async throws -> [String: JSONValue] {
            let body = json(#"{"entity_id": [{"target_id": 1}], "entity_type": [{"value": "node"}], "#
                            + #""comment_type": [{"target_id": "comment"}], "field_name": [{"value": "comment"}], "#
                            + #""comment_body": [{"value": "hi"}]"# + extra + "}")
            guard case .object(let comment) = try await client.create("comment", body).json() else { throw DrupalError(.decode, "no object") }
            return comment
        }
        func thread(_ comment: [String: JSONValue]) -> JSONValue? { comment["thread"]?[0]?["value"] }
        var threads: [JSONValue?] = []
        for _ in 0..<11 {
            let comment = try await post()
            threads.append(thread(comment))
        }
        XCTAssertEqual(threads[8...].map { $0 }, [.string("09/"), .string("0a/"), .string("0b/")])
        _ = try await client.delete("comment", "1")
        let afterDelete = try await post()
        XCTAssertEqual(thread(afterDelete), .string("0c/"))
        let reply = try await post(#", "pid": [{"target_id": 2}]"#)
        XCTAssertEqual(thread(reply), .string("02.00/"))
        let secondReply = try await post(#", "pid": [{"target_id": 2}]"#)
        XCTAssertEqual(thread(secondReply), .string("02.01/"))
        let replyID = try XCTUnwrap(reply["cid"]?[0]?["value"]?.idString)
        let replyToReply = try await post(#", "pid": [{"target_id": \#(replyID)}]"#)
        XCTAssertEqual(thread(replyToReply), .string("02.00.00/"))
        let last = try await post()
        XCTAssertEqual(thread(last), .string("0d/"))
    }

    func testTaxonomyTermCRUD() async throws {
        let client = try await loggedInAdmin()
        let first = try await client.create("taxonomy_term", json(#"{"vid": [{"target_id": "tags"}], "name": [{"value": "alpha"}]}"#))
        let second = try await client.create("taxonomy_term", json(#"{"vid": "tags", "name": [{"value": "beta"}]}"#))
        XCTAssertEqual(first.headers["Location"], "http://drupal.mock/taxonomy/term/1")
        XCTAssertEqual(second.headers["Location"], "http://drupal.mock/taxonomy/term/2")
        let beta = try second.json()
        XCTAssertEqual(beta["tid"]?[0]?["value"], .number(2))
        XCTAssertEqual(beta["name"]?[0]?["value"], .string("beta"))
        XCTAssertEqual(beta["vid"]?[0]?["target_id"], .string("tags"))
        let missingVid = await drupalError { _ = try await client.update("taxonomy_term", "2", self.json(#"{"name": "x"}"#)) }
        XCTAssertEqual(missingVid?.status, 422)
        XCTAssertEqual(missingVid?.message, #"Could not determine entity type bundle: "vid" field is missing."#)
        let unknownVocabulary = await drupalError {
            _ = try await client.create("taxonomy_term", self.json(#"{"vid": "colours", "name": [{"value": "red"}]}"#))
        }
        XCTAssertEqual(unknownVocabulary?.message, #""colours" is not a valid bundle type for denormalization."#)
        _ = try await client.delete("taxonomy_term", "2")
        let gone = await drupalError { _ = try await client.get("taxonomy_term", "2") }
        XCTAssertEqual(gone?.status, 404)
        let stillThere = try await client.get("taxonomy_term", "1").json()
        XCTAssertEqual(stillThere["name"]?[0]?["value"], .string("alpha"))
    }

    func testACreatedTermHasTheFieldsOfRecording33() async throws {
        let client = try await loggedInAdmin()
        let term = try await client.create("taxonomy_term", json(#"{"vid": [{"target_id": "tags"}], "name": [{"value": "gamma"}]}"#)).json()
        XCTAssertEqual(Set(term.objectValue?.keys.map { $0 } ?? []),
                       ["tid", "uuid", "revision_id", "langcode", "vid", "revision_created", "revision_user",
                        "revision_log_message", "status", "name", "description", "weight", "parent", "changed",
                        "default_langcode", "revision_translation_affected", "path"])
        XCTAssertEqual(term["revision_id"], term["tid"])
        XCTAssertEqual(term["revision_created"], term["changed"])
        XCTAssertEqual(term["revision_user"], .array([]))
        XCTAssertEqual(term["revision_log_message"], .array([]))
        XCTAssertEqual(term["description"], .array([]))
        XCTAssertEqual(term["weight"], .array([.object(["value": .number(0)])]))
        XCTAssertEqual(term["parent"], .array([.object(["target_id": .null])]))
        XCTAssertEqual(term["path"], .array([.object(["alias": .null, "pid": .null, "langcode": .string("en")])]))
    }

    func testUserCRUDAndTheNewAccountCanLogIn() async throws {
        let client = try await loggedInAdmin()
        let body = json(#"{"name": [{"value": "carol"}], "mail": [{"value": "carol@example.com"}], "pass": [{"value": "pw1"}]}"#)
        let created = try await client.create("user", body)
        XCTAssertEqual(created.headers["Location"], "http://drupal.mock/user/3")
        let user = try created.json()
        XCTAssertEqual(user["uid"]?[0]?["value"], .number(3))
        XCTAssertNil(user["pass"], "the password is never sent back")
        let fetched = try await client.get("user", "3").json()
        XCTAssertEqual(fetched["name"]?[0]?["value"], .string("carol"))

        let carol = DrupalClient.mock(MockDrupal())
        let elsewhere = await drupalError { _ = try await carol.login("carol", "pw1") }
        XCTAssertEqual(elsewhere?.status, 400, "another site does not know carol")

        let readOnly = await drupalError { _ = try await client.update("user", "3", self.json(#"{"uid": [{"value": 9}]}"#)) }
        XCTAssertEqual(readOnly?.status, 403)
        XCTAssertEqual(readOnly?.message, "Access denied on updating field 'uid'. The entity ID cannot be changed.")

        _ = try await client.delete("user", "3")
        let gone = await drupalError { _ = try await client.get("user", "3") }
        XCTAssertEqual(gone?.status, 404)
        XCTAssertEqual(gone?.message, #"The "user" parameter was not converted for the path "/user/{user}" (route name: "rest.entity.user.GET")"#)
    }

    func testRegistrationAnswersAsRecordings50() async throws {
        let site = MockDrupal()
        let visitor = DrupalClient.mock(site)
        let registered = try await visitor.register(Registration(name: "newbie", mail: "newbie@example.com"))
        XCTAssertEqual(registered.status, 200)
        XCTAssertNil(registered.headers["Location"])
        XCTAssertEqual(registered.headers["Content-Type"], "application/json")
        let account = try registered.json()
        XCTAssertEqual(account["uid"]?[0]?["value"], .number(3))
        XCTAssertEqual(account["name"]?[0]?["value"], .string("newbie"))
        XCTAssertNil(account["mail"], "anonymous does not see the mail")
        XCTAssertNil(account["status"])
        XCTAssertNil(account["roles"])
        XCTAssertEqual(site.entity("user", "3")?["status"]?[0]?["value"], .bool(false), "awaits approval")
        let blocked = await drupalError { _ = try await visitor.login("newbie", "") }
        XCTAssertEqual(blocked?.status, 400)
        XCTAssertEqual(blocked?.message, "The user has not been activated or is blocked.")

        let taken = await drupalError { _ = try await visitor.register(Registration(name: "newbie", mail: "newbie@example.com")) }
        XCTAssertEqual(taken?.status, 422)
        XCTAssertEqual(taken?.message, "Unprocessable Entity: validation failed.\nname: The username newbie is already taken.\n"
                       + "mail: The email address newbie@example.com is already taken.\n")
        let withPassword = await drupalError {
            _ = try await visitor.register(Registration(name: "newbie3", mail: "n3@example.com", password: "pw"))
        }
        XCTAssertEqual(withPassword?.status, 422)
        XCTAssertEqual(withPassword?.message, "A Password cannot be specified. It will be generated on login.")

        let editor = DrupalClient.mock(site, configuration: {
            var configuration = DrupalClient.Configuration()
            configuration.authentication = .basic(user: "editor", password: "editor")
            return configuration
        }())
        let loggedIn = await drupalError { _ = try await editor.register(Registration(name: "newbie2", mail: "n2@example.com")) }
        XCTAssertEqual(loggedIn?.status, 403)
        XCTAssertEqual(loggedIn?.message, "The 'restful post user_registration' permission is required.")
        XCTAssertNil(site.entity("user", "4"))
    }

    /// A registered account has no password until its owner sets one: Drupal's UserAuth refuses
    /// an empty password whatever the account, so once activated it still cannot sign in with
    /// none, by Basic or by the OAuth password grant. The mock accepted both.
    func testAnEmptyPasswordNeverAuthenticates() async throws {
        let site = MockDrupal()
        _ = try await DrupalClient.mock(site).register(Registration(name: "newbie", mail: "newbie@example.com"))
        var admin = DrupalClient.Configuration()
        admin.authentication = .basic(user: "admin", password: "admin")
        _ = try await DrupalClient.mock(site, configuration: admin).update("user", "3", json(#"{"status": [{"value": true}]}"#))
        XCTAssertEqual(site.entity("user", "3")?["status"]?[0]?["value"], .bool(true))
        func basic(_ password: String) -> HTTPResponse {
            let credentials = Data("newbie:\(password)".utf8).base64EncodedString()
            return site.respond(to: HTTPRequest(method: "GET", url: "http://drupal.mock/user/3?_format=json",
                                                headers: HTTPHeaders([("Authorization", "Basic " + credentials)])))
        }
        let empty = basic(""), wrong = basic("wrong")
        XCTAssertGreaterThanOrEqual(empty.status, 400)
        XCTAssertEqual(empty.status, wrong.status)
        XCTAssertEqual(JSONValue.parse(empty.body), JSONValue.parse(wrong.body))

        site.addOAuthConsumer(MockOAuthConsumer(clientID: "c", secret: "s"))
        func grant(_ password: String) -> HTTPResponse {
            site.respond(to: HTTPRequest(method: "POST", url: "http://drupal.mock/oauth/token",
                                         headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
                                         body: Data("grant_type=password&client_id=c&client_secret=s&username=newbie&password=\(password)".utf8)))
        }
        let emptyGrant = grant(""), wrongGrant = grant("wrong")
        XCTAssertEqual(emptyGrant.status, 400)
        XCTAssertEqual(JSONValue.parse(emptyGrant.body), JSONValue.parse(wrongGrant.body))
    }

    func testPasswordResetAnswersAsRecordings51() async throws {
        let site = MockDrupal()
        let client = DrupalClient.mock(site)
        try await client.resetPassword(name: "editor")
        try await client.resetPassword(mail: "editor@drupal.mock")
        try await client.resetPassword(name: "nobody-here")
        let raw = site.respond(to: HTTPRequest(method: "POST", url: "http://drupal.mock/user/password?_format=json",
                                               headers: HTTPHeaders([("Content-Type", "application/json")]),
                                               body: json(#"{"name": "nobody-here"}"#)))
        XCTAssertEqual(raw.status, 200)
        XCTAssertTrue(raw.body.isEmpty)
        XCTAssertEqual(raw.headers["Content-Type"], "application/json")
        let empty = await drupalError {
            _ = try await client.request(DrupalRequest(method: "POST", path: "/user/password", body: self.json("{}"),
                                                       sendsCSRFToken: false))
        }
        XCTAssertEqual(empty?.status, 400)
        XCTAssertEqual(empty?.message, "Missing credentials.name or credentials.mail")
    }

    func testCoreEntityIdsAreDigits() async throws {
        let client = try await loggedInAdmin()
        for (entityType, path) in [("node", "/node/abc"), ("user", "/user/abc"), ("taxonomy_term", "/taxonomy/term/x1")] {
            let error = await drupalError { _ = try await client.get(entityType, String(path.split(separator: "/").last!)) }
            XCTAssertEqual(error?.status, 404, path)
            XCTAssertEqual(error?.message, #"No route found for "GET http://drupal.mock"# + path + #"""#, path)
        }
    }

    func testCreatedUserLogsIn() async throws {
        let site = MockDrupal()
        let admin = try await loggedInAdmin(site)
        _ = try await admin.create("user", json(#"{"name": [{"value": "dave"}], "pass": [{"value": "secret"}]}"#))
        let dave = try await DrupalClient.mock(site).login("dave", "secret")
        XCTAssertEqual(dave.user.uid, "3")
    }

    func testMissingTitleGives422WithViolations() async throws {
        let client = try await loggedInAdmin()
        let error = await drupalError { _ = try await client.create("node", self.json(#"{"type": [{"target_id": "article"}]}"#)) }
        XCTAssertEqual(error?.status, 422)
        XCTAssertEqual(error?.message, "Unprocessable Entity: validation failed.\ntitle: This value should not be null.\n")
        XCTAssertEqual(error?.violations, [DrupalError.Violation(path: "title", message: "This value should not be null.")])

        let emptied = try await client.create("node", article("Kept"))
        XCTAssertEqual(emptied.status, 201)
        let patch = await drupalError { _ = try await client.update("node", "1", self.json(#"{"type": "article", "title": []}"#)) }
        XCTAssertEqual(patch?.violations.map(\.path), ["title"])
    }

    func testFlatFieldValuesAre422LikeRecording23f() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        // The bundle may be flat (Drupal reads it before the fields); other fields may not.
        let post = await drupalError { _ = try await client.create("node", self.json(#"{"type": "article", "title": "flat title"}"#)) }
        XCTAssertEqual(post?.status, 422)
        XCTAssertEqual(post?.message, #"Field values for "title" must use an array structure"#)
        XCTAssertEqual(post?.headers["Content-Type"], "application/json")
        XCTAssertNil(site.entity("node", "1"))
        _ = try await client.create("node", article("Listed"))
        let patch = await drupalError { _ = try await client.update("node", "1", self.json(#"{"type": "article", "title": "flat"}"#)) }
        XCTAssertEqual(patch?.status, 422)
        XCTAssertEqual(patch?.message, #"Field values for "title" must use an array structure"#)
        XCTAssertEqual(site.entity("node", "1")?["title"]?[0]?["value"], .string("Listed"))
        // Drupal skips a falsy value (null, "", 0, false) and empties the field; a list of bare
        // values gives each its main property.
        let emptied = await drupalError { _ = try await client.update("node", "1", self.json(#"{"type": "article", "title": null}"#)) }
        XCTAssertEqual(emptied?.violations.map(\.path), ["title"])
        let bare = try await client.update("node", "1", json(#"{"type": "article", "title": ["bare"]}"#)).json()
        XCTAssertEqual(bare["title"], .array([.object(["value": .string("bare")])]))
    }

    func testCreatingAnArticleWithAFieldItDoesNotHaveIs500LikeRecording23b() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let unknown = await drupalError {
            _ = try await client.create("node", self.json(#"{"type": [{"target_id": "article"}], "#
                                                         + #""title": [{"value": "x"}], "field_nope": [{"value": 1}]}"#))
        }
        XCTAssertEqual(unknown?.status, 500)
        XCTAssertEqual(unknown?.headers["Content-Type"], "text/plain; charset=UTF-8")
        XCTAssertNil(site.entity("node", "1"))
        // Every field the recorded article has may be sent; a bundle that declares none takes any.
        let full = try await client.create("node", json(#"{"type": "article", "title": [{"value": "All"}], "#
                                                        + #""body": [], "comment": [], "field_image": [], "field_tags": [], "#
                                                        + #""revision_log": [], "path": [], "promote": [{"value": 1}]}"#))
        XCTAssertEqual(full.status, 201)
        // (The seeded page declares its body, as the standard profile's does.)
        site.addBundle("node", "landing")
        let page = try await client.create("node", json(#"{"type": "landing", "title": [{"value": "P"}], "field_x": [{"value": 1}]}"#))
        XCTAssertEqual(page.status, 201)
        site.addBundle("node", "article", fields: ["field_subtitle"])
        let subtitled = try await client.create("node", json(#"{"type": "article", "title": [{"value": "S"}], "#
                                                             + #""field_subtitle": [{"value": "s"}], "body": []}"#))
        XCTAssertEqual(subtitled.status, 201)
    }

    func testATagThatDoesNotExistIs422LikeRecording23e() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let tag = try await client.create("taxonomy_term", json(#"{"vid": "tags", "name": [{"value": "alpha"}]}"#))
        XCTAssertEqual(tag.status, 201)
        let bad = await drupalError {
            _ = try await client.create("node", self.json(#"{"type": [{"target_id": "article"}], "title": [{"value": "bad ref"}], "#
                                                         + #""field_tags": [{"target_id": 1}, {"target_id": 9999}]}"#))
        }
        XCTAssertEqual(bad?.status, 422)
        XCTAssertEqual(bad?.message, "Unprocessable Entity: validation failed.\n"
                       + "field_tags.1.target_id: The referenced entity (taxonomy_term: 9999) does not exist.\n")
        XCTAssertNil(site.entity("node", "1"))
        let good = try await client.create("node", json(#"{"type": "article", "title": [{"value": "ok"}], "field_tags": [{"target_id": 1}]}"#))
        XCTAssertEqual(good.status, 201)
    }

    func testBundleIsRequiredOnPostAndPatch() async throws {
        let client = try await loggedInAdmin()
        let message = #"Could not determine entity type bundle: "type" field is missing."#
        let post = await drupalError { _ = try await client.create("node", self.json(#"{"title": [{"value": "no type"}]}"#)) }
        XCTAssertEqual(post?.status, 422)
        XCTAssertEqual(post?.message, message)
        _ = try await client.create("node", article("Typed"))
        let patch = await drupalError { _ = try await client.update("node", "1", self.json(#"{"title": [{"value": "x"}]}"#)) }
        XCTAssertEqual(patch?.status, 422)
        XCTAssertEqual(patch?.message, message)
    }

    func testChangingIdOrUuidIs403ButSendingThemBackIsFine() async throws {
        let client = try await loggedInAdmin()
        let node = try await client.create("node", article("Fixed")).json()
        let nid = await drupalError { _ = try await client.update("node", "1", self.json(#"{"type": "article", "nid": [{"value": 777}]}"#)) }
        XCTAssertEqual(nid?.status, 403)
        XCTAssertEqual(nid?.message.hasPrefix("Access denied on updating field 'nid'."), true)
        let uuid = await drupalError {
            _ = try await client.update("node", "1", self.json(#"{"type": "article", "uuid": [{"value": "other"}]}"#))
        }
        XCTAssertEqual(uuid?.message.hasPrefix("Access denied on updating field 'uuid'."), true)
        // The whole GET body, sent back with a new title, is accepted.
        guard case .object(var fields) = node else { return XCTFail("not an object") }
        fields["title"] = .array([.object(["value": .string("Round trip")])])
        let updated = try await client.update("node", "1", JSONValue.object(fields).encoded()).json()
        XCTAssertEqual(updated["title"]?[0]?["value"], .string("Round trip"))
    }

    func testAnonymousWritesAreChallengedWith401() async throws {
        let site = MockDrupal()
        let client = DrupalClient.mock(site)
        let error = await drupalError { _ = try await client.create("node", self.article("anon")) }
        XCTAssertEqual(error?.status, 401)
        XCTAssertEqual(error?.message, "No authentication credentials provided.")
        XCTAssertNotNil(error?.headers["WWW-Authenticate"])
        XCTAssertNil(site.entity("node", "1"))
        // Anonymous visitors read published content, not accounts.
        let id = site.addEntity("node", .object(["type": .string("article"), "title": .string("Public")]))
        let read = try await client.get("node", id).json()
        XCTAssertEqual(read["title"]?[0]?["value"], .string("Public"))
        let account = await drupalError { _ = try await client.get("user", "1") }
        XCTAssertEqual(account?.status, 401)
    }

    func testEditorCannotEditSomeoneElsesNode() async throws {
        let site = MockDrupal()
        let id = site.addEntity("node", .object(["type": .string("article"), "title": .string("Admin's")]))
        let editor = DrupalClient.mock(site)
        _ = try await editor.login("editor", "editor")
        let error = await drupalError { _ = try await editor.update("node", id, self.article("hijack")) }
        XCTAssertEqual(error?.status, 403)
        XCTAssertEqual(error?.message, "The 'edit any article content' permission is required.")
        let own = try await editor.create("node", article("Mine")).json()
        XCTAssertEqual(own["uid"]?[0]?["target_id"], .number(2))
        let ownID = try XCTUnwrap(own["nid"]?[0]?["value"]?.idString)
        let updated = try await editor.update("node", ownID, article("Still mine"))
        XCTAssertEqual(updated.status, 200)
    }

    func testNonAdminsCannotChangeTheirRolesOrStatusNorPasswordWithoutTheCurrentOne() async throws {
        let site = MockDrupal()
        let editor = DrupalClient.mock(site)
        _ = try await editor.login("editor", "editor")
        let roles = await drupalError {
            _ = try await editor.update("user", "2", self.json(#"{"roles": [{"target_id": "administrator"}]}"#))
        }
        XCTAssertEqual(roles?.status, 403)
        XCTAssertEqual(roles?.message, "Access denied on updating field 'roles'.")
        let admins = await drupalError { _ = try await editor.get("user", "1") }
        XCTAssertEqual(admins?.message, "The 'access user profiles' permission is required.")
        let status = await drupalError { _ = try await editor.update("user", "2", self.json(#"{"status": [{"value": false}]}"#)) }
        XCTAssertEqual(status?.status, 403)
        XCTAssertEqual(status?.message, "Access denied on updating field 'status'.")

        let password = await drupalError { _ = try await editor.update("user", "2", self.json(#"{"pass": [{"value": "new"}]}"#)) }
        XCTAssertEqual(password?.status, 422)
        XCTAssertEqual(password?.message, "Unprocessable Entity: validation failed.\npass: Your current password is missing "
                       + "or incorrect; it's required to change the Password.\n")
        let mail = await drupalError { _ = try await editor.update("user", "2", self.json(#"{"mail": [{"value": "e@x.org"}]}"#)) }
        XCTAssertEqual(mail?.violations.map(\.path), ["mail"])
        let stillOld = try await DrupalClient.mock(site).login("editor", "editor")
        XCTAssertEqual(stillOld.user.uid, "2")
        _ = try await editor.update("user", "2", json(#"{"pass": [{"existing": "editor", "value": "new"}]}"#))
        let renewed = try await DrupalClient.mock(site).login("editor", "new")
        XCTAssertEqual(renewed.user.uid, "2")
        // Administrators need neither.
        let admin = try await loggedInAdmin(site)
        _ = try await admin.update("user", "2", json(#"{"pass": [{"value": "editor"}], "status": [{"value": true}]}"#))
    }

    func testOwnAccountHidesWhatOnlyAdministratorsSeeLikeRecording34c() async throws {
        let site = MockDrupal()
        let editor = DrupalClient.mock(site)
        _ = try await editor.login("editor", "editor")
        // Recording 34c: the editor's own account has its name and mail, but no status, roles,
        // access, login or init.
        let own = try await editor.get("user", "2").json()
        XCTAssertEqual(own["name"]?[0]?["value"], .string("editor"))
        XCTAssertNotNil(own["mail"])
        for hidden in ["status", "roles", "access", "login", "init"] {
            XCTAssertNil(own[hidden], "editor sees its own \(hidden)")
        }
        // Recording 34: an administrator sees them.
        let admin = try await loggedInAdmin(site)
        let seen = try await admin.get("user", "2").json()
        XCTAssertNotNil(seen["status"])
        XCTAssertNotNil(seen["roles"])
    }

    func testUnpublishedContentCommentsAndTermsFollowDrupalsAccessRules() async throws {
        let site = MockDrupal()
        let draft = site.addEntity("node", .object(["type": .string("article"), "title": .string("Draft"),
                                                    "status": .array([.object(["value": .bool(false)])])]))
        let comment = site.addEntity("comment", .object(["comment_type": .string("comment"), "subject": .string("Admin's")]))
        let term = site.addEntity("taxonomy_term", .object(["vid": .string("tags"), "name": .string("alpha")]))
        let editor = DrupalClient.mock(site)
        _ = try await editor.login("editor", "editor")
        // Recording 24g: authenticated but denied, with an empty message.
        let unpublished = await drupalError { _ = try await editor.get("node", draft) }
        XCTAssertEqual(unpublished?.status, 403)
        XCTAssertEqual(unpublished?.drupalMessage, "")
        // Only 'administer nodes' sets `status`, so the editor's draft is seeded.
        let ownID = site.addEntity("node", .object(["type": .string("article"), "title": .string("Mine"),
                                                    "uid": .array([.object(["target_id": .number(2)])]),
                                                    "status": .array([.object(["value": .bool(false)])])]))
        let ownDraft = try await editor.get("node", ownID)
        XCTAssertEqual(ownDraft.status, 200)

        let patch = #"{"comment_type": "comment", "subject": [{"value": "x"}]}"#
        let editComment = await drupalError { _ = try await editor.update("comment", comment, self.json(patch)) }
        XCTAssertEqual(editComment?.status, 403)
        XCTAssertEqual(editComment?.drupalMessage, "")
        let deleteComment = await drupalError { _ = try await editor.delete("comment", comment) }
        XCTAssertEqual(deleteComment?.status, 403)
        let deleteTerm = await drupalError { _ = try await editor.delete("taxonomy_term", term) }
        XCTAssertEqual(deleteTerm?.status, 403)
        XCTAssertEqual(deleteTerm?.message, "The following permissions are required: 'delete terms in tags' OR 'administer taxonomy'.")
        let cancel = await drupalError { _ = try await editor.delete("user", "2") }
        XCTAssertEqual(cancel?.message, "The 'cancel account' permission is required.")
        XCTAssertNotNil(site.entity("comment", comment))
        XCTAssertNotNil(site.entity("taxonomy_term", term))
    }

    func testProtocolErrorsOfTheRestRoutes() async throws {
        let site = MockDrupal()
        let client = DrupalClient.mock(site, configuration: {
            var configuration = DrupalClient.Configuration()
            configuration.authentication = .basic(user: "admin", password: "admin")
            return configuration
        }())
        let wrongType = await drupalError {
            _ = try await client.request(DrupalRequest(method: "POST", path: "/comment",
                                                       headers: HTTPHeaders([("Content-Type", "text/plain")]),
                                                       body: self.article("x")))
        }
        XCTAssertEqual(wrongType?.status, 415)
        XCTAssertEqual(wrongType?.message, #"No route found that matches "Content-Type: text/plain""#)
        let malformed = await drupalError {
            _ = try await client.request(DrupalRequest(method: "POST", path: "/node", body: self.json(#"{"title": ["#)))
        }
        XCTAssertEqual(malformed?.status, 400)
        XCTAssertEqual(malformed?.message, "Syntax error")
        let noFormat = await drupalError { _ = try await client.request(DrupalRequest(method: "GET", path: "/node/1", format: nil)) }
        XCTAssertEqual(noFormat?.status, 406)
        XCTAssertEqual(noFormat?.headers["Content-Type"]?.hasPrefix("text/plain"), true)
        let unknown = await drupalError { _ = try await client.request(DrupalRequest(method: "GET", path: "/no/such/page")) }
        XCTAssertEqual(unknown?.status, 404)
        XCTAssertEqual(unknown?.message, #"No route found for "GET http://drupal.mock/no/such/page""#)
        let put = await drupalError { _ = try await client.request(DrupalRequest(method: "PUT", path: "/node/1", body: self.article("x"))) }
        XCTAssertEqual(put?.status, 405)
        XCTAssertEqual(put?.headers["Allow"], "GET, POST, HEAD, DELETE, PATCH")   // recording 180
    }

    func testPostNodeWithoutJSONIs406LikeRecordings22And22b() async throws {
        let site = MockDrupal()
        let basic = ("Authorization", "Basic " + Data("admin:admin".utf8).base64EncodedString())
        for headers in [[basic, ("Content-Type", "text/plain")], [basic]] {
            let answer = site.respond(to: HTTPRequest(method: "POST", url: "http://drupal.mock/node?_format=json",
                                                      headers: HTTPHeaders(headers), body: article("x")))
            XCTAssertEqual(answer.status, 406)
            XCTAssertEqual(answer.headers["Content-Type"], "application/json")
            XCTAssertEqual(String(decoding: answer.body, as: UTF8.self),
                           #"{"message":"No route found for the specified format json. Supported formats: html."}"#)
        }
        XCTAssertNil(site.entity("node", "1"))
        // 22c: other paths say 415.
        let patch = site.respond(to: HTTPRequest(method: "PATCH", url: "http://drupal.mock/node/1?_format=json",
                                                 headers: HTTPHeaders([basic, ("Content-Type", "text/plain")]),
                                                 body: article("x")))
        XCTAssertEqual(patch.status, 415)
    }

    func testCustomEntityTypeUsesGenericPaths() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let created = try await client.create("widget", json(#"{"name": [{"value": "gear"}]}"#))
        XCTAssertEqual(created.headers["Location"], "http://drupal.mock/entity/widget/1")
        XCTAssertEqual(try created.json()["id"]?[0]?["value"], .number(1))
        let fetched = try await client.get("widget", "1").json()
        XCTAssertEqual(fetched["name"]?[0]?["value"], .string("gear"))
        XCTAssertEqual(site.entity("widget", "1"), fetched)
    }

    // MARK: Files

    func testFileUploadCreatesATemporaryFileEntity() async throws {
        let client = try await loggedInAdmin()
        let upload = FileUpload(entityType: "node", bundle: "article", field: "field_image", filename: "dir/a.png",
                                data: Data([0x89, 0x50, 0x4E, 0x47]))
        let response = try await client.uploadFile(upload)
        XCTAssertEqual(response.status, 201)
        XCTAssertNil(response.headers["Location"])
        let file = try response.json()
        XCTAssertEqual(file["fid"]?[0]?["value"], .number(1))
        XCTAssertEqual(file["filename"]?[0]?["value"], .string("a.png"))
        XCTAssertEqual(file["filemime"]?[0]?["value"], .string("image/png"))
        XCTAssertEqual(file["filesize"]?[0]?["value"], .number(4))
        XCTAssertEqual(file["status"]?[0]?["value"], .bool(false))
        let clash = try await client.uploadFile(upload).json()
        XCTAssertEqual(clash["filename"]?[0]?["value"], .string("a_0.png"))
        let wrongType = await drupalError {
            _ = try await client.request(DrupalRequest(method: "POST", path: "/file/upload/node/article/field_image",
                                                       headers: HTTPHeaders([("Content-Type", "image/png")]), body: Data([1])))
        }
        XCTAssertEqual(wrongType?.status, 415)
        XCTAssertEqual(wrongType?.message, #"No route found that matches "Content-Type: image/png""#)
    }

    func testUploadsGoToTheMonthsFolderLikeRecording52() async throws {
        let client = try await loggedInAdmin()
        let upload = FileUpload(entityType: "node", bundle: "article", field: "field_image", filename: "a.png",
                                data: Data([0x89, 0x50, 0x4E, 0x47]))
        let file = try await client.uploadFile(upload).json()
        let month = String(try XCTUnwrap(file["created"]?[0]?["value"]?.stringValue).prefix(7))
        XCTAssertEqual(month.count, 7)
        XCTAssertEqual(file["uri"]?[0]?["value"], .string("public://\(month)/a.png"))
        XCTAssertEqual(file["uri"]?[0]?["url"], .string("/sites/default/files/\(month)/a.png"))
        XCTAssertEqual(file["filename"]?[0]?["value"], .string("a.png"))
        let served = try await client.request(DrupalRequest(method: "GET", path: "/sites/default/files/\(month)/a.png", format: nil))
        XCTAssertEqual(served.body, Data([0x89, 0x50, 0x4E, 0x47]))
        let clash = try await client.uploadFile(upload).json()
        XCTAssertEqual(clash["uri"]?[0]?["value"], .string("public://\(month)/a_0.png"))
    }

    func testAnImageFieldRefusesOtherExtensionsLikeRecording52e() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let exe = FileUpload(entityType: "node", bundle: "article", field: "field_image", filename: "a.exe", data: Data([1]))
        let refused = await drupalError { _ = try await client.uploadFile(exe) }
        XCTAssertEqual(refused?.status, 422)
        XCTAssertEqual(refused?.message, "Unprocessable Entity: file validation failed.\n"
                       + "Only files with the following extensions are allowed: png gif jpg jpeg webp.")
        XCTAssertNil(site.entity("file", "1"))
        let upper = FileUpload(entityType: "node", bundle: "article", field: "field_image", filename: "B.JPG", data: Data([1]))
        let accepted = try await client.uploadFile(upper)
        XCTAssertEqual(accepted.status, 201)
    }

    func testAFileANodeReferencesBecomesPermanentLikeRecording53b() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let upload = FileUpload(entityType: "node", bundle: "article", field: "field_image", filename: "a.png", data: Data([1]))
        let file = try await client.uploadFile(upload).json()
        XCTAssertEqual(file["status"]?[0]?["value"], .bool(false))
        _ = try await client.uploadFile(upload)
        _ = try await client.create("node", json(#"{"type": "article", "title": [{"value": "With image"}], "#
                                                 + #""field_image": [{"target_id": 1, "alt": "red square"}]}"#))
        let referenced = try await client.get("file", "1").json()
        XCTAssertEqual(referenced["status"]?[0]?["value"], .bool(true))
        let unreferenced = try await client.get("file", "2").json()
        XCTAssertEqual(unreferenced["status"]?[0]?["value"], .bool(false))
    }

    func testUploadedFilesAreServedAtTheirURL() async throws {
        let site = MockDrupal()
        let client = try await loggedInAdmin(site)
        let bytes = Data("PNGDATA".utf8)
        let file = try await client.uploadFile(FileUpload(entityType: "node", bundle: "article", field: "field_image",
                                                          filename: "d.png", data: bytes)).json()
        let fid = try XCTUnwrap(file["fid"]?[0]?["value"]?.idString)
        let url = try XCTUnwrap(file["uri"]?[0]?["url"]?.stringValue)
        let received = Mutex(Data())
        let sink: BodySink = { chunk in received.withLock { $0.append(contentsOf: chunk) }; return true }
        let byEntity = try await client.download(FileDownload(.fileEntity(fid), to: .sink(sink)))
        XCTAssertEqual(byEntity.status, 200)
        XCTAssertEqual(received.withLock { $0 }, bytes)
        // Public files are the web server's: anyone may fetch them, with their type.
        let plain = try await DrupalClient.mock(site).request(DrupalRequest(method: "GET", path: url, format: nil))
        XCTAssertEqual(plain.body, bytes)
        XCTAssertEqual(plain.headers["Content-Type"], "image/png")

        let small = DrupalClient.mock(site, configuration: {
            var configuration = DrupalClient.Configuration()
            configuration.transport.maxBodySize = 4
            return configuration
        }())
        let tooLarge = await drupalError { _ = try await small.download(FileDownload(.url(url), to: .sink(sink))) }
        XCTAssertEqual(tooLarge?.code, .tooLarge)
        let missing = await drupalError {
            _ = try await client.download(FileDownload(.url("/sites/default/files/nope.png"), to: .sink(sink)))
        }
        XCTAssertEqual(missing?.status, 404)
    }

    // MARK: Views

    func testBooleanFieldsAreStoredAsBooleans() async throws {
        let site = MockDrupal()
        let admin = try await loggedInAdmin(site)
        let zero = try await admin.create("node", json(#"{"type": "article", "title": [{"value": "Zero"}], "#
                                                       + #""status": [{"value": 0}], "promote": [{"value": "1"}]}"#)).json()
        XCTAssertEqual(zero["status"]?[0]?["value"], .bool(false))
        XCTAssertEqual(zero["promote"]?[0]?["value"], .bool(true))
        _ = try await admin.create("node", article("Shown"))
        let patched = try await admin.update("node", "2", json(#"{"type": "article", "status": [{"value": "0"}]}"#)).json()
        XCTAssertEqual(patched["status"]?[0]?["value"], .bool(false))
        let seeded = site.addEntity("node", .object(["type": .string("article"), "title": .string("Seeded"),
                                                     "sticky": .array([.object(["value": .number(1)])])]))
        XCTAssertEqual(site.entity("node", seeded)?["sticky"]?[0]?["value"], .bool(true))

        let anonymous = DrupalClient.mock(site)
        let hidden = await drupalError { _ = try await anonymous.get("node", "2") }
        XCTAssertEqual(hidden?.status, 401)
        let rows = try await anonymous.view("/api/articles").json()
        XCTAssertEqual(rows[0]?["nid"], .string(seeded))
        XCTAssertNil(rows[1])
    }

    func testArticlesViewPagesAndFilters() async throws {
        let site = MockDrupal()
        for number in 1...5 {
            site.addEntity("node", .object(["type": .string("article"), "title": .string("Article \(number)"),
                                            "body": .array([.object(["value": .string("<p>Body of article \(number)</p>"),
                                                                     "format": .string("basic_html")])])]))
        }
        site.addEntity("node", .object(["type": .string("article"), "title": .string("Draft 3"), "status": .bool(false)]))
        site.addEntity("node", .object(["type": .string("page"), "title": .string("About page 3")]))
        let client = DrupalClient.mock(site)

        let first = try await client.view("/api/articles", []).json()
        XCTAssertEqual(first.arrayValue?.count, 2)
        XCTAssertEqual(first[0]?["nid"], .string("1"))
        XCTAssertEqual(first[0]?["title"], .string("Article 1"))
        XCTAssertEqual(first[0]?["body"], .string("<p>Body of article 1</p>"))
        XCTAssertEqual(first[0]?["uuid"], site.entity("node", "1")?["uuid"]?[0]?["value"])
        let created = try XCTUnwrap(site.entity("node", "1")?["created"]?[0]?["value"]?.stringValue)
        XCTAssertEqual(first[0]?["created"], .string("<time datetime=\"\(created)\">\(created)</time>\n"))
        XCTAssertEqual(first[1]?["nid"], .string("2"))

        let third = try await client.view("/api/articles", [("page", "2")]).json()
        XCTAssertEqual(third.arrayValue?.compactMap { $0["nid"]?.stringValue }, ["5"], "drafts and pages are not listed")
        let pastEnd = try await client.view("/api/articles", [("page", "99")]).json()
        XCTAssertEqual(pastEnd, .array([]))
        let filtered = try await client.view("/api/articles", [("title", "3")]).json()
        XCTAssertEqual(filtered.arrayValue?.compactMap { $0["title"]?.stringValue }, ["Article 3"])
        let caseless = try await client.view("/api/articles", [("title", "ARTICLE")]).json()
        XCTAssertEqual(caseless.arrayValue?.count, 2)
    }

    func testAddedViewOverTerms() async throws {
        let site = MockDrupal()
        site.addView(path: "/api/tags", entityType: "taxonomy_term", bundle: "tags", itemsPerPage: 10)
        for name in ["red", "green", "blue"] { site.addEntity("taxonomy_term", .object(["vid": .string("tags"), "name": .string(name)])) }
        let rows = try await DrupalClient.mock(site).view("api/tags", [("name", "re")]).json()
        XCTAssertEqual(rows.arrayValue?.compactMap { $0["name"]?.stringValue }, ["red", "green"])
        XCTAssertEqual(rows[0]?["tid"], .string("1"))
    }

    // MARK: Stubs

    func testStubsWinAndCanBeRemoved() async throws {
        let site = MockDrupal()
        site.addEntity("node", .object(["type": .string("article"), "title": .string("Real")]))
        site.stub(method: "GET", path: "/node/1", status: 503, headers: HTTPHeaders([("Content-Type", "text/plain")]),
                  body: Data("Site under maintenance".utf8))
        site.stub(method: "get", path: "api/articles", status: 200, json: .array([.object(["nid": .string("42")])]))
        let client = DrupalClient.mock(site)
        let error = await drupalError { _ = try await client.get("node", "1") }
        XCTAssertEqual(error?.status, 503)
        XCTAssertEqual(error?.message, "Site under maintenance")
        let view = try await client.view("/api/articles", [("page", "3")]).json()
        XCTAssertEqual(view, .array([.object(["nid": .string("42")])]))
        site.removeStubs()
        let real = try await client.get("node", "1").json()
        XCTAssertEqual(real["title"]?[0]?["value"], .string("Real"))
    }

    func testRequestCountCountsEveryAnswer() async throws {
        let site = MockDrupal()
        XCTAssertEqual(site.requestCount, 0)
        let client = DrupalClient.mock(site)
        _ = try await client.loginStatus()
        _ = try await client.login("admin", "admin")
        _ = try? await client.get("node", "404")
        XCTAssertEqual(site.requestCount, 3)
    }

    // MARK: Basic and Bearer

    func testBasicAuthWorksPerRequestWithoutCSRF() async throws {
        let site = MockDrupal()
        let client = DrupalClient.mock(site)
        try client.setAuthentication(.basic(user: "admin", password: "admin"))
        let log = observe(client)
        let created = try await client.create("node", article("Basic"))
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(log.started, ["POST /node"], "no session, so no CSRF token is fetched")
        let account = try await client.get("user", "1").json()
        XCTAssertEqual(account["name"]?[0]?["value"], .string("admin"))
        // basic_auth is not allowed on routes without an auth list, as on Drupal...
        let refused = await drupalError {
            _ = try await client.request(DrupalRequest(method: "GET", path: "/user/login_status"))
        }
        XCTAssertEqual(refused?.status, 403)
        XCTAssertEqual(refused?.message, "The used authentication method is not allowed on this route.")
        // ...so loginStatus asks with the session cookie alone: Basic creates no session.
        let status = try await client.loginStatus()
        XCTAssertFalse(status.loggedIn)
        XCTAssertEqual(status.response.text, "0")
        XCTAssertNil(client.currentUser(), "Basic creates no session")
    }

    func testWrongBasicCredentialsAreAnonymous() async throws {
        let site = MockDrupal()
        let id = site.addEntity("node", .object(["type": .string("article"), "title": .string("Public")]))
        let client = DrupalClient.mock(site)
        try client.setAuthentication(.basic(user: "admin", password: "nope"))
        let read = try await client.get("node", id)
        XCTAssertEqual(read.status, 200)
        let write = await drupalError { _ = try await client.create("node", self.article("bad creds")) }
        XCTAssertEqual(write?.status, 403, "credentials were sent, so no 401 challenge")
        XCTAssertEqual(write.flatMap { JSONValue.parse($0.body) }, .object(["message": .string("")]))
        let account = await drupalError { _ = try await client.get("user", "1") }
        XCTAssertEqual(account?.status, 403)
        XCTAssertEqual(account?.message, "The 'access user profiles' permission is required.")
    }

    func testBearerTokenAuthenticatesAsItsUser() async throws {
        let site = MockDrupal()
        site.addBearerToken("editor-token", uid: "2")
        let client = DrupalClient.mock(site)
        try client.setAuthentication(.bearer(token: "editor-token"))
        let node = try await client.create("node", article("Bearer")).json()
        XCTAssertEqual(node["uid"]?[0]?["target_id"], .number(2))
        let own = try await client.get("user", "2").json()
        XCTAssertEqual(own["name"]?[0]?["value"], .string("editor"))
        try client.setAuthentication(.bearer(token: "unknown-token"))
        let rejected = await drupalError { _ = try await client.create("node", self.article("x")) }
        XCTAssertEqual(rejected?.status, 403)
    }

    // MARK: Isolation, unimplemented, events

    func testTwoSitesShareNothing() async throws {
        let siteA = MockDrupal()
        let siteB = MockDrupal()
        let clientA = try await loggedInAdmin(siteA)
        let clientB = DrupalClient.mock(siteB)
        _ = try await clientA.create("node", article("Only on A"))
        XCTAssertNotNil(siteA.entity("node", "1"))
        XCTAssertNil(siteB.entity("node", "1"))
        let missing = await drupalError { _ = try await clientB.get("node", "1") }
        XCTAssertEqual(missing?.status, 404)
        let statusB = try await clientB.loginStatus().loggedIn
        XCTAssertFalse(statusB)
        let statusA = try await clientA.loginStatus().loggedIn
        XCTAssertTrue(statusA)
        _ = try await clientB.login("editor", "editor")
        XCTAssertEqual(clientA.currentUser()?.name, "admin")
        XCTAssertEqual(clientB.currentUser()?.name, "editor")
        let created = try await clientB.create("node", article("First on B")).json()
        XCTAssertEqual(created["nid"]?[0]?["value"], .number(1), "ids count per site")
    }

    func testUnimplementedThrowsNamingTheClosure() async throws {
        let client = DrupalClient.unimplemented
        let get = await drupalError { _ = try await client.get("node", "1") }
        XCTAssertEqual(get?.code, .unimplemented)
        XCTAssertEqual(get?.message.contains("DrupalClient.get"), true)
        let login = await drupalError { _ = try await client.login("a", "b") }
        XCTAssertEqual(login?.code, .unimplemented)
        XCTAssertEqual(login?.message.contains("DrupalClient.login"), true)
        // Tests replace only what the code under test calls.
        let partial = DrupalClient(perform: { operation in
            guard case .loginStatus = operation else { throw DrupalError(.unimplemented, operation.name) }
            return DrupalResponse(status: 200, body: Data("1".utf8))
        })
        let status = try await partial.loginStatus().loggedIn
        XCTAssertTrue(status)
    }

    func testInvalidConfigurationFailsEveryOperation() async throws {
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .basic(user: "", password: "x")
        let client = DrupalClient.mock(configuration: configuration)
        let error = await drupalError { _ = try await client.loginStatus() }
        XCTAssertEqual(error?.code, .invalidArgument)
    }

    func testEventsReportLoginLogoutAndRequests() async throws {
        let client = DrupalClient.mock()
        let log = observe(client)
        _ = try await client.login("admin", "admin")
        _ = try await client.loginStatus()
        try await client.logout()
        let events = log.all
        XCTAssertEqual(log.started, ["POST /user/login", "GET /user/login_status", "POST /user/logout"])
        XCTAssertEqual(log.finishedStatuses, [200, 200, 204])
        let logins = events.compactMap { if case .login(let user) = $0 { return user } else { return nil } }
        XCTAssertEqual(logins.map(\.name), ["admin"])
        XCTAssertEqual(events.filter { if case .logout = $0 { return true } else { return false } }.count, 1)
        // Order: the login event follows its request, the logout event follows the logout request.
        let kinds = events.map { event -> String in
            switch event {
            case .login: return "login"
            case .logout: return "logout"
            case .requestStarted: return "started"
            case .requestFinished: return "finished"
            case .retry: return "retry"
            }
        }
        XCTAssertEqual(kinds, ["started", "finished", "login", "started", "finished", "started", "finished", "logout"])
    }

    func testMiddlewareSeesMockTraffic() async throws {
        let seen = Mutex<[String]>([])
        var configuration = DrupalClient.Configuration()
        configuration.middleware = [Middleware(onResponse: { request, response in
            seen.withLock { $0.append("\(request.method) \(response.status)") }
        })]
        let client = DrupalClient.mock(configuration: configuration)
        _ = try await client.loginStatus()
        XCTAssertEqual(seen.withLock { $0 }, ["GET 200"])
    }
}
