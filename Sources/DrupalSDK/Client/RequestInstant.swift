/// A moment on the monotonic clock, in nanoseconds: what a request's duration (events) and the
/// time since its first attempt (retries) are measured from. Not `ContinuousClock.Instant`: that
/// is a resilient type of the standard library, so every copy of one, and of each struct and
/// closure context holding one, goes through its value witnesses (~250 instructions a request).
struct RequestInstant: Sendable {
    let nanoseconds: UInt64

    static var now: RequestInstant { RequestInstant(nanoseconds: monotonicNanoseconds()) }

    /// The time from this moment to now.
    var elapsed: Duration { .nanoseconds(Int64(clamping: monotonicNanoseconds() &- nanoseconds)) }

    var elapsedSeconds: Double { Double(monotonicNanoseconds() &- nanoseconds) / 1e9 }
}
