import CCurl
import CCurlShim
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One request in flight on libcurl: its easy handle, what it sends and what has arrived.
/// After submission only the engine thread touches its mutable state; `cancelRequested` is atomic.
/// (So the response buffers, written once per header line and body chunk, skip the run-time
/// exclusivity check: one thread, no overlapping accesses.)
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPRequest
    let maxBodySize: Int
    /// The engine a callback-mode transfer was started on, for its cancel: a closure that
    /// captures only the transfer is made without an allocation.
    let engine: CurlEngine?
    /// The easy handle while the transfer has one.
    var handle: EasyHandle?
    var easy: UnsafeMutableRawPointer? { handle?.easy }
    /// The header list this transfer allocated (nil when it uses the engine's shared one).
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// The header lines received so far (RawHeaderBlock's records) and the body.
    @exclusivity(unchecked) var responseHeaderRecords = ReceiveBuffer()
    @exclusivity(unchecked) var responseBody = ReceiveBuffer()
    var exceededMaxBody = false
    /// Header bytes received, status lines and interim (1xx) answers included.
    var receivedHeaderBytes = 0
    var exceededMaxHeaders = false
    /// The blank line that ends a header section has arrived: lines until the next status line
    /// are trailers (after a chunked body), which are not the response's headers.
    var headerSectionEnded = false
    /// Where the last field's record starts in `responseHeaderRecords` (-1: no field to continue):
    /// a folded line continues it.
    var lastFieldRecord = -1
    /// A receive buffer could not grow (malloc failed): the transfer stops with `.noMemory`.
    var outOfMemory = false
    /// Streams (CurlTransfer+Streams): the upload file's descriptor, the bytes of it still to
    /// send (of the size announced), whether it ended before them or a read failed (its errno),
    /// and what the sink was told.
    var uploadDescriptor: Int32 = -1
    var uploadRemaining: Int64 = 0
    var uploadShrank = false
    var uploadReadError: Int32 = 0
    var streamState = StreamState()
    /// Content decoding (ContentDecoding.swift): whether this transfer decodes the answer's
    /// content codings itself (compression on, the body not kept as stored), the final answer's
    /// codings in the order applied (from its Content-Encoding; empty for none), the decoder once
    /// its body started, and why decoding failed (a content_decoder result, or
    /// `ContentCoding.unknownFailure`).
    var decodesContent = false
    var contentCodings: [ContentCoding] = []
    var unknownCodingName: String?
    var contentDecoder: OpaquePointer?
    var decodeFailure: Int32 = 0
    /// Who gets the outcome: the waiting task, or (callback mode) a completion.
    var continuation: UnsafeContinuation<HTTPResponse, any Error>?
    var completion: Transport.Completion?
    let cancelRequested = Atomic<Bool>(false)

    init(request: HTTPRequest, maxBodySize: Int, engine: CurlEngine? = nil) {
        self.request = request
        self.maxBodySize = maxBodySize
        self.engine = engine
        keepsContentEncoded = request.headers.count != 0
            && request.headers["Accept-Encoding"]?.caseInsensitiveEquals("identity") == true
    }

    deinit {
        content_decoder_free(contentDecoder)
        responseHeaderRecords.release()
        responseBody.release()
    }

    /// The headers received (of the last response, after a 100 Continue or a redirect); the
    /// transfer keeps none.
    func takeHeaders() -> HTTPHeaders { HTTPHeaders(raw: RawHeaderBlock(records: responseHeaderRecords.takeOwned())) }

    /// True for the requests that leave an easy handle as they found it (plain GETs), so the
    /// handle can be reused without a reset and its fixed options set again.
    var leavesHandleClean: Bool {
        request.body == nil && request.method == "GET" && request.progress == nil && !isFileTransfer
            && !keepsContentEncoded && request.timeout == nil
    }

    /// A file's content streamed from a file or to a sink: it may take longer than `timeout` on a
    /// slow link, so for it `timeout` bounds a stall instead (that long with no byte moving).
    var isFileTransfer: Bool { request.bodyFile != nil || request.bodySink != nil }

    /// A request asking for the content as stored (its own `Accept-Encoding: identity`, as
    /// downloads do) gets the bytes as the server sent them, even labelled with a
    /// Content-Encoding: a .gz file served as `Content-Encoding: gzip` stays the .gz file. Read
    /// once, when the transfer is made (`configure` and `recycle` both ask).
    let keepsContentEncoded: Bool

    /// Sets the options of this request on an easy handle; the fixed ones (timeouts, TLS...) only
    /// when the handle lacks them (new or reset). The request is as the client built and checked
    /// it; an error comes back only when libcurl cannot take it (out of memory, not http(s)).
    func configure(_ handle: EasyHandle, options: TransportOptions, defaultLines: [DefaultHeaderLine],
                   plainHeaders: UnsafeMutablePointer<curl_slist>?, dnsCacheTimeout: Int) -> DrupalError? {
        self.handle = handle
        let easy = handle.easy
        self.handle?.setDNSCacheTimeout(dnsCacheTimeout)
        let url = request.url
        let isHTTPS = url.hasUTF8Prefix("https://")
        guard isHTTPS || url.hasUTF8Prefix("http://") else {
            return .invalidArgument("only http and https URLs are supported: \(Redaction.redactURL(url))")
        }
        handle.transferSlot.pointee = Unmanaged.passUnretained(self).toOpaque()
        // withCString: passing a String where C wants a pointer copies it into a new array first.
        _ = url.withCString { shim_curl_easy_setopt_str(easy, CURLOPT_URL, $0) }
        // HTTP/2 (https only): wait for a connection being set up rather than open another, so
        // that transfers started together multiplex on one connection.
        self.handle?.setPipeWait(options.http2 && isHTTPS)
        if !handle.configured { CurlTransfer.configureFixedOptions(handle, options: options, maxBodySize: maxBodySize) }
        configureMethodAndBody(easy)
        decodesContent = options.compression && !keepsContentEncoded
        if let timeout = request.timeout, !isFileTransfer {
            _ = shim_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, milliseconds(timeout)))
        }
        if isFileTransfer && options.timeout > 0 {
            // Less than `minimumFileRate` bytes a second (1: a stall) averaged over `timeout`
            // seconds (whole seconds, at least one).
            _ = shim_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, 0)
            _ = shim_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, options.minimumFileRate)
            _ = shim_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(options.timeout.rounded(.up))))
        }
        if let error = configureStreams(easy) { return error }
        return configureHeaders(defaultLines: defaultLines, plainHeaders: plainHeaders)
    }

    private static func configureFixedOptions(_ handle: EasyHandle, options: TransportOptions, maxBodySize: Int) {
        let easy = handle.easy
        _ = shim_curl_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, handle.errorBuffer)
        _ = shim_curl_easy_setopt_ptr(easy, CURLOPT_PRIVATE, handle.transferSlot)
        _ = shim_curl_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, handle.transferSlot)
        _ = shim_curl_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, handle.transferSlot)
        _ = shim_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = shim_curl_easy_setopt_str(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = shim_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(options.connectTimeout))
        _ = shim_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, milliseconds(options.timeout))
        // The site and an https proxy are trusted alike: libcurl keeps separate settings for each.
        for (peer, host) in [(CURLOPT_SSL_VERIFYPEER, CURLOPT_SSL_VERIFYHOST),
                             (CURLOPT_PROXY_SSL_VERIFYPEER, CURLOPT_PROXY_SSL_VERIFYHOST)] {
            _ = shim_curl_easy_setopt_long(easy, peer, options.verifyTLS ? 1 : 0)
            _ = shim_curl_easy_setopt_long(easy, host, options.verifyTLS ? 2 : 0)
        }
        // validate() refused a path with a NUL, the one thing withCString throws for.
        _ = try? options.caBundle?.withCString { ca in
            _ = shim_curl_easy_setopt_str(easy, CURLOPT_CAINFO, ca)
            _ = shim_curl_easy_setopt_str(easy, CURLOPT_PROXY_CAINFO, ca)
        }
        // libcurl's default is HTTP/2 over TLS when the server offers it (CURL_HTTP_VERSION_2TLS).
        _ = shim_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION,
                                       Int(options.http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1))
        // libcurl decodes nothing (no CURLOPT_ACCEPT_ENCODING): 7.88 returns a compressed body cut
        // short as a success holding a prefix. The client decodes the codings it asks for itself
        // (ContentDecoding.swift), checking that each stream ends; the Accept-Encoding line is a
        // default line (DefaultHeaderLine). The decoded bytes are held to maxBodySize.
        _ = shim_curl_easy_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0)
        // Unset, libcurl reads the proxy environment variables at each request; "" turns them
        // off, as it is when the environment had none (ProxyEnvironment).
        if let proxy = options.proxy ?? (options.proxyEnvironment.namesProxy ? nil : "") {
            _ = shim_curl_easy_setopt_str(easy, CURLOPT_PROXY, proxy)
        }
        if !options.proxyEnvironment.namesNoProxy { _ = shim_curl_easy_setopt_str(easy, CURLOPT_NOPROXY, "") }
        // Redirects are never followed here: the client follows them itself (see
        // LiveSession+Redirects), deciding what each hop may carry.
        _ = shim_curl_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBodySize))
        _ = shim_curl_easy_setopt_write(easy, curlWriteBody)
        _ = shim_curl_easy_setopt_header(easy, curlWriteHeader)
    }

    private func configureMethodAndBody(_ easy: UnsafeMutableRawPointer) {
        // The client checked the method (an upper-case token) before the request got here.
        let method = request.method
        switch method {
        // A handle comes new, reset, or from a plain GET (`leavesHandleClean`): already a GET.
        case "GET": break
        case "HEAD": _ = shim_curl_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
        case "POST": _ = shim_curl_easy_setopt_long(easy, CURLOPT_POST, 1)
        default: _ = method.withCString { shim_curl_easy_setopt_str(easy, CURLOPT_CUSTOMREQUEST, $0) }
        }
        if let body = request.body {
            _ = shim_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies, so the body need not outlive this call. An empty body
                // still needs a valid pointer.
                let pointer = bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)
                _ = shim_curl_easy_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: pointer))
            }
        } else if method == "POST" && request.bodyFile == nil {
            _ = shim_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0)
            _ = shim_curl_easy_setopt_str(easy, CURLOPT_COPYPOSTFIELDS, "")
        }
    }

    /// `plainHeaders` is the engine's list for GETs with no headers of their own (just
    /// `defaultLines`), so a plain GET allocates no list. The User-Agent and Accept-Encoding
    /// travel in the list rather than as CURLOPT_USERAGENT and CURLOPT_ACCEPT_ENCODING's own
    /// line, which libcurl formats anew for every request (measured: 8.6k instructions per
    /// request against 4.6k for the User-Agent; 3.5k more for Accept-Encoding).
    private func configureHeaders(defaultLines: [DefaultHeaderLine], plainHeaders: UnsafeMutablePointer<curl_slist>?)
        -> DrupalError? {
        if request.headers.count == 0 && request.method == "GET" && (plainHeaders != nil || defaultLines.isEmpty) {
            handle?.setHeaders(plainHeaders, shared: true)
            return nil
        }
        var lines = CurlHeaderList()
        // No "Expect: 100-continue" round trip (libcurl adds it only to requests with a body),
        // and no form Content-Type on body-less POSTs.
        if request.body != nil || request.bodyFile != nil { lines.add("Expect:") }
        for line in defaultLines where !request.headers.contains(line.name) { lines.add(line.line) }
        if request.body == nil && request.method != "GET" && !request.headers.contains("Content-Type") {
            lines.add("Content-Type:")
        }
        // The client checked every header (HeaderSafety) before the request got here.
        for (name, value) in request.headers {
            // "Name;" is libcurl's way to send a header with an empty value.
            lines.add(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        let built = lines.finish()
        if built.outOfMemory { return DrupalError(.noMemory, "out of memory building the request headers") }
        headerList = built.list
        handle?.setHeaders(built.list, shared: false)
        return nil
    }

    /// Releases the header list; the easy handle goes back to the engine's pool.
    func releaseResources() {
        handle?.transferSlot.pointee = nil
        closeUpload()
        content_decoder_free(contentDecoder)   // its outcome was read (the engine's `outcome`)
        contentDecoder = nil
        curl_slist_free_all(headerList)
        headerList = nil
        handle = nil
    }

    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !contentCodings.isEmpty && decodesContent { return decodeBody(bytes) }
        return appendDecodedBody(bytes)
    }

    /// Bytes of the body as the caller gets them (decoded, when the client decodes them).
    func appendDecodedBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if request.bodySink != nil, sinksBody() { return appendStreamed(bytes) }
        if responseBody.count + bytes.count > maxBodySize {
            exceededMaxBody = true
            return false
        }
        guard responseBody.append(bytes) else {
            outOfMemory = true
            return false
        }
        return true
    }

    /// One header line from libcurl ("Name: value\r\n"), kept whole for RawHeaderBlock to read
    /// later; only a Content-Length is parsed here, to size the body buffer. This runs for every
    /// header of every response, so it uses plain byte loops. False when the line could not be
    /// kept (out of memory): the transfer then stops.
    func appendHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let line = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { return true }
        let count = bytes.count
        // A server's endless headers would grow without bound (libcurl's own limit depends on its
        // version): what is received is capped as the body is.
        receivedHeaderBytes += count
        if receivedHeaderBytes > TransportOptions.maxResponseHeaderBytes {
            exceededMaxHeaders = true
            return false
        }
        if count >= 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50 && line[4] == 0x2F {
            // A new status line ("HTTP/", after 100 Continue or a redirect): start over.
            responseHeaderRecords.removeAll()
            headerSectionEnded = false
            lastFieldRecord = -1
            if !contentCodings.isEmpty { forgetContentCoding() }
            return true
        }
        if count >= 1 && count <= 2 && (0..<count).allSatisfy({ line[$0] == 0x0D || line[$0] == 0x0A }) {
            headerSectionEnded = true
            return true
        }
        // A trailer field is not merged into the headers (RFC 9110 §6.5.1): a Set-Cookie there
        // would be stored, and other fields would change what the answer seemed to be.
        if headerSectionEnded { return true }
        // A line folded from the one before (obs-fold: it starts with a space or tab).
        if line[0] == 0x20 || line[0] == 0x09 { return continueLastField(UnsafeBufferPointer(start: line, count: count)) }
        // A line without a colon is no field (and nothing folds onto it).
        guard memchr(line, 0x3A, count) != nil else {
            lastFieldRecord = -1
            return true
        }
        // Size the body buffer once instead of growing it chunk by chunk.
        if isField(line, count, named: "content-length") {
            let value = headerValueRange(UnsafeBufferPointer(start: line, count: count), colonAt: 14)
            if let length = decimal(line + value.lowerBound, value.count), length > 0, length <= maxBodySize {
                _ = responseBody.reserve(length)   // a failure shows when the body arrives
            }
        } else if isField(line, count, named: "content-encoding") {
            let line = UnsafeBufferPointer(start: line, count: count)
            noteContentCodings(line, headerValueRange(line, colonAt: 16))
        }
        lastFieldRecord = responseHeaderRecords.count
        guard RawHeaderBlock.append(line: bytes, to: &responseHeaderRecords) else {
            outOfMemory = true
            return false
        }
        return true
    }

    /// A folded line (obs-fold): RFC 9112 §5.2 has a client replace the fold with a space, so its
    /// text joins the field before it. One with no field before it in the section is dropped,
    /// as the RFC allows. (libcurl 7.88 hands each line over as it came.)
    private func continueLastField(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lastFieldRecord >= 0 else { return true }
        let text = headerValueRange(line, colonAt: -1)
        if text.isEmpty { return true }
        // Folds are rare: the field's name is read back from its record.
        if let field = RawHeaderBlock.recordLine(at: lastFieldRecord, in: responseHeaderRecords),
           let start = field.baseAddress, isField(start, field.count, named: "content-encoding") {
            noteContentCodings(line, text)
        }
        guard RawHeaderBlock.continueLastRecord(at: lastFieldRecord, with: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: line[text])),
                                                in: &responseHeaderRecords) else {
            outOfMemory = true
            return false
        }
        return true
    }

    /// libcurl's detail of a failure; read before the handle goes back to the pool.
    var curlErrorMessage: String { handle?.errorMessage ?? "" }

    /// The transfer an easy handle's `transferSlot` (libcurl's callback data) holds: only read
    /// while the transfer runs, when the slot is set.
    static func inSlot(_ slot: UnsafeMutableRawPointer) -> Unmanaged<CurlTransfer> {
        Unmanaged.fromOpaque(slot.load(as: UnsafeMutableRawPointer.self))
    }
}

/// Seconds as libcurl's milliseconds: NaN and negatives are 0 (none), and the longest is what
/// fits libcurl's long on every platform (never a trap on a huge value).
private func milliseconds(_ seconds: Double) -> Int {
    guard seconds > 0 else { return 0 }
    return seconds >= TransportOptions.maxTimeout ? Int(TransportOptions.maxTimeout * 1000)
                                                 : max(1, Int((seconds * 1000).rounded()))
}

private let curlWriteBody: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, userdata in
    guard let userdata else { return 0 }
    let length = size * count
    guard length > 0, let data else { return length }
    // The engine holds the transfer while libcurl runs it: no retain and release per call.
    return CurlTransfer.inSlot(userdata)._withUnsafeGuaranteedRef {
        $0.appendBody(UnsafeRawBufferPointer(start: data, count: length))
    } ? length : 0
}

private let curlWriteHeader: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, userdata in
    guard let userdata else { return 0 }
    let length = size * count
    guard length > 0, let data else { return length }
    return CurlTransfer.inSlot(userdata)._withUnsafeGuaranteedRef {
        $0.appendHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
    } ? length : 0
}

/// Whether a header line of `count` bytes is the field `word` (lower-case): the name, then its colon.
private func isField(_ line: UnsafePointer<UInt8>, _ count: Int, named word: StaticString) -> Bool {
    let length = word.utf8CodeUnitCount
    return count > length + 1 && line[length] == 0x3A && asciiLowercaseEquals(line, word)
}

/// Whether the bytes equal a lower-case ASCII word, ignoring case.
func asciiLowercaseEquals(_ bytes: UnsafePointer<UInt8>, _ word: StaticString) -> Bool {
    let expected = word.utf8Start
    for index in 0..<word.utf8CodeUnitCount where bytes[index] | 0x20 != expected[index] { return false }
    return true
}

/// A non-negative decimal number of at most 18 digits, or nil.
private func decimal(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int? {
    guard count > 0 && count <= 18 else { return nil }
    var value = 0
    for index in 0..<count {
        let digit = Int(bytes[index]) - 0x30
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
    }
    return value
}
