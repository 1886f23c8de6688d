#if canImport(Glibc)
import Glibc
#endif

/// A per-thread way to interrupt blocking calls: while a blocking call waits for the network on
/// a thread that set a watch, it also waits for the watch's file descriptor (if any), and wakes
/// every `checkInterval` (if set); when the descriptor becomes readable or the interval is up,
/// `shouldCancel` runs on that thread and, if it says so, the call ends as cancelled.
/// Embedders use it to let a signal end a blocking call (Python's Ctrl-C: its signal handler
/// writes to a wake-up fd, and entering the check runs the Python handler, which may raise; the
/// interval covers a wake-up fd that another library owns).
public enum BlockingInterrupt {
    /// The longest interval a watch may have (one check every 10 minutes).
    public static let maxCheckIntervalMilliseconds: Int32 = 600_000

    public struct Watch: Sendable {
        /// -1: none (only the interval wakes the check).
        public var fileDescriptor: Int32
        /// 0: none (only the descriptor wakes the check).
        public var checkIntervalMilliseconds: Int32
        /// Runs on the waiting thread when the descriptor is readable or the interval is up; true
        /// cancels the call. It must make the descriptor unreadable again (read what is there)
        /// unless it cancels.
        public var shouldCancel: @Sendable () -> Bool

        public init(fileDescriptor: Int32, checkIntervalMilliseconds: Int32 = 0,
                    shouldCancel: @escaping @Sendable () -> Bool) {
            self.fileDescriptor = fileDescriptor
            self.checkIntervalMilliseconds = checkIntervalMilliseconds
            self.shouldCancel = shouldCancel
        }
    }

    private final class Box {
        let watch: Watch
        init(_ watch: Watch) { self.watch = watch }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // A thread that ends with a watch set releases it.
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<Box>.fromOpaque(pointer).release() }
        }
        return key
    }()

    /// The calling thread's watch (nil: blocking calls on this thread wait for the network only).
    public static var current: Watch? {
        get {
            guard let pointer = pthread_getspecific(key) else { return nil }
            return Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue().watch
        }
        set {
            if let old = pthread_getspecific(key) { Unmanaged<Box>.fromOpaque(old).release() }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained(Box($0)).toOpaque() })
        }
    }
}
