import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The thread a mock client's async requests are answered on, as a live client's are on its curl
/// thread: in the order they were started, without a Swift task per request (the task cost more
/// than the in-memory answer). Its thread starts with the first request and ends at `stop()`.
final class MockAnswerer: @unchecked Sendable {
    /// One started request: what answers it, and whether it was cancelled before its turn.
    private final class Job: Sendable {
        let answer: @Sendable (_ cancelled: Bool) -> Void
        let cancelled = Atomic<Bool>(false)
        init(_ answer: @escaping @Sendable (Bool) -> Void) { self.answer = answer }
    }

    private struct State {
        var jobs: [Job] = []
        var sleeping = false
        var stopped = false
        var thread: pthread_t?
    }

    private let state = Mutex(State())
    /// Counts requests submitted, so the thread can watch for one without taking the lock.
    private let submitted = Atomic<UInt64>(0)
    /// Signalled when work arrives for a sleeping thread, or at `stop()`.
    private let wake = DispatchSemaphore(value: 0)

    /// The name of the answering thread (at most 15 bytes).
    static let threadName = "drupalsdk-mock"

    /// Queues `answer(false)` for the answering thread; the returned closure makes it run as
    /// `answer(true)` instead when it has not run yet. After `stop()` it runs cancelled.
    func submit(_ answer: @escaping @Sendable (_ cancelled: Bool) -> Void) -> @Sendable () -> Void {
        let job = Job(answer)
        enum Outcome { case queued(threadWasSleeping: Bool), stopped, noThread }
        let outcome = state.withLock { state -> Outcome in
            if state.stopped { return .stopped }
            if state.thread == nil {
                state.thread = LibraryThread.start(named: MockAnswerer.threadName) { [self] in loop() }
            }
            guard state.thread != nil else { return .noThread }
            state.jobs.append(job)
            submitted.add(1, ordering: .releasing)
            defer { state.sleeping = false }
            return .queued(threadWasSleeping: state.sleeping)
        }
        switch outcome {
        case .queued(let sleeping): if sleeping { wake.signal() }
        // Answered on a library thread all the same: in a task (no thread could be made).
        case .stopped: Task { job.answer(true) }
        case .noThread: Task { job.answer(job.cancelled.load(ordering: .relaxed)) }
        }
        return { job.cancelled.store(true, ordering: .relaxed) }
    }

    /// Ends the thread: requests still queued are answered as cancelled first. From the answering
    /// thread itself (a callback that frees its client) the thread ends after its current batch.
    func stop() {
        let thread = state.withLock { state -> pthread_t? in
            state.stopped = true
            // Joined once, however often stop() runs (a client's last copy and its session
            // both shut its transport down): a second join of an ended thread is undefined.
            defer { state.thread = nil }
            return state.thread
        }
        wake.signal()
        if let thread { LibraryThread.join(thread) }
    }

    private func loop() {
        var batch: [Job] = []
        var taken: UInt64 = 0
        while true {
            // A caller often starts its next request as soon as its answer arrives: watch for it
            // briefly (as the curl engine does) before paying for a sleep and a wake-up.
            if !batch.isEmpty { watchForWork(submitted, changedFrom: taken) }
            batch.removeAll(keepingCapacity: true)
            let stopped = state.withLock { state -> Bool in
                swap(&batch, &state.jobs)
                taken = submitted.load(ordering: .relaxed)
                if batch.isEmpty && !state.stopped { state.sleeping = true }
                return state.stopped
            }
            for job in batch { job.answer(stopped || job.cancelled.load(ordering: .relaxed)) }
            if stopped && batch.isEmpty { return }
            if batch.isEmpty { wake.wait() }
        }
    }
}
