import FoundationEssentials

/// contrib decoupled_router 2.0.6: `GET /router/translate-path?path=...&_format=json`, what a path
/// or alias is (recordings 84-84c of drupal10-oauth-language-transcripts; the fake's router.py
/// answers alike). An entity's path or alias resolves to its type, bundle, id, uuid, label and
/// JSON:API resource; the URLs given back use the entity's alias, as Drupal writes an entity's URL.
extension MockState {
    func translatePath(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return MockReply.methodNotAllowed(request, allow: ["GET"])
        }
        if let format = request.format, format != "json" {
            return MockReply.noRouteForFormat(format, supported: "json")
        }
        try refuseBasic(caller)
        guard let asked = request.queryValue("path"), !asked.isEmpty else {
            throw MockReply.fail(404, "Unable to translate empty path. Please send a ?path query string "
                                 + "parameter with your request.")
        }
        // The router matches a bare path (no query, no fragment, no trailing slash), decoded as
        // a request's path is (PathProcessorDecode).
        var path = PathSafety.percentDecode(String(asked.prefix { $0 != "?" && $0 != "#" }))
        if !path.hasPrefix("/") { path = "/" + path }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        // A language's prefix is taken off, and the alias looked up in its language; the entity
        // answered is the original, at its own URL (84b).
        let language = languageOf(path)
        if let language { path = language.rest }
        path = systemPath(forAlias: path, langcode: language?.langcode) ?? path
        // Routed as a request for it would be: encoded as sent.
        let routed = request.routed(to: MockState.rawEncoded(path))
        guard case .canonical(let entityType, let id, let template)? = entityRoute(for: routed),
              !template.hasPrefix("/entity/"), let entity = entities[entityType]?[id] else {
            throw MockAnswer(response: MockReply.json(404, .object([
                "message": .string("Unable to resolve path \(asked)."),
                "details": .string("None of the available methods were able to find a match for this path.")])))
        }
        guard (try? authorize(.view, entityType, entity, caller)) != nil else {
            throw MockAnswer(response: MockReply.json(403, .object([
                "message": .string("Access denied for entity."),
                "details": .string("This user does not have access to view the resolved entity. "
                                   + "Please authenticate and try again.")])))
        }
        return MockReply.json(200, resolution(request.origin, entityType, id, entity))
    }

    private func resolution(_ origin: String, _ entityType: String, _ id: String,
                            _ entity: [String: JSONValue]) -> JSONValue {
        // UrlGenerator percent-encodes the path, then puts these characters back.
        let url = origin + PathSafety.percentEncode(aliasedPath(entityType, id), keep: {
            PathSafety.isUnreservedByte($0) || "/@:;,=+!*|".utf8.contains($0)
        })
        let bundle = MockEntityKind.bundleKey(entityType).flatMap { MockFields.firstValue(entity[$0]) } ?? entityType
        let uuid = MockFields.firstValue(entity["uuid"]) ?? ""
        let label = MockFields.firstValue(entity[MockEntityKind.labelKey(entityType)]) ?? ""
        let type = JSONAPIType(entityType: entityType, bundle: bundle)
        let deprecation = "This property has been deprecated and will be removed in the next version of "
            + "Decoupled Router. Use basePath instead."
        return .object([
            "resolved": .string(url), "isExternal": .bool(false), "isHomePath": .bool(false),
            "entity": .object(["canonical": .string(url), "type": .string(entityType), "bundle": .string(bundle),
                               "id": .string(id), "uuid": .string(uuid)]),
            "label": .string(label),
            "jsonapi": .object(["individual": .string(origin + type.path + "/" + uuid),
                                "resourceName": .string(type.name), "pathPrefix": .string("jsonapi"),
                                "basePath": .string("/jsonapi"), "entryPoint": .string(origin + "/jsonapi")]),
            "meta": .object(["deprecated": .object(["jsonapi.pathPrefix": .string(deprecation)])]),
        ])
    }
}
