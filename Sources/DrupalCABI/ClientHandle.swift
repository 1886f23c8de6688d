import CDrupal
import Dispatch
import DrupalSDK
import FoundationEssentials
import Synchronization

/// What a drupal_client points at: the Swift client plus the bookkeeping that lets
/// drupal_client_free cancel calls in flight and wait until every callback has run.
final class ClientHandle: @unchecked Sendable {
    typealias Operation = @Sendable (DrupalClient) async throws -> DrupalResponse

    private struct Registry {
        var calls: [UInt64: CallHandle] = [:]
        var nextID: UInt64 = 1
        var closed = false
        /// Set when free was called from a callback: the last call to end shuts the client down.
        var shutDownWhenIdle = false
    }

    let client: DrupalClient
    let mock: MockDrupal?
    private let executor: any TaskExecutor
    private let registry = Mutex(Registry())
    private let inFlight = DispatchGroup()
    let listeners = Mutex<[UInt64: ObserverToken]>([:])

    init(client: DrupalClient, mock: MockDrupal? = nil) {
        self.client = client
        self.mock = mock
        self.executor = client.executor ?? globalConcurrentExecutor
    }

    static func from(_ pointer: OpaquePointer?) -> ClientHandle? {
        guard let pointer else { return nil }
        return Unmanaged<ClientHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// Starts an operation whose outcome goes to `deliver` exactly once. False once the client
    /// is being freed.
    func begin(_ call: CallHandle, _ operation: @escaping Operation,
               deliver: @escaping @Sendable (ResponseHandle) -> Void) -> Bool {
        registry.withLock { registry -> Bool in
            if registry.closed { return false }
            let id = registry.nextID
            registry.nextID += 1
            registry.calls[id] = call
            inFlight.enter()
            let client = self.client
            call.task.withLock { task in
                task = Task(executorPreference: executor) {
                    let response = await ResponseHandle.run { try await operation(client) }
                    deliver(response)
                    self.end(id)
                }
            }
            return true
        }
    }

    /// Runs an operation to completion with the calling thread doing the I/O, when the transport
    /// allows it (no thread switch per call). Nil when it does not, or when the client is being
    /// freed (then the last error says so).
    func runBlocking(_ operation: @escaping Operation) -> ResponseHandle? {
        guard let runBlocking = client.runBlocking else { return nil }
        let call = CallHandle()
        let id = registry.withLock { registry -> UInt64? in
            if registry.closed { return nil }
            let id = registry.nextID
            registry.nextID += 1
            registry.calls[id] = call
            inFlight.enter()
            return id
        }
        guard let id else {
            fail(.state, "the client is being freed")
            return nil
        }
        let client = self.client
        let box = BlockingResult()
        runBlocking({ task in
            call.task.withLock { $0 = task }
            // free() may have run between registering and here: honour its cancellation.
            if registry.withLock({ $0.closed }) { task.cancel() }
        }, {
            let response = await ResponseHandle.run { try await operation(client) }
            box.response.withLock { $0 = response }
        })
        end(id)
        return box.response.withLock { $0 }
    }

    var canRunBlocking: Bool { client.runBlocking != nil }

    private func end(_ id: UInt64) {
        let shutDownNow = registry.withLock { registry -> Bool in
            registry.calls.removeValue(forKey: id)
            return registry.shutDownWhenIdle && registry.calls.isEmpty
        }
        inFlight.leave()
        if shutDownNow { client.shutdown() }
    }

    /// Cancels every call, waits for their callbacks (unless called from one), then shuts down.
    func close() {
        let calls = registry.withLock { registry -> [CallHandle] in
            registry.closed = true
            if drupal__in_callback() != 0 { registry.shutDownWhenIdle = !registry.calls.isEmpty }
            return Array(registry.calls.values)
        }
        for call in calls { call.cancel() }
        if drupal__in_callback() != 0 {
            if calls.isEmpty { client.shutdown() }
            return
        }
        inFlight.wait()
        let tokens = listeners.withLock { listeners in
            defer { listeners.removeAll() }
            return Array(listeners.values)
        }
        for token in tokens { client.removeObserver(token) }
        client.shutdown()
    }
}

/// The response of a blocking call, handed from its task to the waiting thread.
final class BlockingResult: Sendable {
    let response = Mutex<ResponseHandle?>(nil)
}

/// What a drupal_call points at: the task of one async call, for cancellation.
final class CallHandle: Sendable {
    let task = Mutex<Task<Void, Never>?>(nil)

    func cancel() { task.withLock { $0?.cancel() } }

    static func from(_ pointer: OpaquePointer?) -> CallHandle? {
        guard let pointer else { return nil }
        return Unmanaged<CallHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}
