/// When a transfer lets libcurl prune its DNS cache. Left to itself, libcurl prunes at the end of
/// every transfer, walking every slot of a multi handle's cache for answers older than its 60 s
/// timeout (~900 instructions and ~36 cold cache lines a request, callgrind; curl_easy_perform's
/// own cache has 7 slots, a multi handle's 71). Here the first transfer of each minute runs with
/// that timeout: it resolves a name again if its answer is older, and prunes at its end. The
/// others run with the cache kept as it is (-1), so an answer is used for 60 to 120 s.
struct DNSCachePruning {
    /// libcurl's default CURLOPT_DNS_CACHE_TIMEOUT, in seconds: what a pruning transfer uses.
    static let timeoutSeconds = 60
    /// CURLOPT_DNS_CACHE_TIMEOUT's "keep every entry" (no pruning, no age check).
    static let keep = -1

    private var due: UInt64 = 0

    /// The DNS cache timeout of a transfer starting at `now` (monotonic nanoseconds).
    mutating func timeout(startingAt now: UInt64) -> Int {
        guard now >= due else { return DNSCachePruning.keep }
        due = now + UInt64(DNSCachePruning.timeoutSeconds) * 1_000_000_000
        return DNSCachePruning.timeoutSeconds
    }
}
