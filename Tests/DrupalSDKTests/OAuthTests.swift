import Foundation
import Synchronization
import XCTest
@testable import DrupalSDK

/// OAuth 2 against the fake's extended site (simple_oauth 6): the three grants, refresh before
/// expiry and once after a 401, single flight, rotation, token errors, token providers.
final class OAuthTests: XCTestCase {
    var server: FakeDrupalServer { FakeDrupalServer.extended }

    override func setUp() async throws {
        try server.reset()
    }

    static func password(_ user: String = "admin", margin: Double = 30) -> OAuthSettings {
        var settings = OAuthSettings(clientID: "sdk-client", clientSecret: "sdk-secret",
                                     grant: .password(username: user, password: user))
        settings.refreshMargin = margin
        return settings
    }

    func makeClient(_ authentication: Authentication,
                    _ configure: (inout DrupalClient.Configuration) -> Void = { _ in }) throws -> DrupalClient {
        var configuration = DrupalClient.Configuration()
        configuration.authentication = authentication
        configure(&configuration)
        return try DrupalClient.live(baseURL: server.baseURL, configuration: configuration)
    }

    func title(_ response: DrupalResponse) throws -> String? { try Self.title(response) }
    static func title(_ response: DrupalResponse) throws -> String? { try response.json()["title"]?[0]?["value"]?.stringValue }

    func testPasswordGrantFetchesOnceThenReusesTheToken() async throws {
        let client = try makeClient(.oauth(Self.password()))
        for _ in 0..<3 {
            let user = try await client.get("user", "1").json()
            XCTAssertEqual(user["name"]?[0]?["value"]?.stringValue, "admin")
        }
        let stats = try server.stats()
        XCTAssertEqual(stats.token_requests, 1)
        XCTAssertEqual(stats.token_grants, ["password": 1])
    }

    func testForcedExpirySurvivesWithOneRefreshAsyncAndBlocking() async throws {
        let client = try makeClient(.oauth(Self.password()))
        _ = try await client.get("node", "1")
        try server.control("POST", "/__fake/oauth-expire")
        let article = try await client.get("node", "1")   // task-free path
        XCTAssertEqual(try title(article), "Article 1")
        try server.control("POST", "/__fake/oauth-expire")
        let outcome = try client.run(.get(entityType: "node", id: "2")) { _ in }     // blocking path
        XCTAssertEqual(try title(try outcome.get()!), "Article 2")
        try server.control("POST", "/__fake/oauth-expire")
        let created = try await client.create("node", FakeDrupalTestCase.article("via OAuth"))   // a write
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(try server.stats().token_grants, ["password": 1, "refresh_token": 3])
    }

    func testRefreshesBeforeExpiryWithoutA401() async throws {
        try server.control("POST", "/__fake/config", json: #"{"oauth_access_ttl": 2}"#)
        defer { _ = try? server.control("POST", "/__fake/config", json: #"{"defaults": true}"#) }
        let client = try makeClient(.oauth(Self.password(margin: 30)))   // at most half the lifetime: 1 s
        _ = try await client.get("node", "1")
        try await Task.sleep(for: .milliseconds(1200))
        _ = try await client.get("node", "1")
        let requests = JSONValue.parse(try server.control("GET", "/__fake/requests"))?["requests"]?.arrayValue ?? []
        XCTAssertEqual(requests.count, 4)   // token, GET, refresh, GET: no 401 in between
        XCTAssertEqual(try server.stats().token_grants, ["password": 1, "refresh_token": 1])
    }

    func testClientCredentialsFetchesANewTokenInsteadOfRefreshing() async throws {
        let client = try makeClient(.oauth(OAuthSettings(clientID: "sdk-client", clientSecret: "sdk-secret",
                                                         grant: .clientCredentials)))
        let me = try await client.get("user", "2").json()
        XCTAssertEqual(me["name"]?[0]?["value"]?.stringValue, "editor")
        try server.control("POST", "/__fake/oauth-expire")
        _ = try await client.get("user", "2")
        XCTAssertEqual(try server.stats().token_grants, ["client_credentials": 2])
    }

    func testClientInABasicHeaderAndAScope() async throws {
        var settings = OAuthSettings(clientID: "sdk-client", clientSecret: "sdk-secret", grant: .clientCredentials,
                                     scope: "content_editor")
        settings.clientAuthentication = .basicHeader
        let client = try makeClient(.oauth(settings))
        _ = try await client.get("node", "1")
        let last = JSONValue.parse(try server.control("GET", "/__fake/requests"))?["requests"]?[0]
        let body = last?["body"]?.stringValue ?? ""
        XCTAssertEqual(body, "grant_type=client_credentials&scope=content_editor")
        XCTAssertTrue(last?["headers"]?.arrayValue?.contains { $0[0]?.stringValue == "Authorization" } ?? false)
    }

    /// Regression: the client id and secret of a Basic header were form-encoded first (RFC 6749
    /// 2.3.1), but simple_oauth's BasicAuthSwap hands them to the token endpoint as they are: a
    /// secret with "+", "/", "=", "%" or a space was refused (401 invalid_client).
    func testASecretWithSymbolsInABasicHeader() async throws {
        var settings = OAuthSettings(clientID: "sdk-symbols", clientSecret: "p+s/w=rd%21 x", grant: .clientCredentials)
        settings.clientAuthentication = .basicHeader
        let user = try await makeClient(.oauth(settings)).get("user", "2").json()
        XCTAssertEqual(user["name"]?[0]?["value"]?.stringValue, "editor")
    }

    func testSixteenConcurrentRequestsAfterExpiryMakeOneRefresh() async throws {
        let client = try makeClient(.oauth(Self.password()))
        _ = try await client.get("node", "1")
        for round in 0..<2 {
            if round == 0 {
                try server.control("POST", "/__fake/oauth-expire")   // refused by the site: 16 401s
            } else {
                try server.control("POST", "/__fake/config", json: #"{"oauth_access_ttl": 1}"#)
                _ = try await client.oauthAuthenticate()
                try await Task.sleep(for: .milliseconds(1100))       // expired by the client's clock
            }
            let before = try server.stats().token_requests
            let titles = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<16 { group.addTask { try Self.title(try await client.get("node", String(index % 5 + 1))) } }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            XCTAssertEqual(titles.compactMap { $0 }.count, 16)
            XCTAssertEqual(try server.stats().token_requests - before, 1, "round \(round)")
        }
        _ = try? server.control("POST", "/__fake/config", json: #"{"defaults": true}"#)
    }

    /// The header refuses only a NaN margin (it is capped at half the token's lifetime): a day
    /// and more, or an infinite one, were refused.
    func testAnyMarginButNaNIsAccepted() throws {
        for margin in [0, 30, 100_000, Double.infinity] {
            var settings = Self.password()
            settings.refreshMargin = margin
            XCTAssertNoThrow(try settings.validate(), "\(margin)")
        }
        for margin in [Double.nan, -1] {
            var settings = Self.password()
            settings.refreshMargin = margin
            XCTAssertThrowsError(try settings.validate(), "\(margin)")
        }
    }

    private func slowTokenEndpoint(_ milliseconds: Int) throws {
        try server.control("POST", "/__fake/faults",
                           json: #"{"mode": "delay", "ms": \#(milliseconds), "path_prefix": "/oauth/token", "count": 1}"#)
    }

    /// Regression: a call made after the credentials changed waited for the token fetch the old
    /// credentials had started, and was sent with that token (as admin, not editor).
    func testACallAfterTheCredentialsChangedNeverGetsTheOldToken() async throws {
        let client = try makeClient(.oauth(Self.password("admin")))
        try slowTokenEndpoint(800)
        let asAdmin = Task { try await client.get("user", "1") }
        try await Task.sleep(for: .milliseconds(200))          // admin's token request is in flight
        try client.setAuthentication(.oauth(Self.password("editor")))
        let asEditor = await expectError { try await client.get("user", "1") }
        XCTAssertEqual(asEditor?.status, 403, "sent with admin's token")
        let adminStatus = try await asAdmin.value.status
        XCTAssertEqual(adminStatus, 200)
    }

    /// Regression: the token fetch ran in the task of the call that started it, so cancelling
    /// that call cancelled every call waiting for the token.
    func testCancellingTheCallThatFetchesTheTokenLeavesTheOthers() async throws {
        let client = try makeClient(.oauth(Self.password()))
        try slowTokenEndpoint(800)
        let first = Task { try await client.get("node", "1") }
        try await Task.sleep(for: .milliseconds(200))          // it fetches the token
        let others = (2...3).map { id in Task { try await client.get("node", String(id)) } }
        try await Task.sleep(for: .milliseconds(100))
        first.cancel()
        for other in others {
            let status = try await other.value.status
            XCTAssertEqual(status, 200)
        }
        // The cancelled token request still reaches the server after its delay: let it land
        // here, not in the next test's counts.
        try await Task.sleep(for: .milliseconds(800))
    }

    func testTokenErrorsAreAuthenticationErrorsWithTheDocument() async throws {
        let badSecret = try makeClient(.oauth(OAuthSettings(clientID: "sdk-client", clientSecret: "wrong",
                                                            grant: .clientCredentials)))
        let error = await expectError { try await badSecret.get("node", "1") }
        XCTAssertEqual(error?.status, 401)
        XCTAssertEqual(error?.kind, .authentication)
        XCTAssertEqual(error?.oauthError?.error, "invalid_client")
        XCTAssertEqual(error?.oauthError?.errorDescription, "Client authentication failed")
        XCTAssertEqual(error?.message, "the OAuth token request failed (HTTP 401): invalid_client: Client authentication failed")

        let badPassword = try makeClient(.oauth(OAuthSettings(clientID: "sdk-client", clientSecret: "sdk-secret",
                                                              grant: .password(username: "admin", password: "s3cr3t!"))))
        let refused = await expectError { try await badPassword.get("node", "1") }
        XCTAssertEqual(refused?.status, 400)
        XCTAssertEqual(refused?.kind, .authentication)
        XCTAssertEqual(refused?.oauthError?.error, "invalid_grant")
        XCTAssertFalse(refused?.description.contains("s3cr3t!") ?? true)

        let scope = try makeClient(.oauth(OAuthSettings(clientID: "sdk-client", clientSecret: "sdk-secret",
                                                        grant: .clientCredentials, scope: "no_such_scope")))
        let badScope = await expectError { try await scope.oauthAuthenticate() }
        XCTAssertEqual(badScope?.oauthError?.error, "invalid_scope")
        XCTAssertEqual(badScope?.oauthError?.hint, "Check the `no_such_scope` scope")
        XCTAssertEqual(try server.stats().token_requests, 3)   // each tried once: never a loop
    }

    func testARevokedRefreshTokenIsNotRetried() async throws {
        // A refresh token that was already used: Drupal revoked it.
        let fetch = JSONValue.parse(Data(try server.control("POST", "/oauth/token", form:
            "grant_type=password&client_id=sdk-client&client_secret=sdk-secret&username=admin&password=admin")))
        let refresh = try XCTUnwrap(fetch?["refresh_token"]?.stringValue)
        _ = try server.control("POST", "/oauth/token", form:
            "grant_type=refresh_token&client_id=sdk-client&client_secret=sdk-secret&refresh_token=\(refresh)")
        let before = try server.stats().token_requests
        let client = try makeClient(.oauth(OAuthSettings(clientID: "sdk-client", clientSecret: "sdk-secret",
                                                         grant: .refreshToken(refresh))))
        let error = await expectError { try await client.get("node", "1") }
        XCTAssertEqual(error?.status, 400)
        XCTAssertEqual(error?.oauthError?.error, "invalid_grant")
        XCTAssertEqual(error?.oauthError?.hint, "Token has been revoked")
        XCTAssertFalse(error?.message.contains(refresh) ?? true)
        XCTAssertEqual(try server.stats().token_requests - before, 1)
    }

    func testAPasswordSessionWhoseRefreshIsRefusedLogsInAgainOnce() async throws {
        try server.control("POST", "/__fake/config", json: #"{"oauth_refresh_ttl": 1}"#)
        defer { _ = try? server.control("POST", "/__fake/config", json: #"{"defaults": true}"#) }
        let client = try makeClient(.oauth(Self.password()))
        _ = try await client.get("node", "1")
        try await Task.sleep(for: .milliseconds(1100))   // the refresh token has expired too
        try server.control("POST", "/__fake/oauth-expire")
        let article = try await client.get("node", "1")
        XCTAssertEqual(try title(article), "Article 1")
        XCTAssertEqual(try server.stats().token_grants, ["password": 2])
        XCTAssertEqual(try server.stats().token_requests, 3)   // password, refused refresh, password
    }

    func testARefusedStaticBearerTokenSaysWhy() async throws {
        let client = try makeClient(.bearer(token: "garbage"))
        let rest = await expectError { try await client.get("node", "1") }
        XCTAssertEqual(rest?.status, 401)
        XCTAssertEqual(rest?.kind, .authentication)
        XCTAssertEqual(rest?.oauthError?.error, "access_denied")
        XCTAssertEqual(rest?.oauthError?.realm, "OAuth")
        XCTAssertEqual(rest?.oauthError?.errorDescription, "The JWT string must have two dots")
        XCTAssertEqual(rest?.drupalMessage, "The resource owner or authorization server denied the request.")
        XCTAssertEqual(rest?.message, "The resource owner or authorization server denied the request.; the Bearer "
                       + "token was refused: The JWT string must have two dots")
        let jsonapi = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/jsonapi/node/article", format: nil))
        }
        XCTAssertEqual(jsonapi?.status, 401)
        XCTAssertEqual(jsonapi?.headers["Content-Type"], "text/html; charset=UTF-8")
        XCTAssertEqual(jsonapi?.oauthError?.errorDescription, "The JWT string must have two dots")
        XCTAssertTrue(jsonapi?.message.hasSuffix("the Bearer token was refused: The JWT string must have two dots") ?? false)
    }

    func testATokenProviderIsAskedAgainAfterARefusal() async throws {
        try server.control("POST", "/__fake/bearer", json: #"{"token": "minted-elsewhere", "uid": 2}"#)
        let reasons = Mutex<[TokenProvider.Reason]>([])
        let provider = TokenProvider { reason in
            let count = reasons.withLock { $0.append(reason); return $0.count }
            return AccessToken(count == 1 ? "stale.token.value" : "minted-elsewhere", expiresIn: 300)
        }
        let client = try makeClient(.tokenProvider(provider))
        let user = try await client.get("user", "2").json()
        XCTAssertEqual(user["name"]?[0]?["value"]?.stringValue, "editor")
        XCTAssertEqual(reasons.withLock { $0 }, [.initial, .rejected])
        _ = try await client.get("user", "2")
        XCTAssertEqual(reasons.withLock { $0 }.count, 2)

        let failing = try makeClient(.tokenProvider(TokenProvider { _ in
            throw DrupalError(.network, "the vault is down")
        }))
        let error = await expectError { try await failing.get("node", "1") }
        XCTAssertEqual(error?.code, .network)
        XCTAssertEqual(error?.message, "the token provider failed: the vault is down")
    }

    /// Regression: a first `authenticate` asked the provider with `.initial`, where the header
    /// and the docs promise `.rejected` for it.
    func testAuthenticateAsksTheProviderWithRejected() async throws {
        try server.control("POST", "/__fake/bearer", json: #"{"token": "minted-elsewhere", "uid": 2}"#)
        let reasons = Mutex<[TokenProvider.Reason]>([])
        let client = try makeClient(.tokenProvider(TokenProvider { reason in
            reasons.withLock { $0.append(reason) }
            return AccessToken("minted-elsewhere", expiresIn: 300)
        }))
        _ = try await client.oauthAuthenticate()
        _ = try await client.oauthAuthenticate()
        XCTAssertEqual(reasons.withLock { $0 }, [.rejected, .rejected])
    }

    /// Regression: the token request carried the cookie of a login session, a credential the
    /// token endpoint does not take (the recordings send none) and must not get.
    func testTheTokenRequestCarriesNoSessionCookie() async throws {
        let client = try makeClient(.none)
        _ = try await client.login("admin", "admin")
        XCTAssertTrue(client.hasSession())
        try client.setAuthentication(.oauth(Self.password("editor")))
        _ = try await client.oauthAuthenticate()
        XCTAssertEqual(try server.lastRequest()?["target"]?.stringValue, "/oauth/token")
        XCTAssertEqual(try server.sentHeaderValues("Cookie"), [])
    }

    /// A lifetime too long for the refresh clock (a hostile token endpoint's `expires_in`, a
    /// provider's) trapped converting it to milliseconds: the process died. It means "long".
    func testAnEnormousTokenLifetimeIsALongOneNotACrash() async throws {
        try server.control("POST", "/__fake/bearer", json: #"{"token": "minted-elsewhere", "uid": 2}"#)
        let provider = TokenProvider { _ in AccessToken("minted-elsewhere", expiresIn: 1e300) }
        let client = try makeClient(.tokenProvider(provider))
        let user = try await client.get("user", "2").json()
        XCTAssertEqual(user["name"]?[0]?["value"]?.stringValue, "editor")

        let answer = #"{"access_token": "abc", "token_type": "Bearer", "expires_in": 1e300}"#
        try server.lie(answer, under: "/oauth/token", count: 1)
        let lying = try makeClient(.oauth(Self.password()))
        // The made-up token is refused with a 401, and the next one fetched is the site's own.
        let admin = try await lying.get("user", "1").json()
        XCTAssertEqual(admin["name"]?[0]?["value"]?.stringValue, "admin")
    }

    /// Regression: a token too long for any header (70 KB) was taken, and every request after it
    /// failed as too large, the client stuck with it; and a lifetime that is no number of
    /// seconds (-1) was reported as "a token that cannot be sent in a header".
    func testATokenTooLongToSendIsRefusedWhenItArrives() async throws {
        let long = String(repeating: "t", count: 70_000)
        try server.lie(#"{"access_token": "\#(long)", "token_type": "Bearer", "expires_in": 300}"#, under: "/oauth/token", count: 1)
        let error = await expectError { try await makeClient(.oauth(Self.password())).oauthAuthenticate() }
        XCTAssertEqual(error?.code, .decode)
        XCTAssertFalse(error?.message.contains("ttttt") ?? true)

        try server.lie(#"{"access_token": "abc", "token_type": "Bearer", "expires_in": -1}"#, under: "/oauth/token", count: 1)
        let unknownLifetime = try await makeClient(.oauth(Self.password())).oauthAuthenticate()
        XCTAssertEqual(unknownLifetime.status, 200)

        try server.lie(long, under: "/session/token", count: 1)
        let session = try makeClient(.none)
        let csrf = await expectError { try await session.refreshCSRFToken() }
        XCTAssertEqual(csrf?.code, .decode)

        let tooLong = await expectError { try makeClient(.bearer(token: long)) }
        XCTAssertEqual(tooLong?.code, .invalidArgument)
    }

    func testSecretsNeverReachLogsEventsOrErrors() async throws {
        let lines = LineLog()
        let client = try makeClient(.oauth(Self.password("editor"))) { configuration in
            configuration.middleware = [.logging { lines.add($0) }]
        }
        _ = client.addObserver { event in lines.add("\(event)") }
        _ = try await client.get("node", "1")
        try server.control("POST", "/__fake/oauth-expire")
        _ = try await client.get("node", "1")
        let authenticated = try await client.oauthAuthenticate()
        let summary = try authenticated.json()
        XCTAssertEqual(summary["token_type"]?.stringValue, "Bearer")
        XCTAssertEqual(summary["has_refresh_token"], .bool(true))
        XCTAssertNil(summary["access_token"])
        let text = lines.lines.joined(separator: "\n") + String(decoding: authenticated.body, as: UTF8.self)
        XCTAssertTrue(text.contains("POST"), text)
        for secret in ["sdk-secret", "eyJ", "def50200", "password="] { XCTAssertFalse(text.contains(secret), secret) }

        XCTAssertThrowsError(try client.setAuthentication(.oauth(OAuthSettings(
            clientID: "sdk-client", clientSecret: "bad\r\nsecret", grant: .clientCredentials)))) { error in
            XCTAssertEqual((error as? DrupalError)?.code, .invalidArgument)
            XCTAssertFalse("\(error)".contains("bad"))
        }
    }
}
