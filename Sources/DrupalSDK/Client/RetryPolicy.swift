import FoundationEssentials

/// When a failed request is tried again: only when sending it twice cannot do harm, and only for
/// failures that may pass. Idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS) after a
/// connection failure or a 429/502/503/504; any method when the connection could not even be
/// made (nothing reached the server). Delays grow exponentially with full jitter, a Retry-After
/// (seconds or an HTTP date) is honoured, and no retry starts that would end past the request's
/// timeout. Every retry is an event (`DrupalEvent.retry`).
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt; 0 turns retrying off.
    public var maxRetries = 2
    /// Seconds before the first retry, at most (doubled for each further one, then jittered).
    public var baseDelay = 0.25
    /// The longest delay the policy picks by itself (a server's Retry-After may ask for more).
    public var maxDelay = 8.0

    public init() {}

    /// Throws `.invalidArgument` for a negative number of retries (it meant none, without a word)
    /// and for delays that are not numbers of seconds from 0 (a negative or NaN bound made the
    /// backoff's random range trap at the first retry). Checked when a client, live or mock, is
    /// made.
    func validate() throws {
        guard maxRetries >= 0 else { throw DrupalError.invalidArgument("the number of retries must be 0 or more") }
        for (name, seconds) in [("base delay", baseDelay), ("max delay", maxDelay)]
        where !(seconds.isFinite && seconds >= 0) {
            throw DrupalError.invalidArgument("the retry \(name) must be a number of seconds from 0")
        }
    }

    public static let never: RetryPolicy = {
        var policy = RetryPolicy()
        policy.maxRetries = 0
        return policy
    }()

    static let idempotentMethods: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]
    static func isRetryable(status: Int) -> Bool { status == 429 || (502...504).contains(status) }

    /// Seconds to wait before retry number `attempt` (1-based) of a request that ended with
    /// `outcome`, `elapsed()` seconds after it started; nil when it is not to be retried. Most
    /// outcomes are answers that are not retried: decided on the status before anything else.
    func delay(before attempt: Int, method: String, outcome: Result<HTTPResponse, DrupalError>,
               elapsed: () -> Double, timeout: Double) -> Double? {
        guard attempt <= maxRetries else { return nil }
        var asked: Double?
        switch outcome {
        case .success(let response):
            guard RetryPolicy.isRetryable(status: response.status), RetryPolicy.isIdempotent(method)
            else { return nil }
            asked = response.headers["Retry-After"].flatMap(RetryPolicy.retryAfterSeconds)
        case .failure(let error):
            let failure = error.connectionFailure
            guard error.code == .network, failure != .unknown, failure == .notConnected || RetryPolicy.isIdempotent(method)
            else { return nil }
        }
        let backoff = Double.random(in: 0...min(maxDelay, baseDelay * Double(1 << min(attempt - 1, 20))))
        let wait = asked ?? backoff
        // A retry that could not finish in time is not worth starting (a timeout of 0 is none).
        return timeout <= 0 || elapsed() + wait < timeout ? wait : nil
    }

    static func isIdempotent(_ method: String) -> Bool { idempotentMethods.contains(method.uppercased()) }

    /// Retry-After: delay-seconds, or an HTTP date.
    static func retryAfterSeconds(_ value: String) -> Double? {
        let text = value.trimmedWhitespace
        if let seconds = Int(text) { return Double(max(0, seconds)) }
        guard let date = HTTPDate.parse(text) else { return nil }
        return Double(max(0, date - HTTPDate.now()))
    }
}

extension DrupalError {
    /// How a request failed to reach or hear from the server, for retry decisions.
    enum ConnectionFailure: Int, Sendable {
        /// Not a connection failure (or not known to be one).
        case unknown
        /// The connection could not be made: nothing was sent.
        case notConnected
        /// The connection failed after the request may have been sent.
        case lost
    }
}
