import Foundation
import XCTest
@testable import DrupalSDK

/// The bundled fake Drupal server (Tests/fake_drupal), started once per test process on a free
/// loopback port. DRUPAL_FAKE_URL points the tests at one that is already running instead.
final class FakeDrupalServer: @unchecked Sendable {
    static let shared = FakeDrupalServer()
    /// The Drupal version the fake imitates ($FAKE_DRUPAL_VERSION, as the server reads it).
    static let drupalVersion = ProcessInfo.processInfo.environment["FAKE_DRUPAL_VERSION"].flatMap {
        $0.isEmpty ? nil : $0
    } ?? "10"

    let baseURL: String
    private var process: Process?

    private convenience init() {
        if let url = ProcessInfo.processInfo.environment["DRUPAL_FAKE_URL"], !url.isEmpty {
            self.init(runningAt: url)
        } else {
            self.init(extraArguments: [])
        }
    }

    private init(runningAt url: String) { baseURL = url }

    /// Starts another fake server, e.g. one serving HTTPS with `--tls-cert`.
    init(extraArguments: [String]) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("Tests/fake_drupal/fake_drupal.py").path,
                             "--port", "0", "--exit-with-stdin"] + extraArguments
        let output = Pipe()
        process.standardOutput = output
        // The server stops when this pipe closes, i.e. when the test process ends however it ends.
        process.standardInput = Pipe()
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { fatalError("cannot start the fake Drupal server: \(error)") }
        let line = FakeDrupalServer.readLine(output.fileHandleForReading)
        guard line.hasPrefix("LISTENING ") else { fatalError("the fake Drupal server said: \(line)") }
        baseURL = String(line.dropFirst("LISTENING ".count))
        self.process = process
    }

    deinit { process?.terminate() }

    private static func readLine(_ handle: FileHandle) -> String {
        var bytes = Data()
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A control call to the fake (/__fake/...), outside the client under test: through the curl
    /// command-line tool, never through the client being tested.
    @discardableResult
    func control(_ method: String, _ path: String, json: String? = nil, form: String? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["curl", "-sS", "-X", method, baseURL + path]
        if let json { arguments += ["-H", "Content-Type: application/json", "--data-binary", json] }
        if let form { arguments += ["-H", "Content-Type: application/x-www-form-urlencoded", "--data-binary", form] }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    func reset() throws { try control("POST", "/__fake/reset") }

    /// Makes the next `count` requests under `pathPrefix` answer `bodies` in turn (labelled JSON)
    /// with `status`, and a Set-Cookie if given: a server that lies (the global `status` fault).
    func lie(_ bodies: String..., status: Int = 200, under pathPrefix: String, count: Int, cookie: String? = nil) throws {
        let body: Any = bodies.count == 1 ? bodies[0] : bodies
        var fault: [String: Any] = ["mode": "status", "code": status, "body": body, "path_prefix": pathPrefix, "count": count]
        if let cookie { fault["cookie"] = cookie }
        try control("POST", "/__fake/faults", json: String(decoding: try JSONSerialization.data(withJSONObject: fault), as: UTF8.self))
    }

    /// The fake as the extended site (simple_oauth, French at /fr, decoupled_router), started on
    /// first use.
    static let extended = FakeDrupalServer(extraArguments: ["--site", "extended"])

    struct Stats: Decodable {
        let connections: Int
        let requests: Int
        let token_requests: Int
        let token_grants: [String: Int]
    }

    /// The last Drupal request this server received, as `/__fake/last-request` gives it.
    func lastRequest() throws -> JSONValue? {
        JSONValue.parse(try control("GET", "/__fake/last-request"))
    }

    /// The values of a header (its name compared without case) in the last Drupal request.
    func sentHeaderValues(_ name: String) throws -> [String] {
        let headers = try lastRequest()?["headers"]?.arrayValue ?? []
        return headers.filter { $0[0]?.stringValue?.lowercased() == name.lowercased() }.compactMap { $0[1]?.stringValue }
    }

    func stats() throws -> Stats {
        try JSONDecoder().decode(Stats.self, from: try control("GET", "/__fake/stats"))
    }
}

extension XCTestCase {
    /// Asserts that the operation throws a DrupalError and returns it.
    func expectError<T>(_ operation: () async throws -> T, file: StaticString = #filePath, line: UInt = #line)
        async -> DrupalError? {
        do {
            _ = try await operation()
            XCTFail("expected a DrupalError", file: file, line: line)
            return nil
        } catch let error as DrupalError {
            return error
        } catch {
            XCTFail("expected a DrupalError, got \(error)", file: file, line: line)
            return nil
        }
    }
}

/// Base class: a fresh fake-server state for every test.
/// A GET that asks the fake server for a fault ("gzip", "endless_headers"...) by its header.
func faulted(_ fault: String, path: String = "/node/1") -> DrupalRequest {
    var headers = HTTPHeaders()
    headers.add("X-Fake-Fault", fault)
    return DrupalRequest(method: "GET", path: path, headers: headers)
}

class FakeDrupalTestCase: XCTestCase {
    var server: FakeDrupalServer { FakeDrupalServer.shared }

    override func setUp() async throws {
        try server.reset()
    }

    /// A live client of the fake server, or of `baseURL` (a site reached through a proxy).
    func makeClient(baseURL: String? = nil, _ configure: (inout DrupalClient.Configuration) -> Void = { _ in })
        throws -> DrupalClient {
        var configuration = DrupalClient.Configuration()
        configure(&configuration)
        return try DrupalClient.live(baseURL: baseURL ?? server.baseURL, configuration: configuration)
    }

    static func article(_ title: String) -> Data {
        Data(#"{"type":[{"target_id":"article"}],"title":[{"value":"\#(title)"}],"body":[{"value":"<p>x</p>","format":"basic_html"}]}"#.utf8)
    }
}
