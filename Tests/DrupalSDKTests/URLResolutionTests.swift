import XCTest
@testable import DrupalSDK

/// A redirect's Location resolved as RFC 3986 §5.4 resolves its examples (the forms a server
/// sends: no "http:g"), dot segments removed as libcurl removes them before sending.
final class URLResolutionTests: XCTestCase {
    private let base = "http://a/b/c/d;p?q"

    func testTheRFCsNormalExamples() {
        let examples = [
            ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
            ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q"), ("g#s", "http://a/b/c/g"), ("g?y#s", "http://a/b/c/g?y"),
            (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y"),
            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
            ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
            ("../../g", "http://a/g"),
        ]
        for (reference, expected) in examples {
            XCTAssertEqual(URLParts.resolve(reference, against: base), expected, reference)
        }
    }

    func testTheRFCsAbnormalExamples() {
        let examples = [
            ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
            ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g"), ("g#s/../x", "http://a/b/c/g"),
        ]
        for (reference, expected) in examples {
            XCTAssertEqual(URLParts.resolve(reference, against: base), expected, reference)
        }
    }

    func testAbsoluteLocationsLoseTheirDotSegmentsToo() {
        XCTAssertEqual(URLParts.resolve("https://site.example/drupal/../other?x=/../y", against: base),
                       "https://site.example/other?x=/../y")
        XCTAssertEqual(URLParts.resolve("//site.example:8080/a/./b/..", against: base), "http://site.example:8080/a/")
        XCTAssertEqual(URLParts.resolve("https://site.example/a/b", against: base), "https://site.example/a/b")
        XCTAssertEqual(URLParts.resolve("https://site.example", against: base), "https://site.example")
        XCTAssertEqual(URLParts.resolve("https://site.example?q=/./", against: base), "https://site.example?q=/./")
    }

    func testTheQueryIsReadBetweenItsMarkAndTheFragment() {
        XCTAssertEqual(URLParts("https://site.example/sites/default/files/a.pdf?itok=x#page=2")?.query, "itok=x")
        XCTAssertEqual(URLParts("https://site.example?a=/b")?.query, "a=/b")
        XCTAssertEqual(URLParts("https://site.example?a=/b")?.path, "/")
        XCTAssertEqual(URLParts("https://site.example/x?")?.query, "")
        XCTAssertNil(URLParts("https://site.example/x#a?b")?.query)
    }
}
