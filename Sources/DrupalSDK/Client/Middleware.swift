/// An interceptor around every request a client sends: adapt the request (add headers), look at
/// or replace the response (log, measure). Middleware runs in order for requests and in reverse
/// order for responses.
public struct Middleware: Sendable {
    public var onRequest: @Sendable (inout HTTPRequest) throws -> Void
    public var onResponse: @Sendable (HTTPRequest, inout HTTPResponse) throws -> Void

    public init(onRequest: @escaping @Sendable (inout HTTPRequest) throws -> Void = { _ in },
                onResponse: @escaping @Sendable (HTTPRequest, inout HTTPResponse) throws -> Void = { _, _ in }) {
        self.onRequest = onRequest
        self.onResponse = onResponse
    }

    /// Adds a header to every request (unless the request already has it).
    public static func header(_ name: String, _ value: String) -> Middleware {
        Middleware(onRequest: { request in
            if !request.headers.contains(name) { request.headers.add(name, value) }
        })
    }

    /// Logs each request and response with passwords, tokens, cookies and Authorization redacted
    /// (and the values of `secretHeaders`).
    public static func logging(secretHeaders: [String] = [], _ log: @escaping @Sendable (String) -> Void) -> Middleware {
        Middleware(onRequest: { request in log("> " + request.redactedDescription(secretHeaders: secretHeaders)) },
                   onResponse: { request, response in
                       log("< \(request.method) \(Redaction.redactURL(request.url)) -> " + response.redactedDescription)
                   })
    }
}
