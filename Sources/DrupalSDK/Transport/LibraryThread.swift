import CCurlShim
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The threads a client owns (the curl engine's, the mock's answering thread): named, so a
/// user's debugger or top shows whose they are, and joined when their owner goes away.
enum LibraryThread {
    /// Runs `body` on a new thread named `name` (at most 15 bytes); nil when none could be made.
    static func start(named name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
        final class Start: Sendable {
            let name: String
            let body: @Sendable () -> Void
            init(_ name: String, _ body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }
        }
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(Start(name, body)).toOpaque()
        let created = pthread_create(&thread, nil, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            shim_name_this_thread(start.name)
            start.body()
            return nil
        }, retained)
        guard created == 0 else {
            Unmanaged<Start>.fromOpaque(retained).release()
            return nil
        }
        return thread
    }

    /// Waits until `thread` has ended and let go of everything it held; from that thread itself it
    /// cannot wait, and the thread ends by itself.
    static func join(_ thread: pthread_t) {
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }
}

/// How long a client's thread watches for new work after delivering results before it sleeps: a
/// caller that answers a callback with its next request is then served without a wake-up.
let workWatchNanoseconds: UInt64 = 20_000

/// Returns as soon as `counter` differs from `seen`, or after `nanoseconds`.
func watchForWork(_ counter: borrowing Atomic<UInt64>, changedFrom seen: UInt64,
                  nanoseconds: UInt64 = workWatchNanoseconds) {
    let deadline = monotonicNanoseconds() + nanoseconds
    repeat {
        // Read the clock only now and then: the counter is the cheap part.
        for _ in 0..<64 where counter.load(ordering: .acquiring) != seen { return }
    } while monotonicNanoseconds() < deadline
}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
