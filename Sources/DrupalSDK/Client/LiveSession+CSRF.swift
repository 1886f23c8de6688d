import FoundationEssentials

/// The CSRF token of a cookie session: held from login, fetched from /session/token once for all
/// concurrent callers (single flight), refreshed once when Drupal says it is missing or invalid.
extension LiveSession {
    /// A token, and the answer it was fetched with (nil when the held one was used).
    struct TokenFetch: Sendable {
        var token: String
        var response: DrupalResponse?
    }

    /// The CSRF token: the held one, or one fetch from /session/token shared by every concurrent
    /// caller. With `forceRefresh`, a token other than `stale` that someone else fetched meanwhile
    /// is used as is; otherwise a new one is fetched (again shared). No extra task is started: the
    /// first caller fetches, the others wait on continuations.
    func token(forceRefresh: Bool, stale: String?) async throws -> TokenFetch {
        enum Step { case have(String), fetch, wait }
        let step = state.withLock { state -> Step in
            if let held = state.csrfToken, !forceRefresh || (stale != nil && held != stale) { return .have(held) }
            if state.csrfFetching { return .wait }
            state.csrfFetching = true
            if forceRefresh { state.csrfToken = nil }
            return .fetch
        }
        switch step {
        case .have(let token):
            return TokenFetch(token: token, response: nil)
        case .wait:
            return try await withUnsafeThrowingContinuation { continuation in
                let finished = state.withLock { state -> Result<TokenFetch, DrupalError>? in
                    if state.csrfFetching {
                        state.csrfWaiters.append(continuation)
                        return nil
                    }
                    return state.csrfLastFetch ?? .failure(DrupalError(.internal, "the CSRF token fetch vanished"))
                }
                if let finished { continuation.resume(with: finished.mapError { $0 as any Error }) }
            }
        case .fetch:
            let result: Result<TokenFetch, DrupalError>
            do {
                result = .success(try await fetchSessionToken())
            } catch {
                result = .failure(DrupalError.wrapping(error))
            }
            let waiters = state.withLock { state -> [UnsafeContinuation<TokenFetch, any Error>] in
                if case .success(let fetch) = result { state.csrfToken = fetch.token }
                state.csrfFetching = false
                state.csrfLastFetch = result
                defer { state.csrfWaiters.removeAll() }
                return state.csrfWaiters
            }
            for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
            return try result.get()
        }
    }

    private func fetchSessionToken() async throws -> TokenFetch {
        // The session cookie alone: Drupal answers Basic credentials here with a 403.
        let request = DrupalRequest(method: "GET", path: "/session/token", format: nil, sendsAuthorization: false)
        let response = try LiveSession.checkStatus(try await sendRetrying(request, csrfToken: nil), method: "GET",
                                                   path: request.path, expecting: .any)
        return TokenFetch(token: try SessionToken.parse(response), response: response)
    }
}
