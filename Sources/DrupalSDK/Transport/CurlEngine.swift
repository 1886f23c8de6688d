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
public final class CurlEngine: TaskExecutor, @unchecked Sendable {
    private struct Inbox {
        var jobs: [UnownedJob] = []
        var submissions: [CurlTransfer] = []
        var cancellations: [CurlTransfer] = []
        var stopping = false
        var stopped = false
        /// The loop is (about to be) blocked in curl_multi_poll: whoever queues work wakes it,
        /// once. At all other times queued work is picked up without a system call.
        var sleeping = false

        var hasWork: Bool { !jobs.isEmpty || !submissions.isEmpty || !cancellations.isEmpty || stopping }

        /// Called with new work queued, under the lock: wakes the loop if it sleeps (once).
        /// Under the lock because the loop frees the multi handle once `stopped` is set.
        mutating func wakeIfSleeping(_ multi: UnsafeMutableRawPointer, _ posts: borrowing Atomic<UInt64>) {
            posts.add(1, ordering: .releasing)
            if sleeping && !stopped { curl_multi_wakeup(multi) }
            sleeping = false
        }
    }

    /// How long the loop keeps checking for new work after delivering results before it sleeps:
    /// a caller that answers a callback with its next request is then served without a wake-up.
    private static let spinNanoseconds: UInt64 = 20_000

    /// The engine a blocking call is driving on this task's thread, if any: its requests go there.
    @TaskLocal static var inline: CurlEngine?

    private let options: TransportOptions
    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    /// Counts work queued, so the loop can watch for new work without taking the inbox lock
    /// (spinning on the lock would make every poster wait for it).
    private let posts = Atomic<UInt64>(0)
    // Touched only by the thread running the loop (so no run-time exclusivity checks).
    /// Transfers added to the multi handle (an array: tens at most, and no hashing per request).
    @exclusivity(unchecked) private var active: [CurlTransfer] = []
    /// Easy handles between transfers.
    @exclusivity(unchecked) private var idleHandles: [EasyHandle] = []
    /// Whether blocking calls on this engine busy-poll (see `BusyPollBudget`).
    private var busyPollBudget = BusyPollBudget()
    /// "User-Agent: ..." as sent, checked once (nil when there is none to send).
    private let userAgentLine: String?
    /// The header list of GETs without headers of their own, shared by all of them (nil when
    /// there is no User-Agent to send).
    private let plainHeaders: UnsafeMutablePointer<curl_slist>?

    /// Nil when libcurl cannot make a multi handle (out of memory).
    init?(options: TransportOptions) {
        _ = curlGlobalInit
        self.options = options
        // A User-Agent that could smuggle a header is not sent (clients refuse one at creation).
        let agent = options.userAgent
        userAgentLine = agent.isEmpty || HeaderSafety.problem(name: "User-Agent", value: agent) != nil
            ? nil : "User-Agent: \(agent)"
        guard let multi = curl_multi_init() else { return nil }
        // A fixed pool: libcurl's default (4 per transfer currently added) shrinks as a window of
        // requests drains and closes connections that the next batch opens again.
        _ = shim_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS,
                                        max(1, min(options.maxConnections, TransportOptions.maxMaxConnections)))
        // Without it (out of memory) plain GETs build their own header list.
        plainHeaders = userAgentLine.map { curl_slist_append(nil, $0) } ?? nil
        self.multi = multi
    }

    /// Set for an engine with a thread of its own (see `runOnce`).
    private var spinsForWork = false
    /// The driving thread's interrupt watch, for the length of one `drive`.
    @exclusivity(unchecked) private var interruptWatch: BlockingInterrupt.Watch?
    /// Set once the watch cancelled this drive: transfers it starts from then on fail at once.
    @exclusivity(unchecked) private var interrupted = false

    /// The name of an engine's own thread (at most 15 bytes).
    static let threadName = "drupalsdk-curl"
    /// The engine's own thread, until `stopAndWait()` joins it.
    private let thread = Mutex<pthread_t?>(nil)

    /// Runs the loop on a new thread of its own until `stop()`.
    func startThread() {
        spinsForWork = true
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { argument in
            let engine = Unmanaged<CurlEngine>.fromOpaque(argument!).takeRetainedValue()
            // Named, so a user's debugger or top shows whose thread it is.
            shim_name_this_thread(CurlEngine.threadName)
            while engine.runOnce(isDone: { false }) {}
            return nil
        }, retained)
        if created == 0 {
            self.thread.withLock { $0 = thread }
        } else {
            Unmanaged<CurlEngine>.fromOpaque(retained).release()
        }
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
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    /// Runs `start` and then the loop on the calling thread until `isDone()` holds. Only one
    /// thread may drive an engine at a time. The thread's `BlockingInterrupt` watch, if any, is
    /// waited on too: when it fires and says so, the transfers of this drive end as cancelled.
    func drive(start: () -> Void, until isDone: () -> Bool) {
        interruptWatch = BlockingInterrupt.current
        defer {
            interruptWatch = nil
            interrupted = false
        }
        start()
        while !isDone() {
            if !runOnce(isDone: isDone) { return }
        }
    }

    /// Shuts an engine down on the calling thread; for engines that no thread is driving.
    func shutDownUndriven() {
        inbox.withLock { $0.stopping = true }
        shutDown()
    }

    // MARK: TaskExecutor

    public func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let accepted = inbox.withLock { [multi, self] inbox -> Bool in
            if inbox.stopped { return false }
            inbox.jobs.append(unownedJob)
            inbox.wakeIfSleeping(multi, self.posts)
            return true
        }
        if !accepted {
            // The thread has ended: run the job on the global pool instead of losing it.
            globalConcurrentExecutor.enqueue(ExecutorJob(unownedJob))
        }
    }

    // MARK: Requests

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if Task.isCancelled { throw DrupalError.cancelled() }
        let transfer = CurlTransfer(request: request, maxBodySize: options.maxBodySize)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                transfer.continuation = continuation
                submit(transfer)
            }
        } onCancel: {
            requestCancel(transfer)
        }
    }

    /// Callback mode: starts a request without a task; `completion` runs once on the loop's
    /// thread. The returned closure cancels the request (from any thread).
    func start(_ request: HTTPRequest, completion: @escaping Transport.Completion) -> Transport.Cancel {
        let transfer = CurlTransfer(request: request, maxBodySize: options.maxBodySize)
        transfer.completion = completion
        submit(transfer)
        return { [self] in requestCancel(transfer) }
    }

    /// Asks the loop to cancel a transfer; safe from any thread, and for finished transfers.
    private func requestCancel(_ transfer: CurlTransfer) {
        transfer.cancelRequested.store(true, ordering: .relaxed)
        inbox.withLock { [multi, self] inbox in
            if inbox.stopped { return }
            inbox.cancellations.append(transfer)
            inbox.wakeIfSleeping(multi, self.posts)
        }
    }

    private func submit(_ transfer: CurlTransfer) {
        let accepted = inbox.withLock { [multi, self] inbox -> Bool in
            if inbox.stopping || inbox.stopped { return false }
            inbox.submissions.append(transfer)
            inbox.wakeIfSleeping(multi, self.posts)
            return true
        }
        if !accepted {
            resume(transfer, with: .failure(DrupalError(.cancelled, "the client was shut down")))
        }
    }

    /// Cancels every request in flight and ends the thread. Safe to call more than once.
    public func stop() {
        inbox.withLock { [multi] inbox in
            inbox.stopping = true
            // Unconditional (the loop may be about to sleep), but never after the loop freed
            // the multi handle.
            if !inbox.stopped { curl_multi_wakeup(multi) }
        }
    }

    // MARK: The loop

    /// One turn: run queued jobs, start and cancel transfers, let libcurl work, complete what
    /// finished, then wait for sockets or a wake-up if nothing else is queued. False once stopped.
    private func runOnce(isDone: () -> Bool) -> Bool {
        let work = inbox.withLock { inbox -> Inbox in
            let taken = inbox
            inbox.jobs.removeAll(keepingCapacity: true)
            inbox.submissions.removeAll(keepingCapacity: true)
            inbox.cancellations.removeAll(keepingCapacity: true)
            return taken
        }
        if work.stopped { return false }
        for job in work.jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        // Requests the jobs just made start in this same turn.
        let madeByJobs = work.jobs.isEmpty ? [] : inbox.withLock { inbox -> [CurlTransfer] in
            defer { inbox.submissions.removeAll(keepingCapacity: true) }
            return inbox.submissions
        }
        for transfer in work.submissions + madeByJobs { start(transfer) }
        for transfer in work.cancellations { cancel(transfer) }
        if work.stopping {
            shutDown()
            return false
        }
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
        let completed = completeFinishedTransfers()
        if isDone() || inbox.withLock({ $0.hasWork }) { return true }
        // Nothing queued and nothing in flight right after delivering results: a caller often
        // answers at once with its next request, so watch for it briefly before paying for a
        // sleep and a wake-up. (Only on the engine's own thread: a blocking caller drives its
        // engine itself, and with transfers in flight the network decides.)
        if spinsForWork && active.isEmpty && (completed > 0 || !work.jobs.isEmpty) { spinForWork() }
        // A blocking caller waits for its answer anyway: checking the socket for a few
        // microseconds answers a fast server without a sleep and a wake-up of the thread.
        if !spinsForWork && !active.isEmpty && options.busyPollMicroseconds > 0 && busyPollBudget.shouldPoll() {
            let answered = pollBriefly()
            busyPollBudget.record(answered: answered)
            if answered { return true }
        }
        let sleep = inbox.withLock { inbox -> Bool in
            if inbox.hasWork { return false }
            inbox.sleeping = true
            return true
        }
        if sleep {
            if let watch = interruptWatch {
                var extra = curl_waitfd(fd: watch.fileDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
                curl_multi_poll(multi, &extra, 1, 1000, nil)
                inbox.withLock { $0.sleeping = false }
                if extra.revents & Int16(CURL_WAIT_POLLIN) != 0 && watch.shouldCancel() { interrupt() }
            } else {
                curl_multi_poll(multi, nil, 0, 1000, nil)
                inbox.withLock { $0.sleeping = false }
            }
        }
        return true
    }

    /// Ends every transfer of this drive as cancelled, and the ones it would start later.
    private func interrupt() {
        interrupted = true
        for transfer in active { cancel(transfer, reason: "the blocking call was interrupted") }
    }

    /// Polls the transfers' sockets without sleeping for up to `options.busyPollMicroseconds`;
    /// true as soon as one is ready.
    private func pollBriefly() -> Bool {
        let deadline = monotonicNanoseconds() + UInt64(options.busyPollMicroseconds) * 1000
        repeat {
            var ready: Int32 = 0
            guard curl_multi_poll(multi, nil, 0, 0, &ready) == CURLM_OK else { return false }
            if ready > 0 { return true }
        } while monotonicNanoseconds() < deadline
        return false
    }

    /// Checks for queued work for a few microseconds before the loop goes to sleep.
    private func spinForWork() {
        let seen = posts.load(ordering: .acquiring)
        let deadline = monotonicNanoseconds() + CurlEngine.spinNanoseconds
        repeat {
            // Read the clock only now and then: the counter is the cheap part.
            for _ in 0..<64 where posts.load(ordering: .acquiring) != seen { return }
        } while monotonicNanoseconds() < deadline
    }

    private func start(_ transfer: CurlTransfer) {
        if transfer.cancelRequested.load(ordering: .relaxed) || interrupted {
            resume(transfer, with: .failure(DrupalError.cancelled()))
            return
        }
        guard let handle = idleHandles.popLast() ?? EasyHandle.make() else {
            resume(transfer, with: .failure(DrupalError(.noMemory, "curl_easy_init failed")))
            return
        }
        if let error = transfer.configure(handle, options: options, userAgentLine: userAgentLine,
                                             plainHeaders: plainHeaders) {
            recycle(transfer)
            resume(transfer, with: .failure(error))
            return
        }
        active.append(transfer)
        curl_multi_add_handle(multi, handle.easy)
    }

    private func cancel(_ transfer: CurlTransfer, reason: String = "the request was cancelled") {
        guard removeActive(transfer), let easy = transfer.easy else { return }
        curl_multi_remove_handle(multi, easy)
        recycle(transfer)
        resume(transfer, with: .failure(DrupalError(.cancelled, reason)))
    }

    @discardableResult
    private func removeActive(_ transfer: CurlTransfer) -> Bool {
        guard let index = active.lastIndex(where: { $0 === transfer }) else { return false }
        active.swapAt(index, active.count - 1)
        active.removeLast()
        return true
    }

    /// Resumes the tasks of finished transfers; returns how many finished.
    private func completeFinishedTransfers() -> Int {
        var finished = 0
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var privatePointer: UnsafeMutableRawPointer?
            _ = shim_curl_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &privatePointer)
            curl_multi_remove_handle(multi, easy)
            guard let privatePointer else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(privatePointer).takeUnretainedValue()
            removeActive(transfer)
            let result = outcome(of: transfer, easy: easy, code: code)
            recycle(transfer)
            resume(transfer, with: result)
            finished += 1
        }
        return finished
    }

    private func outcome(of transfer: CurlTransfer, easy: UnsafeMutableRawPointer,
                         code: CURLcode) -> Result<HTTPResponse, any Error> {
        if code == CURLE_OK {
            var status = 0
            _ = shim_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            return .success(HTTPResponse(status: status, headers: HTTPHeaders(raw: transfer.responseHeaders),
                                         body: transfer.responseBody))
        }
        return .failure(CurlErrors.error(for: code, transfer: transfer, options: options))
    }

    /// Takes the transfer's easy handle back into the pool.
    private func recycle(_ transfer: CurlTransfer) {
        guard var handle = transfer.handle else { return }
        // A plain GET changed only per-request options, which the next transfer sets again.
        handle.configured = transfer.leavesHandleClean
        transfer.releaseResources()
        if !handle.configured { curl_easy_reset(handle.easy) }
        idleHandles.append(handle)
    }

    /// Hands the outcome to the transfer's task or completion, once.
    private func resume(_ transfer: CurlTransfer, with result: Result<HTTPResponse, any Error>) {
        if let continuation = transfer.continuation {
            transfer.continuation = nil
            continuation.resume(with: result)
        } else if let completion = transfer.completion {
            transfer.completion = nil
            completion(result)
        }
    }

    private func shutDown() {
        for transfer in active {
            if let easy = transfer.easy {
                curl_multi_remove_handle(multi, easy)
                recycle(transfer)
            }
            resume(transfer, with: .failure(DrupalError(.cancelled, "the client was shut down")))
        }
        active.removeAll()
        let leftover = inbox.withLock { inbox -> Inbox in
            inbox.stopped = true
            let taken = inbox
            inbox.jobs.removeAll()
            inbox.submissions.removeAll()
            inbox.cancellations.removeAll()
            return taken
        }
        for transfer in leftover.submissions {
            resume(transfer, with: .failure(DrupalError(.cancelled, "the client was shut down")))
        }
        // Jobs that arrived meanwhile (including those the resumes above queued) still run.
        for job in leftover.jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        for handle in idleHandles { handle.destroy() }
        idleHandles.removeAll()
        curl_slist_free_all(plainHeaders)
        curl_multi_cleanup(multi)
    }
}

private func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
