// The engine's inbox (jobs, submissions and cancellations queued for the loop by any thread) and
// its TaskExecutor side: jobs enqueued by tasks that prefer the engine go through the inbox.
import CCurl
import CCurlShim
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension CurlEngine {
    struct Inbox {
        var jobs: [UnownedJob] = []
        var submissions: [CurlTransfer] = []
        var cancellations: [CurlTransfer] = []
        var stopping = false
        var stopped = false
        /// The loop is (about to be) blocked in curl_multi_poll: whoever queues work wakes it,
        /// once. At all other times queued work is picked up without a system call.
        var sleeping = false

        var hasWork: Bool { !jobs.isEmpty || !submissions.isEmpty || !cancellations.isEmpty || stopping }

        /// Hands the queued work to the loop's `batch` and keeps the batch's empty arrays in its
        /// place: both sides keep their capacity, so neither allocates in a turn (a copy of the
        /// inbox shared its buffers, and every `removeAll(keepingCapacity:)` then allocated anew).
        mutating func take(into batch: inout Batch) {
            swap(&jobs, &batch.jobs)
            swap(&submissions, &batch.submissions)
            swap(&cancellations, &batch.cancellations)
        }

        /// Called with new work queued, under the lock: wakes the loop if it sleeps (once).
        /// Under the lock because the loop frees the multi handle once `stopped` is set.
        mutating func wakeIfSleeping(_ multi: UnsafeMutableRawPointer, _ posts: borrowing Atomic<UInt64>) {
            posts.add(1, ordering: .releasing)
            if sleeping && !stopped { curl_multi_wakeup(multi) }
            sleeping = false
        }
    }

    /// The work of one turn of the loop, taken from the inbox.
    struct Batch {
        var jobs: [UnownedJob] = []
        var submissions: [CurlTransfer] = []
        var cancellations: [CurlTransfer] = []

        /// Most turns leave two of the three empty: emptying an empty array still costs a
        /// generic range replacement (~200 instructions), so those are skipped.
        mutating func removeAll() {
            if !jobs.isEmpty { jobs.removeAll(keepingCapacity: true) }
            if !submissions.isEmpty { submissions.removeAll(keepingCapacity: true) }
            if !cancellations.isEmpty { cancellations.removeAll(keepingCapacity: true) }
        }
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
}
