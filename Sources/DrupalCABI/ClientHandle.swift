import CDrupal
import Dispatch
import DrupalSDK
import FoundationEssentials
import Synchronization

/// What a drupal_client points at: the Swift client plus the bookkeeping that lets
/// drupal_client_free cancel calls in flight and wait until every callback has run. Every call
/// goes to the client's `start` or `run`, whatever the client is (live, mock, unimplemented).
final class ClientHandle: @unchecked Sendable {
    private struct Registry {
        /// Calls in flight, as an intrusive list (no hashing or allocation per call).
        var first: CallHandle?
        var closed = false

        mutating func insert(_ call: CallHandle) {
            call.next = first
            first?.previous = call
            first = call
        }

        mutating func remove(_ call: CallHandle) {
            if first === call { first = call.next }
            call.previous?.next = call.next
            call.next?.previous = call.previous
            call.previous = nil
            call.next = nil
        }

        var all: [CallHandle] {
            var calls: [CallHandle] = []
            var cursor = first
            while let call = cursor {
                calls.append(call)
                cursor = call.next
            }
            return calls
        }
    }

    let client: DrupalClient
    /// The site's base URL as the client was made with it (nil for a mock or an unimplemented
    /// client): what pages a person opens on the site are made from (drupal_oauth_authorization).
    let baseURL: String?
    let mock: MockDrupal?
    /// Shared with the language views made from this client (see CallbackFrames).
    let family: ClientFamily
    private let registry = Mutex(Registry())
    private let inFlight = DispatchGroup()
    /// Pagers made on this client and not freed yet: the pages a JSON:API pager fetches ahead
    /// are this client's requests too (its hooks and token provider run for them), so freeing
    /// the client ends them.
    private let pagers = Mutex<[ObjectIdentifier: DrupalPager]>([:])
    let listeners = Mutex<[UInt64: ObserverToken]>([:])

    init(client: DrupalClient, baseURL: String? = nil, mock: MockDrupal? = nil, family: ClientFamily = ClientFamily()) {
        self.client = client
        self.baseURL = baseURL
        self.mock = mock
        self.family = family
    }

    static func from(_ pointer: OpaquePointer?) -> ClientHandle? {
        guard let pointer else { return nil }
        return Unmanaged<ClientHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// Registers a call unless the client is being freed.
    private func register(_ call: CallHandle) throws {
        try registry.withLock { registry in
            if registry.closed { throw DrupalError(.state, "the client is being freed") }
            registry.insert(call)
            inFlight.enter()
        }
    }

    /// Starts an operation whose outcome goes to `call.deliver` exactly once. Throws (nothing
    /// started, nothing delivered) when the client refuses the input or is being freed.
    func begin(_ call: CallHandle, _ operation: DrupalOperation) throws {
        try register(call)
        call.owner = self
        do {
            call.attach(try call.starting { try client.start(operation) { outcome in call.complete(outcome) } })
        } catch {
            call.owner = nil
            end(call)
            throw error
        }
    }

    /// Runs an operation with the calling thread waiting (doing the I/O where the client can).
    /// Throws when it could not start.
    func run(_ operation: DrupalOperation) throws -> ResponseHandle {
        let call = CallHandle()
        try register(call)
        defer { end(call) }
        return ResponseHandle.from(try client.run(operation) { call.attach($0) })
    }

    func end(_ call: CallHandle) { unregister(call).leave() }

    /// Takes a call out of the calls in flight; leaving the group returned ends it for
    /// `drupal_client_free`, which may then return and free the client at once.
    func unregister(_ call: CallHandle) -> DispatchGroup {
        call.finish()
        registry.withLock { $0.remove(call) }
        return inFlight
    }

    func opened(_ pager: DrupalPager) { pagers.withLock { $0[ObjectIdentifier(pager)] = pager } }

    func freed(_ pager: DrupalPager) { pagers.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(pager)) } }

    /// Cancels every call and waits for their callbacks, then ends the pagers' fetches ahead and
    /// waits for them (unless called from a callback: the client is then released when the last
    /// of them ends).
    func close() {
        let calls = registry.withLock { registry -> [CallHandle] in
            registry.closed = true
            return registry.all
        }
        for call in calls { call.cancel() }
        let inside = isInsideCallback()
        if !inside { inFlight.wait() }
        // No pager call runs now (none can start), so no pager starts fetching again.
        let open = pagers.withLock { pagers in
            defer { pagers.removeAll() }
            return Array(pagers.values)
        }
        for pager in open { pager.closeFromC(waiting: !inside) }
        if inside { return }
        let tokens = listeners.withLock { listeners in
            defer { listeners.removeAll() }
            return Array(listeners.values)
        }
        for token in tokens { client.removeObserver(token) }
    }
}
