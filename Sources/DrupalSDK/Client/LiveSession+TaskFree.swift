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
        let exchange = try beginExchange(request, csrfToken: nil)
        let chain = AttemptChain()
        startAttempt(exchange, request, attempt: 1, started: RequestInstant.now, startTransfer, chain, completion)
        return { chain.cancel() }
    }

    /// A task-free request with the calling thread driving the transport until it ends.
    func runWithoutTask(_ request: DrupalRequest, _ drive: Transport.Drive,
                        _ register: (@escaping DrupalClient.Cancel) -> Void) throws -> DrupalClient.Outcome {
        let exchange = try beginExchange(request, csrfToken: nil)
        let outcome = OutcomeBox()
        let chain = AttemptChain()
        register { chain.cancel() }
        drive({ startOnThisThread in
            startAttempt(exchange, request, attempt: 1, started: RequestInstant.now, startOnThisThread, chain) {
                outcome.set($0)
            }
        }, { outcome.isSet })
        return outcome.take() ?? .failure(DrupalError(.internal, "the blocking request ended without an outcome"))
    }

    /// One attempt of a task-free request; a retry waits in a task (made only then) and starts the
    /// next attempt the same way, and so does the one retry after a 401 that refused the OAuth
    /// token (a task refreshes it first). `chain` cancels whichever part is current.
    private func startAttempt(_ exchange: Exchange, _ request: DrupalRequest, attempt: Int,
                              started: RequestInstant, _ startTransfer: @escaping Transport.Start,
                              _ chain: AttemptChain, tokenRefreshed: Bool = false,
                              _ completion: @escaping DrupalClient.Completion) {
        let partsSet = chain.partsSet
        let cancel = startTransfer(exchange.http) { result in
            let outcome = Result { try self.finishExchange(exchange, result) }.mapError(DrupalError.wrapping)
            if !tokenRefreshed, let stale = self.refusedManagedToken(exchange, outcome) {
                // On the transport's executor, as other tasks of the client run (an answer then
                // resumes it on the thread that received it).
                chain.set(Task(executorPreference: self.transport.executor) {
                    do {
                        _ = try await self.oauthToken(forceRefresh: true, stale: stale)
                    } catch {
                        return completion(.failure(DrupalError.wrapping(error)))
                    }
                    guard !chain.isCancelled, let next = try? self.beginExchange(request, csrfToken: nil) else {
                        return completion(.failure(DrupalError.cancelled()))
                    }
                    self.startAttempt(next, request, attempt: attempt, started: started, startTransfer, chain,
                                      tokenRefreshed: true, completion)
                })
                return
            }
            if let delay = self.retryDelay(before: attempt, request, outcome, since: started) {
                chain.set(Task(executorPreference: self.transport.executor) {
                    let slept: Void? = try? await Task.sleep(for: .seconds(delay))
                    guard slept != nil, !chain.isCancelled,
                          let next = try? self.beginExchange(request, csrfToken: nil) else {
                        return completion(.failure(DrupalError.cancelled()))
                    }
                    self.startAttempt(next, request, attempt: attempt + 1, started: started, startTransfer, chain,
                                      tokenRefreshed: tokenRefreshed, completion)
                })
                return
            }
            completion(outcome.flatMap { response in
                Result {
                    try LiveSession.checkStatus(response, method: exchange.method, path: exchange.path,
                                                expecting: request.expectedBody)
                }.mapError(DrupalError.wrapping)
            })
        }
        chain.set(cancel, unlessReplacedSince: partsSet)
    }

    /// The managed token a task-free attempt sent, when the answer refused it (a 401 with a
    /// Bearer challenge); nil otherwise.
    private func refusedManagedToken(_ exchange: Exchange, _ outcome: Result<HTTPResponse, DrupalError>) -> String? {
        guard tokensManaged.load(ordering: .relaxed), case .success(let response) = outcome,
              LiveSession.refusesBearerToken(response),
              let sent = exchange.http.headers["Authorization"], sent.hasPrefix("Bearer "),
              state.withLock({ $0.authentication.managesTokens }) else { return nil }
        return String(sent.dropFirst(7))
    }
}
