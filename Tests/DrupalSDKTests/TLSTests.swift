import Foundation
import XCTest
@testable import DrupalSDK

/// TLS verification is on by default; a CA bundle or an explicit opt-out is needed for a
/// self-signed site.
final class TLSTests: XCTestCase {
    nonisolated(unsafe) private static var directory: URL!
    nonisolated(unsafe) private static var server: FakeDrupalServer!

    override class func setUp() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("drupalsdk-tls-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                             "-keyout", directory.appendingPathComponent("key.pem").path,
                             "-out", directory.appendingPathComponent("cert.pem").path,
                             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try? openssl.run()
        openssl.waitUntilExit()
        server = FakeDrupalServer(extraArguments: ["--tls-cert", directory.appendingPathComponent("cert.pem").path,
                                                   "--tls-key", directory.appendingPathComponent("key.pem").path])
    }

    override class func tearDown() {
        server = nil
        try? FileManager.default.removeItem(at: directory)
    }

    func testSelfSignedCertificateIsRejectedByDefault() async throws {
        XCTAssertTrue(Self.server.baseURL.hasPrefix("https://"))
        let client = try DrupalClient.live(baseURL: Self.server.baseURL)
        do {
            _ = try await client.get("node", "1")
            XCTFail("a self-signed certificate must not be accepted by default")
        } catch let error as DrupalError {
            XCTAssertEqual(error.code, .tls, error.message)
        }
    }

    func testTheCABundleOptionTrustsTheSite() async throws {
        var configuration = DrupalClient.Configuration()
        configuration.transport.caBundlePath = Self.directory.appendingPathComponent("cert.pem").path
        let client = try DrupalClient.live(baseURL: Self.server.baseURL, configuration: configuration)
        let response = try await client.get("node", "1")
        XCTAssertEqual(response.status, 200)
    }

    /// An https proxy (here the TLS fake, asked for a site that does not resolve) is verified
    /// as the site is: refused when self-signed, trusted through the CA bundle option.
    func testAnHTTPSProxyIsVerifiedLikeTheSite() async throws {
        var configuration = DrupalClient.Configuration()
        configuration.transport.proxy = Self.server.baseURL
        configuration.retry.maxRetries = 0
        let untrusted = try DrupalClient.live(baseURL: "http://drupal.invalid", configuration: configuration)
        let error = await expectError { try await untrusted.get("node", "1") }
        XCTAssertEqual(error?.code, .tls, error?.message ?? "")
        var unverified = configuration
        unverified.transport.verifyTLS = false
        let insecure = try DrupalClient.live(baseURL: "http://drupal.invalid", configuration: unverified)
        let answered = try await insecure.get("node", "1")
        XCTAssertEqual(answered.status, 200)
        configuration.transport.caBundlePath = Self.directory.appendingPathComponent("cert.pem").path
        let trusted = try DrupalClient.live(baseURL: "http://drupal.invalid", configuration: configuration)
        let response = try await trusted.get("node", "1")
        XCTAssertEqual(response.status, 200)
    }

    func testVerificationCanBeTurnedOffExplicitly() async throws {
        var configuration = DrupalClient.Configuration()
        configuration.transport.verifyTLS = false
        let client = try DrupalClient.live(baseURL: Self.server.baseURL, configuration: configuration)
        let response = try await client.get("node", "1")
        XCTAssertEqual(response.status, 200)
    }
}
