/// When a blocking call should check its socket before sleeping. Busy polling pays only when
/// answers arrive within the window (a fast or nearby server); after a window that ran out, the
/// next `backoff` waits sleep at once, then one tries again. So a slow or distant site costs at
/// most one window of CPU per `backoff + 1` waits.
struct BusyPollBudget {
    static let backoff = 8

    private var waitsToSkip = 0

    /// Whether to busy-poll this wait (consumes one skipped wait when backing off).
    mutating func shouldPoll() -> Bool {
        if waitsToSkip == 0 { return true }
        waitsToSkip -= 1
        return false
    }

    /// The outcome of a busy-polled wait: an answer in the window, or none.
    mutating func record(answered: Bool) {
        waitsToSkip = answered ? 0 : BusyPollBudget.backoff
    }
}
