import CCurl

/// A libcurl header list built line by line. libcurl's append returns NULL, keeping the list,
/// when it runs out of memory: the list is then freed whole and the builder says so.
struct CurlHeaderList {
    private var list: UnsafeMutablePointer<curl_slist>?
    private var outOfMemory = false

    mutating func add(_ line: String) {
        guard !outOfMemory else { return }
        if let longer = line.withCString({ curl_slist_append(list, $0) }) { list = longer } else { outOfMemory = true }
    }

    /// The list (nil when no line was added), or nil and `outOfMemory` when a line could not be.
    consuming func finish() -> (list: UnsafeMutablePointer<curl_slist>?, outOfMemory: Bool) {
        guard outOfMemory else { return (list, false) }
        curl_slist_free_all(list)
        return (nil, true)
    }
}
