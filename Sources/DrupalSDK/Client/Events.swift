import FoundationEssentials
import Synchronization

/// What happened on a client, delivered to observers.
public enum DrupalEvent: Sendable {
    case login(CurrentUser)
    case logout
    case requestStarted(method: String, path: String)
    /// `status` is nil when no response arrived (network error, timeout, cancellation).
    case requestFinished(method: String, path: String, status: Int?, duration: Duration)
    /// A failed attempt is tried again after `delay`: `attempt` is the retry's number (1 for the
    /// first retry), `status` the failed attempt's (nil when no answer arrived).
    case retry(method: String, path: String, attempt: Int, status: Int?, delay: Duration)
}

/// A handle to remove an observer again.
public struct ObserverToken: Sendable, Hashable {
    /// Unique within the client that issued it.
    public let id: UInt64

    /// What clients without events hand out.
    public static let none = ObserverToken(id: 0)
}

/// The observers of one client. Events are delivered on the thread that produced them.
final class EventHub: Sendable {
    private let observers = Mutex<[UInt64: @Sendable (DrupalEvent) -> Void]>([:])
    private let nextID = Atomic<UInt64>(1)
    private let count = Atomic<Int>(0)

    func add(_ observer: @escaping @Sendable (DrupalEvent) -> Void) -> ObserverToken {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        observers.withLock { $0[id] = observer }
        count.add(1, ordering: .relaxed)
        return ObserverToken(id: id)
    }

    func remove(_ token: ObserverToken) {
        if observers.withLock({ $0.removeValue(forKey: token.id) }) != nil { count.subtract(1, ordering: .relaxed) }
    }

    /// Cheap when nobody listens: the hot path skips building events.
    var hasObservers: Bool { count.load(ordering: .relaxed) > 0 }

    func emit(_ event: @autoclosure () -> DrupalEvent) {
        guard hasObservers else { return }
        let current = observers.withLock { Array($0.values) }
        let value = event()
        for observer in current { observer(value) }
    }
}
