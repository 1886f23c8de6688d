import Synchronization

/// What cancels a task-free request that may be retried: the current attempt's transfer, or the
/// task waiting to retry. Cancelling reaches whichever is current, and any later one at once.
final class AttemptChain: Sendable {
    private enum Part { case none, transfer(Transport.Cancel), task(Task<Void, Never>) }
    private struct State { var part = Part.none; var cancelled = false }
    private let state = Mutex(State())

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func set(_ cancel: @escaping Transport.Cancel) { replace(.transfer(cancel)) }
    func set(_ task: Task<Void, Never>) { replace(.task(task)) }

    private func replace(_ part: Part) {
        let cancelNow = state.withLock { state -> Bool in
            state.part = part
            return state.cancelled
        }
        if cancelNow { Self.cancel(part) }
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
