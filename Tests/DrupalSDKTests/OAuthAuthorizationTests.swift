import Foundation
import XCTest
@testable import DrupalSDK

/// The authorization code grant's request (PKCE, RFC 7636) as a program makes it: the URL it opens,
/// and the redirect it reads back. The exchange itself runs against the fake in OAuthTests.
final class OAuthAuthorizationTests: XCTestCase {
    func testSHA256MatchesFIPSVectors() {
        func hex(_ text: String) -> String { SHA256.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        XCTAssertEqual(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Lengths around the padding's edge (55, 56 and 64 bytes) and several blocks.
        XCTAssertEqual(hex(String(repeating: "x", count: 55)), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072")
        XCTAssertEqual(hex(String(repeating: "x", count: 56)), "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e")
        XCTAssertEqual(hex(String(repeating: "x", count: 64)), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c")
        XCTAssertEqual(hex(String(repeating: "a", count: 1000)), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    func testTheChallengeIsRFC7636sS256() {
        // RFC 7636, appendix B.
        XCTAssertEqual(OAuthAuthorization.base64URL(SHA256.digest(Array("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".utf8))),
                       "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let request = try? OAuthAuthorization(clientID: "app", redirectURI: "http://127.0.0.1:8765/callback")
        XCTAssertEqual(request?.codeVerifier.count, 43)
        XCTAssertNoThrow(try OAuthAuthorization.checkCodeVerifier(request?.codeVerifier ?? ""))
        XCTAssertEqual(request?.codeChallenge.count, 43)
    }

    func testEachRequestHasItsOwnStateAndVerifier() throws {
        let first = try OAuthAuthorization(clientID: "app", redirectURI: "http://127.0.0.1:8765/callback")
        let second = try OAuthAuthorization(clientID: "app", redirectURI: "http://127.0.0.1:8765/callback")
        XCTAssertNotEqual(first.state, second.state)
        XCTAssertNotEqual(first.codeVerifier, second.codeVerifier)
        XCTAssertEqual(first.state.count, 22)
    }

    func testTheURLCarriesTheRequest() throws {
        let request = try OAuthAuthorization(clientID: "sdk app", redirectURI: "http://127.0.0.1:8765/callback?x=1",
                                             scope: "content_editor basic")
        let url = try request.url(site: "https://site.example/drupal")
        XCTAssertTrue(url.hasPrefix("https://site.example/drupal/oauth/authorize?response_type=code&"), url)
        let query = Dictionary(OAuthAuthorization.queryParameters(url), uniquingKeysWith: { $1 })
        XCTAssertEqual(query["client_id"], "sdk app")
        XCTAssertEqual(query["redirect_uri"], "http://127.0.0.1:8765/callback?x=1")
        XCTAssertEqual(query["scope"], "content_editor basic")
        XCTAssertEqual(query["state"], request.state)
        XCTAssertEqual(query["code_challenge"], request.codeChallenge)
        XCTAssertEqual(query["code_challenge_method"], "S256")
        XCTAssertNil(query["code_verifier"], "the verifier goes only with the code")
        XCTAssertFalse(url.contains(request.codeVerifier))
        XCTAssertThrowsError(try request.url(site: "ftp://site.example"))
    }

    func testTheRedirectIsReadOnlyWithThisRequestsState() throws {
        let request = try OAuthAuthorization(clientID: "app", redirectURI: "http://127.0.0.1:8765/callback")
        let back = "http://127.0.0.1:8765/callback?code=c0de%2Bx&state=\(request.state)#ignored"
        XCTAssertEqual(try request.code(fromRedirect: back), "c0de+x")
        for forged in ["http://127.0.0.1:8765/callback?code=c0de", "http://127.0.0.1:8765/callback?code=c0de&state=other"] {
            XCTAssertThrowsError(try request.code(fromRedirect: forged)) { error in
                let failure = error as? DrupalError
                XCTAssertEqual(failure?.code, .invalidArgument)
                XCTAssertFalse(failure?.message.contains(request.state) ?? true, "the state is never quoted")
            }
        }
        XCTAssertThrowsError(try request.code(fromRedirect: "http://127.0.0.1:8765/callback?state=\(request.state)"))
        let refused = "http://127.0.0.1:8765/callback?error=access_denied&error_description=The+resource+owner+"
            + "or+authorization+server+denied+the+request.&state=\(request.state)"
        XCTAssertThrowsError(try request.code(fromRedirect: refused)) { error in
            let failure = error as? DrupalError
            XCTAssertEqual(failure?.kind, .authentication)
            XCTAssertEqual(failure?.oauthError?.error, "access_denied")
            XCTAssertEqual(failure?.oauthError?.errorDescription, "The resource owner or authorization server denied the request.")
        }
        if case .authorizationCode(let code, let redirect, let verifier) = request.grant(code: "c0de") {
            XCTAssertEqual(code, "c0de")
            XCTAssertEqual(redirect, request.redirectURI)
            XCTAssertEqual(verifier, request.codeVerifier)
        } else {
            XCTFail("not the code grant")
        }
    }

    func testBadSettingsAreRefusedWithoutQuotingThem() {
        XCTAssertThrowsError(try OAuthAuthorization(clientID: "", redirectURI: "http://x/cb"))
        XCTAssertThrowsError(try OAuthAuthorization(clientID: "app", redirectURI: ""))
        XCTAssertThrowsError(try OAuthAuthorization(clientID: "app", redirectURI: "http://x/cb\r\nX: y"))
        for verifier in ["short", String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "!"] {
            let settings = OAuthSettings(clientID: "app", grant: .authorizationCode(code: "c", redirectURI: "http://x/cb",
                                                                                    codeVerifier: verifier))
            XCTAssertThrowsError(try settings.validate()) { error in
                XCTAssertFalse((error as? DrupalError)?.message.contains(verifier) ?? true)
            }
        }
        let empty = OAuthSettings(clientID: "app", grant: .authorizationCode(code: "", redirectURI: "http://x/cb", codeVerifier: nil))
        XCTAssertThrowsError(try empty.validate())
    }
}
