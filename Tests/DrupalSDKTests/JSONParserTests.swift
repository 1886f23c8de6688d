import Foundation
import XCTest
@testable import DrupalSDK

/// `JSONParser` (behind `JSONValue.parse`) against JSONDecoder, which it replaced: the same
/// answer for every body the recordings hold and for the grammar's corners.
final class JSONParserTests: XCTestCase {
    private func decoded(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    private func assertSameAsJSONDecoder(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(JSONValue.parse(Data(text.utf8)), decoded(text), text, file: file, line: line)
    }

    /// Every response and request body of the recordings the fake server replays.
    func testEveryRecordedBodyParsesAsJSONDecoderDecodesIt() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fake_drupal")
        var bodies = 0
        for name in ["transcripts.json", "jsonapi_transcripts.json"] {
            let exchanges = try XCTUnwrap(JSONValue.parse(try Data(contentsOf: folder.appendingPathComponent(name)))?.arrayValue)
            for exchange in exchanges {
                for part in ["request", "response"] {
                    guard let body = exchange[part]?["body"]?.stringValue, !body.isEmpty else { continue }
                    assertSameAsJSONDecoder(body)
                    bodies += 1
                }
            }
        }
        XCTAssertGreaterThan(bodies, 150)
    }

    func testTheGrammarsCornersAsJSONDecoder() {
        let samples = [
            "0", "-0", "12", "-3.25", "1e3", "1E-2", "2.5e+10", "1.7976931348623157e308", "true", "false", "null",
            #""""#, #""plain""#, #""é ☃ 😀""#, #""\"\\\/\b\f\n\r\t""#, #""\u00e9\u2603\ud83d\ude00""#,
            "[]", "{}", " [ 1 , [ 2 , { } ] ] ", #"{"a": {"b": [true, null, "x"]}, "c": -1}"#,
            // Refused by both:
            "", " ", "01", "-", "1.", ".5", "1e", "+1", "0x10", "NaN", "Infinity", "1e400", "tru", "nul",
            "[,1]", "{\"a\" 1}", "{1: 2}", "[1 2]", "\"open", "\"tab\tin\"", "\"\\x\"",
            "\"\\u12\"", "[1]]", "{}}", "1 2", "[", "{",
        ]
        for sample in samples { assertSameAsJSONDecoder(sample) }
    }

    /// Where JSONDecoder is lenient or picks the first of two keys, the parser reads JSON as
    /// Jansson (the C helpers) and Python's json module do: one answer in every language.
    func testTrailingCommasAreRefusedAndTheLastOfTwoKeysWins() {
        XCTAssertNil(JSONValue.parse(Data("[1,]".utf8)))
        XCTAssertNil(JSONValue.parse(Data(#"{"a":1,}"#.utf8)))
        XCTAssertEqual(JSONValue.parse(Data(#"{"k": 1, "k": 2}"#.utf8)), .object(["k": .number(2)]))
    }

    func testInvalidUTF8IsRefusedAndALoneSurrogateIsReplaced() {
        XCTAssertNil(JSONValue.parse(Data([0x22, 0xC3, 0x28, 0x22])))
        XCTAssertNil(JSONValue.parse(Data([0x22, 0x5C, 0x6E, 0xFF, 0x22])))
        XCTAssertEqual(JSONValue.parse(Data(#""a\ud800b""#.utf8)), .string("a\u{FFFD}b"))
        XCTAssertEqual(JSONValue.parse(Data(#""\udc00""#.utf8)), .string("\u{FFFD}"))
    }

    func testNestingIsCappedWhereJSONDecoderCapsIt() {
        let deepest = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        XCTAssertNotNil(JSONValue.parse(Data(deepest.utf8)))
        let deeper = "[" + deepest + "]"
        XCTAssertNil(JSONValue.parse(Data(deeper.utf8)))
    }
}
