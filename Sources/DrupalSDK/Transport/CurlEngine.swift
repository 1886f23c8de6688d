import CCurl
import CCurlShim
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// libcurl's global state must be set up once, before any thread uses it.
private let curlGlobalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

/// A curl multi handle and the loop that drives it, which is also a Swift task executor: tasks
/// that prefer it build the request, wait for libcurl and handle the answer all on the loop's
/// thread, without hopping between threads.
///
/// Two ways to drive it: `startThread()` gives it a thread of its own (async calls), and
/// `drive(until:)` runs the loop on the calling thread until a blocking call is done (so a
/// blocking call costs no thread switch at all).
///
/// This file holds its state, its thread and `drive`; the inbox and the executor side are in
/// CurlEngine+Inbox.swift, requests in CurlEngine+Requests.swift, the loop in
/// CurlEngine+Loop.swift, the transfers in CurlEngine+Transfers.swift.
public final class CurlEngine: TaskExecutor, @unchecked Sendable {
    /// The engine a blocking call is driving on this task's thread, if any: its requests go there.
    @TaskLocal static var inline: CurlEngine?

    // Internal (not private) only for the CurlEngine+*.swift extensions: nothing else uses them.
    let options: TransportOptions
    let multi: UnsafeMutableRawPointer
    let inbox = Mutex(Inbox())
    /// Counts work queued, so the loop can watch for new work without taking the inbox lock
    /// (spinning on the lock would make every poster wait for it).
    let posts = Atomic<UInt64>(0)
    // Touched only by the thread running the loop (so no run-time exclusivity checks).
    /// Transfers added to the multi handle (an array: tens at most, and no hashing per request).
    @exclusivity(unchecked) var active: [CurlTransfer] = []
    /// The arrays a turn of the loop takes the inbox's work into, kept between turns (empty).
    @exclusivity(unchecked) var spareBatch = Batch()
    /// Easy handles between transfers.
    @exclusivity(unchecked) var idleHandles: [EasyHandle] = []
    /// Whether blocking calls on this engine busy-poll (see `BusyPollBudget`).
    var busyPollBudget = BusyPollBudget()
    /// Which transfers let libcurl prune the multi handle's DNS cache.
    @exclusivity(unchecked) var dnsCachePruning = DNSCachePruning()
    /// The lines every request sends unless it sets the header itself (User-Agent,
    /// Accept-Encoding).
    let defaultLines: [DefaultHeaderLine]
    /// The header list of GETs without headers of their own, shared by all of them (nil when
    /// there is no default line to send).
    let plainHeaders: UnsafeMutablePointer<curl_slist>?

    /// Nil when libcurl cannot make a multi handle (out of memory).
    init?(options: TransportOptions) {
        _ = curlGlobalInit
        self.options = options
        // Transport.curl refused a User-Agent that could smuggle a header.
        defaultLines = DefaultHeaderLine.lines(for: options)
        guard let multi = curl_multi_init() else { return nil }
        // A fixed pool: libcurl's default (4 per transfer currently added) shrinks as a window of
        // requests drains and closes connections that the next batch opens again.
        _ = shim_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, options.maxConnections)   // checked (validate)
        // Without it (out of memory) plain GETs build their own header list.
        plainHeaders = CurlEngine.headerList(defaultLines)
        self.multi = multi
    }

    private static func headerList(_ lines: [DefaultHeaderLine]) -> UnsafeMutablePointer<curl_slist>? {
        var list = CurlHeaderList()
        for line in lines { list.add(line.line) }
        return list.finish().list
    }

    /// Set for an engine with a thread of its own (see `runOnce`).
    private(set) var spinsForWork = false
    /// The driving thread's interrupt watch, for the length of one `drive`.
    @exclusivity(unchecked) private(set) var interruptWatch: BlockingInterrupt.Watch?
    /// Set once the watch cancelled this drive: transfers it starts from then on fail at once.
    @exclusivity(unchecked) var interrupted = false
    /// When the watch's interval check is next due (0: not since this drive's first sleep).
    @exclusivity(unchecked) var nextInterruptCheck: UInt64 = 0

    /// The thread running a drive's `start` (0 at other times): its transfers skip the inbox.
    let startingThread = Atomic<UInt>(0)

    /// The name of an engine's own thread (at most 15 bytes).
    static let threadName = "drupalsdk-curl"
    /// The engine's own thread, until `stopAndWait()` joins it.
    private let thread = Mutex<pthread_t?>(nil)

    /// Runs the loop on a new thread of its own until `stop()`.
    func startThread() {
        spinsForWork = true
        let started = LibraryThread.start(named: CurlEngine.threadName) { [self] in
            while runOnce(isDone: { false }) {}
        }
        thread.withLock { $0 = started }
    }

    /// `stop()`, then waits until the thread has ended and let go of everything it held (so
    /// nothing of the client runs once its owner is freed); from the engine's own thread it
    /// cannot wait, and the thread ends by itself.
    func stopAndWait() {
        stop()
        guard let thread = self.thread.withLock({ state -> pthread_t? in
            defer { state = nil }
            return state
        }) else { return }
        LibraryThread.join(thread)
    }

    /// Runs `start` and then the loop on the calling thread until `isDone()` holds. Only one
    /// thread may drive an engine at a time. The thread's `BlockingInterrupt` watch, if any, is
    /// waited on too: when it fires and says so, the transfers of this drive end as cancelled.
    func drive(start: () -> Void, until isDone: () -> Bool) {
        interruptWatch = BlockingInterrupt.current
        defer {
            interruptWatch = nil
            interrupted = false
            nextInterruptCheck = 0
        }
        // Transfers this thread starts now go straight to the multi handle, not through the inbox.
        startingThread.store(UInt(pthread_self()), ordering: .relaxed)
        start()
        startingThread.store(0, ordering: .relaxed)
        while !isDone() {
            if !runOnce(isDone: isDone) { return }
        }
    }

    /// Shuts an engine down on the calling thread; for engines that no thread is driving.
    func shutDownUndriven() {
        inbox.withLock { $0.stopping = true }
        shutDown()
    }
}
