import FoundationEssentials

/// `GET /jsonapi/{entity_type}/{bundle}` (recordings 100-118, 170-172, 190): what the caller may
/// see (others are left out silently), filtered, sorted, one page of at most 50, with `self`
/// always, `next` while more follow, `first` and `prev` past the first page, and never a count.
extension MockState {
    func jsonAPICollection(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType) throws -> HTTPResponse {
        try checkCollectionVersion(request, type)
        let query = try MockJSONAPIQuery(request)
        let documents = MockJSONAPIDocuments(state: self, caller: caller, origin: request.linkOrigin, query: query)
        let filter = try MockJSONAPIFilter(query.filter, request)
        for path in filter.paths { try documents.checkPath(path, type, request) }
        for (path, _) in query.sort { try documents.checkPath(path, type, request) }
        try documents.checkIncludes(type, request)

        var rows = jsonAPIEntities(type).filter { row in
            // Users the caller may not view are still listed, by their label (171b). A filter
            // matches the entity or one of its translations (MockLanguages).
            let original = entities[type.entityType]?[row.id] ?? row.entity
            return (type.entityType == "user" || canView(type.entityType, row.entity, caller))
                && everyTranslation(type.entityType, row.id, original).contains { entity in
                    filter.matches { documents.values($0, type.entityType, entity) }
                }
        }
        if !query.sort.isEmpty {
            // Stable, so rows that compare equal stay in id order.
            let keys = rows.map { row in query.sort.map { documents.values($0.path, type.entityType, row.entity).first } }
            let order = rows.indices.sorted { left, right in
                for (index, field) in query.sort.enumerated() {
                    let result = MockState.compareSortValues(keys[left][index], keys[right][index])
                    if result != 0 { return field.descending ? result > 0 : result < 0 }
                }
                return left < right
            }
            rows = order.map { rows[$0] }
        }
        let start = min(query.offset, rows.count)
        // Subtractions: offset and limit may each be near Int.max.
        let page = Array(rows[start..<(start + min(rows.count - start, query.limit))])

        let primary = page.map { (entityType: type.entityType, entity: $0.entity) }
        var document: [String: JSONValue] = ["data": .array(primary.map { documents.resource($0.entityType, $0.entity) })]
        if query.includes != nil { document["included"] = .array(try documents.included(for: primary, request)) }
        var links: [String: JSONValue] = ["self": MockJSONAPIReply.link(query.selfLink(request))]
        if rows.count - query.offset > query.limit {
            links["next"] = MockJSONAPIReply.link(query.pageLink(request, offset: query.offset + query.limit))
        }
        if query.offset > 0 {
            links["first"] = MockJSONAPIReply.link(query.pageLink(request, offset: 0))
            links["prev"] = MockJSONAPIReply.link(query.pageLink(request, offset: max(0, query.offset - query.limit)))
        }
        document["links"] = .object(links)
        return MockJSONAPIReply.document(200, document, request)
    }

    /// Sort order: no value first, numbers by value, text without regard to case.
    static func compareSortValues(_ left: JSONValue?, _ right: JSONValue?) -> Int {
        let a = left.flatMap(MockJSONAPIFilter.text), b = right.flatMap(MockJSONAPIFilter.text)
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case let (a?, b?):
            if let x = Double(a), let y = Double(b) { return x < y ? -1 : x > y ? 1 : 0 }
            let (x, y) = (a.lowercased(), b.lowercased())
            return x < y ? -1 : x > y ? 1 : 0
        }
    }
}
