import FoundationEssentials

/// Retrying failed requests as `configuration.retry` says (see `RetryPolicy`), on both paths: the
/// async one (`perform`) and the task-free one (`LiveSession+TaskFree`).
extension LiveSession {
    /// `send`, tried again as the retry policy says (see `RetryPolicy`).
    func sendRetrying(_ request: DrupalRequest, csrfToken: String?) async throws -> HTTPResponse {
        let started = RequestInstant.now
        var attempt = 0
        while true {
            let outcome: Result<HTTPResponse, DrupalError>
            do {
                outcome = .success(try await send(request, csrfToken: csrfToken))
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
