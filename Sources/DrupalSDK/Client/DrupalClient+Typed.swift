import FoundationEssentials

/// Typed conveniences over the raw-Data closures.
extension DrupalClient {
    /// GETs an entity and decodes it.
    public func get<T: Decodable>(_ type: T.Type, _ entityType: String, id: String) async throws -> T {
        try await get(entityType, id).decode(T.self)
    }

    /// POSTs an Encodable entity and returns the response.
    public func create(_ entityType: String, body: some Encodable) async throws -> DrupalResponse {
        try await create(entityType, try encodeBody(body))
    }

    /// PATCHes an entity with an Encodable body.
    public func update(_ entityType: String, id: String, body: some Encodable) async throws -> DrupalResponse {
        try await update(entityType, id, try encodeBody(body))
    }

    /// GETs a view and decodes its rows.
    public func view<Row: Decodable>(_ rowType: Row.Type, _ path: String, query: [(String, String)] = [])
        async throws -> [Row] {
        try await view(path, query).decode([Row].self)
    }

    private func encodeBody(_ body: some Encodable) throws -> Data {
        do {
            return try JSONEncoder().encode(body)
        } catch {
            throw DrupalError(.invalidArgument, "cannot encode the body as JSON: \(error)")
        }
    }
}
