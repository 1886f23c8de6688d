import FoundationEssentials

/// JSON:API file uploads (drupal10-jsonapi-transcripts 160-166): the file's bytes as
/// `application/octet-stream` with its name in `Content-Disposition`.
/// - `POST /jsonapi/{type}/{bundle}/{file field}`: a temporary file, 201, `links.self` the file
///   resource (160);
/// - `POST /jsonapi/{type}/{bundle}/{uuid}/{file field}`: uploaded and attached to the entity
///   (saved without a new revision, 162), 200, `links.self` the request's URL (161).
/// Refusals as recorded: 415 for another content type (163), 422 for an extension the field does
/// not take (164), 400 without Content-Disposition (165), 500 for a field that holds no files (166).
extension MockState {
    mutating func jsonAPIUploadNew(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType,
                                   field name: String) throws -> HTTPResponse {
        try requireJSONAPIBody(request, mediaType: "application/octet-stream")
        try checkCSRF(request, caller)
        try authorizeJSONAPICreate(type, caller, request)
        let filename = try uploadFilename(request, type, field: name)
        let file = storeUploadedFile(request, caller, filename).entity
        let documents = MockJSONAPIDocuments(state: self, caller: caller, origin: request.linkOrigin,
                                             query: try MockJSONAPIQuery(request))
        let resource = documents.resource("file", file)
        return MockJSONAPIReply.document(201, ["data": resource, "links": .object(["self": resource["links"]?["self"] ?? .null])],
                                         request)
    }

    mutating func jsonAPIUploadToEntity(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType,
                                        uuid: String, field name: String, relationship: Bool) throws -> HTTPResponse {
        try requireJSONAPIBody(request, mediaType: "application/octet-stream")
        guard let (id, stored) = jsonAPIEntity(type, uuid: uuid) else {
            // A relationship's name is part of the route; another field is a parameter.
            throw relationship ? MockState.jsonAPINotFound(request, type, route: name + ".file_upload",
                                                           template: "{entity}/" + name)
                : MockState.jsonAPINotFound(request, type, route: "file_upload", template: "{entity}/{file_field_name}")
        }
        try checkCSRF(request, caller)
        try authorize(.update, type.entityType, stored, caller)
        let filename = try uploadFilename(request, type, field: name)
        let (fid, _) = storeUploadedFile(request, caller, filename)
        let field = MockJSONAPIFields.internalName(type.entityType, name)
        let many = MockJSONAPIFields.knownRelationships(type.entityType).first { $0.field == field }?.target.many ?? false
        // ImageItem::preSave fills in the size; alt and title stay empty.
        let size = request.body.flatMap(MockState.imageSize)
        let item: JSONValue = .object(["target_id": MockFields.number(fid), "alt": .null, "title": .null,
                                       "width": size.map { .number(Double($0.width)) } ?? .null,
                                       "height": size.map { .number(Double($0.height)) } ?? .null])
        var entity = stored
        entity[field] = .array((many ? stored[field]?.arrayValue ?? [] : []) + [item])
        entity["changed"] = MockIdentifiers.timestampField(MockIdentifiers.now())
        storeTranslated(type.entityType, id, entity)   // under a prefix, the translation's own fields stay apart
        makeReferencedFilesPermanent(entity)
        let documents = MockJSONAPIDocuments(state: self, caller: caller, origin: request.linkOrigin,
                                             query: try MockJSONAPIQuery(request))
        let files = (entity[field]?.arrayValue ?? []).compactMap { item in
            item["target_id"]?.idString.flatMap { entities["file"]?[$0] }.map { documents.resource("file", $0) }
        }
        return MockJSONAPIReply.document(200, ["data": many ? .array(files) : files.last ?? .null,
                                               "links": .object(["self": MockJSONAPIReply.link(request.linkOrigin + request.askedPath)])],
                                         request)
    }

    /// The field must hold files (a field that exists but does not: Drupal's 500, 166), and the
    /// name in Content-Disposition be one it takes (165, 164).
    private func uploadFilename(_ request: MockRequest, _ type: JSONAPIType, field name: String) throws -> String {
        let field = MockJSONAPIFields.internalName(type.entityType, name)
        let target = MockJSONAPIFields.knownRelationships(type.entityType).first { $0.field == field }?.target
        guard target?.entityType == "file" else {
            let known = knownFields(type.entityType, type.bundle)?.contains(field) ?? false
            if known || target != nil {
                throw MockJSONAPIReply.fail(500, "The file \"\(name)\" is not a file field could not be accessed", request)
            }
            throw MockJSONAPIReply.fail(404, "Field \"\(name)\" does not exist", request)
        }
        let filename = try MockState.uploadFilename(request.headers["Content-Disposition"])
        try MockState.checkExtension(filename, target: [type.entityType, type.bundle, field])
        return filename
    }
}
