import FoundationEssentials

/// The formats Drupal cannot answer in. A 406 is rendered in the format asked for, when Drupal has
/// an encoder for it: JSON, XML (recording 14c: `_format=xml` gets an XML body, text/xml), else
/// plain text (14d: hal_json). The mock renders no HTML pages: a request for one gets the
/// plain-text 406 (test_rest_parity ACCEPTED).
extension MockReply {
    /// A route that has nothing to render in `format` (14c, 14d).
    static func notAcceptable(_ format: String) -> HTTPResponse {
        notAcceptable(format, message: "Not acceptable format: \(format)")
    }

    /// No route on the path serves `format`: RequestFormatRouteFilter's 406 (22, 22b).
    static func noRouteForFormat(_ format: String, supported: String) -> HTTPResponse {
        notAcceptable(format, message: "No route found for the specified format \(format). Supported formats: \(supported).")
    }

    private static func notAcceptable(_ format: String, message: String) -> HTTPResponse {
        switch format {
        case "json": return MockReply.message(406, message)
        case "xml": return xmlMessage(406, message)
        default: return MockReply.text(406, message)
        }
    }

    static let xmlType = "text/xml; charset=UTF-8"

    /// `{"message": ...}` as the XML encoder writes it.
    static func xmlMessage(_ status: Int, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        let body = "<?xml version=\"1.0\"?>\n<response><message>\(MockReply.xmlEscaped(text))</message></response>\n"
        var headers = headers
        headers.set("Content-Type", xmlType)
        return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
    }

    /// A route's `{"message"}` error in the request's format, for routes that take xml too.
    static func inFormat(_ response: HTTPResponse, _ format: String?) -> HTTPResponse {
        guard format == "xml", let message = MockReply.messageOf(response) else { return response }
        var headers = response.headers
        headers.remove("Content-Type")
        return xmlMessage(response.status, message, headers: headers)
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

extension MockState {
    /// POST on a canonical path with a format: the entity's HTML page route takes POST (for its
    /// forms) and, having no `_format` requirement, is kept for any format; it converts the id
    /// (404), checks view access, and then has nothing to render in that format: 406 (as GET with
    /// `_format=xml`, 14c). The fake answers so; no recording has this POST.
    func canonicalPagePost(_ request: MockRequest, _ caller: MockCaller, _ entityType: String, _ id: String,
                           template: String) throws -> HTTPResponse {
        guard let stored = entities[entityType]?[id] else {
            let path = template.replacingOccurrences(of: "{id}", with: "{\(entityType)}")
            throw MockReply.fail(404, "The \"\(entityType)\" parameter was not converted for the path \"\(path)\" "
                                 + "(route name: \"entity.\(entityType).canonical\")")
        }
        try authorize(.view, entityType, stored, caller)
        throw MockAnswer(response: MockReply.notAcceptable(request.format ?? "html"))
    }
}
