import FoundationEssentials

/// JSON:API from Swift: each method is one `DrupalOperation.jsonAPI` call, read as a document.
extension DrupalClient {
    /// Runs a JSON:API call; the response of a call that answers a document is a JSON object.
    public func jsonAPI(_ call: JSONAPICall) async throws -> DrupalResponse {
        try await response(.jsonAPI(call))
    }

    /// One resource by UUID.
    public func jsonAPIGet(_ type: JSONAPIResourceType, id: String, query: JSONAPIQuery = JSONAPIQuery())
        async throws -> JSONAPIDocument {
        try JSONAPIDocument(try await jsonAPI(.get(type, id: id, query: query)))
    }

    /// One page of a collection; `jsonAPIPages` walks them all.
    public func jsonAPICollection(_ type: JSONAPIResourceType, query: JSONAPIQuery = JSONAPIQuery())
        async throws -> JSONAPIDocument {
        try JSONAPIDocument(try await jsonAPI(.collection(type, query: query)))
    }

    public func jsonAPICreate(_ type: JSONAPIResourceType, document: JSONBody) async throws -> JSONAPIDocument {
        try JSONAPIDocument(try await jsonAPI(.create(type, document: document)))
    }

    public func jsonAPIUpdate(_ type: JSONAPIResourceType, id: String, document: JSONBody) async throws
        -> JSONAPIDocument {
        try JSONAPIDocument(try await jsonAPI(.update(type, id: id, document: document)))
    }

    public func jsonAPIDelete(_ type: JSONAPIResourceType, id: String) async throws {
        _ = try await jsonAPI(.delete(type, id: id))
    }

    /// The entry point: `me` is the logged-in user's id from `meta.links.me` (nil for
    /// anonymous), `resourceTypes` every resource type the site exposes and its collection URL.
    public func jsonAPIEntryPoint() async throws
        -> (document: JSONAPIDocument, me: String?, resourceTypes: [String: String]) {
        let document = try JSONAPIDocument(try await jsonAPI(.entryPoint))
        var types: [String: String] = [:]
        for (name, link) in document.raw["links"]?.objectValue ?? [:] where name.contains("--") {
            if let href = JSONAPIDocument.href(link) { types[name] = href }
        }
        return (document, document.meta?["links"]?["me"]?["meta"]?["id"]?.stringValue, types)
    }
}
