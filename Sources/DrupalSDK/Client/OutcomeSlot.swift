import Synchronization

/// Where a blocking call's outcome waits for the call's thread: set once (by a task, or by a
/// completion on the thread driving the transport), then taken.
struct OutcomeSlot: ~Copyable, Sendable {
    private let slot = Mutex<DrupalClient.Outcome?>(nil)
    /// Set (after the slot) when the outcome is in: a driving loop asks after every wake-up, and
    /// `slot != nil` under the lock copied the whole outcome to compare it (~460 instructions).
    private let filled = Atomic<Bool>(false)

    init() {}

    /// Consumes the outcome: swapped into the slot, not copied (a copy retains its headers and body).
    func set(_ outcome: consuming DrupalClient.Outcome) {
        var moved: DrupalClient.Outcome? = consume outcome
        slot.withLock { swap(&$0, &moved) }
        filled.store(true, ordering: .releasing)
    }

    var isSet: Bool { filled.load(ordering: .acquiring) }

    /// Moves the outcome out: the task that set it may end after the waiter has returned (and
    /// freed the response), and must not be left holding the answer then.
    func take() -> DrupalClient.Outcome? {
        slot.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }
}

/// An outcome slot shared with the task that fills it.
final class OutcomeBox: Sendable {
    let slot = OutcomeSlot()

    func set(_ outcome: consuming DrupalClient.Outcome) { slot.set(outcome) }
    func take() -> DrupalClient.Outcome? { slot.take() }
}
