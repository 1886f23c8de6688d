import CDrupal
import Dispatch
import DrupalSDK
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a drupal_call points at: the cancel action of one call, and its links in its client's
/// list of calls in flight (guarded by that client's registry lock).
final class CallHandle: @unchecked Sendable {
    /// Where the outcome goes: a C callback with its userdata (as bits, for Sendable checks), or
    /// nowhere (blocking calls, which take the outcome from `run`).
    enum Delivery {
        case callback(CCallback, UInt)
        case none
    }

    private let delivery: Delivery
    /// The client an async call runs on, from `ClientHandle.begin` until the call ends: it keeps
    /// that client alive (as `drupal_client_free` from a callback needs), and the call's
    /// completion captures the call alone (a closure over one object allocates nothing). Set
    /// before the call starts and taken when it ends, so never touched by two threads at once.
    var owner: ClientHandle?

    /// The thread starting the call while the client's `start` runs (0 otherwise).
    private let startingThread = Atomic<UInt>(0)

    init(delivery: Delivery = .none) { self.delivery = delivery }

    /// Runs `start` (the client's start of this call) noting the thread, so that an outcome
    /// arriving on it before `start` returns (a client that fails at once) is delivered from
    /// another thread: the header promises callbacks on a library thread, never inside the call.
    func starting<T>(_ start: () throws -> T) rethrows -> T {
        startingThread.store(UInt(pthread_self()), ordering: .relaxed)
        defer { startingThread.store(0, ordering: .relaxed) }
        return try start()
    }

    /// An async call's end: hands the outcome over, then leaves the client's calls in flight.
    func complete(_ outcome: consuming DrupalClient.Outcome) {
        if startingThread.load(ordering: .relaxed) == UInt(pthread_self()) {
            let later = outcome
            DispatchQueue.global().async { self.complete(later) }
            return
        }
        deliver(ResponseHandle.from(outcome))
        // Leaves the calls in flight no longer holding the client: drupal_client_free, waiting for
        // them, must let go of it last, so that the client's end joins this thread. Let go of
        // last here, on the curl thread, the thread could not be joined and ran on after
        // drupal_client_free returned.
        guard let owner = owner.take() else { return }
        let inFlight = owner.unregister(self)
        _ = consume owner
        inFlight.leave()
    }

    /// Hands the outcome over; runs once, on the thread that completed the call.
    private func deliver(_ response: ResponseHandle) {
        guard case .callback(let callback, let userdata) = delivery, let owner else { return }
        insideCallback(of: owner.identity) {
            callback(response.code, response.opaqueOrNull, UnsafeMutableRawPointer(bitPattern: userdata))
        }
    }

    private struct State {
        var cancelAction: DrupalClient.Cancel?
        var cancelled = false
        /// Set when the outcome has been delivered: what cancels the call is let go then (a
        /// task-free call's cancel action holds its transfer and buffers).
        var finished = false
    }

    private let state = Mutex(State())
    var previous: CallHandle?
    var next: CallHandle?

    /// Sets the call's cancel action; runs it at once if cancellation came first.
    func attach(_ cancelAction: @escaping DrupalClient.Cancel) {
        let cancelNow = state.withLock { state -> Bool in
            if state.finished { return false }
            state.cancelAction = cancelAction
            return state.cancelled
        }
        if cancelNow { cancelAction() }
    }

    /// The call has ended: nothing is left to cancel.
    func finish() {
        state.withLock { state in
            state.finished = true
            state.cancelAction = nil
        }
    }

    func cancel() {
        let cancelAction = state.withLock { state -> DrupalClient.Cancel? in
            state.cancelled = true
            return state.cancelAction
        }
        cancelAction?()
    }

    static func from(_ pointer: OpaquePointer?) -> CallHandle? {
        guard let pointer else { return nil }
        return Unmanaged<CallHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}
