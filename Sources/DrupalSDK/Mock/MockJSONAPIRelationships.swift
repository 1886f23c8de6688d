import FoundationEssentials

/// The related and relationship routes of one resource (recordings 150-158c, 162):
/// `GET …/{id}/{field}` gives the related resources themselves, `…/{id}/relationships/{field}`
/// their identifiers, and takes POST (add, to-many only: 156), PATCH (replace) and DELETE
/// (remove). A write answers 204 when the result holds nothing that was not sent (152, 154),
/// else 200 with the whole list (153). Writes save without a new revision (155 keeps id:11).
extension MockState {
    typealias Relationship = (field: String, target: MockJSONAPIFields.Target)

    /// The relationship field behind a public name on the type (or on this entity of it).
    func jsonAPIRelationship(_ type: JSONAPIType, _ entity: [String: JSONValue]?, _ name: String) -> Relationship? {
        jsonAPIRelationships(type.entityType, entity, bundle: type.bundle)
            .first { MockJSONAPIFields.publicName(type.entityType, $0.field) == name }
    }

    func isJSONAPIRelationship(_ type: JSONAPIType, _ name: String) -> Bool {
        jsonAPIRelationship(type, nil, name) != nil
    }

    /// `GET …/{id}/{field}` (150): the related resource (or null) of a to-one, the list of a
    /// to-many; what the caller may not see is left out.
    func jsonAPIRelated(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType, uuid: String, name: String)
        throws -> HTTPResponse {
        let (_, entity, relationship) = try relationshipSubject(request, caller, type, uuid, name,
                                                                route: name + ".related", template: "{entity}/" + name)
        let query = try MockJSONAPIQuery(request)
        let documents = MockJSONAPIDocuments(state: self, caller: caller, origin: request.linkOrigin, query: query)
        let targets = documents.targets(type.entityType, entity, name)
            .filter { $0.entityType == "user" || canView($0.entityType, $0.entity, caller) }
        let resources = targets.map { documents.resource($0.entityType, $0.entity) }
        var document: [String: JSONValue] = [
            "data": relationship.target.many ? .array(resources) : resources.first ?? .null,
            "links": .object(["self": MockJSONAPIReply.link(query.selfLink(request))]),
        ]
        if query.includes != nil { document["included"] = .array(try documents.included(for: targets, request)) }
        return MockJSONAPIReply.document(200, document, request)
    }

    /// `GET …/{id}/relationships/{field}` (151, 162): the identifiers, `links.self` (this URL)
    /// and `links.related` (with the revision, as in resource objects).
    func jsonAPIRelationship(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType, uuid: String,
                             name: String) throws -> HTTPResponse {
        let (_, entity, relationship) = try relationshipSubject(request, caller, type, uuid, name,
                                                                route: name + ".relationship.get",
                                                                template: "{entity}/relationships/" + name)
        return try relationshipDocument(200, request, caller, type, entity, name, relationship)
    }

    /// POST (add), PATCH (replace) and DELETE (remove) on `…/{id}/relationships/{field}`.
    mutating func jsonAPIChangeRelationship(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType,
                                            uuid: String, name: String) throws -> HTTPResponse {
        if request.method != "DELETE" { try requireJSONAPIBody(request) }
        let (id, stored, relationship) = try relationshipSubject(
            request, caller, type, uuid, name, route: name + ".relationship." + request.method.lowercased(),
            template: "{entity}/relationships/" + name, operation: .update)
        // The body is read before the to-one check (a list for a to-one is the 400), the entities
        // it names are looked up after it (EntityResource::addToRelationshipData, 156).
        let sent = try routeIdentifiers(request, relationship.target)
        if request.method != "PATCH" && !relationship.target.many {
            let verb = request.method == "POST" ? "POST to" : "DELETE from"
            throw MockJSONAPIReply.fail(409, "You can only \(verb) to-many relationships. \(name) is a to-one "
                                        + "relationship.", request)
        }
        let items = try sent.map { try jsonAPIReferenceItem($0, relationship.target, request) }
        let current = stored[relationship.field]?.arrayValue ?? []
        func targetID(_ item: JSONValue) -> String? { item["target_id"]?.idString }
        let updated: [JSONValue]
        switch request.method {
        case "POST": updated = current + items.filter { item in !current.contains { targetID($0) == targetID(item) } }
        case "PATCH": updated = items
        default: updated = current.filter { item in !items.contains { targetID($0) == targetID(item) } }
        }
        var entity = stored
        entity[relationship.field] = .array(updated)
        entity["changed"] = MockIdentifiers.timestampField(MockIdentifiers.now())
        storeTranslated(type.entityType, id, entity)   // under a prefix, the translation's own fields stay apart
        makeReferencedFilesPermanent(entity)
        // Drupal answers with a body only when it holds more than was sent; a removal never does.
        let sentIDs = Set(items.compactMap(targetID))
        if request.method == "DELETE" || updated.allSatisfy({ targetID($0).map(sentIDs.contains) ?? true }) {
            return MockReply.empty(204)
        }
        return try relationshipDocument(200, request, caller, type, entity, name, relationship)
    }

    /// The entity and relationship a route names: 404 for an unknown UUID (naming the route as
    /// Drupal does), then CSRF for writes and access (view, or update for writes).
    private func relationshipSubject(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType, _ uuid: String,
                                     _ name: String, route: String, template: String, operation: Operation = .view)
        throws -> (id: String, entity: [String: JSONValue], relationship: Relationship) {
        guard let (id, current) = jsonAPIEntity(type, uuid: uuid) else {
            throw MockState.jsonAPINotFound(request, type, route: route, template: template)
        }
        let entity = operation == .view ? try jsonAPIRevision(request, type, id: id, current).entity : current
        if operation == .view {
            try authorizeJSONAPIView(type, entity, caller, request)
        } else {
            // Its PATCH and DELETE routes convert {entity} as the resource's do (MockLanguages).
            if let refusal = jsonAPITranslationRefusal(request, type.entityType, id, entity) { throw refusal }
            try checkCSRF(request, caller)
            try authorize(operation, type.entityType, entity, caller)
        }
        guard let relationship = jsonAPIRelationship(type, entity, name) else { throw MockAnswer(response: MockJSONAPIReply.htmlNotFound) }
        return (id, entity, relationship)
    }

    /// The identifiers of `relationship` (public name `name`) as the relationship route answers them.
    private func relationshipDocument(_ status: Int, _ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType,
                                      _ entity: [String: JSONValue], _ name: String,
                                      _ relationship: Relationship) throws -> HTTPResponse {
        let query = try MockJSONAPIQuery(request)
        let documents = MockJSONAPIDocuments(state: self, caller: caller, origin: request.linkOrigin, query: query)
        let (field, target) = relationship
        let base = request.linkOrigin + type.path + "/" + (MockFields.firstValue(entity["uuid"]) ?? "")
        let links: [String: JSONValue] = [
            "related": MockJSONAPIReply.link(base + "/" + name + documents.versionSuffix(type.entityType, entity)),
            "self": MockJSONAPIReply.link(query.selfLink(request)),
        ]
        return MockJSONAPIReply.document(status, ["data": documents.linkage(field, target, entity[field]),
                                                  "links": .object(links)], request)
    }
}
