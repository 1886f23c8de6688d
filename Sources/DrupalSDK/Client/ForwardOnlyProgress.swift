import Synchronization

/// A call's progress as its caller sees it: never going back. A call may send its body again (after
/// a CSRF or OAuth token refresh, or a retry) or receive an answer again from its start; the
/// caller's count then stays where it was until the new attempt passes it, so a progress bar
/// never jumps back to 0.
final class ForwardOnlyProgress: Sendable {
    private let progress: TransferProgress
    /// The last (done, total) handed to the caller; (-1, -1) before the first.
    private let reported = Mutex<(done: Int64, total: Int64)>((-1, -1))

    private init(_ progress: @escaping TransferProgress) { self.progress = progress }

    /// `request` with its progress (if any) made forward-only, for one call.
    static func forOneCall(_ request: DrupalRequest) -> DrupalRequest {
        guard let progress = request.progress else { return request }
        var request = request
        request.progress = ForwardOnlyProgress(progress).report
        return request
    }

    private func report(_ done: Int64, _ total: Int64?) -> Bool {
        let fresh = reported.withLock { last -> Bool in
            if done < last.done || (done == last.done && (total ?? -1) == last.total) { return false }
            last = (done, total ?? -1)
            return true
        }
        // Attempts run one after another, so reports never race; one held back goes on.
        return fresh ? progress(done, total) : true
    }
}
