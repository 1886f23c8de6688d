/// The last `limit` requests a mock site received, oldest first: a ring, so that recording one
/// costs the same after the first `limit` as before (dropping the oldest from the front of an
/// array moved the other 999 on every request: 64k instructions per mock call).
struct RecentRequests {
    let limit: Int
    private var storage: [HTTPRequest] = []
    /// Where the oldest is once the ring is full (the next to be overwritten).
    private var oldest = 0

    init(limit: Int) { self.limit = limit }

    mutating func append(_ request: HTTPRequest) {
        if storage.count < limit {
            storage.append(request)
        } else {
            storage[oldest] = request
            oldest = (oldest + 1) % limit
        }
    }

    /// Oldest first.
    var all: [HTTPRequest] { Array(storage[oldest...] + storage[..<oldest]) }

    mutating func removeAll() {
        storage.removeAll()
        oldest = 0
    }
}
