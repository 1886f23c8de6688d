import DrupalSDK
import Foundation
import XCTest

/// The user routes in XML on the mock, as Drupal's serializer reads and writes it (the fake's
/// xmlenc.py; test_rest_parity compares the two): entities, CDATA and a document type.
final class MockXMLTests: XCTestCase {
    private func login(_ site: MockDrupal, _ body: String) -> HTTPResponse {
        site.respond(to: HTTPRequest(method: "POST", url: "http://drupal.mock/user/login?_format=xml",
                                     headers: HTTPHeaders([("Content-Type", "text/xml")]), body: Data(body.utf8)))
    }

    func testAnXMLLoginReadsEntitiesAndCDATA() {
        let site = MockDrupal()
        site.addUser(name: "a&b", password: "p<w>d\"'é")
        let answer = login(site, #"<response><name>a&amp;b</name><pass>p&lt;w<![CDATA[>]]>d&quot;&#39;&#xE9;</pass></response>"#)
        XCTAssertEqual(answer.status, 200, String(decoding: answer.body, as: UTF8.self))
        XCTAssertEqual(answer.headers["Content-Type"], "text/xml; charset=UTF-8")
        let text = String(decoding: answer.body, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("<?xml version=\"1.0\"?>\n<response><current_user><uid>3</uid><name><![CDATA[a&b]]></name>"), text)
    }

    func testWhatTheXMLDecoderCannotReadIsDrupals500() {
        let site = MockDrupal()
        for body in ["", #"{"name": "admin", "pass": "admin"}"#, "<response><name>admin</name>",
                     #"<!DOCTYPE r [<!ENTITY x "admin">]><response><name>&x;</name><pass>admin</pass></response>"#,
                     "<response><name>admin</name></wrong>", "<response><name>&bogus;</name></response>"] {
            XCTAssertEqual(login(site, body).status, 500, body)
        }
        XCTAssertEqual(login(site, "<response><name>admin</name></response>").status, 400)
    }

    /// A body nested a million deep was read by recursion into a stack overflow: the test process
    /// died. Deeper than JSON bodies may nest (512), it is Drupal's 500 now.
    func testADeeplyNestedBodyIsRefusedNotACrash() {
        let site = MockDrupal()
        let deep = String(repeating: "<a>", count: 1_000_000) + String(repeating: "</a>", count: 1_000_000)
        XCTAssertEqual(login(site, deep).status, 500)
        let nested = "<response><name>admin</name><pass>admin</pass>" + String(repeating: "<a>", count: 500)
            + String(repeating: "</a>", count: 500) + "</response>"
        XCTAssertEqual(login(site, nested).status, 200, "as deep as JSON may be")
    }
}
