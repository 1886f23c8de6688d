import Dispatch
import Synchronization

/// An executor that runs jobs on the thread that drives it, for blocking calls over transports
/// that answer without waiting on sockets (the mock): the whole call then runs on the caller's
/// thread, with no hand-off to another thread and back.
final class CallerThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    /// Signalled for each job, so a driver waiting for work queued from elsewhere wakes up.
    private let arrived = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        jobs.withLock { $0.append(unownedJob) }
        arrived.signal()
    }

    /// Runs `work` as a task on this thread until it is done; `register` receives the task first.
    static func run(register: (Task<Void, Never>) -> Void, _ work: @escaping @Sendable () async -> Void) {
        let executor = CallerThreadExecutor()
        let finished = DoneFlag()
        register(Task(executorPreference: executor) {
            await work()
            finished.set()
        })
        while !finished.isSet {
            let ready = executor.jobs.withLock { jobs in
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            if ready.isEmpty {
                executor.arrived.wait()
                continue
            }
            for job in ready { job.runSynchronously(on: executor.asUnownedTaskExecutor()) }
        }
    }
}
