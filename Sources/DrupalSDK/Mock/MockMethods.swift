import FoundationEssentials

/// HEAD and OPTIONS, which Drupal answers for every route without a handler of their own.
extension MockState {
    /// OPTIONS: Symfony's answer before any access check, 200 with the methods of the routes on the
    /// path in Allow (without the HEAD that MethodFilter adds to a 405's list) and no body, labelled
    /// by the request's format (recordings 182: `GET, POST, DELETE, PATCH` on /node/1?_format=json,
    /// application/json; 182b: text/html without _format). The mock's routes name their methods
    /// when they refuse one, so the path is routed as OPTIONS, which none takes, and its 405 read.
    mutating func options(_ request: MockRequest, _ caller: MockCaller,
                          route: (inout MockState) throws -> HTTPResponse) rethrows -> HTTPResponse {
        let refused = try route(&self)
        guard refused.status == 405, let allow = refused.headers["Allow"] else { return refused }
        let methods = allow.split(separator: ",").map { $0.trimmedWhitespace }.filter { $0 != "HEAD" }
        let type: String
        switch request.format {
        case "json": type = "application/json"
        case "xml": type = "text/xml; charset=UTF-8"
        default: type = "text/html; charset=UTF-8"
        }
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Allow", methods.joined(separator: ", ")),
                                                               ("Content-Type", type)]))
    }

    /// HEAD is routed as GET (MockEntities, MockViews) and sent without the body (recording 181).
    static func headAnswer(_ request: MockRequest, _ response: HTTPResponse) -> HTTPResponse {
        guard request.method == "HEAD" else { return response }
        var response = response
        response.body = Data()
        return response
    }
}
