// The engine's loop: one turn (`runOnce`) runs queued jobs, starts and cancels transfers, lets
// libcurl work, completes what finished, then spins, busy-polls or sleeps until there is more.
import CCurl
import CCurlShim
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension CurlEngine {
    /// One turn: run queued jobs, start and cancel transfers, let libcurl work, complete what
    /// finished, then wait for sockets or a wake-up if nothing else is queued. False once stopped.
    func runOnce(isDone: () -> Bool) -> Bool {
        // The spare arrays are moved out for the turn (a nested turn, from a job, finds none and
        // allocates its own) and back, emptied, at its end.
        var batch = Batch()
        swap(&batch, &spareBatch)
        defer {
            batch.removeAll()
            swap(&batch, &spareBatch)
        }
        let (stopped, stopping) = inbox.withLock { inbox -> (Bool, Bool) in
            inbox.take(into: &batch)
            return (inbox.stopped, inbox.stopping)
        }
        if stopped { return false }
        for job in batch.jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        if !batch.jobs.isEmpty {
            // Requests the jobs just made start in this same turn.
            inbox.withLock { inbox in
                batch.submissions.append(contentsOf: inbox.submissions)
                inbox.submissions.removeAll(keepingCapacity: true)
            }
        }
        for transfer in batch.submissions { start(transfer) }
        for transfer in batch.cancellations { cancel(transfer) }
        if stopping {
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
        if spinsForWork && active.isEmpty && (completed > 0 || !batch.jobs.isEmpty) { spinForWork() }
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
                sleepWatching(watch)
            } else {
                curl_multi_poll(multi, nil, 0, 1000, nil)
                inbox.withLock { $0.sleeping = false }
            }
        }
        return true
    }

    /// Sleeps until a socket, a wake-up, the watch's descriptor or its interval check; then runs
    /// the watch's check if the descriptor is readable or the check is due.
    private func sleepWatching(_ watch: BlockingInterrupt.Watch) {
        let interval = UInt64(max(watch.checkIntervalMilliseconds, 0)) * 1_000_000
        if interval > 0 && nextInterruptCheck == 0 {
            nextInterruptCheck = monotonicNanoseconds() + interval   // from this drive's first sleep
        }
        var extra = curl_waitfd(fd: watch.fileDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
        let timeout = interval > 0 ? Int32(min(watch.checkIntervalMilliseconds, 1000)) : 1000
        if watch.fileDescriptor >= 0 {
            curl_multi_poll(multi, &extra, 1, timeout, nil)
        } else {
            curl_multi_poll(multi, nil, 0, timeout, nil)
        }
        inbox.withLock { $0.sleeping = false }
        var due = extra.revents & Int16(CURL_WAIT_POLLIN) != 0
        if interval > 0 {
            let now = monotonicNanoseconds()
            if now >= nextInterruptCheck {
                due = true
                nextInterruptCheck = now + interval
            }
        }
        if due && watch.shouldCancel() { interrupt() }
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
        watchForWork(posts, changedFrom: posts.load(ordering: .acquiring))
    }
}
