/// Requests without a Swift task, for embedders that run calls from callbacks (the C API): a task
/// per request costs more than the request's own work there. Only requests that need no CSRF
/// token round trip qualify; the others, and clients without this mode, use the async operations.
/// Live clients on libcurl have it; a client whose closures are replaced in tests should set it
/// to nil so calls go through the replacements.
public struct CallbackMode: Sendable {
    public typealias Completion = @Sendable (Result<DrupalResponse, DrupalError>) -> Void
    public typealias Cancel = @Sendable () -> Void

    /// Starts `request`; `completion` then runs exactly once on the transport's thread, with the
    /// same outcome `DrupalClient.request` would have, and the returned closure cancels it.
    /// Nil when the request does not qualify: nothing was started and `completion` never runs.
    public var start: @Sendable (DrupalRequest, @escaping Completion) -> Cancel?
    /// Runs `request` with the calling thread doing the I/O and returns its outcome; `register`
    /// gets the cancel action before the thread starts waiting. Nil when the request does not
    /// qualify (nothing was sent).
    public var run: @Sendable (DrupalRequest, _ register: (@escaping Cancel) -> Void) -> Result<DrupalResponse, DrupalError>?
    /// The path `get`, `update` and `delete` use for an entity, from the client's path table.
    public var entityPath: @Sendable (_ entityType: String, _ id: String) throws -> String

    public init(start: @escaping @Sendable (DrupalRequest, @escaping Completion) -> Cancel?,
                run: @escaping @Sendable (DrupalRequest, (@escaping Cancel) -> Void) -> Result<DrupalResponse, DrupalError>?,
                entityPath: @escaping @Sendable (String, String) throws -> String) {
        self.start = start
        self.run = run
        self.entityPath = entityPath
    }
}
