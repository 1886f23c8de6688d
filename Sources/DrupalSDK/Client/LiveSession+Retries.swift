import FoundationEssentials

/// Retrying failed requests as `configuration.retry` says (see `RetryPolicy`), on both paths: the
/// async one (`perform`) and the task-free one (`LiveSession+TaskFree`).
extension LiveSession {
    /// `send`, tried again as the retry policy says (see `RetryPolicy`), all within the timeout
    /// of the call that started at `started`.
    func sendRetrying(_ request: DrupalRequest, csrfToken: String?, since started: RequestInstant = .now)
        async throws -> HTTPResponse {
        var attempt = 0
        while true {
            let outcome: Result<HTTPResponse, DrupalError>
            do {
                outcome = .success(try await send(request, csrfToken: csrfToken, since: started))
            } catch {
                outcome = .failure(DrupalError.wrapping(error))
            }
            attempt += 1
            guard let delay = retryDelay(before: attempt, request, outcome, since: started) else {
                return try outcome.get()
            }
            do {
                try await Task.sleep(for: .seconds(delay))
            } catch {
                throw DrupalError.cancelled()
            }
        }
    }

    /// What is left of the timeout of a call that started at `started`, for its next exchange (a
    /// redirect hop, a retry, the retry after a refreshed token): `timeout` bounds the call, not
    /// each exchange. Nil when it is (within a millisecond) all of it, so the transport's own
    /// applies, and for files, whose `timeout` bounds a stall; throws `.timeout` when none is left.
    func remainingTimeout(of request: DrupalRequest, since started: RequestInstant) throws -> Double? {
        let timeout = configuration.transport.timeout
        guard timeout > 0, !request.isFileTransfer else { return nil }
        let left = timeout - started.elapsedSeconds
        guard left < timeout - 0.001 else { return nil }
        guard left > 0 else {
            throw DrupalError(.timeout, "\(request.method) \(request.path) timed out: its timeout of \(timeout) s "
                              + "ran out over its redirects and retries")
        }
        return left
    }

    /// The delay before retry `attempt` of a request, announced as an event; nil for none.
    func retryDelay(before attempt: Int, _ request: DrupalRequest, _ outcome: Result<HTTPResponse, DrupalError>,
                    since started: RequestInstant) -> Double? {
        // Bytes a sink took cannot be taken back: a streamed answer is not tried again.
        if request.bodySink != nil && (request.writer?.delivered ?? true) { return nil }
        // A local function, not a closure value: a closure stored in a constant is allocated.
        func elapsed() -> Double { started.elapsedSeconds }
        guard let delay = configuration.retry.delay(before: attempt, method: request.method, outcome: outcome,
                                                    elapsed: elapsed, timeout: configuration.transport.timeout)
        else { return nil }
        let status = try? outcome.get().status
        events.emit(.retry(method: request.method, path: request.path, attempt: attempt, status: status,
                           delay: .seconds(delay)))
        return delay
    }
}
