import Synchronization

/// Engines for blocking calls: the calling thread drives one while its call runs, so a blocking
/// request involves no other thread. A thread that calls again gets an engine back from the
/// pool with its connections still open.
final class InlineEnginePool: Sendable {
    private struct State {
        var idle: [CurlEngine] = []
        var closed = false
    }

    private let options: TransportOptions
    private let state = Mutex(State())

    init(options: TransportOptions) { self.options = options }

    func run(register: (Task<Void, Never>) -> Void, _ work: @escaping @Sendable () async -> Void) {
        let finished = DoneFlag()
        withEngine { engine in
            engine.drive(start: {
                let task = Task(executorPreference: engine) {
                    await CurlEngine.$inline.withValue(engine) { await work() }
                    finished.set()
                }
                register(task)
            }, until: { finished.isSet })
        }
    }

    /// Callback mode: `body` starts transfers on an engine that this thread then drives until
    /// `isDone()`.
    func drive(_ body: (Transport.Start) -> Void, until isDone: () -> Bool) {
        withEngine { engine in
            engine.drive(start: { body { request, completion in engine.start(request, completion: completion) } },
                         until: isDone)
        }
    }

    /// Lends an engine (with its open connections) to the calling thread.
    private func withEngine(_ body: (CurlEngine) -> Void) {
        let engine = state.withLock { $0.idle.popLast() } ?? CurlEngine(options: options)
        body(engine)
        let keep = state.withLock { state -> Bool in
            if state.closed { return false }
            state.idle.append(engine)
            return true
        }
        if !keep { engine.shutDownUndriven() }
    }

    /// Closes idle engines now and busy ones when their calls end.
    func shutDown() {
        let idle = state.withLock { state -> [CurlEngine] in
            state.closed = true
            defer { state.idle.removeAll() }
            return state.idle
        }
        for engine in idle { engine.shutDownUndriven() }
    }
}

/// Set once by the task, read by the thread driving the engine.
final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
