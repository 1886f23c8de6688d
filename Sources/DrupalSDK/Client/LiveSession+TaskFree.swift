import FoundationEssentials

/// Requests without a Swift task: for plain requests that need no CSRF round trip or redirect, a
/// task per request costs more than the request's own work (the C API's callback-driven loops).
/// The first attempt starts on the transport directly; only a retry waits in a task.
extension LiveSession {
    /// Whether `request` can go without a task: one exchange (no CSRF token to fetch, no redirect
    /// to follow, no OAuth token to fetch first) on a transport that can start requests by itself.
    func runsWithoutTask(_ request: DrupalRequest) -> Bool {
        !(request.sendsCSRFToken && request.isUnsafeMethod) && !configuration.transport.followRedirects
            && !(request.sendsAuthorization && needsTokenFetch())
    }

    /// Starts a task-free request on `startTransfer`; `completion` gets the outcome `perform`
    /// would give. Throws (sending nothing) when the request cannot be built.
    func startWithoutTask(_ request: DrupalRequest, _ startTransfer: @escaping Transport.Start,
                          _ completion: @escaping DrupalClient.Completion) throws -> DrupalClient.Cancel {
        let request = ForwardOnlyProgress.forOneCall(request)
        let exchange = try beginExchange(request, csrfToken: nil)
        let call = TaskFreeCall(self, request, completion: completion)
        call.startAttempt(exchange, on: startTransfer)
        return { call.cancel() }
    }

    /// A task-free request with the calling thread driving the transport until it ends.
    func runWithoutTask(_ request: DrupalRequest, _ drive: Transport.Drive,
                        _ register: (@escaping DrupalClient.Cancel) -> Void) throws -> DrupalClient.Outcome {
        let request = ForwardOnlyProgress.forOneCall(request)
        let exchange = try beginExchange(request, csrfToken: nil)
        let call = TaskFreeCall(self, request, completion: nil)
        register { call.cancel() }
        drive({ startOnThisThread in call.startAttempt(exchange, on: startOnThisThread) }, { call.outcome.isSet })
        return call.outcome.take() ?? .failure(DrupalError(.internal, "the blocking request ended without an outcome"))
    }

    /// The managed token a task-free attempt sent, when the answer refused it (a 401 with a
    /// Bearer challenge); nil otherwise.
    fileprivate func refusedManagedToken(_ exchange: Exchange, _ outcome: Result<HTTPResponse, DrupalError>) -> String? {
        guard tokensManaged.load(ordering: .relaxed), case .success(let response) = outcome,
              LiveSession.refusesBearerToken(response),
              let sent = exchange.http.headers["Authorization"], sent.hasPrefix("Bearer "),
              state.withLock({ $0.authentication.managesTokens }) else { return nil }
        return String(sent.dropFirst(7))
    }
}

extension TaskFreeCall {
    /// Starts an attempt with `startTransfer`; its end finishes the call, or starts another
    /// attempt the same way from a task: after a retry's delay, or after the one refresh of an
    /// OAuth token that a 401 refused (`tokenRefreshed` once done).
    func startAttempt(_ exchange: consuming LiveSession.Exchange, on startTransfer: @escaping Transport.Start,
                      attempt: Int = 1, tokenRefreshed: Bool = false) {
        let parts = partsSet
        let http = exchange.http
        current = Attempt(exchange: exchange, startTransfer: startTransfer, number: attempt, tokenRefreshed: tokenRefreshed)
        set(startTransfer(http) { [self] result in attemptEnded(result) }, unlessReplacedSince: parts)
    }

    private func attemptEnded(_ result: Result<HTTPResponse, any Error>) {
        guard let attempt = current.take() else {
            return finish(.failure(DrupalError(.internal, "a transfer ended twice")))
        }
        let outcome = Result { try session.finishExchange(attempt.exchange, result) }.mapError(DrupalError.wrapping)
        if !attempt.tokenRefreshed, let stale = session.refusedManagedToken(attempt.exchange, outcome) {
            return startAgain(attempt.startTransfer, attempt: attempt.number, tokenRefreshed: true) { [session, request, started] in
                _ = try await session.oauthToken(forceRefresh: true, stale: stale,
                                                 within: session.tokenWaitLimit(for: request, since: started))
            }
        }
        if let delay = session.retryDelay(before: attempt.number, request, outcome, since: started) {
            return startAgain(attempt.startTransfer, attempt: attempt.number + 1, tokenRefreshed: attempt.tokenRefreshed) {
                do { try await Task.sleep(for: .seconds(delay)) } catch { throw DrupalError.cancelled() }
            }
        }
        finish(outcome.flatMap { response in
            Result {
                try LiveSession.checkStatus(response, method: attempt.exchange.method, path: attempt.exchange.path,
                                            expecting: request.expectedBody)
            }.mapError(DrupalError.wrapping)
        })
    }

    /// In a task (the call's current part, on the transport's executor as the client's other
    /// tasks), waits for `first`, then starts the next attempt unless the call was cancelled.
    private func startAgain(_ startTransfer: @escaping Transport.Start, attempt: Int, tokenRefreshed: Bool,
                            after first: @escaping @Sendable () async throws -> Void) {
        set(Task(executorPreference: session.transport.executor) { [self] in
            do {
                try await first()
            } catch {
                return finish(.failure(DrupalError.wrapping(error)))
            }
            guard !isCancelled, var next = try? session.beginExchange(request, csrfToken: nil) else {
                return finish(.failure(DrupalError.cancelled()))
            }
            do {
                if let left = try session.remainingTimeout(of: request, since: started) { next.http.timeout = left }
            } catch {
                return finish(.failure(DrupalError.wrapping(error)))
            }
            startAttempt(next, on: startTransfer, attempt: attempt, tokenRefreshed: tokenRefreshed)
        })
    }
}
