import XCTest
@testable import DrupalSDK

/// RFC 6265 §5.1.1's cookie-date algorithm, which reads Set-Cookie `Expires` and `Retry-After`.
final class HTTPDateTests: XCTestCase {
    /// RFC 9110's example date, 1994-11-06 08:49:37 UTC.
    let example: Int64 = 784_111_777

    func testTheThreeHTTPFormsAreOneDate() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), example)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), example)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), example)
        XCTAssertEqual(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT"), 0)
    }

    /// Regression: a time followed by non-digits is a time (RFC 6265's `time` production); the
    /// three fields were split at every colon and each had to be digits alone.
    func testATimeMayBeFollowedByNonDigits() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37GMT"), example)
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37:12"), example)
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 8:49:37 GMT"), example, "one digit is a field")
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 08:49:370 GMT"), "a third digit is no field")
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 08:49 GMT"), "two fields are no time")
    }

    /// Regression: a date that does not exist was read as the days after it (31 February 2035
    /// as 3 March); RFC 6265 fails it.
    func testADateThatDoesNotExistIsNoDate() {
        XCTAssertNil(HTTPDate.parse("Wed, 31 Feb 2035 10:00:00 GMT"))
        XCTAssertNil(HTTPDate.parse("31 Apr 2030 10:00:00"))
        XCTAssertNil(HTTPDate.parse("29 Feb 2100 10:00:00"), "2100 is no leap year")
        XCTAssertNotNil(HTTPDate.parse("29 Feb 2000 10:00:00"), "2000 is one")
        XCTAssertNotNil(HTTPDate.parse("29 Feb 2024 10:00:00"))
        XCTAssertNotNil(HTTPDate.parse("31 Dec 2030 23:59:59"))
    }

    func testOutOfRangeOrMissingPartsAreNoDate() {
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 24:00:00 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 08:60:00 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1600 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 00 Nov 1994 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 1994 08:49:37 GMT"), "no month")
        XCTAssertNil(HTTPDate.parse(""))
        XCTAssertNil(HTTPDate.parse("120"), "delta-seconds are Retry-After's other form, read elsewhere")
    }
}
