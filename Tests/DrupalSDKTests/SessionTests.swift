import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// Cookie login, login status, logout, CSRF fetch and refresh, Basic and Bearer.
final class SessionTests: FakeDrupalTestCase {
    func testLoginReturnsUserAndTokens() async throws {
        let client = try makeClient()
        let result = try await client.login("admin", "admin")
        XCTAssertEqual(result.user.uid, "1")
        XCTAssertEqual(result.user.name, "admin")
        XCTAssertEqual(result.user.roles?.contains("administrator"), true)
        XCTAssertFalse(result.csrfToken.isEmpty)
        XCTAssertFalse(result.logoutToken.isEmpty)
        XCTAssertEqual(result.response.status, 200)
        XCTAssertEqual(client.currentUser()?.name, "admin")
        let loggedIn = try await client.loginStatus().loggedIn
        XCTAssertTrue(loggedIn)
    }

    func testEditorLoginHasNoRoles() async throws {
        let result = try await makeClient().login("editor", "editor")
        XCTAssertEqual(result.user.uid, "2")
        XCTAssertNil(result.user.roles)
    }

    func testBadPasswordIs400WithDrupalsMessage() async throws {
        let client = try makeClient()
        let error = await expectError { try await client.login("admin", "wrong") }
        XCTAssertEqual(error?.code, .http)
        XCTAssertEqual(error?.status, 400)
        XCTAssertEqual(error?.message, "Sorry, unrecognized username or password.")
        let loggedIn = try await client.loginStatus().loggedIn
        XCTAssertFalse(loggedIn)
    }

    func testMissingFieldsGiveDrupalsMessages() async throws {
        let client = try makeClient()
        let missingPass = await expectError {
            try await client.request(DrupalRequest(method: "POST", path: "/user/login", body: Data(#"{"name":"admin"}"#.utf8)))
        }
        XCTAssertEqual(missingPass?.status, 400)
        XCTAssertEqual(missingPass?.message, "Missing credentials.pass.")
        let missingName = await expectError {
            try await client.request(DrupalRequest(method: "POST", path: "/user/login", body: Data(#"{"pass":"x"}"#.utf8)))
        }
        XCTAssertEqual(missingName?.message, "Missing credentials.name.")
        let empty = await expectError {
            try await client.request(DrupalRequest(method: "POST", path: "/user/login", body: Data("{}".utf8)))
        }
        XCTAssertEqual(empty?.status, 400)
        XCTAssertEqual(empty?.message, "Missing credentials.")
    }

    func testLogoutEndsTheSessionAndForgetsTokens() async throws {
        let client = try makeClient()
        let events = LineLog()
        _ = client.addObserver { event in
            if case .login(let user) = event { events.add("login \(user.name)") }
            if case .logout = event { events.add("logout") }
        }
        _ = try await client.login("editor", "editor")
        try await client.logout()
        let loggedIn = try await client.loginStatus().loggedIn
        XCTAssertFalse(loggedIn)
        XCTAssertNil(client.currentUser())
        XCTAssertEqual(events.lines, ["login editor", "logout"])
        let again = await expectError { try await client.logout() }
        XCTAssertEqual(again?.code, .state)
    }

    /// Regression: once the site had ended the session (expired, or ended elsewhere), every
    /// logout was refused with a 403 ("'csrf_token' URL query argument is invalid.", as recorded
    /// in 09c) and the client kept its session forever: only forgetSession got it out. Logout
    /// now forgets a session the site no longer has, whether its cookie is still held or the
    /// site deleted it (recording 09b: login_status answers 0 and deletes the cookie).
    func testLogoutForgetsASessionTheSiteAlreadyEnded() async throws {
        for deletedCookie in [false, true] {
            let client = try makeClient()
            _ = try await client.login("editor", "editor")
            try server.reset()   // the site forgets every session
            if deletedCookie { _ = try await client.loginStatus() }
            let error = await expectError { try await client.logout() }
            XCTAssertNotNil(error, "cookie deleted \(deletedCookie)")
            XCTAssertFalse(client.hasSession(), "cookie deleted \(deletedCookie): the session is still held")
            let again = await expectError { try await client.logout() }
            XCTAssertEqual(again?.code, .state)
            XCTAssertTrue(again?.message.hasPrefix("not logged in") ?? false, again?.message ?? "")
        }
    }

    /// Regression: any HTTP error of the logout forgot the session, though only the site's 403
    /// says it has none: after a 503 the site still had it and the client could not end it.
    func testALogoutTheSiteFailedToAnswerKeepsTheSession() async throws {
        let client = try makeClient()
        _ = try await client.login("editor", "editor")
        _ = try server.control("POST", "/__fake/faults",
                               json: #"{"mode": "status", "code": 503, "path_prefix": "/user/logout", "count": 1}"#)
        let failed = await expectError { try await client.logout() }
        XCTAssertEqual(failed?.status, 503)
        XCTAssertTrue(client.hasSession(), "a 503 forgot the session the site still has")
        let loggedIn = try await client.loginStatus().loggedIn
        XCTAssertTrue(loggedIn, "the site still has the session")
        _ = try await client.logout()
        XCTAssertFalse(client.hasSession())
    }

    func testLoginAgainSwitchesUser() async throws {
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        let second = try await client.login("editor", "editor")
        XCTAssertEqual(second.user.name, "editor")
        let created = try await client.create("node", Self.article("by editor"))
        let node = try created.json()
        XCTAssertEqual(node["uid"]?[0]?["target_id"]?.idString, "2")
    }

    func testCreateFetchesCSRFTokenOnceAndSendsIt() async throws {
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        // The token from login is used: no /session/token round trip.
        let before = try server.stats().requests
        _ = try await client.create("node", Self.article("csrf"))
        XCTAssertEqual(try server.stats().requests - before, 1)
    }

    func testInvalidatedTokenIsRefreshedAndTheRequestRetriedOnce() async throws {
        let client = try makeClient()
        let login = try await client.login("admin", "admin")
        try server.control("POST", "/__fake/invalidate-csrf")
        let paths = LineLog()
        _ = client.addObserver { event in
            if case .requestFinished(let method, let path, let status, _) = event {
                paths.add("\(method) \(path) \(status ?? 0)")
            }
        }
        let response = try await client.create("node", Self.article("after refresh"))
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(paths.lines, ["POST /node 403", "GET /session/token 200", "POST /node 201"])
        XCTAssertNotEqual(client.csrfToken(), login.csrfToken)
    }

    func testConcurrentRequestsShareOneTokenFetch() async throws {
        let client = try makeClient()
        _ = try await client.login("admin", "admin")
        try server.control("POST", "/__fake/invalidate-csrf")
        let tokenFetches = TokenFetchCounter()
        _ = client.addObserver { event in
            if case .requestStarted(_, let path) = event, path == "/session/token" { tokenFetches.add() }
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<10 {
                group.addTask { try await client.create("node", Self.article("concurrent \(index)")).status }
            }
            for try await status in group { XCTAssertEqual(status, 201) }
        }
        XCTAssertEqual(tokenFetches.value, 1)
    }

    func testSessionTokenIsFetchedWhenAskedAndThenHeld() async throws {
        let client = try makeClient()
        XCTAssertNil(client.csrfToken())
        let refreshed = try await client.refreshCSRFToken()
        XCTAssertFalse(refreshed.isEmpty)
        XCTAssertEqual(client.csrfToken(), refreshed)
    }

    func testBasicAuthNeedsNoCSRFToken() async throws {
        let client = try makeClient { $0.authentication = .basic(user: "admin", password: "admin") }
        let created = try await client.create("node", Self.article("basic"))
        XCTAssertEqual(created.status, 201)
        XCTAssertNotNil(created.headers["Location"])
    }

    func testBasicAuthWithWrongPasswordIsAnonymous() async throws {
        let client = try makeClient { $0.authentication = .basic(user: "admin", password: "nope") }
        let error = await expectError { try await client.create("node", Self.article("x")) }
        XCTAssertEqual(error?.status, 403)
    }

    func testBearerToken() async throws {
        try server.control("POST", "/__fake/bearer", json: #"{"token": "tok-123", "uid": 1}"#)
        let client = try makeClient()
        try client.setAuthentication(.bearer(token: "tok-123"))
        let created = try await client.create("node", Self.article("bearer"))
        XCTAssertEqual(created.status, 201)
    }

    /// A cookie session with Basic credentials set as well: Drupal refuses Basic on /session/token
    /// and /user/login_status, so those go with the cookie alone and the stale-token recovery works.
    func testCookieSessionWithBasicRefreshesTheTokenWithTheCookieAlone() async throws {
        let client = try makeClient()
        _ = try await client.login("editor", "editor")
        try client.setAuthentication(.basic(user: "editor", password: "editor"))
        let status = try await client.loginStatus()
        XCTAssertTrue(status.loggedIn)
        XCTAssertEqual(status.response.status, 200)
        try server.control("POST", "/__fake/invalidate-csrf")
        let created = try await client.create("node", Self.article("cookie and basic"))
        XCTAssertEqual(created.status, 201)
        let token = try await client.refreshCSRFToken()
        XCTAssertFalse(token.isEmpty)
    }

    func testLoginStatusFailureKeepsTheStatus() async throws {
        let client = try makeClient { $0.defaultHeaders.add("X-Fake-Fault", "status;code=503") }
        let error = await expectError { try await client.loginStatus() }
        XCTAssertEqual(error?.code, .http)
        XCTAssertEqual(error?.status, 503)
    }

    func testHasSessionAndForgetSessionSendNothing() async throws {
        let client = try makeClient()
        XCTAssertFalse(client.hasSession())
        _ = try await client.login("admin", "admin")
        XCTAssertTrue(client.hasSession())
        let before = try server.stats().requests
        client.forgetSession()
        XCTAssertFalse(client.hasSession())
        XCTAssertNil(client.currentUser())
        XCTAssertEqual(try server.stats().requests, before, "forgetting asks nothing of the site")
        let loggedIn = try await client.loginStatus().loggedIn
        XCTAssertFalse(loggedIn, "the cookie is gone")
        let logout = await expectError { try await client.logout() }
        XCTAssertEqual(logout?.code, .state, "no session, so no logout token to send")
    }

    func testInvalidCredentialsAreRejectedBeforeSending() async throws {
        let client = try makeClient()
        XCTAssertThrowsError(try client.setAuthentication(.basic(user: "a:b", password: "x")))
        XCTAssertThrowsError(try client.setAuthentication(.bearer(token: "two words")))
        XCTAssertThrowsError(try client.setAuthentication(.basic(user: "a", password: "x\r\nX-Evil: 1")))
    }

    func testTwoClientsAsTwoUsersNeverShareCookies() async throws {
        let admin = try makeClient()
        let editor = try makeClient()
        _ = try await admin.login("admin", "admin")
        _ = try await editor.login("editor", "editor")
        let byAdmin = try await admin.create("node", Self.article("admin's")).json()
        let byEditor = try await editor.create("node", Self.article("editor's")).json()
        XCTAssertEqual(byAdmin["uid"]?[0]?["target_id"]?.idString, "1")
        XCTAssertEqual(byEditor["uid"]?[0]?["target_id"]?.idString, "2")
        try await editor.logout()
        let adminStillIn = try await admin.loginStatus().loggedIn
        let editorIn = try await editor.loginStatus().loggedIn
        XCTAssertTrue(adminStillIn)
        XCTAssertFalse(editorIn)
        let anonymous = try makeClient()
        let anonymousIn = try await anonymous.loginStatus().loggedIn
        XCTAssertFalse(anonymousIn)
    }
}

final class TokenFetchCounter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
