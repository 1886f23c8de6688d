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
    /// The CURLOPT_DNS_CACHE_TIMEOUT the handle has (see `DNSCachePruning`), so it is set only
    /// when it changes.
    var dnsCacheTimeout = DNSCachePruning.timeoutSeconds
    /// The CURLOPT_PIPEWAIT the handle has (libcurl's default is off).
    var pipeWait = false
    /// Whether its CURLOPT_HTTPHEADER is the engine's list for plain GETs (the engine's for its
    /// life), so the next plain GET need not set it again.
    var hasPlainHeaders = false

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
        hasPlainHeaders = false
    }

    func destroy() {
        curl_easy_cleanup(easy)
        errorBuffer.deallocate()
        transferSlot.deallocate()
    }
}
