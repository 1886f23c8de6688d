import FoundationEssentials

/// JSON:API (drupal-http-api.md §8, drupal10-jsonapi-transcripts) over the same entities the REST
/// routes serve: `/jsonapi/{entity_type}/{bundle}` and `/{uuid}` under it. Every answer, errors
/// included, is `application/vnd.api+json`. Read-only mode is off, as on the recorded site.
extension MockState {
    /// The resource type a `/jsonapi/{entity_type}/{bundle}` path names, when the site has it.
    struct JSONAPIType: Equatable {
        let entityType: String
        let bundle: String
        var name: String { entityType + "--" + bundle }
        var path: String { "/jsonapi/\(entityType)/\(bundle)" }
    }

    /// The JSON:API route for `/jsonapi/...`, or nil when there is none (the ordinary 404 then).
    mutating func jsonAPIRoute(_ request: MockRequest, _ caller: MockCaller) -> HTTPResponse? {
        let segments = request.segments
        guard segments.first == "jsonapi" else { return nil }
        if segments.count == 1 {
            return MockJSONAPIReply.formatRefusal(request) ?? jsonAPIEntryPoint(request, caller)
        }
        // A path under /jsonapi that names no resource type matches no route: the site's HTML 404,
        // as for an unknown relationship (158).
        guard (3...6).contains(segments.count), let type = jsonAPIType(segments[1], segments[2]) else {
            return MockJSONAPIReply.htmlNotFound
        }
        // Relationship names are part of the route: an unknown one is the site's HTML 404 (158, 158c).
        if segments.count == 6, segments[4] != "relationships" || !isJSONAPIRelationship(type, segments[5]) {
            return MockJSONAPIReply.htmlNotFound
        }
        // Every JSON:API route refuses `_format` (130c, 130d).
        if let refusal = MockJSONAPIReply.formatRefusal(request) { return refusal }
        do {
            switch segments.count {
            case 3:
                switch request.method {
                case "GET", "HEAD": return try jsonAPICollection(request, caller, type)
                case "POST": return try jsonAPICreate(request, caller, type)
                default: return MockJSONAPIReply.methodNotAllowed(request, allow: ["GET", "POST"])
                }
            case 4:
                switch request.method {
                case "GET", "HEAD": return try jsonAPIIndividual(request, caller, type, uuid: segments[3])
                case "PATCH": return try jsonAPIUpdate(request, caller, type, uuid: segments[3])
                case "DELETE": return try jsonAPIDelete(request, caller, type, uuid: segments[3])
                // `/{file_field_name}` has the same shape: its upload route takes POST (160).
                case "POST": return try jsonAPIUploadNew(request, caller, type, field: segments[3])
                default: return MockJSONAPIReply.methodNotAllowed(request, allow: ["GET", "PATCH", "DELETE", "POST"])
                }
            case 5:
                // `/{id}/{field}` that names no relationship has the shape of a file upload, which
                // takes POST only (158b); uploads to the entity's file field share the path (161).
                let related = isJSONAPIRelationship(type, segments[4])
                if request.method == "POST" {
                    return try jsonAPIUploadToEntity(request, caller, type, uuid: segments[3], field: segments[4],
                                                     relationship: related)
                }
                guard related else { return MockJSONAPIReply.methodNotAllowed(request, allow: ["POST"]) }
                guard request.method == "GET" || request.method == "HEAD" else {
                    return MockJSONAPIReply.methodNotAllowed(request, allow: ["GET", "POST"])
                }
                return try jsonAPIRelated(request, caller, type, uuid: segments[3], name: segments[4])
            default:
                switch request.method {
                case "GET", "HEAD": return try jsonAPIRelationship(request, caller, type, uuid: segments[3], name: segments[5])
                case "POST", "PATCH", "DELETE":
                    return try jsonAPIChangeRelationship(request, caller, type, uuid: segments[3], name: segments[5])
                default: return MockJSONAPIReply.methodNotAllowed(request, allow: ["GET", "POST", "PATCH", "DELETE"])
                }
            }
        } catch let answer as MockAnswer {
            // Checks shared with core REST (access, CSRF) answer `{"message"}`; JSON:API says it
            // in an error document, with the same status and headers (WWW-Authenticate).
            return MockJSONAPIReply.converted(answer.response, request)
        } catch {
            return MockJSONAPIReply.error(500, "", request)
        }
    }

    /// A resource type exists for every entity type the site knows and each of its bundles
    /// (bundle-less types use their own name twice: `user--user`).
    func jsonAPIType(_ entityType: String, _ bundle: String) -> JSONAPIType? {
        guard MockState.isMachineName(entityType), MockState.isMachineName(bundle),
              entityPaths[entityType] != nil || entities[entityType] != nil else { return nil }
        guard let key = MockEntityKind.bundleKey(entityType) else {
            return bundle == entityType ? JSONAPIType(entityType: entityType, bundle: bundle) : nil
        }
        let declared = bundles[entityType] ?? []
        let used = (entities[entityType] ?? [:]).values.contains { MockFields.firstValue($0[key]) == bundle }
        guard declared.contains(bundle) || used else { return nil }
        return JSONAPIType(entityType: entityType, bundle: bundle)
    }

    /// The resource type of a stored entity.
    func jsonAPIType(of entityType: String, _ entity: [String: JSONValue]) -> JSONAPIType {
        let bundle = MockEntityKind.bundleKey(entityType).flatMap { MockFields.firstValue(entity[$0]) } ?? entityType
        return JSONAPIType(entityType: entityType, bundle: bundle)
    }

    /// The stored entity of this resource type with this UUID, in the request's language
    /// (MockLanguages), and its id.
    func jsonAPIEntity(_ type: JSONAPIType, uuid: String) -> (id: String, entity: [String: JSONValue])? {
        if type.entityType == "user", uuid == anonymousUUID { return ("0", anonymousUser) }
        for (id, entity) in entities[type.entityType] ?? [:]
        where MockFields.firstValue(entity["uuid"]) == uuid && jsonAPIType(of: type.entityType, entity) == type {
            return (id, translated(type.entityType, id, entity))
        }
        return nil
    }

    /// The entities of a resource type, by id (Drupal's order when no sort is asked for); users
    /// start with the anonymous user, uid 0 (171b).
    func jsonAPIEntities(_ type: JSONAPIType) -> [(id: String, entity: [String: JSONValue])] {
        let stored = (entities[type.entityType] ?? [:])
            .filter { jsonAPIType(of: type.entityType, $0.value) == type }
            .sorted { (Int($0.key) ?? 0, $0.key) < (Int($1.key) ?? 0, $1.key) }
            .map { (id: $0.key, entity: translated(type.entityType, $0.key, $0.value)) }
        return type.entityType == "user" ? [(id: "0", entity: anonymousUser)] + stored : stored
    }

    /// The entity a reference's target id names: a stored one, or the anonymous user for uid 0.
    func referencedEntity(_ entityType: String, _ id: String) -> [String: JSONValue]? {
        entityType == "user" && id == "0" ? anonymousUser : entities[entityType]?[id].map { translated(entityType, id, $0) }
    }

    /// The 404 of an unknown UUID names the route as Drupal does (141, 195b): `route` follows
    /// the type's name and `template` its path.
    static func jsonAPINotFound(_ request: MockRequest, _ type: JSONAPIType, route: String? = nil,
                                template: String = "{entity}") -> MockAnswer {
        let route = route ?? ("individual" + (request.method == "DELETE" ? ".delete" : ""))
        return MockJSONAPIReply.fail(404, "The \"entity\" parameter was not converted for the path "
                                     + "\"\(type.path)/\(template)\" (route name: \"jsonapi.\(type.name).\(route)\")", request)
    }

    /// GET of one resource: 404 for an unknown UUID, then the revision asked for, then view
    /// access as core REST checks it.
    func jsonAPIIndividual(_ request: MockRequest, _ caller: MockCaller, _ type: JSONAPIType, uuid: String) throws
        -> HTTPResponse {
        guard let (id, current) = jsonAPIEntity(type, uuid: uuid) else { throw MockState.jsonAPINotFound(request, type) }
        let (entity, isOld) = try jsonAPIRevision(request, type, id: id, current)
        try authorizeJSONAPIView(type, entity, caller, request)
        let query = try MockJSONAPIQuery(request)
        let documents = MockJSONAPIDocuments(state: self, caller: caller, origin: request.linkOrigin, query: query)
        var resource = documents.resource(type.entityType, entity)
        if isOld { resource = MockState.withRevisionLinks(resource, request.linkOrigin + type.path + "/" + uuid) }
        var document: [String: JSONValue] = ["data": resource]
        if query.includes != nil { document["included"] = .array(try documents.included(for: [(type.entityType, entity)], request)) }
        document["links"] = .object(["self": MockJSONAPIReply.link(query.selfLink(request))])
        return MockJSONAPIReply.document(200, document, request)
    }

    /// View access of an individual read: users may always see an account's label (171c); other
    /// refusals say what JSON:API says, with the pointer `/data`, or challenge anonymous callers.
    func authorizeJSONAPIView(_ type: JSONAPIType, _ entity: [String: JSONValue], _ caller: MockCaller,
                              _ request: MockRequest) throws {
        if type.entityType == "user" { return }
        do {
            try authorize(.view, type.entityType, entity, caller)
        } catch let answer as MockAnswer where answer.response.status == 403 {
            let reason = JSONValue.parse(answer.response.body)?["message"]?.stringValue ?? ""
            throw MockJSONAPIReply.fail(403, "The current user is not allowed to GET the selected resource."
                                        + (reason.isEmpty ? "" : " " + reason), request, pointer: "/data")
        }
    }

    /// Whether the caller may see the whole entity (not only its label).
    func canView(_ entityType: String, _ entity: [String: JSONValue], _ caller: MockCaller) -> Bool {
        (try? authorize(.view, entityType, entity, caller)) != nil
    }
}

/// JSON:API's documents and error documents (§8.5): a `jsonapi` member, `errors` entries with the
/// status as a string, the reason phrase as title and `links.via` (the request URL).
enum MockJSONAPIReply {
    static let mediaType = "application/vnd.api+json"

    /// The `jsonapi` member of Drupal 10's documents.
    static let jsonapiMember: JSONValue = .object([
        "version": .string("1.0"),
        "meta": .object(["links": .object(["self": .object(["href": .string("http://jsonapi.org/format/1.0/")])])]),
    ])

    static func document(_ status: Int, _ members: [String: JSONValue], _ request: MockRequest,
                         headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set("Content-Type", mediaType)
        var members = members
        members["jsonapi"] = jsonapiMember
        // HEAD has GET's headers and no body.
        let body = request.method == "HEAD" ? Data() : JSONValue.object(members).encoded()
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    static func link(_ href: String) -> JSONValue { .object(["href": .string(href)]) }

    /// The site's HTML "Page not found", which a path outside JSON:API's routes gets (158, 158c).
    static let htmlNotFound = HTTPResponse(
        status: 404, headers: HTTPHeaders([("Content-Type", "text/html; charset=UTF-8")]),
        body: Data(("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\">\n<head>\n<title>Page not found | Drupal</title>\n"
                    + "</head>\n<body>\n<h1>Page not found</h1>\n<p>The requested page could not be found.</p>\n"
                    + "</body>\n</html>\n").utf8))

    /// The request URL as Symfony normalizes it, which error documents name in `links.via`: the
    /// parameters sorted by name and re-encoded, brackets as %5B %5D (115, 130d).
    static func via(_ request: MockRequest) -> String {
        url(request, MockQueryTree.parse(request.query).sorted { $0.key < $1.key })
    }

    /// The request URL with its parameters re-encoded, in the order they came.
    static func url(_ request: MockRequest, _ entries: [(key: String, value: MockQueryTree)]) -> String {
        let query = MockQueryTree.build(entries)
        return request.linkOrigin + request.path + (query.isEmpty ? "" : "?" + query)
    }

    /// The RFC 2616 section Drupal links as `links.info` (none for 422: 122b).
    static func infoLink(_ status: Int) -> String? {
        let sections = [400: "10.4.1", 401: "10.4.2", 403: "10.4.4", 404: "10.4.5", 405: "10.4.6", 406: "10.4.7",
                        409: "10.4.10", 415: "10.4.16", 500: "10.5.1", 501: "10.5.2"]
        return sections[status].map { "http://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec\($0)" }
    }

    static func errorEntry(_ status: Int, _ detail: String, _ request: MockRequest?, pointer: String? = nil,
                           info: String? = nil) -> JSONValue {
        var entry: [String: JSONValue] = ["title": .string(reasonPhrase(status)), "status": .string(String(status)),
                                          "detail": .string(detail)]
        if let request {
            var links: [String: JSONValue] = ["via": link(via(request))]
            if let info = info ?? infoLink(status) { links["info"] = link(info) }
            entry["links"] = .object(links)
        }
        if let pointer { entry["source"] = .object(["pointer": .string(pointer)]) }
        return .object(entry)
    }

    static func error(_ status: Int, _ detail: String, _ request: MockRequest, pointer: String? = nil,
                      info: String? = nil, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        document(status, ["errors": .array([errorEntry(status, detail, request, pointer: pointer, info: info)])],
                 request, headers: headers)
    }

    static func fail(_ status: Int, _ detail: String, _ request: MockRequest, pointer: String? = nil) -> MockAnswer {
        MockAnswer(response: error(status, detail, request, pointer: pointer))
    }

    /// 422 of failed validation: one entry per violation, each with its pointer and no links (125).
    static func violations(_ lines: [(detail: String, pointer: String)], _ request: MockRequest) -> MockAnswer {
        let entries = lines.map { errorEntry(422, $0.detail, nil, pointer: $0.pointer) }
        return MockAnswer(response: document(422, ["errors": .array(entries)], request))
    }

    /// 405 with the methods of the routes on the path; as core's MethodFilter, a GET route also
    /// allows HEAD (180).
    static func methodNotAllowed(_ request: MockRequest, allow: [String]) -> HTTPResponse {
        let list = allow.flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] }.joined(separator: ", ")
        return error(405, "No route found for \"\(request.routeDescription)\": Method Not Allowed (Allow: \(list))",
                     request, headers: HTTPHeaders([("Allow", list)]))
    }

    /// A core REST answer (`{"message"}`) said as a JSON:API error, keeping its other headers.
    static func converted(_ response: HTTPResponse, _ request: MockRequest) -> HTTPResponse {
        guard let message = MockReply.messageOf(response) else { return response }
        var headers = response.headers
        headers.remove("Content-Type")
        return error(response.status, message, request, headers: headers)
    }

    /// `?_format=json` finds no JSON:API route (406, a core REST body, 130c); `api_json` is
    /// refused by JSON:API itself (130d).
    static func formatRefusal(_ request: MockRequest) -> HTTPResponse? {
        guard let format = request.format else { return nil }
        if format == "api_json" {
            // The URL without its query, as a bare `Link` header and as the error's `links.info` (130d).
            let bare = request.linkOrigin + request.path
            return error(400, "JSON:API does not need that ugly '_format' query string! 🤘 Use the URL provided in "
                         + "'links' 🙏", request, info: bare, headers: HTTPHeaders([("Link", bare)]))
        }
        let alternate = url(request, MockQueryTree.parse(request.query))
            .replacingOccurrences(of: "_format=\(format)", with: "_format=api_json")
        let link = "<\(alternate)>; rel=\"alternate\"; type=\"\(mediaType)\""
        return MockReply.message(406, "No route found for the specified format \(format). Supported formats: api_json.",
                                 headers: HTTPHeaders([("Link", link)]))
    }
}
