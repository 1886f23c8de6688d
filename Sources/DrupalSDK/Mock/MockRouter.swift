import FoundationEssentials

/// Dispatch of one request: stubs first, then the caller's identity, then the route.
extension MockState {
    /// The stub's answer, if one matches: a response, or a failure the transport throws.
    mutating func stubbedAnswer(to http: HTTPRequest) -> MockStubAnswer? {
        requestCount += 1
        received.append(http)
        let request = MockRequest(http)
        guard let index = stubs.lastIndex(where: { $0.matches(request) }) else { return nil }
        return stubs[index].next()
    }

    /// A request's outcome: the answer, or the failure a stub asked for (as the transport
    /// reports it: a network error, a timeout).
    mutating func outcome(of http: HTTPRequest) -> Result<HTTPResponse, DrupalError> {
        switch stubbedAnswer(to: http) {
        case .response(let response)?: return .success(response)
        case .failure(let error)?: return .failure(error)
        case nil: return .success(route(MockRequest(http)))
        }
    }

    /// The site's own answer (no stub).
    private mutating func route(_ request: MockRequest) -> HTTPResponse {
        // Public files are the web server's, which Drupal never sees.
        if let content = fileContent(request) { return content }
        // Language negotiation by URL prefix (MockLanguages), then the path module: a path that is
        // an alias in the request's language routes as its system path (MockPathAliases).
        var request = negotiateLanguage(request)
        defer { contentLanguage = nil }
        if !pathAliases.isEmpty, let system = systemPath(forAlias: PathSafety.percentDecode(request.path)) {
            request = request.routed(to: system)
        }
        let caller = caller(for: request)
        var response: HTTPResponse
        do {
            // Authentication runs before routing: a refused Bearer token is a 401 on any path.
            if let refusal = caller.bearerRefusal { throw MockAnswer(response: MockState.bearerRefused(refusal, format: request.format)) }
            response = request.method == "OPTIONS"
                ? try options(request, caller, route: { try $0.route(request, caller) })
                : MockState.headAnswer(request, try route(request, caller))
        } catch let answer as MockAnswer {
            response = answer.response
        } catch {
            response = MockReply.serverError
        }
        // A cookie naming no live session is expired, as Drupal does after logout.
        if let sessionID = caller.sessionID, sessions[sessionID] == nil, !response.headers.contains("Set-Cookie") {
            response.headers.add("Set-Cookie", expiredCookie)
        }
        // Language negotiation labels every answer Drupal makes, errors too (every one of
        // drupal10-transcripts has "Content-language: en"; 80-85 "fr" under /fr).
        if !response.headers.contains("Content-Language") {
            response.headers.add("Content-Language", contentLanguage ?? MockState.defaultLangcode)
        }
        return response
    }

    private mutating func route(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        let segments = request.segments
        switch segments {
        case ["user", "login"]: return try inRequestFormat(request) { try $0.login(request, caller) }
        case ["user", "logout"]: return try inRequestFormat(request) { try $0.logout(request, caller) }
        case ["user", "login_status"]: return try inRequestFormat(request) { try $0.loginStatus(request, caller) }
        case ["session", "token"]: return try sessionToken(request, caller)
        case ["user", "register"]: return try register(request, caller)
        case ["user", "password"]: return try inRequestFormat(request) { try $0.requestPasswordReset(request, caller) }
        case ["router", "translate-path"]: return try translatePath(request, caller)
        case ["oauth", "token"] where oauth.installed: return oauthToken(request)
        case ["oauth", "authorize"] where oauth.installed: return try oauthAuthorize(request, caller)
        default: break
        }
        if segments.count == 5, segments[0] == "file", segments[1] == "upload",
           segments.dropFirst(2).allSatisfy(MockState.isMachineName) {
            return try uploadFile(request, caller, target: Array(segments.dropFirst(2)))
        }
        if let display = views[request.path] { return try view(request, display) }
        if let answer = jsonAPIRoute(request, caller) { return answer }
        if let route = entityRoute(for: request) { return try entityResource(request, caller, route) }
        return MockReply.notFound(request)
    }

    /// A user route's `{"message"}` errors come in the request's format (xml too).
    private mutating func inRequestFormat(_ request: MockRequest, _ route: (inout MockState) throws -> HTTPResponse)
        throws -> HTTPResponse {
        do {
            return MockReply.inFormat(try route(&self), request.format)
        } catch let answer as MockAnswer {
            throw MockAnswer(response: MockReply.inFormat(answer.response, request.format))
        }
    }
}
