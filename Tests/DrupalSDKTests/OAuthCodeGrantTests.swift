import Foundation
import XCTest
@testable import DrupalSDK

/// The authorization code grant with PKCE against the fake's extended site: a person (a logged-in
/// browser here) approves, the program exchanges the code once and refreshes after.
final class OAuthCodeGrantTests: XCTestCase {
    var server: FakeDrupalServer { FakeDrupalServer.extended }
    static let redirectURI = "http://127.0.0.1:8765/callback"

    override func setUp() async throws {
        try server.reset()
    }

    /// What a browser with `user`'s session gets from the authorize page: the redirect's URL.
    func approve(_ authorization: OAuthAuthorization, as user: String = "editor") async throws -> String {
        let browser = try DrupalClient.live(baseURL: server.baseURL)
        _ = try await browser.login(user, user)
        let url = try authorization.url(site: server.baseURL)
        let path = String(url.dropFirst(server.baseURL.count))
        let error = await expectError { try await browser.request(DrupalRequest(method: "GET", path: path, format: nil)) }
        return try XCTUnwrap(error?.redirectLocation, "no redirect: \(error?.message ?? "")")
    }

    func client(_ grant: OAuthSettings.Grant, margin: Double = 30) throws -> DrupalClient {
        var settings = OAuthSettings(clientID: "sdk-desktop", grant: grant)
        settings.refreshMargin = margin
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .oauth(settings)
        return try DrupalClient.live(baseURL: server.baseURL, configuration: configuration)
    }

    func testACodeIsExchangedOnceAndTheTokenActsForThePersonWhoApproved() async throws {
        let authorization = try OAuthAuthorization(clientID: "sdk-desktop", redirectURI: Self.redirectURI)
        let redirected = try await approve(authorization)
        XCTAssertTrue(redirected.hasPrefix(Self.redirectURI + "?"), redirected)
        let code = try authorization.code(fromRedirect: redirected)
        let app = try client(authorization.grant(code: code))
        let created = try await app.create("node", Data(#"{"type":[{"target_id":"article"}],"title":[{"value":"by code"}]}"#.utf8))
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(try created.json()["uid"]?[0]?["target_id"]?.idString, "2", "the editor's token")
        _ = try await app.get("node", "1")
        XCTAssertEqual(try server.stats().token_grants, ["authorization_code": 1])
    }

    func testTheSessionGoesOnWithTheRefreshTokenAndEndsWhenItIsRefused() async throws {
        let authorization = try OAuthAuthorization(clientID: "sdk-desktop", redirectURI: Self.redirectURI)
        let app = try client(authorization.grant(code: try authorization.code(fromRedirect: try await approve(authorization))))
        _ = try await app.get("node", "1")
        try server.control("POST", "/__fake/oauth-expire")
        _ = try await app.get("node", "1")   // refreshed
        XCTAssertEqual(try server.stats().token_grants, ["authorization_code": 1, "refresh_token": 1])
        // The refresh token is refused (expired with its pair): the code is not sent again, and
        // the call says to authorize again.
        try server.control("POST", "/__fake/config", json: #"{"oauth_refresh_ttl": 1}"#)
        defer { _ = try? server.control("POST", "/__fake/config", json: #"{"defaults": true}"#) }
        try server.control("POST", "/__fake/oauth-expire")
        _ = try await app.get("node", "1")   // a refresh token of 1 s
        try await Task.sleep(for: .milliseconds(1100))
        try server.control("POST", "/__fake/oauth-expire")
        let requestsBefore = try server.stats().token_requests
        let ended = await expectError { try await app.get("node", "1") }
        XCTAssertEqual(ended?.kind, .authentication)
        XCTAssertTrue(ended?.message.contains("authorize again") ?? false, ended?.message ?? "")
        XCTAssertEqual(try server.stats().token_requests, requestsBefore + 1, "one refused refresh, no code sent again")
        let again = await expectError { try await app.get("node", "1") }
        XCTAssertEqual(again?.kind, .authentication)
        XCTAssertEqual(try server.stats().token_grants["authorization_code"], 1)
    }

    func testTheHeldRefreshTokenStartsTheNextRunAndIsForgottenOnceRefused() async throws {
        let authorization = try OAuthAuthorization(clientID: "sdk-desktop", redirectURI: Self.redirectURI)
        let app = try client(authorization.grant(code: try authorization.code(fromRedirect: try await approve(authorization))))
        XCTAssertNil(app.oauthRefreshToken(), "no token yet")
        _ = try await app.get("node", "1")
        let first = try XCTUnwrap(app.oauthRefreshToken())
        try server.control("POST", "/__fake/oauth-expire")
        _ = try await app.get("node", "1")   // refreshed: the site rotates the refresh token
        let kept = try XCTUnwrap(app.oauthRefreshToken())
        XCTAssertNotEqual(kept, first)

        // The next run of the program starts from the one it kept, as the same person.
        let next = try client(.refreshToken(kept))
        let created = try await next.create("node", Data(#"{"type":[{"target_id":"article"}],"title":[{"value":"again"}]}"#.utf8))
        XCTAssertEqual(try created.json()["uid"]?[0]?["target_id"]?.idString, "2")
        let rotated = try XCTUnwrap(next.oauthRefreshToken())
        XCTAssertNotEqual(rotated, kept)
        // The first program's token was rotated away by the second: refused, and no longer held.
        try server.control("POST", "/__fake/oauth-expire")
        let refused = await expectError { try await app.get("node", "1") }
        XCTAssertEqual(refused?.kind, .authentication)
        XCTAssertNil(app.oauthRefreshToken())
        XCTAssertNotNil(next.oauthRefreshToken())
    }

    func testAWrongVerifierIsTheSitesInvalidGrant() async throws {
        let authorization = try OAuthAuthorization(clientID: "sdk-desktop", redirectURI: Self.redirectURI)
        let code = try authorization.code(fromRedirect: try await approve(authorization))
        let other = try OAuthAuthorization(clientID: "sdk-desktop", redirectURI: Self.redirectURI)
        let app = try client(.authorizationCode(code: code, redirectURI: Self.redirectURI, codeVerifier: other.codeVerifier))
        let error = await expectError { try await app.get("node", "1") }
        XCTAssertEqual(error?.status, 400)
        XCTAssertEqual(error?.kind, .authentication)
        XCTAssertEqual(error?.oauthError?.error, "invalid_grant")
        XCTAssertFalse(error?.message.contains(other.codeVerifier) ?? true)
        XCTAssertFalse(error?.message.contains(code) ?? true, "the code is never quoted")
    }

    /// A code exchanged for a token without a refresh token is spent: when that token is refused,
    /// the code is not sent again (a site revokes what a reused code gave) and the call says why.
    func testASpentCodeIsNotSentAgain() async throws {
        let authorization = try OAuthAuthorization(clientID: "sdk-desktop", redirectURI: Self.redirectURI)
        let app = try client(authorization.grant(code: try authorization.code(fromRedirect: try await approve(authorization))))
        try server.lie(#"{"token_type": "Bearer", "expires_in": 300, "access_token": "made.up.token"}"#,
                       under: "/oauth/token", count: 1)
        let error = await expectError { try await app.get("node", "1") }
        XCTAssertEqual(error?.kind, .authentication)
        XCTAssertTrue(error?.message.contains("gave no refresh token") ?? false, error?.message ?? "")
        XCTAssertNil(try server.stats().token_grants["authorization_code"], "the code went to the site once, to the lie")
    }
}
