import DrupalSDK
import Foundation
import XCTest

/// simple_oauth on the mock site (MockDrupal.addOAuthConsumer): the token endpoint's grants,
/// rotation and refusals, Bearer checks, and the authorization code grant through a logged-in
/// "browser", as the fake's extended site answers them (OAuthTests, OAuthCodeGrantTests).
final class MockOAuthTests: XCTestCase {
    static let redirectURI = "http://127.0.0.1:8765/callback"

    func site() -> MockDrupal {
        let site = MockDrupal()
        site.addEntity("node", .object(["type": .string("article"), "title": .string("Article 1"), "status": .bool(true)]))
        site.addOAuthConsumer(MockOAuthConsumer(clientID: "app", secret: "app-secret", uid: "2"))
        site.addOAuthConsumer(MockOAuthConsumer(clientID: "desktop", grants: ["authorization_code", "refresh_token"],
                                                redirectURIs: [Self.redirectURI]))
        return site
    }

    func client(_ site: MockDrupal, _ grant: OAuthSettings.Grant, clientID: String = "app",
                secret: String? = "app-secret") -> DrupalClient {
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .oauth(OAuthSettings(clientID: clientID, clientSecret: secret, grant: grant))
        return DrupalClient.mock(site, configuration: configuration)
    }

    func grants(_ site: MockDrupal) -> [String] {
        site.receivedRequests.filter { $0.url.hasSuffix("/oauth/token") }.compactMap { request in
            String(decoding: request.body ?? Data(), as: UTF8.self).split(separator: "&")
                .first { $0.hasPrefix("grant_type=") }.map { String($0.dropFirst("grant_type=".count)) }
        }
    }

    func ownerOfANewNode(_ client: DrupalClient) async throws -> String? {
        let created = try await client.create("node", Data(#"{"type": "article", "title": [{"value": "t"}]}"#.utf8))
        return try created.json()["uid"]?[0]?["target_id"]?.idString
    }

    func testClientCredentialsActAsTheConsumersUser() async throws {
        let site = site()
        let app = client(site, .clientCredentials)
        let owner = try await ownerOfANewNode(app)
        XCTAssertEqual(owner, "2")
        _ = try await app.get("node", "1")
        XCTAssertEqual(grants(site), ["client_credentials"], "one token for both calls")
        XCTAssertNil(app.oauthRefreshToken(), "client_credentials gives no refresh token")
    }

    func testThePasswordGrantRefreshesAndRotates() async throws {
        let site = site()
        let app = client(site, .password(username: "admin", password: "admin"))
        let owner = try await ownerOfANewNode(app)
        XCTAssertEqual(owner, "1")
        let first = try XCTUnwrap(app.oauthRefreshToken())
        site.expireOAuthTokens()
        _ = try await app.get("node", "1")
        XCTAssertEqual(grants(site), ["password", "refresh_token"])
        XCTAssertNotEqual(app.oauthRefreshToken(), first)
        // The rotated-away token is revoked: a client starting from it is refused.
        let stale = client(site, .refreshToken(first))
        let refused = await expectError { _ = try await stale.get("node", "1") }
        XCTAssertEqual(refused?.kind, .authentication)
        XCTAssertEqual(refused?.oauthError?.error, "invalid_grant")
        XCTAssertEqual(refused?.oauthError?.hint, "Token has been revoked")
    }

    func testTheTokenEndpointsRefusals() async throws {
        let site = site()
        let wrongSecret = await expectError { _ = try await self.client(site, .clientCredentials, secret: "nope").get("node", "1") }
        XCTAssertEqual(wrongSecret?.status, 401)
        XCTAssertEqual(wrongSecret?.oauthError?.error, "invalid_client")
        XCTAssertFalse(wrongSecret?.message.contains("nope") ?? true)
        let badPassword = await expectError { _ = try await self.client(site, .password(username: "admin", password: "x")).get("node", "1") }
        XCTAssertEqual(badPassword?.oauthError?.errorDescription, "The user credentials were incorrect.")
        let notAllowed = await expectError { _ = try await self.client(site, .clientCredentials, clientID: "desktop", secret: nil).get("node", "1") }
        XCTAssertEqual(notAllowed?.oauthError?.error, "unsupported_grant_type")
        let unknown = await expectError { _ = try await self.client(site, .clientCredentials, clientID: "who").get("node", "1") }
        XCTAssertEqual(unknown?.oauthError?.error, "invalid_client")
        // A GET is no token request.
        let get = await expectError { _ = try await DrupalClient.mock(site).request(DrupalRequest(method: "GET", path: "/oauth/token", format: nil)) }
        XCTAssertEqual(get?.status, 405)
    }

    func testABearerTokenTheSiteDidNotIssueIsA401() async throws {
        let site = site()
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .bearer(token: "not.a.token")
        let error = await expectError { _ = try await DrupalClient.mock(site, configuration: configuration).get("node", "1") }
        XCTAssertEqual(error?.status, 401)
        XCTAssertEqual(error?.oauthError?.error, "access_denied")
        XCTAssertEqual(error?.oauthError?.errorDescription, "Error while decoding from JSON")
        // Before any consumer (no simple_oauth), such a token is ignored: anonymous.
        let plain = MockDrupal()
        plain.addEntity("node", .object(["type": .string("article"), "title": .string("Article 1"), "status": .bool(true)]))
        let read = try await DrupalClient.mock(plain, configuration: configuration).get("node", "1")
        XCTAssertEqual(read.status, 200)
        // A token registered with addBearerToken stays valid.
        site.addBearerToken("seam", uid: "1")
        configuration.authentication = .bearer(token: "seam")
        let seam = try await DrupalClient.mock(site, configuration: configuration).get("node", "1")
        XCTAssertEqual(seam.status, 200)
    }

    func testTheCodeGrantThroughALoggedInBrowser() async throws {
        let site = site()
        let authorization = try OAuthAuthorization(clientID: "desktop", redirectURI: Self.redirectURI)
        let url = try authorization.url(site: "http://drupal.mock")
        let path = String(url.dropFirst("http://drupal.mock".count))
        // Not logged in: to the login page, and back here after.
        let anonymous = await expectError { _ = try await DrupalClient.mock(site).request(DrupalRequest(method: "GET", path: path, format: nil)) }
        XCTAssertTrue(anonymous?.redirectLocation?.hasPrefix("http://drupal.mock/user/login?destination=/oauth/authorize%3F") ?? false,
                      anonymous?.redirectLocation ?? "")
        // Basic is no credential of the authorize page (basic_auth is not a global provider).
        var basic = DrupalClient.Configuration()
        basic.authentication = .basic(user: "editor", password: "editor")
        let refusedBasic = await expectError {
            _ = try await DrupalClient.mock(site, configuration: basic).request(DrupalRequest(method: "GET", path: path, format: nil))
        }
        XCTAssertEqual(refusedBasic?.status, 403)
        let browser = DrupalClient.mock(site)
        _ = try await browser.login("editor", "editor")
        let approved = await expectError { _ = try await browser.request(DrupalRequest(method: "GET", path: path, format: nil)) }
        let redirected = try XCTUnwrap(approved?.redirectLocation)
        XCTAssertTrue(redirected.hasPrefix(Self.redirectURI + "?code=def50200"), redirected)
        let app = client(site, authorization.grant(code: try authorization.code(fromRedirect: redirected)),
                         clientID: "desktop", secret: nil)
        let owner = try await ownerOfANewNode(app)
        XCTAssertEqual(owner, "2", "the editor's token")
        XCTAssertNotNil(app.oauthRefreshToken())
        // The code is spent: another client sending it again is refused.
        let again = client(site, authorization.grant(code: try authorization.code(fromRedirect: redirected)),
                           clientID: "desktop", secret: nil)
        let spent = await expectError { _ = try await again.get("node", "1") }
        XCTAssertEqual(spent?.oauthError?.hint, "Authorization code has been revoked")
        // Without the verifier's challenge a public client is refused: the front page, no code.
        let noPKCE = path.replacingOccurrences(of: "code_challenge=", with: "x=")
        let refused = await expectError { _ = try await browser.request(DrupalRequest(method: "GET", path: noPKCE, format: nil)) }
        XCTAssertEqual(refused?.redirectLocation, "http://drupal.mock/")
    }
}
