import CSDKVersion
import FoundationEssentials

/// How the client sends HTTP: one closure. The default is `Transport.curl`, on libcurl.
/// Tests and users can supply their own (a recorder, a fault injector, a fake).
public struct Transport: Sendable {
    public var send: @Sendable (HTTPRequest) async throws -> HTTPResponse
    /// The executor on which the transport completes requests, when it has one. Tasks that prefer
    /// it run their whole request on the transport's thread with no thread hops.
    public var executor: (any TaskExecutor)?
    /// Runs async work to completion with the calling thread doing the I/O, for blocking calls:
    /// `register` receives the task (to cancel it) before the thread starts waiting. Nil when the
    /// transport has no such mode; callers then wait for a task on `executor`.
    public var runBlocking: BlockingRunner?
    /// Cancels every in-flight request and releases the transport's thread and connections.
    public var shutdown: @Sendable () -> Void
    /// Callback mode (optional): starts a request without a task; the completion runs exactly
    /// once on the transport's thread, and the returned closure cancels the request.
    public var start: Start?
    /// Blocking callback mode (optional): `body` starts requests with the starter it is given,
    /// then the calling thread drives them until `isDone()` holds.
    public var driveBlocking: Drive?
    /// Whether `send` and `start` honour `HTTPRequest.bodyFile`, `progress` and `bodySink`
    /// themselves; if not, the client reads the file into the body and hands the whole answer to
    /// the sink.
    public var streams = false

    public typealias BlockingRunner = @Sendable (_ register: (Task<Void, Never>) -> Void,
                                                 _ work: @escaping @Sendable () async -> Void) -> Void
    public typealias Completion = @Sendable (Result<HTTPResponse, any Error>) -> Void
    public typealias Start = @Sendable (HTTPRequest, @escaping Completion) -> Cancel
    public typealias Cancel = @Sendable () -> Void
    /// Runs `body`, which starts requests with the starter it is given, then drives them on the
    /// calling thread until `isDone()`.
    public typealias Drive = @Sendable (_ body: (@escaping Start) -> Void, _ isDone: () -> Bool) -> Void

    public init(send: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse,
                executor: (any TaskExecutor)? = nil,
                runBlocking: BlockingRunner? = nil,
                shutdown: @escaping @Sendable () -> Void = {},
                start: Start? = nil,
                driveBlocking: Drive? = nil) {
        self.send = send
        self.executor = executor
        self.runBlocking = runBlocking
        self.shutdown = shutdown
        self.start = start
        self.driveBlocking = driveBlocking
    }
}

/// Settings of the HTTP layer.
public struct TransportOptions: Sendable {
    /// Seconds to establish a connection (TCP and TLS); 0 is libcurl's default, 300. Both
    /// timeouts are from 0 to `maxTimeout`: a client refuses others (a negative or NaN one
    /// would mean no limit) when it is made.
    public var connectTimeout: Double = 10
    /// Seconds for a whole request, from start to the last byte of the body; 0: no limit. A live
    /// client gives each call this long in all: its redirect hops and retries get what is left
    /// (`HTTPRequest.timeout`). For a
    /// file streamed up or down (an upload from a path, a download) seconds without a byte
    /// moving instead: a large file on a slow link takes as long as it takes while it moves.
    public var timeout: Double = 60
    /// Verify the server's TLS certificate and host name. Keep it on outside tests.
    public var verifyTLS: Bool = true
    /// A PEM file of CA certificates to trust instead of the system's: its path as the system's
    /// bytes (UTF-8 or not, as every path the library opens).
    public var caBundle: LocalPath?
    /// `caBundle` as text: a path that is not UTF-8 reads as nil.
    public var caBundlePath: String? {
        get { caBundle.flatMap { String(validating: $0.bytes, as: UTF8.self) } }
        set { caBundle = newValue.map { LocalPath($0) } }
    }
    /// Larger response bodies fail with `.tooLarge` instead of growing without bound (at least 1).
    public var maxBodySize: Int = 64 * 1024 * 1024
    public var userAgent: String = "drupalsdk/\(DrupalSDKVersion.string)"
    /// Follow 3xx redirects (at most 5, http and https only; the client does it, not the
    /// transport). Off by default: a redirect is then an error carrying its Location. Either way
    /// credentials and request bodies never go to another origin.
    public var followRedirects: Bool = false
    /// How long a blocking call keeps checking its socket before it sleeps until the answer
    /// arrives, in microseconds. 0 (the default) turns it off: an embedded library should not
    /// spin its caller's core. On, a fast server's answer is read without a sleep and a thread
    /// wake-up (more requests per second from one thread) for up to this much CPU per wait; after
    /// a wait that ran out, the next 8 sleep at once, so a slow site costs at most one window per
    /// 9 requests. From 0 to `maxBusyPollMicroseconds`.
    public var busyPollMicroseconds: Int = 0
    /// Idle connections each of the client's libcurl multi handles keeps open for reuse
    /// (CURLMOPT_MAXCONNECTS). libcurl's own default is 4 per transfer currently added, so a
    /// window of requests that empties between batches closed connections it would open again a
    /// moment later (a TCP and, on https, a TLS handshake each). Keep it at least the number of
    /// requests you keep in flight (1 to `maxMaxConnections`).
    public var maxConnections: Int = 64
    /// HTTP/2 over https when the server offers it (ALPN): many requests in flight share one
    /// connection (transfers started while it is being set up wait for it, CURLOPT_PIPEWAIT).
    /// Off: HTTP/1.1 only. Plain http is always HTTP/1.1.
    public var http2: Bool = true
    /// Ask for compressed answers (`Accept-Encoding: gzip, deflate, br`, the codings the client
    /// decodes itself) and decode them as they arrive, a body whose compressed stream does not end
    /// exactly failing with `.decode`: a JSON:API page a web server compresses
    /// crosses the network in a fifth to a tenth of its bytes. `maxBodySize` counts the decoded
    /// bytes (a small answer that decodes to gigabytes fails with `.tooLarge`). The response's
    /// `Content-Encoding` and `Content-Length` headers stay as the server sent them. Off: no
    /// `Accept-Encoding` is sent, and an answer compressed anyway is handed over as it arrived.
    public var compression: Bool = true
    /// For a file streamed up or down, where `timeout` bounds a stall rather than the call: the
    /// bytes per second it must average over `timeout` seconds, or it fails with `.timeout`. 1
    /// (the default) fails only a stall, no byte moving; more also ends a server that trickles (at
    /// a byte a second, a 64 MiB download would take two years). From 1 to `maxMinimumFileRate`.
    public var minimumFileRate: Int = 1
    /// The proxy of every request. nil (the default) takes it from the environment, as curl does:
    /// `https_proxy` (or `HTTPS_PROXY`) for https, `http_proxy` for http, `no_proxy` for hosts
    /// reached directly (read when the transport is made: one made while none of them was set
    /// uses no proxy, even if one is set later). "" uses none, whatever the environment says.
    /// Else a proxy URL: `http://`, `https://`, `socks4://`, `socks4a://`, `socks5://` or
    /// `socks5h://` (the proxy resolves host names), with the proxy's credentials if it needs them
    /// (`http://user:pass@proxy:3128`: never logged or quoted in an error). `no_proxy` still
    /// applies. An https proxy is verified as the site is (`verifyTLS`, `caBundlePath`). An https
    /// site's traffic stays encrypted through it; an http one's is seen whole.
    public var proxy: String?
    /// The proxy variables of the environment, as read when the transport was made (by
    /// `Transport.curl`; until then libcurl is left to read them).
    var proxyEnvironment = ProxyEnvironment()

    /// The most `maxConnections` and `busyPollMicroseconds` accept (a second of spinning is
    /// already absurd; more connections than this is a mistake, not a pool).
    public static let maxMaxConnections = 10_000
    public static let maxBusyPollMicroseconds = 1_000_000
    /// The most `minimumFileRate` accepts: 1 GiB a second.
    public static let maxMinimumFileRate = 1 << 30

    /// An answer whose headers (status lines and interim answers included) are larger fails with
    /// `.tooLarge`: headers are kept in memory whole, and a server's endless ones must not grow
    /// without bound. Drupal's largest, its cache tags, stay far below.
    public static let maxResponseHeaderBytes = 256 * 1024

    /// The longest timeout libcurl can take (milliseconds in a 32-bit long): ~24.8 days.
    public static let maxTimeout = 2_147_483.0

    public init() {}
}

/// The SDK's version, as include/drupalsdk.h says (the one place it is written).
public enum DrupalSDKVersion {
    public static let major = Int(DRUPAL_SDK_VERSION_MAJOR)
    public static let minor = Int(DRUPAL_SDK_VERSION_MINOR)
    public static let patch = Int(DRUPAL_SDK_VERSION_PATCH)
    public static var string: String { "\(major).\(minor).\(patch)" }
}

extension Transport {
    /// Real HTTP on libcurl: a multi handle driven by its own thread for async calls, and a pool
    /// of multi handles that blocking callers drive themselves. Connections are kept alive.
    /// Throws `.invalidArgument` for options it cannot use (a User-Agent with a control character, a
    /// proxy that is not a proxy URL, a number out of its range), `.noMemory` when libcurl
    /// cannot start.
    public static func curl(_ options: TransportOptions = TransportOptions()) throws -> Transport {
        try options.validate()
        var options = options
        options.proxyEnvironment = .read()
        guard let engine = CurlEngine(options: options) else {
            throw DrupalError(.noMemory, "libcurl could not make a multi handle (out of memory)")
        }
        engine.startThread()
        let pool = InlineEnginePool(options: options, fallback: engine)
        var transport = Transport(send: { request in try await (CurlEngine.inline ?? engine).send(request) },
                                  executor: engine,
                                  runBlocking: { register, work in pool.run(register: register, work) },
                                  shutdown: {
                                      engine.stopAndWait()
                                      pool.shutDown()
                                  },
                                  start: { request, completion in engine.start(request, completion: completion) },
                                  driveBlocking: { body, isDone in pool.drive(body, until: isDone) })
        transport.streams = true
        return transport
    }
}
