import Foundation
import XCTest
@testable import DrupalSDK

/// The `proxy` option, over loopback: the fake server stands in for the proxy (it answers a
/// request in absolute form, as an origin server must, and records its target), so a client of
/// a site that does not exist reaches it only through the proxy.
final class ProxyTests: FakeDrupalTestCase {
    private let site = "http://drupal.invalid"

    private func lastTarget() throws -> String? {
        try server.lastRequest()?["target"]?.stringValue
    }

    func testAProxyCarriesEveryRequest() async throws {
        let client = try makeClient(baseURL: site) {
            $0.transport.proxy = server.baseURL
            $0.authentication = .basic(user: "admin", password: "admin")
        }
        let node = try await client.get("node", "1")
        XCTAssertEqual(node.status, 200)
        XCTAssertEqual(try lastTarget(), "\(site)/node/1?_format=json")
        let blocking = try XCTUnwrap(try client.run(.get(entityType: "node", id: "2")) { _ in }.get())
        XCTAssertEqual(blocking.status, 200)
        XCTAssertEqual(try lastTarget(), "\(site)/node/2?_format=json")
    }

    /// A proxy that refuses connections: the error named only libcurl's "Failed to connect to
    /// 127.0.0.1 port 1" under the site's URL, never that a proxy was in the way.
    func testAProxyThatCannotBeReachedIsNamedWithoutItsCredentials() async throws {
        let client = try makeClient(baseURL: site) {
            $0.transport.proxy = "http://user:s3cret@127.0.0.1:1"
            $0.retry.maxRetries = 0
        }
        let error = await expectError { try await client.get("node", "1") }
        XCTAssertEqual(error?.code, .network)
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("the proxy http://...@127.0.0.1:1"), message)
        XCTAssertFalse(message.contains("s3cret") || message.contains("user:"), message)
    }

    /// "" means no proxy even where the environment names one; nil takes the environment's.
    func testAnEmptyProxyIgnoresTheEnvironment() async throws {
        let saved = ProcessInfo.processInfo.environment["http_proxy"]
        setenv("http_proxy", server.baseURL, 1)
        defer { if let saved { setenv("http_proxy", saved, 1) } else { unsetenv("http_proxy") } }
        let environment = try makeClient(baseURL: site)
        let viaEnvironment = try await environment.get("node", "1")
        XCTAssertEqual(viaEnvironment.status, 200)
        XCTAssertEqual(try lastTarget(), "\(site)/node/1?_format=json")

        try server.reset()
        let direct = try makeClient { $0.transport.proxy = "" }
        let sentDirect = try await direct.get("node", "1")
        XCTAssertEqual(sentDirect.status, 200)
        XCTAssertEqual(try lastTarget(), "/node/1?_format=json", "sent to the site itself")
        let nowhere = try makeClient(baseURL: site) { $0.transport.proxy = "" }
        let error = await expectError { try await nowhere.get("node", "1") }
        XCTAssertEqual(error?.code, .network, "drupal.invalid does not resolve without the proxy")
    }

    func testABadProxyIsRefusedWithoutItsCredentials() {
        // Without a scheme, "user:s3cret@" is user info still: its start was quoted ("user:s3...@").
        for proxy in ["proxy.example:3128", "ftp://user:s3cret@proxy.example", "http://user:s3cret@",
                      "http://:3128", "http://proxy example", "socks5://proxy\n.example", "user:s3cret@proxy.example:3128"] {
            XCTAssertThrowsError(try makeClient { $0.transport.proxy = proxy }, proxy.debugDescription) { error in
                let drupalError = error as? DrupalError
                XCTAssertEqual(drupalError?.code, .invalidArgument)
                XCTAssertFalse(drupalError?.message.contains("s3") ?? true, drupalError?.message ?? "")
            }
        }
        for proxy in ["", "http://proxy.example:3128", "HTTPS://user:pw@proxy.example", "socks5h://127.0.0.1:1080"] {
            XCTAssertNoThrow(try makeClient { $0.transport.proxy = proxy }, proxy)
        }
    }
}
