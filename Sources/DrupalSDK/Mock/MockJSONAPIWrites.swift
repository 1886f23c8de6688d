import FoundationEssentials

/// JSON:API writes (recordings 120-133c, 195, 195b, drupal10-transcripts 44b-44g), in Drupal's order:
/// media type (415), CSRF (403), access (401 for anonymous, 403), the document (400), ids (422,
/// 409, 400), field access (403 with a pointer), validation (422, one entry per violation).
extension MockState {
    mutating func jsonAPICreate(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType) throws -> HTTPResponse {
        try requireJSONAPIBody(request)
        try checkCSRF(request, caller)
        try authorizeJSONAPICreate(type, caller, request)
        let data = try jsonAPIData(request)
        if let id = data["id"] {
            guard let uuid = id.stringValue, MockState.isUUID(uuid) else {
                throw MockJSONAPIReply.fail(422, "IDs should be properly generated and formatted UUIDs as described "
                                            + "in RFC 4122.", request)
            }
            if (entities[type.entityType] ?? [:]).values.contains(where: { MockFields.firstValue($0["uuid"]) == uuid }) {
                throw MockJSONAPIReply.fail(409, "Conflict: Entity already exists.", request)
            }
        }
        var body = try jsonAPIFields(data, type, caller, request, stored: nil)
        // The type in the document is not checked: the URL decides the bundle (44f).
        if let key = MockEntityKind.bundleKey(type.entityType) { body[key] = MockFields.single(.string(type.bundle)) }
        if let uuid = data["id"] { body["uuid"] = MockFields.single(uuid) }
        try validateJSONAPI(type.entityType, body, request)
        var (id, entity) = insertEntity(type.entityType, body, owner: caller.uid ?? "0")
        makeReferencedFilesPermanent(entity)
        if let path = try savePath(type.entityType, id, written: MockState.pathWritten(body, entity),
                                   update: false) {
            entity["path"] = path
        }
        let documents = MockJSONAPIDocuments(state: self, caller: caller, origin: request.linkOrigin,
                                             query: try MockJSONAPIQuery(request))
        let resource = documents.resource(type.entityType, entity)
        let location = resource["links"]?["self"]?["href"]?.stringValue ?? ""
        return MockJSONAPIReply.document(201, ["data": resource,
                                               "links": .object(["self": MockJSONAPIReply.link(request.linkOrigin + type.path)])],
                                         request, headers: HTTPHeaders([("Location", location)]))
    }

    mutating func jsonAPIUpdate(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType, uuid: String) throws
        -> HTTPResponse {
        try requireJSONAPIBody(request)
        if request.queryValue("resourceVersion") != nil {
            throw MockJSONAPIReply.fail(400, "PATCH requests with a `resourceVersion` query parameter are not supported.",
                                        request)
        }
        guard let (id, stored) = jsonAPIEntity(type, uuid: uuid) else {
            throw MockJSONAPIReply.fail(404, "The \"entity\" parameter was not converted for the path "
                                        + "\"\(type.path)/{entity}\" (route name: \"jsonapi.\(type.name).individual.update\")",
                                        request)
        }
        // Refused when {entity} is converted, before access (MockLanguages).
        if let refusal = jsonAPITranslationRefusal(request, type.entityType, id, stored) { throw refusal }
        try checkCSRF(request, caller)
        try authorize(.update, type.entityType, stored, caller)
        let data = try jsonAPIData(request)
        // data.id must name the URL's resource; a missing one is "()" (133, 133b). data.type is not checked (132).
        let sent = data["id"]?.stringValue ?? ""
        guard sent == uuid else {
            throw MockJSONAPIReply.fail(400, "The selected entity (\(uuid)) does not match the ID in the payload (\(sent)).",
                                        request)
        }
        var entity = stored
        let fields = try jsonAPIFields(data, type, caller, request, stored: stored)
        for (field, value) in fields { entity[field] = value }
        // Only a langcode sent is checked: a stored one is the site's business.
        try validateJSONAPI(type.entityType, entity, request, langcode: data["attributes"]?["langcode"] != nil)
        entity["changed"] = MockIdentifiers.timestampField(MockIdentifiers.now())
        if type.entityType == "node" {
            // Every PATCH of a node is a new revision by its sender (123, 124); the old one stays
            // readable by its id (143).
            rememberRevision(type.entityType, id, entities[type.entityType]?[id] ?? stored)
            entity["vid"] = MockFields.single(.number(Double(nextRevisionID("node"))))
            entity["revision_uid"] = userReference(caller.uid ?? "0")
        }
        storeTranslated(type.entityType, id, entity)
        if let path = try savePath(type.entityType, id, written: fields["path"], update: true,
                                   langcode: editedLangcode(type.entityType, id)) {
            entity["path"] = path
        }
        makeReferencedFilesPermanent(entity)
        let documents = MockJSONAPIDocuments(state: self, caller: caller, origin: request.linkOrigin,
                                             query: try MockJSONAPIQuery(request))
        return MockJSONAPIReply.document(200, ["data": documents.resource(type.entityType, entity),
                                               "links": .object(["self": MockJSONAPIReply.link(request.linkOrigin + request.path)])],
                                         request)
    }

    mutating func jsonAPIDelete(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType, uuid: String) throws
        -> HTTPResponse {
        guard let (id, stored) = jsonAPIEntity(type, uuid: uuid) else { throw MockState.jsonAPINotFound(request, type) }
        if let refusal = jsonAPITranslationRefusal(request, type.entityType, id, stored) { throw refusal }
        try checkCSRF(request, caller)
        try authorize(.delete, type.entityType, stored, caller)
        removeEntity(type.entityType, id)
        return MockReply.empty(204)
    }

    /// POST and PATCH need `application/vnd.api+json` (parameters such as charset allowed: 128).
    /// The route's Content-Type requirement: a JSON:API document, or for a file upload the raw
    /// bytes (`application/octet-stream`, 163).
    func requireJSONAPIBody(_ request: MockRequest, mediaType: String = MockJSONAPIReply.mediaType) throws {
        guard let contentType = request.headers["Content-Type"] else {
            throw MockJSONAPIReply.fail(415, "No \"Content-Type\" request header specified", request)
        }
        guard request.contentType == mediaType else {
            throw MockJSONAPIReply.fail(415, "No route found that matches \"Content-Type: \(contentType)\"", request)
        }
    }

    /// The document's `data` object: 400 for no body, malformed JSON (133c), then as
    /// JsonApiDocumentTopLevelNormalizer's validateRequestBody checks: `relationships` at the
    /// document's top level, a `data` without a `type`.
    private func jsonAPIData(_ request: MockRequest) throws -> [String: JSONValue] {
        guard let body = request.body, !body.isEmpty else { throw MockJSONAPIReply.fail(400, "Empty request body.", request) }
        guard let document = JSONValue.parse(body) else { throw MockJSONAPIReply.fail(400, "Syntax error", request) }
        if document["relationships"].map(MockState.phpNonEmpty) == true {
            throw MockJSONAPIReply.fail(400, "Found \"relationships\" within the document's top level. The "
                                        + "\"relationships\" key must be within resource object.", request)
        }
        guard let data = document["data"]?.objectValue, data["type"].map({ $0 != .null }) == true else {
            throw MockJSONAPIReply.fail(400, "Resource object must include a \"type\".", request)
        }
        return data
    }

    /// The document's attributes and relationships as stored fields. A relationship item names
    /// an entity by UUID, which must exist (126b); only administrators may set a node's owner (127)
    /// or its other administration fields, unless a PATCH (`stored`) leaves the value as it is.
    /// Where the mock knows the bundle's fields (`knownFields`), a name that is none of them is
    /// Drupal's 422, as is a relationship sent as an attribute.
    private func jsonAPIFields(_ data: [String: JSONValue], _ type: JSONAPIType, _ caller: MockCaller,
                               _ request: MockRequest, stored: [String: JSONValue]?) throws -> [String: JSONValue] {
        let documents = MockJSONAPIDocuments(state: self, caller: caller, origin: request.linkOrigin,
                                             query: try MockJSONAPIQuery(request))
        let known = documents.relationships(type.entityType, nil, bundle: type.bundle)
        let attributes = data["attributes"]?.objectValue ?? [:]
        if let fieldNames = knownFields(type.entityType, type.bundle) {
            try checkJSONAPIFieldNames(attributes: attributes.keys.sorted(),
                                       relationships: (data["relationships"]?.objectValue ?? [:]).keys.sorted(),
                                       known: fieldNames, relationshipNames: known.map { MockJSONAPIFields.publicName(type.entityType, $0.field) },
                                       type, request)
        }
        var fields: [String: JSONValue] = [:]
        for (name, value) in attributes {
            let field = MockJSONAPIFields.internalName(type.entityType, name)
            // Ids are the site's; JSON:API ignores them here.
            if field == MockEntityKind.idKey(type.entityType) || field == "uuid" { continue }
            let items: [JSONValue] = value == .null ? [] : (value.arrayValue ?? [value])
            fields[field] = MockFields.normalize(field, .array(items.map { $0.objectValue == nil ? .object(["value": $0]) : $0 }))
            try authorizeJSONAPIField(type, field, name, "attributes", fields[field], stored, caller, request)
        }
        for (name, value) in (data["relationships"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let (field, target) = known.first(where: { MockJSONAPIFields.publicName(type.entityType, $0.field) == name }),
                  !MockJSONAPIFields.configTypes.contains(target.entityType) else { continue }
            let identifiers = try documentIdentifiers(value, request)
            if type.entityType == "node", field == "uid", stored == nil {
                try authorizeJSONAPIField(type, field, name, "relationships", nil, nil, caller, request)
            }
            fields[field] = .array(try identifiers.map { try jsonAPIReferenceItem($0, target, request) })
            try authorizeJSONAPIField(type, field, name, "relationships", fields[field], stored, caller, request)
        }
        return fields
    }

    /// Field edit access of one field sent: a node's administration fields are for administrators
    /// (127, 403 with the field's pointer); a PATCH that keeps the stored value passes.
    private func authorizeJSONAPIField(_ type: JSONAPIType, _ field: String, _ name: String, _ member: String,
                                       _ items: JSONValue?, _ stored: [String: JSONValue]?, _ caller: MockCaller,
                                       _ request: MockRequest) throws {
        guard let reason = MockState.nodeAdministrationDenial(type.entityType, field, caller) else { return }
        if let stored, let items, MockState.sameItems(items, stored[field]) { return }
        throw MockJSONAPIReply.fail(403, "The current user is not allowed to \(request.method) the selected field "
                                    + "(\(name)).\(reason)", request, pointer: "/data/\(member)/\(name)")
    }

    /// Whether the items sent are the stored ones: each sent item's members as stored (a stored
    /// reference also has its type, UUID and URL).
    static func sameItems(_ sent: JSONValue, _ stored: JSONValue?) -> Bool {
        let sent = sent.arrayValue ?? [], stored = stored?.arrayValue ?? []
        return sent.count == stored.count && zip(sent, stored).allSatisfy { pair in
            (pair.0.objectValue ?? [:]).allSatisfy { key, value in
                pair.1[key] == value || (pair.1[key]?.idString != nil && pair.1[key]?.idString == value.idString)
            }
        }
    }

    /// Drupal's 422s for names the resource type lacks: relationships sent as attributes (all of
    /// them in one message; in name order, where Drupal keeps the document's), then the first
    /// unknown attribute, then the first unknown relationship.
    private func checkJSONAPIFieldNames(attributes: [String], relationships: [String], known: Set<String>,
                                        relationshipNames: [String], _ type: JSONAPIType, _ request: MockRequest) throws {
        let misplaced = attributes.filter(relationshipNames.contains)
        if !misplaced.isEmpty {
            throw MockJSONAPIReply.fail(422, "The following relationship fields were provided as attributes: [ "
                                        + misplaced.joined(separator: ", ") + " ]", request)
        }
        for name in attributes where !known.contains(MockJSONAPIFields.internalName(type.entityType, name)) {
            throw MockJSONAPIReply.fail(422, "The attribute \(name) does not exist on the \(type.name) resource type.", request)
        }
        for name in relationships where !relationshipNames.contains(name) {
            throw MockJSONAPIReply.fail(422, "The relationship \(name) does not exist on the \(type.name) resource type.",
                                        request)
        }
    }

    /// The stored reference item a resource identifier names (by UUID, which must exist: 126b).
    /// Drupal looks the UUID up in the entity type the identifier's `type` names, unchecked
    /// against the field's target, and keeps that entity's id: a node's UUID in `field_tags`
    /// becomes a term id, which validation then finds missing (126).
    func jsonAPIReferenceItem(_ identifier: JSONValue, _ target: MockJSONAPIFields.Target, _ request: MockRequest)
        throws -> JSONValue {
        let uuid = identifier["id"]?.stringValue ?? ""
        let typeName = identifier["type"]?.stringValue ?? ""
        let named = typeName.components(separatedBy: "--").first ?? ""
        let lookedUp = entities[named] != nil ? named : target.entityType
        guard let (id, _) = (entities[lookedUp] ?? [:])
            .first(where: { MockFields.firstValue($0.value["uuid"]) == uuid }) else {
            throw MockJSONAPIReply.fail(404, "The resource identified by `\(typeName):\(uuid)` (given as a "
                                        + "relationship item) could not be found.", request)
        }
        var item: [String: JSONValue] = ["target_id": MockFields.number(id), "target_type": .string(target.entityType),
                                         "target_uuid": .string(uuid)]
        // An image's alt, title, width and height travel in the identifier's meta.
        for (key, member) in identifier["meta"]?.objectValue ?? [:] where key != "drupal_internal__target_id" {
            item[key] = member
        }
        return .object(item)
    }

    /// A language the site lacks, single-value fields given more (MockFieldCardinality), required
    /// fields and references to missing entities: one 422 entry each, in field order (langcode
    /// first), pointing into `/data/attributes/` with the item's delta where Drupal keeps it (125, 126, 44d).
    private func validateJSONAPI(_ entityType: String, _ entity: [String: JSONValue], _ request: MockRequest,
                                 langcode: Bool = true) throws {
        var lines: [(detail: String, pointer: String)] = []
        for (delta, item) in (langcode ? entity["langcode"]?.arrayValue ?? [] : []).enumerated()
        where !langcodes.contains(item["value"]?.stringValue ?? "") {
            lines.append(("langcode.\(delta): The value you selected is not a valid choice.",
                          "/data/attributes/langcode/\(delta)"))
        }
        for (field, line) in MockState.cardinalityViolations(entityType, entity) {
            lines.append((line, "/data/attributes/\(field)"))
        }
        for field in MockEntityKind.requiredFields(entityType) where MockFields.isEmpty(entity[field]) {
            lines.append(("\(field): This value should not be null.", "/data/attributes/\(field)"))
        }
        for line in missingReferences(entityType, entity) {
            let path = String(line.prefix { $0 != ":" })
            lines.append((line, "/data/attributes/" + path.replacingOccurrences(of: ".", with: "/")))
        }
        if !lines.isEmpty { throw MockJSONAPIReply.violations(lines, request) }
    }

    /// 8-4-4-4-12 hexadecimal digits.
    static func isUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
