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
        server = serving(certificate("cert", subject: "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"))
    }

    /// A self-signed certificate and its key, made by openssl in the test's directory.
    private static func certificate(_ name: String, subject: String, _ options: String...) -> (cert: String, key: String) {
        let cert = directory.appendingPathComponent(name + ".pem").path
        let key = directory.appendingPathComponent(name + "-key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-utf8",
                             "-keyout", key, "-out", cert, "-subj", subject] + options
        openssl.standardError = FileHandle.nullDevice
        try? openssl.run()
        openssl.waitUntilExit()
        return (cert, key)
    }

    private static func serving(_ certificate: (cert: String, key: String)) -> FakeDrupalServer {
        FakeDrupalServer(extraArguments: ["--tls-cert", certificate.cert, "--tls-key", certificate.key])
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

    /// A CA bundle that cannot be read was found only by the first https request, as a TLS
    /// failure ("error setting certificate file"): it is the caller's mistake, told at once.
    func testACABundleThatCannotBeReadIsRefusedWhenTheClientIsMade() throws {
        for path in [Self.directory.appendingPathComponent("missing.pem").path, Self.directory.path, ""] {
            var configuration = DrupalClient.Configuration()
            configuration.transport.caBundlePath = path
            XCTAssertThrowsError(try DrupalClient.live(baseURL: Self.server.baseURL, configuration: configuration),
                                 path) {
                XCTAssertEqual(($0 as? DrupalError)?.code, .invalidArgument, path)
            }
        }
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

    /// libcurl's error text quotes the certificate's subject name, which is the server's: an
    /// escape sequence in it reached `message` (and the logs) as it was.
    func testACertificatesNameIsShownWithItsControlCharactersEscaped() async throws {
        let hostile = Self.certificate("hostile", subject: "/CN=evil\u{1B}[2Jname")
        let server = Self.serving(hostile)
        var configuration = DrupalClient.Configuration()
        configuration.transport.caBundlePath = hostile.cert   // trusted: only the name is wrong
        configuration.retry.maxRetries = 0
        let client = try DrupalClient.live(baseURL: server.baseURL, configuration: configuration)
        let error = await expectError { try await client.get("node", "1") }
        XCTAssertEqual(error?.code, .tls)
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains(#"evil\u{1b}[2Jname"#), message)
        XCTAssertFalse(message.unicodeScalars.contains("\u{1B}"), message)
    }

    func testVerificationCanBeTurnedOffExplicitly() async throws {
        var configuration = DrupalClient.Configuration()
        configuration.transport.verifyTLS = false
        let client = try DrupalClient.live(baseURL: Self.server.baseURL, configuration: configuration)
        let response = try await client.get("node", "1")
        XCTAssertEqual(response.status, 200)
    }
}
