import Synchronization

/// One task-free request (LiveSession+TaskFree) from its first attempt to its outcome: what
/// cancels its current part (an attempt's transfer, or the task waiting to retry), and a blocking
/// call's outcome, in one object with what every attempt needs.
final class TaskFreeCall: Sendable {
    let session: LiveSession
    let request: DrupalRequest
    /// Where the outcome goes: a caller's completion, or (nil) `outcome`, for a blocking call's
    /// thread.
    private let completion: DrupalClient.Completion?
    let outcome = OutcomeSlot()
    let started = RequestInstant.now

    /// The attempt in flight, with what its end needs: set before its transfer starts and taken
    /// when the transfer ends (attempts run one at a time, and a transfer's start happens before
    /// its end), so the transfer's completion captures the call alone and allocates nothing.
    struct Attempt {
        var exchange: LiveSession.Exchange
        let startTransfer: Transport.Start
        let number: Int
        let tokenRefreshed: Bool
    }
    nonisolated(unsafe) var current: Attempt?

    private enum Part { case none, transfer(Transport.Cancel), task(Task<Void, Never>) }
    private struct CancelState { var part = Part.none; var cancelled = false; var parts = 0 }
    private let cancelState = Mutex(CancelState())

    init(_ session: LiveSession, _ request: DrupalRequest, completion: DrupalClient.Completion?) {
        self.session = session
        self.request = request
        self.completion = completion
    }

    func finish(_ outcome: consuming DrupalClient.Outcome) {
        letGoOfPart()
        if let completion { completion(outcome) } else { self.outcome.set(outcome) }
    }

    // MARK: Cancelling whichever part is current, and any later one at once

    var isCancelled: Bool { cancelState.withLock { $0.cancelled } }

    /// How many times the part changed so far (set, or let go when the call finished): read
    /// before a transfer starts, given back to `set(_:unlessReplacedSince:)` with its cancel.
    var partsSet: Int { cancelState.withLock { $0.parts } }

    /// The transfer's cancel, unless the part changed since `parts` was read: a transfer may end
    /// (and its end set a retry's task, or finish the call) before `start` even returned its
    /// cancel.
    func set(_ cancel: @escaping Transport.Cancel, unlessReplacedSince parts: Int) {
        replace(.transfer(cancel), ifPartsSet: parts)
    }

    func set(_ task: Task<Void, Never>) { replace(.task(task), ifPartsSet: nil) }

    private func replace(_ part: Part, ifPartsSet expected: Int?) {
        let cancelNow = cancelState.withLock { state -> Bool? in
            if let expected, state.parts != expected { return nil }
            state.part = part
            state.parts += 1
            return state.cancelled
        }
        if cancelNow == true { Self.cancel(part) }
    }

    /// A finished call has nothing left to cancel: it lets go of its part, whose cancel may hold
    /// the transfer's completion and so this call (a cycle: the mock transport's does), and
    /// refuses a transfer's cancel that comes after the transfer's end.
    private func letGoOfPart() {
        let part = cancelState.withLock { state -> Part in
            state.parts += 1
            defer { state.part = .none }
            return state.part
        }
        _ = part   // released here, outside the lock
    }

    func cancel() {
        let part = cancelState.withLock { state -> Part in
            state.cancelled = true
            return state.part
        }
        Self.cancel(part)
    }

    private static func cancel(_ part: Part) {
        switch part {
        case .none: break
        case .transfer(let cancel): cancel()
        case .task(let task): task.cancel()
        }
    }
}
