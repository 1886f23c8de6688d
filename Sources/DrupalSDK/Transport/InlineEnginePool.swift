import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Engines for blocking calls: the calling thread drives one while its call runs, so a blocking
/// request involves no other thread. A thread that calls again gets an engine back from the
/// pool with its connections still open.
final class InlineEnginePool: Sendable {
    private struct State {
        var idle: [CurlEngine] = []
        var closed = false
    }

    private let options: TransportOptions
    /// The engine with a thread of its own, used when no engine can be made for this thread
    /// (out of memory): the call then waits for it instead of driving one.
    private let fallback: CurlEngine
    private let state = Mutex(State())

    init(options: TransportOptions, fallback: CurlEngine) {
        self.options = options
        self.fallback = fallback
    }

    func run(register: (Task<Void, Never>) -> Void, _ work: @escaping @Sendable () async -> Void) {
        let finished = DoneFlag()
        let drove = withEngine { engine in
            engine.drive(start: {
                let task = Task(executorPreference: engine) {
                    await CurlEngine.$inline.withValue(engine) { await work() }
                    finished.set()
                }
                register(task)
            }, until: { finished.isSet })
        }
        if !drove {
            register(Task(executorPreference: fallback) {
                await work()
                finished.set()
            })
            waitUntil { finished.isSet }
        }
    }

    /// Callback mode: `body` starts transfers on an engine that this thread then drives until
    /// `isDone()`.
    func drive(_ body: (@escaping Transport.Start) -> Void, until isDone: () -> Bool) {
        let drove = withEngine { engine in
            engine.drive(start: { body { request, completion in engine.start(request, completion: completion) } },
                         until: isDone)
        }
        if !drove {
            body { [fallback] request, completion in fallback.start(request, completion: completion) }
            waitUntil(isDone)
        }
    }

    /// The out-of-memory path only: nothing signals the end, so look every millisecond.
    private func waitUntil(_ isDone: () -> Bool) {
        while !isDone() { usleep(1000) }
    }

    /// Lends an engine (with its open connections) to the calling thread; false when none could
    /// be made.
    private func withEngine(_ body: (CurlEngine) -> Void) -> Bool {
        guard let engine = state.withLock({ $0.idle.popLast() }) ?? CurlEngine(options: options) else { return false }
        body(engine)
        let keep = state.withLock { state -> Bool in
            if state.closed { return false }
            state.idle.append(engine)
            return true
        }
        if !keep { engine.shutDownUndriven() }
        return true
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
