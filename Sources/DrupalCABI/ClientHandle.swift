import CDrupal
import Dispatch
import DrupalSDK
import FoundationEssentials
import Synchronization

/// What a drupal_client points at: the Swift client plus the bookkeeping that lets
/// drupal_client_free cancel calls in flight and wait until every callback has run.
final class ClientHandle: @unchecked Sendable {
    /// A C call's work. Nil means the call ends with no response (a pager past its last page):
    /// the callback then gets DRUPAL_OK and NULL.
    typealias Operation = @Sendable (DrupalClient) async throws -> DrupalResponse?

    /// What a C call runs: the async operation, and the same call as a plain request when it is
    /// one, so clients with a callback mode can run it without a Swift task.
    struct Call {
        private var explicitOperation: Operation?
        var request: DrupalRequest?

        init(operation: @escaping Operation) { explicitOperation = operation }

        /// A call that is exactly `request`: its async form is `DrupalClient.request` (made only
        /// when needed, so the task-free path allocates no closure for it).
        init(request: DrupalRequest) { self.request = request }

        var operation: Operation {
            if let explicitOperation { return explicitOperation }
            let request = self.request!
            return { try await $0.request(request) }
        }
    }

    private struct Registry {
        /// Calls in flight, as an intrusive list (no hashing or allocation per call).
        var first: CallHandle?
        var closed = false
        /// Set when free was called from a callback: the last call to end shuts the client down.
        var shutDownWhenIdle = false

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

    /// Registers a call unless the client is being freed.
    private func register(_ call: CallHandle) -> Bool {
        registry.withLock { registry -> Bool in
            if registry.closed { return false }
            registry.insert(call)
            inFlight.enter()
            return true
        }
    }

    /// Starts a call whose outcome goes to `call.deliver` exactly once: without a task when the
    /// client's callback mode takes it, else as a task. False once the client is being freed.
    func begin(_ call: CallHandle, _ prepared: Call) -> Bool {
        guard register(call) else { return false }
        if let request = prepared.request, let mode = client.callbackMode,
           let cancel = mode.start(request, { result in
               call.deliver(ResponseHandle(result))
               self.end(call)
           }) {
            call.attach(cancel)
            return true
        }
        let operation = prepared.operation
        // The task holds this handle, not a copy of the client: copying the client struct would
        // retain each of its closures, on every call.
        call.attach(Task(executorPreference: executor) {
            let response = await ResponseHandle.run { try await operation(self.client) }
            call.deliver(response)
            self.end(call)
        })
        return true
    }

    /// Runs an operation to completion with the calling thread doing the I/O, when the transport
    /// allows it (no thread switch per call). Nil when it does not, or when the client is being
    /// freed (then the last error says so).
    func runBlocking(_ prepared: Call) -> ResponseHandle? {
        if let request = prepared.request, let mode = client.callbackMode {
            let call = CallHandle()
            guard register(call) else {
                fail(.state, "the client is being freed")
                return nil
            }
            let result = mode.run(request) { cancel in call.attach(cancel) }
            end(call)
            if let result { return ResponseHandle(result) }
        }
        guard let runBlocking = client.runBlocking else { return nil }
        let operation = prepared.operation
        let call = CallHandle()
        guard register(call) else {
            fail(.state, "the client is being freed")
            return nil
        }
        let box = BlockingResult()
        runBlocking({ task in call.attach(task) }, {
            let response = await ResponseHandle.run { try await operation(self.client) }
            box.response.withLock { $0 = response }
        })
        end(call)
        return box.response.withLock { $0 }
    }

    var canRunBlocking: Bool { client.runBlocking != nil }

    private func end(_ call: CallHandle) {
        call.finish()
        let shutDownNow = registry.withLock { registry -> Bool in
            registry.remove(call)
            return registry.shutDownWhenIdle && registry.first == nil
        }
        inFlight.leave()
        if shutDownNow { client.shutdown() }
    }

    /// Cancels every call, waits for their callbacks (unless called from one), then shuts down.
    func close() {
        let calls = registry.withLock { registry -> [CallHandle] in
            registry.closed = true
            if drupal__in_callback() != 0 { registry.shutDownWhenIdle = registry.first != nil }
            return registry.all
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

/// What a drupal_call points at: the task of one async call (or the cancel action of a
/// task-free one), for cancellation, and its links in its client's list of calls in flight
/// (guarded by that client's registry lock).
final class CallHandle: @unchecked Sendable {
    /// Where the outcome goes: a C callback with its userdata (as bits, for Sendable checks), or
    /// a closure (blocking calls waiting on a semaphore).
    enum Delivery {
        case callback(CCallback, UInt)
        case closure(@Sendable (ResponseHandle) -> Void)
    }

    private let delivery: Delivery

    init(delivery: Delivery = .closure { _ in }) { self.delivery = delivery }

    /// Hands the outcome over; runs once, on the thread that completed the call.
    func deliver(_ response: ResponseHandle) {
        switch delivery {
        case .callback(let callback, let userdata):
            drupal__set_in_callback(1)
            callback(response.code, response.opaqueOrNull, UnsafeMutableRawPointer(bitPattern: userdata))
            drupal__set_in_callback(0)
        case .closure(let body):
            body(response)
        }
    }

    private struct State {
        var task: Task<Void, Never>?
        var cancelAction: CallbackMode.Cancel?
        var cancelled = false
        /// Set when the outcome has been delivered: what cancels the call is let go then (a
        /// task-free call's cancel action holds its transfer and buffers).
        var finished = false
    }

    private let state = Mutex(State())
    var previous: CallHandle?
    var next: CallHandle?

    /// Sets the call's task; cancels it at once if cancellation came first.
    func attach(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state -> Bool in
            if state.finished { return false }
            state.task = task
            return state.cancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Sets the cancel action of a task-free call; runs it at once if cancellation came first.
    func attach(_ cancelAction: @escaping CallbackMode.Cancel) {
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
            state.task = nil
            state.cancelAction = nil
        }
    }

    func cancel() {
        let (task, cancelAction) = state.withLock { state -> (Task<Void, Never>?, CallbackMode.Cancel?) in
            state.cancelled = true
            return (state.task, state.cancelAction)
        }
        task?.cancel()
        cancelAction?()
    }

    static func from(_ pointer: OpaquePointer?) -> CallHandle? {
        guard let pointer else { return nil }
        return Unmanaged<CallHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}
