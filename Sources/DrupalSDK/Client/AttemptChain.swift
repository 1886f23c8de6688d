import Synchronization

/// What cancels a task-free request that may be retried: the current attempt's transfer, or the
/// task waiting to retry. Cancelling reaches whichever is current, and any later one at once.
final class AttemptChain: Sendable {
    private enum Part { case none, transfer(Transport.Cancel), task(Task<Void, Never>) }
    private struct State { var part = Part.none; var cancelled = false; var parts = 0 }
    private let state = Mutex(State())

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// How many parts were set so far: read before a transfer starts, given back to
    /// `set(_:unlessReplacedSince:)` with its cancel.
    var partsSet: Int { state.withLock { $0.parts } }

    /// The transfer's cancel, unless a part was set since `parts` was read: a transfer may end
    /// (and its end set a retry's task) before `start` even returned its cancel.
    func set(_ cancel: @escaping Transport.Cancel, unlessReplacedSince parts: Int) {
        replace(.transfer(cancel), ifPartsSet: parts)
    }

    func set(_ task: Task<Void, Never>) { replace(.task(task), ifPartsSet: nil) }

    private func replace(_ part: Part, ifPartsSet expected: Int?) {
        let cancelNow = state.withLock { state -> Bool? in
            if let expected, state.parts != expected { return nil }
            state.part = part
            state.parts += 1
            return state.cancelled
        }
        if cancelNow == true { Self.cancel(part) }
    }

    func cancel() {
        let part = state.withLock { state -> Part in
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
