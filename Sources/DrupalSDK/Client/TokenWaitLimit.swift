/// How long a call may wait for an OAuth token: what is left of its timeout, which bounds the
/// whole call, token included. (A file's timeout bounds a stall instead: the wait is one,
/// counted from its start.)
struct TokenWaitLimit: Sendable {
    /// Nil: no limit (no timeout).
    let deadline: ContinuousClock.Instant?
    let timeout: Double
    /// What the error names: "GET /node/1".
    let what: String

    /// The same code a request's own timeout gives.
    var error: DrupalError {
        DrupalError(.timeout, "\(what) timed out: its timeout of \(timeout) s ran out while it waited for an OAuth token")
    }
}

extension LiveSession {
    func tokenWaitLimit(for request: DrupalRequest, since started: RequestInstant) -> TokenWaitLimit {
        tokenWaitLimit(request.method + " " + request.path, isFile: request.isFileTransfer, since: started)
    }

    func tokenWaitLimit(_ what: String, isFile: Bool, since started: RequestInstant) -> TokenWaitLimit {
        let timeout = configuration.transport.timeout
        guard timeout > 0 else { return TokenWaitLimit(deadline: nil, timeout: timeout, what: what) }
        let left = isFile ? timeout : timeout - started.elapsedSeconds
        return TokenWaitLimit(deadline: .now + .milliseconds(Int64(max(0, left) * 1000)), timeout: timeout, what: what)
    }
}
