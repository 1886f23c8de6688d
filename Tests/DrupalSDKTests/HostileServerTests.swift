import Foundation
import XCTest
@testable import DrupalSDK

/// What a hostile or broken server (and a careless caller) must not get: credentials, bodies or
/// cookies across origins, smuggled requests, secrets quoted in errors, success for a redirect or
/// an empty entity, "invalid argument" for a server's protocol error, "out of memory" for a size
/// limit. Against the fake server, with a second fake as "the other origin".
final class HostileServerTests: FakeDrupalTestCase {
    static let other = FakeDrupalServer(extraArguments: [])

    override func setUp() async throws {
        try await super.setUp()
        try Self.other.reset()
    }

    /// The last request the other origin received, as JSON text (lower-cased).
    private func otherSaw() throws -> String {
        String(decoding: try Self.other.control("GET", "/__fake/last-request"), as: UTF8.self).lowercased()
    }

    private func redirectOnce(_ code: Int, to url: String) throws {
        try server.control("POST", "/__fake/faults", json: #"{"mode": "redirect", "to": "\#(url)", "code": \#(code), "count": 1}"#)
    }

    func testCSRFTokenAndCredentialsStayOnTheSiteWhenAPOSTIsRedirected() async throws {
        let client = try makeClient { $0.transport.followRedirects = true; $0.secretHeaders = ["X-Api-Key"] }
        _ = try await client.login("admin", "admin")
        try redirectOnce(302, to: Self.other.baseURL + "/node/1?_format=json")
        var headers = HTTPHeaders()
        headers.add("X-Api-Key", "k-123")
        _ = try? await client.request(DrupalRequest(method: "POST", path: "/node", headers: headers,
                                                    body: Self.article("moved")))
        let seen = try otherSaw()
        XCTAssertTrue(seen.contains("\"get\""), "302 after a POST is followed as a GET: \(seen)")
        for secret in ["x-csrf-token", "cookie", "authorization", "x-api-key", "k-123", "moved"] {
            XCTAssertFalse(seen.contains(secret), "\(secret) reached the other origin: \(seen)")
        }
    }

    /// Regression: the redirect target's origin was parsed Character by Character, and "?" followed
    /// by a combining mark (U+0301) is one Character, so "http://other?\u{301}@site/x" read as the
    /// site (after the "@") while libcurl, on the bytes, connects to "other" with the session.
    func testACombiningMarkCannotDisguiseAnotherOriginAsTheSite() async throws {
        let client = try makeClient { $0.transport.followRedirects = true; $0.secretHeaders = ["X-Api-Key"] }
        _ = try await client.login("admin", "admin")
        let site = server.baseURL.dropFirst("http://".count)
        // The fake writes headers as Latin-1: U+00CC U+0081 go out as the UTF-8 bytes of U+0301.
        try redirectOnce(302, to: Self.other.baseURL + "?\\u00cc\\u0081@" + site + "/node/1")
        var headers = HTTPHeaders()
        headers.add("X-Api-Key", "k-123")
        _ = try? await client.request(DrupalRequest(method: "GET", path: "/node/2", headers: headers))
        let seen = try otherSaw()
        XCTAssertTrue(seen.contains("\"get\""), "the redirect was followed to the other origin: \(seen)")
        for secret in ["cookie", "authorization", "x-api-key", "k-123"] {
            XCTAssertFalse(seen.contains(secret), "\(secret) reached the other origin: \(seen)")
        }
    }

    /// Regression: a Location with user info ("http://planted:pw@site/x") was followed with it,
    /// and libcurl sent those server-chosen credentials as Basic authentication: a hop carried an
    /// Authorization header the client had not decided. RFC 9110 §4.2.4 makes it an error.
    func testARedirectToAURLWithUserInfoIsRefused() async throws {
        let client = try makeClient { $0.transport.followRedirects = true }
        let site = server.baseURL.dropFirst("http://".count)
        try redirectOnce(302, to: "http://planted:pw@" + site + "/node/2?_format=json")
        let before = try server.stats().requests
        let error = await expectError { try await client.request(DrupalRequest(method: "GET", path: "/node/1")) }
        XCTAssertEqual(error?.code, .network)
        XCTAssertEqual(error?.status, 302)
        XCTAssertTrue(error?.message.contains("user info") ?? false, error?.message ?? "")
        XCTAssertFalse(error?.message.contains("pw") ?? true, error?.message ?? "")
        let authorization = try server.sentHeaderValues("Authorization")
        XCTAssertEqual(try server.stats().requests, before + 1, "the redirect was followed, with \(authorization)")
    }

    func testABodyIsNeverReplayedToAnotherOrigin() async throws {
        let client = try makeClient { $0.transport.followRedirects = true }
        _ = try await client.login("admin", "admin")
        for code in [307, 308] {
            try redirectOnce(code, to: Self.other.baseURL + "/node?_format=json")
            let before = try JSONDecoder().decode(FakeDrupalServer.Stats.self,
                                                  from: try Self.other.control("GET", "/__fake/stats")).requests
            let error = await expectError { try await client.create("node", Self.article("secret body")) }
            XCTAssertEqual(error?.status, code)
            XCTAssertEqual(error?.code, .network)
            let after = try JSONDecoder().decode(FakeDrupalServer.Stats.self,
                                                 from: try Self.other.control("GET", "/__fake/stats")).requests
            XCTAssertEqual(after, before, "nothing was sent to the other origin on \(code)")
        }
    }

    /// Regression: a Location was taken for an absolute URL when "://" appeared anywhere in it, so
    /// "/node/2?destination=https://..." (SSO and Drupal's own destination parameters) was refused
    /// as "not http or https", and "javascript:..." was followed as a path on the site.
    func testARedirectIsAbsoluteOnlyWhenItStartsWithAScheme() async throws {
        let client = try makeClient { $0.transport.followRedirects = true }
        try redirectOnce(302, to: "/node/2?_format=json&destination=https://example.com/x")
        let node = try await client.request(DrupalRequest(method: "GET", path: "/node/1")).json()
        XCTAssertEqual(node["nid"]?[0]?["value"]?.idString, "2")
        try redirectOnce(302, to: "javascript:alert(1)")
        let before = try server.stats().requests
        let error = await expectError { try await client.request(DrupalRequest(method: "GET", path: "/node/1")) }
        XCTAssertEqual(error?.code, .network)
        XCTAssertEqual(try server.stats().requests, before + 1, "the redirect was followed")
    }

    func testARedirectOnTheSiteKeepsTheSessionAndFollowsWithAGet() async throws {
        let client = try makeClient { $0.transport.followRedirects = true }
        _ = try await client.login("admin", "admin")
        try redirectOnce(303, to: server.baseURL + "/node/2?_format=json")
        let node = try await client.request(DrupalRequest(method: "GET", path: "/node/1")).json()
        XCTAssertEqual(node["nid"]?[0]?["value"]?.idString, "2")
        let seen = String(decoding: try server.control("GET", "/__fake/last-request"), as: UTF8.self).lowercased()
        XCTAssertTrue(seen.contains("cookie"), "the site's own cookie goes to the site: \(seen)")
    }

    func testARedirectTargetCannotPlantOrOverwriteCookies() async throws {
        let client = try makeClient { $0.transport.followRedirects = true }
        _ = try await client.login("admin", "admin")
        try Self.other.control("POST", "/__fake/faults", json: #"{"mode": "setcookie", "raw": ["evil=1; Path=/", "SESSfake=stolen; Path=/"], "count": 1}"#)
        try redirectOnce(302, to: Self.other.baseURL + "/node/1?_format=json")
        _ = try await client.get("node", "1")
        _ = try await client.get("node", "2")
        let seen = String(decoding: try server.control("GET", "/__fake/last-request"), as: UTF8.self)
        XCTAssertFalse(seen.contains("evil=1"), seen)
        XCTAssertFalse(seen.contains("stolen"), seen)
        let loggedIn = try await client.loginStatus().loggedIn
        XCTAssertTrue(loggedIn, "the session cookie survived")
    }

    /// A Location with dot segments: libcurl sends "/node/../user/login_status" as
    /// "/user/login_status", so the cookies are chosen for that path too. The cookie scoped to
    /// /node went along to /user/login_status.
    func testARedirectsDotSegmentsAreResolvedBeforeCookiesAreChosen() async throws {
        let client = try makeClient { $0.transport.followRedirects = true }
        try server.control("POST", "/__fake/faults", json: #"{"mode": "setcookie", "raw": ["scoped=1; Path=/node"], "count": 1}"#)
        _ = try await client.get("node", "1")
        for location in ["../user/login_status?_format=json", "/node/./../user/login_status?_format=json",
                         server.baseURL + "/node/1/../../user/login_status?_format=json"] {
            try redirectOnce(302, to: location)
            let answer = try await client.request(DrupalRequest(method: "GET", path: "/node/1"))
            XCTAssertEqual(answer.status, 200, location)
            let seen = String(decoding: try server.control("GET", "/__fake/last-request"), as: UTF8.self)
            XCTAssertTrue(seen.contains("/user/login_status"), seen)
            XCTAssertFalse(seen.contains("scoped=1"), "\(location): \(seen)")
        }
        _ = try await client.get("node", "2")
        let seen = String(decoding: try server.control("GET", "/__fake/last-request"), as: UTF8.self)
        XCTAssertTrue(seen.contains("scoped=1"), "the cookie still goes to its path: \(seen)")
    }

    func testCookieDomainPathSecureAndExpiryAreHonoured() async throws {
        let client = try makeClient()
        let cookies = [
            "evil=1; Domain=evil.example; Path=/", "here=1; Path=/only/here", "sec=1; Secure; Path=/",
            "gone=1; Max-Age=0; Path=/", "old=1; Expires=Thu, 01 Jan 1970 00:00:01 GMT; Path=/", "keep=1; Path=/",
            // The largest Max-Age wrapped around the clock to the past: the cookie was dropped.
            "long=1; Max-Age=9223372036854775807; Path=/",
        ]
        let raw = cookies.map { "\"\($0)\"" }.joined(separator: ", ")
        try server.control("POST", "/__fake/faults", json: #"{"mode": "setcookie", "raw": [\#(raw)], "count": 1}"#)
        _ = try await client.get("node", "1")
        _ = try await client.get("node", "2")
        var seen = String(decoding: try server.control("GET", "/__fake/last-request"), as: UTF8.self)
        XCTAssertTrue(seen.contains("keep=1") && seen.contains("long=1"), seen)
        for absent in ["evil=1", "here=1", "sec=1", "gone=1", "old=1"] { XCTAssertFalse(seen.contains(absent), "\(absent): \(seen)") }
        _ = try? await client.request(DrupalRequest(method: "GET", path: "/only/here/x"))
        seen = String(decoding: try server.control("GET", "/__fake/last-request"), as: UTF8.self)
        XCTAssertTrue(seen.contains("here=1"), "a Path cookie goes to its path: \(seen)")
    }

    /// Cookies each within the per-cookie limit, but together over the request's header limit:
    /// every later request failed as too large, the client stuck until its session was forgotten.
    /// The jar keeps the newest that fit its byte budget.
    func testCookiesTooManyBytesTogetherDoNotStickTheClient() async throws {
        let client = try makeClient()
        let big = String(repeating: "v", count: 4000)
        let raw = (0..<30).map { "\"c\($0)=\(big); Path=/\"" }.joined(separator: ", ")
        try server.control("POST", "/__fake/faults", json: #"{"mode": "setcookie", "raw": [\#(raw)], "count": 1}"#)
        _ = try await client.get("node", "1")
        let after = try await client.get("node", "2")
        XCTAssertEqual(after.status, 200)
        let seen = String(decoding: try server.control("GET", "/__fake/last-request"), as: UTF8.self)
        XCTAssertTrue(seen.contains("c29=v"), "the newest cookie is kept")
        XCTAssertFalse(seen.contains("c0=v"), "the oldest went to make room")
    }

    func testRedirectsNotFollowedAreErrorsWithTheirLocation() async throws {
        let client = try makeClient()
        for code in [301, 302, 307] {
            var headers = HTTPHeaders()
            headers.add("X-Fake-Fault", "redirect;to=/node/2?token=s3cret;code=\(code)")
            let error = await expectError {
                try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
            }
            XCTAssertEqual(error?.code, .http)
            XCTAssertEqual(error?.status, code)
            XCTAssertEqual(error?.redirectLocation, "/node/2?token=s3cret")
            XCTAssertFalse(error?.message.contains("s3cret") ?? true, error?.message ?? "")
        }
    }

    /// A Location's userinfo ("user:password@") is a secret too: the message quoted it whole, as
    /// did a log of the redirect.
    func testTheUserinfoOfARedirectsLocationIsNeverQuoted() async throws {
        let log = LineLog()
        let client = try makeClient { $0.middleware = [.logging { log.add($0) }] }
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "redirect;to=http://admin:s3cretPW@127.0.0.1:1/x?token=t0ken;code=302")
        let error = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(error?.code, .http)
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("http://<redacted>@127.0.0.1:1/x?token=<redacted>"), message)
        // The answer's log (the request's own line carries the test's fault header).
        let text = log.lines.filter { $0.hasPrefix("<") }.joined(separator: "\n")
        XCTAssertTrue(text.contains("Location: http://<redacted>@127.0.0.1:1/x?token=<redacted>"), text)
        for secret in ["s3cretPW", "admin:", "t0ken"] {
            XCTAssertFalse(message.contains(secret), message)
            XCTAssertFalse(text.contains(secret), text)
        }
    }

    func testEntityReadsWithoutAnObjectAreDecodeErrors() async throws {
        let client = try makeClient()
        for (fault, name) in [("status;code=200;body=", "empty"), ("status;code=200;body=null", "null")] {
            var configuration = DrupalClient.Configuration()
            configuration.defaultHeaders.add("X-Fake-Fault", fault)
            let faulty = try DrupalClient.live(baseURL: server.baseURL, configuration: configuration)
            let error = await expectError { try await faulty.get("node", "1") }
            XCTAssertEqual(error?.code, .decode, name)
        }
        _ = client
    }

    func testABrokenServerIsANetworkErrorNotTheCallersMistake() async throws {
        let client = try makeClient()
        for fault in ["garbage", "bad_status;kind=code", "bad_status;kind=version"] {
            var headers = HTTPHeaders()
            headers.add("X-Fake-Fault", fault)
            let error = await expectError {
                try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
            }
            XCTAssertEqual(error?.code, .network, fault + ": " + (error?.message ?? ""))
        }
        let redirecting = try makeClient { $0.transport.followRedirects = true }
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "redirect;to=ftp://example.com/x;code=302")
        let ftp = await expectError {
            try await redirecting.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(ftp?.code, .network)
    }

    /// Regression: an error body is parsed after its transfer, where no timeout applies, and
    /// parsing JSON into a JSONValue with JSONDecoder cost O(leaves x depth) and more: a 130 KB
    /// 404 body nested 500 deep with 60,000 numbers took over a minute of CPU.
    func testADeeplyNestedErrorBodyCostsNoMoreThanItsSize() async throws {
        let client = try makeClient()
        let body = String(repeating: "[", count: 499) + Array(repeating: "1", count: 60_000).joined(separator: ",")
            + String(repeating: "]", count: 499)
        let json = String(decoding: try JSONEncoder().encode(["mode": "status", "body": body]), as: UTF8.self)
        try server.control("POST", "/__fake/faults", json: String(json.dropLast()) + #", "code": 404, "count": 1}"#)
        let started = ContinuousClock.now
        let error = await expectError { try await client.get("node", "1") }
        XCTAssertEqual(error?.status, 404)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))   // a bound, not a speed target
    }

    /// Regression: libcurl hands the trailer fields after a chunked body to the header callback,
    /// and they were merged into the answer's headers (RFC 9110 §6.5.1 forbids it): a Set-Cookie
    /// there was stored and sent with later requests.
    func testTrailerFieldsAreNotHeaders() async throws {
        let client = try makeClient()
        let answer = try await client.request(faulted("trailer;name=X-After;value=yes"))
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.headers["Trailer"], "X-After")
        XCTAssertNil(answer.headers["X-After"])
        _ = try await client.request(faulted("trailer"))   // Set-Cookie: SESSplanted=trailer
        _ = try await client.get("node", "1")
        XCTAssertEqual(try server.sentHeaderValues("Cookie"), [])
    }

    /// Header lines without end: libcurl stops them at a limit only in some versions (and calls
    /// it a network error); the library caps what it keeps at maxResponseHeaderBytes.
    func testEndlessHeadersAreTooLarge() async throws {
        let client = try makeClient { $0.retry.maxRetries = 0 }
        let error = await expectError { try await client.request(faulted("endless_headers")) }
        XCTAssertEqual(error?.code, .tooLarge, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("more than 262144 bytes of headers") ?? false, error?.message ?? "")
        // under libcurl's 100 KiB a line
        let answered = try await client.request(faulted("huge_header;bytes=92160"))
        XCTAssertEqual(answered.headers["X-Fake-Huge"]?.utf8.count, 92160)
    }

    func testSizeLimitsSayWhichLimit() async throws {
        let client = try makeClient()
        var headers = HTTPHeaders()
        headers.add("X-Fake-Fault", "huge_header;bytes=1048576")
        let header = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertEqual(header?.code, .tooLarge, header?.message ?? "")
        let longID = String(repeating: "9", count: 1 << 20)
        let id = await expectError { try await client.get("node", longID) }
        XCTAssertEqual(id?.code, .tooLarge)
        XCTAssertTrue(id?.message.contains("65536") ?? false, id?.message ?? "")
        var big = HTTPHeaders()
        big.add("X-Big", String(repeating: "v", count: 1 << 20))
        let value = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: big))
        }
        XCTAssertEqual(value?.code, .tooLarge)
        XCTAssertFalse(value?.message.contains("vvvv") ?? true)
    }

    func testFramingHeadersAreRefused() async throws {
        let client = try makeClient()
        let before = try server.stats().requests
        for name in ["Content-Length", "transfer-encoding", "Host", "Connection", "Upgrade", "TE", "Trailer"] {
            var headers = HTTPHeaders()
            headers.add(name, "5")
            let error = await expectError {
                try await client.request(DrupalRequest(method: "POST", path: "/node", headers: headers,
                                                       body: Self.article("smuggled")))
            }
            XCTAssertEqual(error?.code, .invalidArgument, name)
        }
        XCTAssertThrowsError(try makeClient { $0.defaultHeaders.add("Content-Length", "1") })
        XCTAssertEqual(try server.stats().requests, before, "nothing was sent")
    }

    /// An id is read as a string of its digits: a number too large for an Int64 (`"uid": 1e300`
    /// in a login answer, a decoupled_router `entity.id`) trapped converting it, and the process
    /// died. It is read as the number's text now.
    func testAnIdTooLargeForAnIntegerIsNotACrash() async throws {
        let answer = #"{"current_user": {"uid": 1e300, "name": "admin"}, "csrf_token": "good-csrf", "logout_token": "good-logout"}"#
        try server.lie(answer, under: "/user/login", count: 1)
        let login = try await makeClient().login("admin", "admin")
        XCTAssertEqual(login.user.uid, "1e+300")
        XCTAssertEqual(JSONValue.number(-9.3e18).idString, "-9.3e+18")
        XCTAssertEqual(JSONValue.number(42).idString, "42")
        XCTAssertEqual(JSONValue.number(1.5).idString, "1.5")
    }

    /// URLs a server names for the client to fetch next (a file entity's content, a JSON:API
    /// page's links.next) must be under the site; one elsewhere is refused, unsent, as the
    /// server's protocol error: it used to read as the caller's invalid argument.
    func testURLsAServerNamesElsewhereAreItsProtocolErrors() async throws {
        let client = try makeClient { $0.authentication = .basic(user: "admin", password: "admin") }
        let file = #"{"fid": [{"value": 1}], "uri": [{"value": "public://x.png", "url": "http://evil.example/x.png"}]}"#
        try server.lie(file, under: "/entity/file/1", count: 1)
        let download = await expectError { try await client.download(FileDownload(.fileEntity("1"), to: .sink({ _ in true }))) }
        XCTAssertEqual(download?.code, .decode, download?.message ?? "")

        let page = #"{"data": [{"type": "node--article", "id": "a", "attributes": {}}], "links": {"next": {"href": "http://evil.example/jsonapi/node/article?page%5Boffset%5D=1"}}}"#
        try server.lie(page, under: "/jsonapi/node/article", count: 1)
        let pages = try client.jsonAPIPages(try JSONAPIResourceType("node--article"))
        _ = try await pages.next()
        let next = await expectError { try await pages.next() }
        XCTAssertEqual(next?.code, .decode, next?.message ?? "")
        XCTAssertTrue(next?.message.contains("links.next") ?? false, next?.message ?? "")
    }

    /// The login answer's CSRF token goes into the X-CSRF-Token header of every later write: a
    /// server's CR LF in it used to smuggle headers into those requests. Its logout token goes
    /// into a query value: control bytes there used to fail the logout as the caller's mistake.
    func testALoginAnswerCannotSmuggleHeadersThroughItsTokens() async throws {
        let bad = ["abc\r\nX-Evil: 1", "abc\nX-Evil: 1", "ab c", "abc\u{1}", ""]
        for (field, token) in bad.map({ ("csrf_token", $0) }) + bad.map({ ("logout_token", $0) }) {
            var tokens = ["csrf_token": "good-csrf", "logout_token": "good-logout"]
            tokens[field] = token
            let answer = try JSONSerialization.data(withJSONObject: [
                "current_user": ["uid": "1", "name": "admin"], "csrf_token": tokens["csrf_token"]!,
                "logout_token": tokens["logout_token"]!] as [String: Any])
            try server.lie(String(decoding: answer, as: UTF8.self), under: "/user/login", count: 1,
                           cookie: "SESSlie=1; path=/")
            let client = try makeClient()
            let login = await expectError { try await client.login("admin", "admin") }
            let name = "\(field) \(token.debugDescription)"
            XCTAssertEqual(login?.code, .decode, name)
            XCTAssertTrue(login?.message.contains(field) ?? false, login?.message ?? "")
            XCTAssertFalse(login?.message.contains("abc") ?? true, "the token is never quoted")
            _ = await expectError {
                try await client.request(DrupalRequest(method: "POST", path: "/node", body: Self.article("after the lie")))
            }
            let sent = try server.lastRequest()?["headers"]?.arrayValue?.compactMap { $0[0]?.stringValue?.lowercased() }
            XCTAssertFalse(sent?.contains("x-evil") ?? true, "\(name): \(sent ?? [])")
        }
    }

    func testRefusedInputIsNeverQuotedWhenItMayBeASecret() async throws {
        var headers = HTTPHeaders()
        headers.add("X-Token", "t0ps3cret\r\nX-Evil: 1")
        let client = try makeClient()
        let header = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/node/1", headers: headers))
        }
        XCTAssertFalse(header?.message.contains("t0ps3cret") ?? true, header?.message ?? "")
        for url in ["ftp://user:pw1@example.com/?access_token=abc", "https://example.com/?access_token=abc",
                    "https://user:pw1@example.com"] {
            XCTAssertThrowsError(try DrupalClient.live(baseURL: url)) { error in
                let message = (error as? DrupalError)?.message ?? ""
                XCTAssertFalse(message.contains("abc") || message.contains("pw1"), message)
            }
        }
        let path = await expectError {
            try await client.request(DrupalRequest(method: "GET", path: "/../x?token=abc"))
        }
        XCTAssertEqual(path?.code, .invalidArgument)
        XCTAssertFalse(path?.message.contains("abc") ?? true, path?.message ?? "")
    }
}

/// Idempotent requests are tried again after passing failures; others are not.
final class RetryTests: FakeDrupalTestCase {
    private func failNext(_ count: Int, status: Int = 503, path: String = "/node") throws {
        try server.control("POST", "/__fake/faults",
                           json: #"{"mode": "status", "code": \#(status), "count": \#(count), "path_prefix": "\#(path)"}"#)
    }

    func testAGetIsRetriedAfter503sAndEachRetryIsAnEvent() async throws {
        let client = try makeClient { $0.retry.baseDelay = 0.01 }
        let retries = LineLog()
        _ = client.addObserver { event in
            if case .retry(let method, let path, let attempt, let status, _) = event {
                retries.add("\(method) \(path) \(attempt) \(status ?? 0)")
            }
        }
        try failNext(2, status: 502)
        let node = try await client.get("node", "1").json()
        XCTAssertEqual(node["nid"]?[0]?["value"]?.idString, "1")
        XCTAssertEqual(retries.lines, ["GET /node/1 1 502", "GET /node/1 2 502"])
    }

    /// A timeout of 0 is no limit: "would the retry end past the timeout" compared with 0 and
    /// turned every retry off.
    func testAClientWithNoTimeoutStillRetries() async throws {
        let client = try makeClient { $0.transport.timeout = 0; $0.retry.baseDelay = 0.01 }
        try failNext(2, status: 502)
        let node = try await client.get("node", "1").json()
        XCTAssertEqual(node["nid"]?[0]?["value"]?.idString, "1")
    }

    func testRetriesStopAfterMaxRetries() async throws {
        let client = try makeClient { $0.retry.baseDelay = 0.01 }
        try failNext(3, status: 504)
        let error = await expectError { try await client.get("node", "1") }
        XCTAssertEqual(error?.status, 504)
    }

    func testAPostIsNotRetriedOnceItReachedTheServer() async throws {
        let client = try makeClient { $0.authentication = .basic(user: "admin", password: "admin"); $0.retry.baseDelay = 0.01 }
        try failNext(1, status: 503)
        let before = try server.stats().requests
        let error = await expectError { try await client.create("node", Self.article("once")) }
        XCTAssertEqual(error?.status, 503)
        XCTAssertEqual(try server.stats().requests - before, 1)
    }

    /// Regression: a POST the site had taken, answered with a redirect to a host that refused the
    /// connection, was retried as "never sent" (the failed hop's "could not connect"): the site
    /// received it 3 times, 3 entities.
    func testAPostIsNotRetriedWhenItsRedirectTargetCannotBeReached() async throws {
        let client = try makeClient {
            $0.authentication = .basic(user: "admin", password: "admin")
            $0.transport.followRedirects = true
            $0.retry.baseDelay = 0.01
        }
        try server.control("POST", "/__fake/faults", json: #"{"mode": "redirect", "to": "http://127.0.0.1:1/x", "code": 303, "count": 3}"#)
        let before = try server.stats().requests
        let error = await expectError { try await client.create("node", Self.article("once")) }
        XCTAssertEqual(error?.code, .network)
        XCTAssertEqual(try server.stats().requests - before, 1, "the POST was sent again")
    }

    func testRetryAfterIsHonoured() async throws {
        let client = try makeClient { $0.retry.baseDelay = 0.01 }
        try failNext(1, status: 503)   // the fake's 503 says Retry-After: 1
        let started = ContinuousClock.now
        _ = try await client.get("node", "1")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(900))
    }

    func testRetryAfterAsAnHTTPDateIsHonoured() async throws {
        let client = try makeClient { $0.retry.baseDelay = 0.01 }
        // An IMF-fixdate 2 s ahead (second resolution: the wait is 1-2 s).
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: Date().addingTimeInterval(2))
        try server.control("POST", "/__fake/faults",
                           json: #"{"mode": "status", "code": 503, "count": 1, "path_prefix": "/node", "#
                               + #""retry_after": "\#(date)"}"#)
        let started = ContinuousClock.now
        let node = try await client.get("node", "1").json()
        XCTAssertEqual(node["nid"]?[0]?["value"]?.idString, "1")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(500), date)
    }

    func testNoRetryWhenOffOrPastTheTimeout() async throws {
        let off = try makeClient { $0.retry = .never }
        try failNext(1, status: 503)
        let error = await expectError { try await off.get("node", "1") }
        XCTAssertEqual(error?.status, 503)
        // Retry-After: 1 would end past a 0.5 s timeout: not retried.
        let short = try makeClient { $0.transport.timeout = 0.5 }
        try failNext(1, status: 503)
        let late = await expectError { try await short.get("node", "1") }
        XCTAssertEqual(late?.status, 503)
    }

    /// Regression: `timeout` bounded each attempt, not the call: an answer cut off after 1.5 s,
    /// retried, gave a 2 s timeout's call 3 s and more (each retry had a timeout of its own, and
    /// so had each redirect hop). A retry now gets what is left, on the task-free path and on
    /// the one through tasks (redirects followed).
    func testTheTimeoutBoundsTheWholeCallRetriesIncluded() async throws {
        for followRedirects in [false, true] {
            let client = try makeClient {
                $0.transport.timeout = 2
                $0.transport.followRedirects = followRedirects
                $0.retry.baseDelay = 0.01
            }
            let started = ContinuousClock.now
            let error = await expectError { try await client.request(faulted("stall;seconds=1.5")) }
            let took = ContinuousClock.now - started
            XCTAssertEqual(error?.code, .timeout, "redirects \(followRedirects): \(error?.message ?? "")")
            XCTAssertLessThan(took, .milliseconds(2600), "redirects \(followRedirects)")
        }
    }

    func testAConnectionThatCannotBeMadeIsRetried() async throws {
        // Nothing listens on port 9 (discard) of loopback: every attempt fails to connect.
        let client = try DrupalClient.live(baseURL: "http://127.0.0.1:9", configuration: {
            var configuration = DrupalClient.Configuration()
            configuration.retry.baseDelay = 0.01
            return configuration
        }())
        let attempts = LineLog()
        _ = client.addObserver { if case .retry = $0 { attempts.add("retry") } }
        let error = await expectError { try await client.create("node", Self.article("x")) }
        XCTAssertEqual(error?.code, .network)
        XCTAssertEqual(attempts.lines.count, 2, "any method: nothing reached a server")
    }
}
