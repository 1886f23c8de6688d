import CCurl
import CCurlShim
#if canImport(Glibc)
import Glibc
#endif

/// A libcurl easy handle and what belongs to it rather than to one transfer, so reusing it for
/// the next request allocates nothing.
struct EasyHandle {
    let easy: UnsafeMutableRawPointer
    /// Where libcurl writes the detail of a failure (CURLOPT_ERRORBUFFER; it clears it itself
    /// when a transfer starts).
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// The transfer running on the handle (an unretained CurlTransfer), where libcurl's callbacks
    /// and CURLINFO_PRIVATE find it: libcurl gets this slot once per handle (CURLOPT_PRIVATE,
    /// WRITEDATA, HEADERDATA), each transfer only stores itself in it (three setopt calls a
    /// request fewer).
    let transferSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// Whether the fixed options (timeouts, TLS, callbacks, error buffer) are still set.
    var configured = false
    // Per-request options the handle has now (libcurl's defaults after a reset), so that the
    // setters below call libcurl only when one changes.
    private var dnsCacheTimeout = DNSCachePruning.timeoutSeconds
    private var pipeWait = false
    /// Whether its CURLOPT_HTTPHEADER is the engine's list for plain GETs (the same list for the
    /// engine's life).
    private var hasSharedHeaders = false

    /// Nil only when libcurl is out of memory.
    static func make() -> EasyHandle? {
        guard let easy = curl_easy_init() else { return nil }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let slot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        slot.initialize(to: nil)
        return EasyHandle(easy: easy, errorBuffer: buffer, transferSlot: slot)
    }

    var errorMessage: String { String(cString: errorBuffer) }

    /// Back to libcurl's defaults: every option is to be set again.
    mutating func reset() {
        curl_easy_reset(easy)
        configured = false
        dnsCacheTimeout = DNSCachePruning.timeoutSeconds
        pipeWait = false
        hasSharedHeaders = false
    }

    /// CURLOPT_DNS_CACHE_TIMEOUT, in seconds (see `DNSCachePruning`).
    mutating func setDNSCacheTimeout(_ seconds: Int) {
        guard seconds != dnsCacheTimeout else { return }
        _ = shim_curl_easy_setopt_long(easy, CURLOPT_DNS_CACHE_TIMEOUT, seconds)
        dnsCacheTimeout = seconds
    }

    /// CURLOPT_PIPEWAIT.
    mutating func setPipeWait(_ on: Bool) {
        guard on != pipeWait else { return }
        _ = shim_curl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, on ? 1 : 0)
        pipeWait = on
    }

    /// CURLOPT_HTTPHEADER: the engine's list for plain GETs (`shared`: set again only after the
    /// handle carried another), or a transfer's own list (set every time).
    mutating func setHeaders(_ list: UnsafeMutablePointer<curl_slist>?, shared: Bool) {
        guard !(shared && hasSharedHeaders) else { return }
        _ = shim_curl_easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list))
        hasSharedHeaders = shared
    }

    func destroy() {
        curl_easy_cleanup(easy)
        errorBuffer.deallocate()
        transferSlot.deallocate()
    }
}
