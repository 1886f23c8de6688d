import FoundationEssentials
import Synchronization

/// Pages fetched one after another until the source says there are no more: the one paging
/// loop of the SDK, which C (`drupal_pager_next`) and Python (`view_all`) drive rather than
/// re-implement. `next()` returns each page's response, then nil. Calls must not overlap.
public final class DrupalPager: Sendable {
    /// Fetches the page after `previous` (nil for the first), `index` pages having been
    /// returned so far; nil when there are no more.
    public typealias Step = @Sendable (_ index: Int, _ previous: DrupalResponse?) async throws -> DrupalResponse?

    private struct State {
        var previous: DrupalResponse?
        var returned = 0
        var finished = false
        var busy = false
    }

    private let step: Step
    private let stop: @Sendable () async -> Void
    private let state = Mutex(State())

    /// - Parameter stop: ends the pager's background work (pages fetched ahead) and returns
    ///   once it has ended.
    public init(step: @escaping Step, stop: @escaping @Sendable () async -> Void = {}) {
        self.step = step
        self.stop = stop
    }

    /// Ends the pager: `next()` answers nil from now on, and pages fetched ahead are cancelled
    /// and waited for, so no request of this pager is in flight once it returns.
    public func close() async {
        state.withLock { state in
            state.finished = true
            state.previous = nil
        }
        await stop()
    }

    /// The next page, or nil once the pages have ended (then always nil). A failed fetch
    /// throws and may be retried by calling `next()` again.
    public func next() async throws -> DrupalResponse? {
        guard let claim = try claim() else { return nil }
        return try await fetch(claim)
    }

    /// The pager held for one fetch, from a call's start: of two calls that overlap, the one
    /// started second is refused (`.state`) when it starts, whichever task runs first. Let go
    /// of when its fetch ends, or when it is dropped unused (a call cancelled before it ran).
    final class Claim: Sendable {
        let pager: DrupalPager
        private let held = Atomic<Bool>(true)

        fileprivate init(_ pager: DrupalPager) { self.pager = pager }

        /// Lets go of the pager once: after a fetch that gave `fetched` (a page, or nil when the
        /// pages ended), or with nothing fetched (a failed fetch, or none).
        fileprivate func end(fetched: DrupalResponse?? = .none) {
            guard held.exchange(false, ordering: .acquiringAndReleasing) else { return }
            pager.release(fetched)
        }

        deinit { end() }
    }

    /// Holds the pager for a fetch; nil once the pages have ended; `.state` while another fetch
    /// holds it.
    func claim() throws -> Claim? {
        let free = try state.withLock { state -> Bool in
            if state.busy { throw DrupalError(.state, "the pager is already fetching a page") }
            if state.finished { return false }
            state.busy = true
            return true
        }
        return free ? Claim(self) : nil
    }

    /// The page after the last one returned, for the fetch `claim` holds the pager for.
    func fetch(_ claim: Claim) async throws -> DrupalResponse? {
        let (index, last) = state.withLock { ($0.returned, $0.previous) }
        let page: DrupalResponse?
        do {
            page = try await step(index, last)
        } catch {
            claim.end()
            throw error
        }
        claim.end(fetched: .some(page))
        return page
    }

    private func release(_ fetched: DrupalResponse??) {
        state.withLock { state in
            switch fetched {
            case .some(let page?):
                state.previous = page
                state.returned += 1
            case .some(nil): state.finished = true
            case nil: break
            }
            state.busy = false
        }
    }
}

extension DrupalClient {
    /// The pages of a Views REST export: `page` 0, 1, 2, ... (or from the query's own `page`),
    /// ending at an empty page, at a page equal to the one before (displays without a full pager
    /// ignore `page` and answer the same rows every time), or after `maxPages` pages.
    /// Throws `.invalidArgument` at once for a path no page request could be sent to.
    public func viewPages(_ path: String, _ query: [(String, String)] = [], maxPages: Int = 1000) throws -> DrupalPager {
        _ = try PathSafety.normalizeTarget(path, baseURL: nil)
        let client = self
        let first = query.last { $0.0 == "page" }.flatMap { Int($0.1) } ?? 0
        let rest = query.filter { $0.0 != "page" }
        return DrupalPager { index, previous in
            guard index < max(1, maxPages) else { return nil }
            // No page number follows Int.max (the sum overflowed).
            let (number, past) = first.addingReportingOverflow(index)
            if past { return nil }
            let response = try await client.view(path, rest + [("page", String(number))])
            guard let rows = try response.json().arrayValue else {
                throw DrupalError(.decode, "the view \(path) did not answer a JSON array of rows",
                                  status: response.status, headers: response.headers, body: response.body)
            }
            if rows.isEmpty { return nil }
            if let previous, previous.body == response.body { return nil }
            return response
        }
    }

    /// Every row of a paged Views REST export (see `viewPages` for where the pages end).
    public func viewAllPages(_ path: String, _ query: [(String, String)] = [], maxPages: Int = 1000)
        async throws -> [JSONValue] {
        let pages = try viewPages(path, query, maxPages: maxPages)
        var rows: [JSONValue] = []
        while let page = try await pages.next() { rows += try page.json().arrayValue ?? [] }
        return rows
    }
}
