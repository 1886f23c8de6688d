// Delimiters are found on the UTF-8 bytes that are sent, never by Character: a combining mark
// (U+0301) after "/", "?", "@", ":", "=" or "&" makes it part of one Character with the mark.
import XCTest
@testable import DrupalSDK

/// Regression (found by Tests/fuzz, target path_safety): PathSafety checked paths Character by
/// Character, but "/" followed by a combining mark is one Character, so that "/" was not seen:
/// "/../\u{301}admin" passed with its ".." segment (curl then resolved it above the base path)
/// and "/\u{301}x" became "//%CC%81x". The checks are now on the UTF-8 bytes that are sent.
final class PathSafetyBytesTests: XCTestCase {
    func testACombiningMarkAfterASlashHidesNoSegment() {
        for path in ["/a/../\u{301}b", "/../\u{301}admin", "/a/./\u{301}b", "/a/%2e%2E/\u{301}b", "/a//\u{301}b",
                     "/%2F\u{301}x", "/%5C\u{301}x", "/a?\u{301}x", "/a#\u{301}x", "/a\\\u{301}b",
                     "//\u{301}evil.example/x", "http://\u{301}evil.example/x"] {
            XCTAssertThrowsError(try PathSafety.normalizePath(path), path.debugDescription)
        }
        XCTAssertThrowsError(try PathSafety.normalizeTarget("/../\u{301}admin", baseURL: "https://site.example/drupal"))
    }

    func testCombiningMarksAreStillEncodedAndKept() throws {
        XCTAssertEqual(try PathSafety.normalizePath("/\u{301}x"), "/%CC%81x")
        XCTAssertEqual(try PathSafety.normalizePath("node/\u{301}"), "/node/%CC%81")
        XCTAssertEqual(try PathSafety.normalizePath("/node/caf\u{E9}"), "/node/caf%C3%A9")
        let target = try PathSafety.normalizeTarget("/node?\u{301}x=1#\u{301}", baseURL: "https://site.example")
        XCTAssertEqual(target.path, "/node")
        XCTAssertEqual(target.query, "%CC%81x=1")
    }

    func testBaseURLChecksSeeEveryByte() throws {
        for base in ["https://user@\u{301}evil.example", "https://site.example/?\u{301}x", "https://site.example/#\u{301}",
                     "https://site.example/ \u{301}"] {
            XCTAssertThrowsError(try PathSafety.normalizeBaseURL(base), base.debugDescription)
        }
        // A trailing "/" goes even when a mark that joins the Character before it precedes it.
        XCTAssertEqual(try PathSafety.normalizeBaseURL("https://site.example/\u{600}/"), "https://site.example/\u{600}")
        XCTAssertEqual(try PathSafety.normalizeBaseURL("https://site.example//"), "https://site.example")
    }

    /// Found by the path_safety fuzz target: HTTPS://\it:Fb/%5 was accepted though a browser
    /// would see an empty authority there and libcurl the host \it.
    func testBaseURLWithABackslashIsRefused() {
        for base in ["HTTPS://\\it:Fb/%5", "https://site.example\\@evil.example", "https://site.example/a\\b"] {
            XCTAssertThrowsError(try PathSafety.normalizeBaseURL(base), base.debugDescription) { error in
                XCTAssertEqual((error as? DrupalError)?.code, .invalidArgument)
            }
        }
    }
}

/// Regression (found by the path_safety fuzz target in CI): the rest of the URL code still found
/// "?", "/", "@", "=" and "&" Character by Character, so a combining mark after one hid it.
final class URLDelimiterBytesTests: XCTestCase {
    func testATargetChecksFindTheQueryOnTheBytes() throws {
        // The fuzz input: without a base URL, the query after "?\u{301}" was dropped.
        let target = try PathSafety.normalizeTarget("https://site.e\u{301}xq=?\u{301}", baseURL: nil)
        XCTAssertEqual(target.path, "/")
        XCTAssertEqual(target.query, "%CC%81")
        let under = try PathSafety.normalizeTarget("https://site.example/a/\u{301}b?\u{301}x=1", baseURL: nil)
        XCTAssertEqual(under.path, "/a/%CC%81b")
        XCTAssertEqual(under.query, "%CC%81x=1")
    }

    func testRefusedURLsNeverQuoteTheirQuery() {
        let url = "https://evil.example/x?\u{301}token=s3cret"
        XCTAssertThrowsError(try PathSafety.normalizeTarget(url, baseURL: "https://site.example")) { error in
            let message = (error as? DrupalError)?.message ?? ""
            XCTAssertFalse(message.contains("s3cret"), message)
            XCTAssertTrue(message.contains("https://evil.example/x?..."), message)
        }
    }

    /// A URL or path refused as the caller's input quoted its user info, a password included.
    func testRefusedURLsAndPathsNeverQuoteTheirUserInfo() {
        let refused: [(String, String)] = [
            ("https://admin:s3cret@evil.example/x", "https://...@evil.example/x"),
            ("//admin:s3cret@evil.example/x", "//...@evil.example/x"),
            ("x/https://admin:s3cret@evil.example/y", "x/https://...@evil.example/y"),
        ]
        for (target, shown) in refused {
            XCTAssertThrowsError(try PathSafety.normalizeTarget(target, baseURL: "https://site.example")) { error in
                let message = (error as? DrupalError)?.message ?? ""
                XCTAssertFalse(message.contains("s3cret") || message.contains("admin"), message)
                XCTAssertTrue(message.contains(shown), message)
            }
        }
    }

    func testTheOriginIsReadOnTheBytesAsLibcurlReadsIt() throws {
        for (url, host, port) in [("http://other.example?\u{301}@site.example/x", "other.example", 80),
                                  ("http://other.example/\u{301}@site.example/x", "other.example", 80),
                                  ("http://other.example#\u{301}@site.example/x", "other.example", 80),
                                  ("https://other.example:8443?\u{301}@site.example:443/", "other.example", 8443),
                                  ("https://user@\u{301}site.example/", "\u{301}site.example", 443)] {
            let parts = try XCTUnwrap(URLParts(url), url.debugDescription)
            XCTAssertEqual(parts.host, host, url.debugDescription)
            XCTAssertEqual(parts.port, port, url.debugDescription)
        }
        XCTAssertEqual(URLParts("https://site.example/a/\u{301}b?\u{301}c")?.path, "/a/\u{301}b")
        XCTAssertNil(URLParts("http:/\u{301}/site.example/"))
        XCTAssertNil(URLParts("http://site.example:+80/"), "a port is digits only, as libcurl reads it")
        XCTAssertEqual(URLParts.resolve("?\u{301}x", against: "http://site.example/a/b"), "http://site.example/a/b?\u{301}x")
        XCTAssertEqual(URLParts.resolve("/\u{301}x#\u{301}y", against: "http://site.example/a/b"),
                       "http://site.example/\u{301}x")
    }

    func testLoggedURLsHideSecretQueryValuesOnTheBytes() {
        let shown = Redaction.redactURL("https://site.example/user/logout?a=1&token=\u{301}s3cret&%74oken=s3cret2&x=\u{301}")
        XCTAssertFalse(shown.contains("s3cret"), shown)
        XCTAssertEqual(shown, "https://site.example/user/logout?a=1&token=<redacted>&%74oken=<redacted>&x=\u{301}")
        XCTAssertEqual(Redaction.redactURL("https://site.example/x?\u{301}"), "https://site.example/x?\u{301}")
    }
}

/// Regression: the same Character search in caller input and cookies: ":" in a Basic user name
/// or an OAuth client id, "/" in an upload's file name and in a cookie's path.
final class CredentialAndNameDelimiterBytesTests: XCTestCase {
    func testAColonBeforeACombiningMarkIsSeenInCredentials() {
        // The server splits "user:password" at the first ":" byte: "a" would be the user.
        XCTAssertThrowsError(try Authentication.basic(user: "a:\u{301}b", password: "pw").validate())
        var oauth = OAuthSettings(clientID: "c:\u{301}d", clientSecret: "s", grant: .clientCredentials)
        oauth.clientAuthentication = .basicHeader
        XCTAssertThrowsError(try oauth.validate())
    }

    func testAnUploadSendsOnlyTheBaseName() throws {
        XCTAssertEqual(try FileUpload.baseName("dir/\u{301}x.png"), "\u{301}x.png")
        XCTAssertEqual(try FileUpload.baseName("..\\\u{301}x.png"), "\u{301}x.png")
        XCTAssertEqual(FileUpload.lastComponent("/tmp/a/\u{301}b.png"), "\u{301}b.png")
    }

    func testACookiePathIsReadOnTheBytes() {
        XCTAssertEqual(CookieJar.defaultPath("/a/\u{301}b"), "/a")
        var jar = CookieJar(host: "site.example", secureOrigin: false)
        jar.store(setCookieHeaders: ["a=1; Path=/\u{301}x"], requestPath: "/node/1", now: 0)
        XCTAssertNil(jar.headerValue(forPath: "/node/1", now: 0), "the cookie is for /\u{301}x, not the default /node")
        XCTAssertEqual(jar.headerValue(forPath: "/\u{301}x/y", now: 0), "a=1")
    }
}
