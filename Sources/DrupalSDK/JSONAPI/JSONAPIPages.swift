import FoundationEssentials
import Synchronization

/// Walking a JSON:API collection. Drupal gives no `last` link and no count, caps `page[limit]` at
/// 50 without an error, and may answer short pages (access checks drop resources after paging), so
/// the end is known only by a page without `links.next`.
extension DrupalClient {
    /// The pages of a collection, as a `DrupalPager` (each page's response, then nil).
    ///
    /// With `concurrency` 1 it follows `links.next` from page to page. Above 1, after the first
    /// page it fetches the following ones by offset, `concurrency` at a time, with the page size
    /// Drupal used (read from the first `links.next`, so the cap of 50 is honoured), and returns
    /// them in order. Either way it ends at the first page without `links.next`, and skips a
    /// page with no resources that still has one (all of its resources hidden by access checks).
    /// Following links, a `links.next` naming a page already fetched (a cycle) is the server's
    /// error (`.decode`).
    /// - Parameter maxPages: the most pages fetched, skipped ones included (so a server answering
    ///   only such pages cannot keep the walk going).
    public func jsonAPIPages(_ type: JSONAPIResourceType, query: JSONAPIQuery = JSONAPIQuery(), concurrency: Int = 1,
                             maxPages: Int = 100_000) throws -> DrupalPager {
        guard (1...JSONAPIPageWindow.maxConcurrency).contains(concurrency) else {
            throw DrupalError.invalidArgument("concurrency is 1 to \(JSONAPIPageWindow.maxConcurrency), not \(concurrency)")
        }
        _ = try JSONAPICall.collection(type, query: query).request()   // a bad query fails now, not at the first page
        let client = self
        let limit = max(1, maxPages)
        if concurrency == 1 {
            let walk = SequentialWalk(maxPages: limit)
            return DrupalPager { _, previous in
                var call = JSONAPICall.collection(type, query: query)
                if let previous {
                    guard let next = try JSONAPIPageProbe(previous).next else { return nil }
                    call = .follow(next)
                }
                while walk.takePage() {
                    let page: DrupalResponse
                    do {
                        page = try await client.jsonAPI(call)
                    } catch let error as DrupalError where error.code == .invalidArgument && call.followedLink != nil {
                        // The link is the server's: one that cannot be followed is its protocol error.
                        throw DrupalError(.decode, "a page's links.next cannot be followed: " + error.message)
                    } catch {
                        walk.giveBack()   // a failed fetch is fetched again by the next call
                        throw error
                    }
                    let probe = try JSONAPIPageProbe(page)
                    if let next = probe.next, !walk.fetched(call.followedLink, nextIsNew: next) {
                        throw DrupalError(.decode, "a page's links.next names a page this walk already fetched: "
                                          + "the walk would not end",
                                          status: page.status, headers: page.headers, body: page.body)
                    }
                    if !probe.isEmpty { return page }
                    guard let next = probe.next else { return nil }
                    call = .follow(next)
                }
                return nil
            }
        }
        let window = JSONAPIPageWindow(client: client, type: type, query: query, concurrency: concurrency,
                                       maxPages: limit)
        return DrupalPager(step: { _, _ in try await window.next() }, stop: { await window.close() })
    }
}

/// The pages after the first, fetched by offset a window at a time and handed out in order.
final class JSONAPIPageWindow: Sendable {
    static let maxConcurrency = 64

    private struct State {
        /// The offset of page 1 and the page size: guessed from the query until the first page's
        /// `links.next` says.
        var start: (offset: Int, size: Int)?
        var fetches: [Int: Task<DrupalResponse, any Error>] = [:]
        /// Fetches cancelled but maybe not ended yet (`close()` waits for them).
        var cancelled: [Task<DrupalResponse, any Error>] = []
        /// The page the next call fetches (pages hidden by access checks are skipped).
        var cursor = 0
        var ended = false
        /// The first page's links.next was the server's error: the call after it throws this.
        var brokenNext: DrupalError?
    }

    private let client: DrupalClient
    private let type: JSONAPIResourceType
    private let query: JSONAPIQuery
    private let concurrency: Int
    /// The most pages fetched, skipped ones included (at least 1).
    private let maxPages: Int
    private let state = Mutex(State())

    init(client: DrupalClient, type: JSONAPIResourceType, query: JSONAPIQuery, concurrency: Int, maxPages: Int) {
        self.client = client
        self.type = type
        self.query = query
        self.concurrency = concurrency
        self.maxPages = maxPages
    }

    deinit { cancel() }

    /// The next page with resources, or nil once the collection has ended or `maxPages` were
    /// fetched. A failed fetch throws and is fetched again by the next call.
    func next() async throws -> DrupalResponse? {
        while true {
            if let broken = state.withLock({ $0.brokenNext }) { throw broken }
            guard let number = state.withLock({ $0.ended ? nil : $0.cursor }) else { return nil }
            guard number < maxPages else {
                finish()
                return nil
            }
            guard let response = try await fetch(number) else {
                finish()   // no offset names this page (past the largest integer)
                return nil
            }
            let page = try JSONAPIPageProbe(response)
            state.withLock { $0.cursor = number + 1 }
            if number == 0 {
                guard let next = page.next else {
                    finish()
                    return page.isEmpty ? nil : response
                }
                // The server's link decides where page 1 starts: one that names no page, or a
                // page at or before this one, would end the walk early or fetch pages twice. This
                // page is handed out; the call after it throws, as a walk by links does.
                func broken(_ why: String) throws -> DrupalResponse? {
                    finish()
                    let error = DrupalError(.decode, "a page's links.next " + why, status: response.status,
                                            headers: response.headers, body: response.body)
                    state.withLock { $0.brokenNext = error }
                    if page.isEmpty { throw error }
                    return response
                }
                guard let start = JSONAPIPageWindow.paging(of: next) else {
                    return try broken("cannot be followed: it names no page[offset] and page[limit]")
                }
                guard start.offset > JSONAPIPageWindow.firstOffset(query) else {
                    return try broken("names a page this walk already fetched: the walk would not end")
                }
                let guessed = state.withLock { state -> [Task<DrupalResponse, any Error>] in
                    guard let guess = state.start, guess != start else { return [] }
                    // The guess was wrong (a site with another page size): fetch again.
                    defer { state.fetches = [:] }
                    state.start = start
                    return Array(state.fetches.values)
                }
                for fetch in guessed { fetch.cancel() }
                state.withLock { $0.cancelled += guessed }
            } else if page.next == nil {
                finish()
            }
            if !page.isEmpty { return response }
        }
    }

    /// Page `number`'s answer; nil when no offset can name the page.
    private func fetch(_ number: Int) async throws -> DrupalResponse? {
        if number == 0 {
            // The pages after the first start with it, at the offsets the query implies (Drupal
            // pages by page[limit], at most 50), and are checked against its links.next.
            let first = Task { [client, type, query] in try await client.jsonAPI(.collection(type, query: query)) }
            state.withLock { if $0.start == nil { $0.start = JSONAPIPageWindow.guess(query) } }
            if maxPages > 1 { _ = try? startFetches(from: 1) }
            return try await withTaskCancellationHandler { try await first.value } onCancel: { first.cancel() }
        }
        guard let fetch = try startFetches(from: number) else { return nil }
        defer { state.withLock { _ = $0.fetches.removeValue(forKey: number) } }
        return try await fetch.value
    }

    /// Starts the fetches of pages `index` ..< `index + concurrency` (below `maxPages`, and
    /// while an offset can name them) not started yet; returns that of `index`, nil when no
    /// offset can name it.
    private func startFetches(from index: Int) throws -> Task<DrupalResponse, any Error>? {
        try state.withLock { state in
            guard let start = state.start else { throw DrupalError(.state, "the first page was not fetched") }
            for page in index..<min(index + concurrency, maxPages) where state.fetches[page] == nil {
                // A server's links.next may name an offset near Int.max: the sum overflowed.
                let (skipped, tooMany) = (page - 1).multipliedReportingOverflow(by: start.size)
                let (offset, tooFar) = start.offset.addingReportingOverflow(skipped)
                if tooMany || tooFar { break }
                var query = self.query
                try query.pageOffset(offset)
                try query.pageLimit(start.size)
                let call = JSONAPICall.collection(type, query: query)
                let client = self.client
                // Detached: a task would inherit the engine a blocking caller drives (its
                // executor and task-local), and that engine stops between the caller's calls.
                state.fetches[page] = Task.detached { try await client.jsonAPI(call) }
            }
            return state.fetches[index]
        }
    }

    /// The collection ended: the fetches past the end are not needed.
    private func finish() {
        state.withLock { $0.ended = true }
        cancel()
    }

    func cancel() {
        let fetches = state.withLock { state -> [Task<DrupalResponse, any Error>] in
            defer { state.fetches = [:] }
            state.cancelled += state.fetches.values
            return Array(state.fetches.values)
        }
        for fetch in fetches { fetch.cancel() }
    }

    /// Ends the walk and waits until no fetch of it is running. The cancelled fetches stay
    /// listed: a close that runs beside another waits for them too.
    func close() async {
        state.withLock { $0.ended = true }
        cancel()
        for fetch in state.withLock({ $0.cancelled }) { _ = await fetch.result }
    }

    /// Where page 1 starts and the page size, as Drupal pages the query: page[limit] (50 when
    /// not given) capped at JSON:API's maximum of 50, from page[offset].
    static func guess(_ query: JSONAPIQuery) -> (offset: Int, size: Int) {
        let pairs = query.pairs
        let limit = pairs.last { $0.0 == "page[limit]" }.flatMap { Int($0.1) } ?? maxPageSize
        let offset = firstOffset(query)
        let size = min(max(limit, 1), maxPageSize)
        let (next, past) = offset.addingReportingOverflow(size)
        return (past ? Int.max : next, size)
    }

    static let maxPageSize = 50

    /// The first page's `page[offset]`: the query's, else 0.
    static func firstOffset(_ query: JSONAPIQuery) -> Int {
        query.pairs.last { $0.0 == "page[offset]" }.flatMap { Int($0.1) } ?? 0
    }

    /// `page[offset]` and `page[limit]` of a `links.next` href (its query is Drupal's own).
    /// Split on the bytes, as the server splits (a combining mark after "&" or "=" is no
    /// Character of its own).
    static func paging(of link: String) -> (offset: Int, size: Int)? {
        guard let mark = link.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        var offset: Int?
        var size: Int?
        for pair in link.utf8[link.utf8.index(after: mark)...].split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let name = PathSafety.percentDecode(parts[0])
            let value = Int(PathSafety.percentDecode(parts[1]))
            if name == "page[offset]" { offset = value }
            if name == "page[limit]" { size = value }
        }
        guard let offset, let size, size > 0, offset >= 0 else { return nil }
        return (offset, size)
    }
}

/// What a sequential walk has done so far: how many more pages it may fetch (as the concurrent
/// window's cursor counts: the pages fetched, not the attempts that failed), and the links it
/// followed, so that a `links.next` naming one of them (a cycle of any length) ends the walk.
/// The links are kept as hashes: a server's links of up to 64 KB each, over 100,000 pages, were
/// gigabytes (a false cycle would need two 64-bit hashes to collide).
private final class SequentialWalk: Sendable {
    private struct State {
        var pagesLeft: Int
        var followed: Set<Int> = []
    }

    private let state: Mutex<State>

    init(maxPages: Int) { state = Mutex(State(pagesLeft: maxPages)) }

    /// Takes one page from the budget; false when none is left.
    func takePage() -> Bool {
        state.withLock { state in
            guard state.pagesLeft > 0 else { return false }
            state.pagesLeft -= 1
            return true
        }
    }

    func giveBack() { state.withLock { $0.pagesLeft += 1 } }

    /// Records the link a page was fetched by (nil for the first page, which was built from the
    /// query); false when `next` names a page already fetched by its link.
    func fetched(_ link: String?, nextIsNew next: String) -> Bool {
        state.withLock { state in
            if let link { state.followed.insert(link.hashValue) }
            return !state.followed.contains(next.hashValue)
        }
    }
}
