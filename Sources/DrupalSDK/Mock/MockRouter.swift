import FoundationEssentials

/// Dispatch of one request: stubs first, then the caller's identity, then the route.
extension MockState {
    mutating func respond(to http: HTTPRequest) -> HTTPResponse {
        requestCount += 1
        let request = MockRequest(http)
        if let stub = stubs.last(where: { $0.method == request.method && $0.path == request.path }) {
            return stub.response
        }
        let caller = caller(for: request)
        var response: HTTPResponse
        do {
            response = try route(request, caller)
        } catch let answer as MockAnswer {
            response = answer.response
        } catch {
            response = MockReply.serverError
        }
        // A cookie naming no live session is expired, as Drupal does after logout.
        if let sessionID = caller.sessionID, sessions[sessionID] == nil, !response.headers.contains("Set-Cookie") {
            response.headers.add("Set-Cookie", expiredCookie)
        }
        return response
    }

    private mutating func route(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        let segments = request.segments
        switch segments {
        case ["user", "login"]: return try login(request, caller)
        case ["user", "logout"]: return try logout(request, caller)
        case ["user", "login_status"]: return try loginStatus(request, caller)
        case ["session", "token"]: return try sessionToken(request, caller)
        default: break
        }
        if segments.count == 5, segments[0] == "file", segments[1] == "upload",
           segments.dropFirst(2).allSatisfy(MockState.isMachineName) {
            return try uploadFile(request, caller, target: Array(segments.dropFirst(2)))
        }
        if let display = views[request.path] { return try view(request, display) }
        if let route = entityRoute(for: request) { return try entityResource(request, caller, route) }
        return MockReply.notFound(request)
    }
}
