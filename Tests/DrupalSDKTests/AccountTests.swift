import Foundation
import XCTest
@testable import DrupalSDK

/// Registration and password reset (drupal10-transcripts 50, 51) against the fake, and
/// decoupled_router's path resolution (84) against its extended site.
final class AccountTests: FakeDrupalTestCase {
    func testRegisterAnswers200WithTheReducedAccount() async throws {
        let client = try makeClient()
        let account = try await client.register(Registration(name: "newbie", mail: "newbie@example.com"))
        XCTAssertEqual(account.status, 200)
        let json = try account.json()
        XCTAssertEqual(json["uid"]?[0]?["value"]?.idString, "3")
        XCTAssertEqual(json["name"]?[0]?["value"]?.stringValue, "newbie")
        XCTAssertNil(json["mail"])   // anonymous may not see it
        let last = try server.lastRequest()
        XCTAssertEqual(last?["target"]?.stringValue, "/user/register?_format=json")

        let duplicate = await expectError {
            try await client.register(Registration(name: "newbie", mail: "newbie@example.com"))
        }
        XCTAssertEqual(duplicate?.status, 422)
        XCTAssertEqual(duplicate?.kind, .validation)
        XCTAssertEqual(duplicate?.violations.map(\.path), ["name", "mail"])
        let withPassword = await expectError {
            try await client.register(Registration(name: "newbie3", mail: "n3@example.com", password: "pw"))
        }
        XCTAssertEqual(withPassword?.status, 422)
        XCTAssertEqual(withPassword?.message, "A Password cannot be specified. It will be generated on login.")
        XCTAssertEqual(withPassword?.violations, [])
    }

    func testRegisterWithExtraFieldsAndRefusals() async throws {
        let client = try makeClient()
        let fields = try JSONBody(Data(#"{"timezone": [{"value": "Europe/Paris"}], "name": [{"value": "ignored"}]}"#.utf8))
        let account = try await client.register(Registration(name: "withfields", mail: "wf@example.com", fields: fields))
        XCTAssertEqual(try account.json()["name"]?[0]?["value"]?.stringValue, "withfields")
        // The password comes from its parameter alone (the header says so): a "pass" among the
        // fields was sent when the parameter was nil, and this site refuses one (422).
        let withPass = try JSONBody(Data(#"{"pass": [{"value": "sneaked-in"}]}"#.utf8))
        let noPassword = try await client.register(Registration(name: "nopass", mail: "np@example.com", fields: withPass))
        XCTAssertEqual(noPassword.status, 200)
        let basic = try makeClient { $0.authentication = .basic(user: "editor", password: "editor") }
        let loggedIn = await expectError { try await basic.register(Registration(name: "x", mail: "x@example.com")) }
        XCTAssertEqual(loggedIn?.status, 403)
        for bad in [Registration(name: "", mail: "a@b"), Registration(name: "a", mail: ""),
                    Registration(name: "a", mail: "a@b", fields: try JSONBody(Data("[1]".utf8)))] {
            XCTAssertThrowsError(try client.start(.register(bad)) { _ in }) {
                XCTAssertEqual(($0 as? DrupalError)?.code, .invalidArgument)
            }
        }
    }

    func testPasswordResetNeverTellsWhetherTheAccountExists() async throws {
        let client = try makeClient()
        try await client.resetPassword(name: "editor")
        try await client.resetPassword(mail: "editor@example.com")
        try await client.resetPassword(name: "nobody-here")
        let last = try server.lastRequest()
        XCTAssertEqual(last?["body"]?.stringValue, #"{"name":"nobody-here"}"#)
        XCTAssertThrowsError(try client.start(.resetPassword(name: nil, mail: "")) { _ in }) {
            XCTAssertEqual(($0 as? DrupalError)?.code, .invalidArgument)
        }
        let empty = await expectError {
            try await client.request(DrupalRequest(method: "POST", path: "/user/password", body: Data("{}".utf8)))
        }
        XCTAssertEqual(empty?.message, "Missing credentials.name or credentials.mail")
    }

    func testResolvePath() async throws {
        let extended = FakeDrupalServer.extended
        try extended.reset()
        let client = try DrupalClient.live(baseURL: extended.baseURL)
        let resolved = try await client.resolvePath("/node/1")
        XCTAssertEqual(resolved.entityType, "node")
        XCTAssertEqual(resolved.bundle, "article")
        XCTAssertEqual(resolved.id, "1")
        XCTAssertEqual(resolved.label, "Article 1")
        XCTAssertEqual(resolved.jsonAPIResourceName, "node--article")
        XCTAssertFalse(resolved.isExternal)
        let uuid = try XCTUnwrap(resolved.uuid)
        XCTAssertEqual(resolved.jsonAPIIndividual, extended.baseURL + "/jsonapi/node/article/" + uuid)
        let french = try await client.resolvePath("/fr/node/1")   // 84b: the English URL and label
        XCTAssertEqual(french.label, "Article 1")
        let missing = await expectError { try await client.resolvePath("/no/such/page") }
        XCTAssertEqual(missing?.status, 404)
        XCTAssertEqual(missing?.kind, .notFound)
        XCTAssertEqual(missing?.message, "Unable to resolve path /no/such/page.")
        let last = try extended.lastRequest()
        XCTAssertEqual(last?["target"]?.stringValue, "/router/translate-path?path=%2Fno%2Fsuch%2Fpage&_format=json")
        XCTAssertThrowsError(try client.start(.resolvePath("/a\nb")) { _ in })
        XCTAssertThrowsError(try client.start(.resolvePath("")) { _ in })
    }

    func testResolvePathOfAnAlias() async throws {
        let extended = FakeDrupalServer.extended
        try extended.reset()
        var configuration = DrupalClient.Configuration()
        configuration.authentication = .basic(user: "admin", password: "admin")
        let admin = try DrupalClient.live(baseURL: extended.baseURL, configuration: configuration)
        let article = #"{"type": "article", "title": [{"value": "About"}], "status": [{"value": true}], "#
            + #""path": [{"alias": "/about-us"}]}"#
        let created = try await admin.create("node", Data(article.utf8)).json()
        let nid = try XCTUnwrap(created["nid"]?.arrayValue?.first?.objectValue?["value"]?.idString)
        let resolved = try await DrupalClient.live(baseURL: extended.baseURL).resolvePath("/about-us")
        XCTAssertEqual(resolved.id, nid)
        XCTAssertEqual(resolved.label, "About")
        XCTAssertEqual(resolved.canonical, extended.baseURL + "/about-us")
        // The alias routes: the node's core REST read.
        let read = try await admin.request(DrupalRequest(method: "GET", path: "/about-us")).json()
        XCTAssertEqual(read["title"], .array([.object(["value": .string("About")])]))
    }
}
