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
