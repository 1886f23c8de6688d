import FoundationEssentials

/// Which entity resource a path names, found through the same path table the client uses.
enum MockEntityRoute {
    case canonical(entityType: String, id: String, template: String)
    case create(entityType: String)
}

/// REST entity resources (drupal-http-api.md §5): GET/PATCH/DELETE on the canonical path, POST on
/// the create path, in Drupal's order of checks: 405, 415, 406, 404, CSRF, body, access, validation.
extension MockState {
    func entityRoute(for request: MockRequest) -> MockEntityRoute? {
        let segments = request.segments
        for (entityType, paths) in entityPaths {
            if let id = MockState.match(segments, template: paths.canonical),
               EntityPath.core[entityType] == nil || id.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                // Core's entities have serial ids, which their routes require: /node/abc is no route.
                return .canonical(entityType: entityType, id: id, template: paths.canonical)
            }
            if MockState.match(segments, template: paths.create) == "" { return .create(entityType: entityType) }
        }
        // Types without link templates live under /entity/{type}.
        guard segments.first == "entity", segments.count == 2 || segments.count == 3,
              MockState.isMachineName(segments[1]), entityPaths[segments[1]] == nil else { return nil }
        let generic = EntityPath.generic(segments[1])
        if segments.count == 3 { return .canonical(entityType: segments[1], id: segments[2], template: generic.canonical) }
        return .create(entityType: segments[1])
    }

    /// The `{id}` a path fills into a template; "" for a template without `{id}`; nil for no match.
    private static func match(_ segments: [String], template: String) -> String? {
        let parts = template.split(separator: "/").map(String.init)
        guard parts.count == segments.count else { return nil }
        var id = ""
        for (part, segment) in zip(parts, segments) {
            if part == "{id}" { id = segment } else if part != segment { return nil }
        }
        return id
    }

    static func isMachineName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    mutating func entityResource(_ request: MockRequest, _ caller: MockCaller, _ route: MockEntityRoute) throws
        -> HTTPResponse {
        switch route {
        case .create(let entityType):
            if request.segments == ["node"] && (request.method == "GET" || request.method == "HEAD") {
                return MockState.frontPage(request)
            }
            guard request.method == "POST" else { return MockReply.methodNotAllowed(request, allow: ["POST"]) }
            try refuseNonJSONFrontPagePost(request)
            try requireJSONBody(request)
            try requireJSONFormat(request)
            try checkCSRF(request, caller)
            return try create(entityType, request, caller)
        case .canonical(let entityType, let id, let template):
            if request.method == "POST", MockState.canonicalMethods(entityType).contains("POST") {
                return try canonicalPagePost(request, caller, entityType, id, template: template)
            }
            guard MockState.canonicalMethods(entityType).contains(request.method) else {
                return MockReply.methodNotAllowed(request, allow: MockState.canonicalMethods(entityType))
            }
            if request.method == "PATCH" { try requireJSONBody(request) }
            try requireJSONFormat(request)
            guard let original = entities[entityType]?[id] else {
                let path = template.replacingOccurrences(of: "{id}", with: "{\(entityType)}")
                let method = request.method == "HEAD" ? "GET" : request.method
                throw MockReply.fail(404, "The \"\(entityType)\" parameter was not converted for the path \"\(path)\" "
                                     + "(route name: \"rest.entity.\(entityType).\(method)\")")
            }
            try checkCSRF(request, caller)
            // Under a language's prefix, its translation (else the original: 80c, 82g).
            let stored = translated(entityType, id, original)
            switch request.method {
            case "PATCH": return try update(entityType, id, stored, request, caller)
            case "DELETE":
                // Under a language's prefix too, the whole entity goes (85).
                try authorize(.delete, entityType, original, caller)
                removeEntity(entityType, id)
                return MockReply.empty(204)
            default:
                try authorize(.view, entityType, stored, caller)
                return MockReply.json(200, .object(restEntity(entityType, stored, caller, origin: request.origin)))
            }
        }
    }

    /// What a 405 lists on a canonical path, in Drupal's order (recording 180): the HTML page's
    /// GET and POST (node, comment, term and user have one), HEAD with GET, then REST's DELETE and PATCH.
    /// The recorded site's file resource has GET alone (site-config.yml, rest.resource.entity.file):
    /// a file entity is changed or deleted through JSON:API, not core REST.
    static func canonicalMethods(_ entityType: String) -> [String] {
        if entityType == "file" { return ["GET", "HEAD"] }
        return ["node", "comment", "taxonomy_term", "user"].contains(entityType)
            ? ["GET", "POST", "HEAD", "DELETE", "PATCH"] : ["GET", "HEAD", "DELETE", "PATCH"]
    }

    /// A GET of /node: the front page, a view's HTML page, is the only route there for GET (REST
    /// has none): no JSON or XML (as recordings 22 and 22b say of the POST). The mock renders no
    /// HTML pages (MockFormats).
    static func frontPage(_ request: MockRequest) -> HTTPResponse {
        guard let format = request.format, format != "html" else { return MockReply.notAcceptable("html") }
        return MockReply.noRouteForFormat(format, supported: "html")
    }

    /// /node is also the HTML front page, so a POST there without a JSON body matches that route
    /// alone, which has no such format: 406, not 415 (recordings 22, 22b).
    private func refuseNonJSONFrontPagePost(_ request: MockRequest) throws {
        guard request.segments == ["node"], let format = request.format,
              request.contentType != "application/json" else { return }
        throw MockAnswer(response: MockReply.noRouteForFormat(format, supported: "html"))
    }

    /// POST and PATCH need a JSON body (415 otherwise, before anything else is looked at).
    func requireJSONBody(_ request: MockRequest) throws {
        guard let contentType = request.headers["Content-Type"] else {
            throw MockReply.fail(415, "No \"Content-Type\" request header specified")
        }
        guard request.contentType == "application/json" else {
            throw MockReply.fail(415, "No route found that matches \"Content-Type: \(contentType)\"")
        }
    }

    /// The body as a JSON object: 400 for none or malformed JSON, as Drupal's serializer answers.
    func entityBody(_ request: MockRequest, orIfEmpty message: String = "No entity content received.") throws
        -> [String: JSONValue] {
        guard let body = request.body, !body.isEmpty else { throw MockReply.fail(400, message) }
        guard let json = JSONValue.parse(body) else { throw MockReply.fail(400, "Syntax error") }
        guard let object = json.objectValue else { throw MockReply.fail(400, "No entity content received.") }
        return object
    }

    /// The bundle named in a body, which Drupal requires on POST and PATCH for bundled types.
    private func requireBundle(_ entityType: String, _ body: [String: JSONValue]) throws -> String? {
        guard let key = MockEntityKind.bundleKey(entityType) else { return nil }
        guard let bundle = MockFields.firstValue(body[key]), !bundle.isEmpty else {
            throw MockReply.fail(422, "Could not determine entity type bundle: \"\(key)\" field is missing.")
        }
        if let known = bundles[entityType], !known.contains(bundle) {
            throw MockReply.fail(422, "\"\(bundle)\" is not a valid bundle type for denormalization.")
        }
        return bundle
    }

    /// The body's fields as Drupal's serializer reads them: the bundle apart (flat or not), then
    /// each field, in name order (Drupal names the first flat one of the body's order, which a
    /// parsed object does not keep). A field not in `known` fails as Drupal's uncaught exception.
    func denormalize(_ entityType: String, _ body: [String: JSONValue], known: Set<String>? = nil) throws
        -> [String: JSONValue] {
        var fields = body
        for (name, value) in body.sorted(by: { $0.key < $1.key }) where name != MockEntityKind.bundleKey(entityType) {
            if let known, !known.contains(name) { throw MockAnswer(response: MockReply.serverError) }
            fields[name] = try MockFields.denormalize(name, value)
        }
        return fields
    }

    private mutating func create(_ entityType: String, _ request: MockRequest, _ caller: MockCaller) throws
        -> HTTPResponse {
        let raw = try entityBody(request)
        let bundle = try requireBundle(entityType, raw)
        // Only POST's answer to an unknown field is recorded (23b), so PATCH takes any.
        let body = try denormalize(entityType, raw, known: knownFields(entityType, bundle))
        try authorize(.create, entityType, nil, caller)
        try authorizeFieldCreation(entityType, body, caller)
        // Only POST's answer to a missing reference is recorded (23e), so PATCH does not check them.
        try validate(entityType, body, references: true)
        // A uuid the site has already is the storage's duplicate key, which core REST does not
        // catch: a 500 (82e: no translation is made by POST either).
        if let uuid = MockFields.firstValue(body["uuid"]),
           (entities[entityType] ?? [:]).values.contains(where: { MockFields.firstValue($0["uuid"]) == uuid }) {
            throw MockAnswer(response: MockReply.serverError)
        }
        var (id, entity) = insertEntity(entityType, body, owner: caller.uid ?? "0")
        makeReferencedFilesPermanent(entity)
        if let path = try savePath(entityType, id, written: MockState.pathWritten(body, entity), update: false) {
            entity["path"] = path
        }
        let location = request.origin + MockState.canonicalPath(entityPaths, entityType, id)
        var answer = restEntity(entityType, entity, caller, origin: request.origin)
        if entityType == "taxonomy_term", answer["description"] == MockState.emptyTermDescription {
            answer["description"] = .array([])
        }
        return MockReply.json(201, .object(answer), headers: HTTPHeaders([("Location", location)]))
    }

    private mutating func update(_ entityType: String, _ id: String, _ stored: [String: JSONValue],
                                 _ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        let raw = try entityBody(request)
        _ = try requireBundle(entityType, raw)
        let body = try denormalize(entityType, raw)
        try authorize(.update, entityType, stored, caller)
        var entity = stored
        for (field, value) in body.sorted(by: { $0.key < $1.key }) where field != MockEntityKind.bundleKey(entityType) {
            let changed = MockFields.firstValue(value) != MockFields.firstValue(stored[field])
                || value.arrayValue?.count != stored[field]?.arrayValue?.count
            try authorizeFieldUpdate(entityType, field, changed: changed, caller)
            entity[field] = value
        }
        if entityType == "user" { try checkProtectedAccountFields(id, stored, body, caller) }
        try validate(entityType, entity)
        if entityType == "user" { entity = updateAccount(id, entity) }
        entity["changed"] = MockIdentifiers.timestampField(MockIdentifiers.now())
        storeTranslated(entityType, id, entity)
        if let path = try savePath(entityType, id, written: body["path"], update: true,
                                   langcode: editedLangcode(entityType, id)) {
            entity["path"] = path
        }
        if entityType == "comment" { refreshCommentStatistics(host: MockState.commentHost(entity)) }
        return MockReply.json(200, .object(restEntity(entityType, entity, caller, origin: request.origin)))
    }

    private func validate(_ entityType: String, _ entity: [String: JSONValue], references: Bool = false) throws {
        let missing = MockEntityKind.requiredFields(entityType).filter { MockFields.isEmpty(entity[$0]) }
        // A field's Count constraint comes before its items' (and the other fields' here).
        let lines = MockState.cardinalityViolations(entityType, entity).map(\.line)
            + missing.map { "\($0): This value should not be null." }
            + (references ? missingReferences(entityType, entity) : [])
        guard !lines.isEmpty else { return }
        throw MockReply.violations(lines)
    }

    static func canonicalPath(_ paths: [String: EntityPath], _ entityType: String, _ id: String) -> String {
        let template = (paths[entityType] ?? .generic(entityType)).canonical
        return template.replacingOccurrences(of: "{id}", with: PathSafety.percentEncode(id))
    }

    // MARK: Storage

    /// Stores a new entity with what Drupal fills in: id, uuid, langcode, timestamps, owner, status.
    /// Shared by POST and `MockDrupal.addEntity`, so seeded entities look like created ones.
    mutating func insertEntity(_ entityType: String, _ body: [String: JSONValue], owner: String)
        -> (id: String, entity: [String: JSONValue]) {
        var entity = Dictionary(uniqueKeysWithValues: body.map { ($0.key, MockFields.normalize($0.key, $0.value)) })
        let id = nextID(entityType)
        let now = MockIdentifiers.now()
        entity[MockEntityKind.idKey(entityType)] = MockFields.single(MockFields.number(id))
        if MockFields.isEmpty(entity["uuid"]) { entity["uuid"] = MockFields.single(.string(MockIdentifiers.uuid())) }
        if entity["langcode"] == nil { entity["langcode"] = MockFields.single(.string("en")) }
        if let key = MockEntityKind.bundleKey(entityType), let bundle = MockFields.firstValue(entity[key]) {
            var item: [String: JSONValue] = ["target_id": .string(bundle)]
            if let bundleType = MockEntityKind.bundleEntityType(entityType) { item["target_type"] = .string(bundleType) }
            entity[key] = .array([.object(item)])
        }
        if entity["status"] == nil { entity["status"] = MockFields.single(.bool(true)) }
        if MockEntityKind.hasOwner(entityType), entity["uid"] == nil { entity["uid"] = userReference(owner) }
        if entityType == "node" {
            entity["vid"] = MockFields.single(.number(Double(nextRevisionID("node"))))
            if entity["promote"] == nil {
                let bundle = MockFields.firstValue(entity["type"]) ?? ""
                entity["promote"] = MockFields.single(.bool(!MockState.unpromotedBundles.contains(bundle)))
            }
            if entity["sticky"] == nil { entity["sticky"] = MockFields.single(.bool(false)) }
        }
        // Terms have no `created` (recording 33).
        if entity["created"] == nil, entityType != "taxonomy_term" { entity["created"] = MockIdentifiers.timestampField(now) }
        entity["changed"] = MockIdentifiers.timestampField(now)
        if entityType == "node" { addNodeDefaults(&entity) }
        if entityType == "taxonomy_term" { addTermDefaults(&entity) }
        if entityType == "comment" { addCommentDefaults(&entity) }
        if isTranslatable(entityType, entity) { MockState.addSourceFields(&entity) }
        if entityType == "user" {
            addUserDefaults(&entity)
            entity = updateAccount(id, entity)
        }
        // The answer to the create is the entity as saved; what later reads find may differ.
        entities[entityType, default: [:]][id] = entityType == "node" ? MockState.withCommentStatistics(entity) : entity
        if entityType == "comment" { refreshCommentStatistics(host: MockState.commentHost(entity)) }
        return (id, entity)
    }

    /// Keeps the login table in step with a user entity; the password never stays in the entity.
    private mutating func updateAccount(_ uid: String, _ entity: [String: JSONValue]) -> [String: JSONValue] {
        var entity = entity
        var account = accounts[uid] ?? Account(uid: uid, name: "", password: "", roles: [])
        if let name = MockFields.firstValue(entity["name"]) { account.name = name }
        if let password = MockFields.firstValue(entity["pass"]) { account.password = password }
        account.isBlocked = MockFields.firstValue(entity["status"]) == "false"
        if let roles = entity["roles"]?.arrayValue {
            account.roles = roles.compactMap { item in
                (item["target_id"] ?? item["value"])?.stringValue
            }.filter { $0 != "authenticated" }
        }
        entity["pass"] = nil
        entity["roles"] = .array(account.roles.map { .object(["target_id": .string($0), "target_type": .string("user_role")]) })
        accounts[uid] = account
        return entity
    }

    /// Node bundles whose new nodes are not promoted to the front page: the standard profile's basic
    /// page (core.base_field_override.node.page.promote: default false); others have the base
    /// field's default, promoted (recording 20, an article).
    static let unpromotedBundles: Set<String> = ["page"]

    mutating func removeEntity(_ entityType: String, _ id: String) {
        let host = entityType == "comment" ? entities["comment"]?[id].flatMap(MockState.commentHost) : nil
        entities[entityType]?[id] = nil
        oldRevisions[entityType]?[id] = nil
        forgetTranslations(entityType, id)
        forgetPathAliases(entityType, id)
        if host != nil { refreshCommentStatistics(host: host) }
        guard entityType == "user" else { return }
        // A deleted account loses its sessions and tokens.
        accounts[id] = nil
        sessions = sessions.filter { $0.value.uid != id }
        bearerTokens = bearerTokens.filter { $0.value != id }
    }

    func userReference(_ uid: String) -> JSONValue {
        var item: [String: JSONValue] = ["target_id": MockFields.number(uid), "target_type": .string("user")]
        if let uuid = MockFields.firstValue(entities["user"]?[uid]?["uuid"]) {
            item["target_uuid"] = .string(uuid)
            item["url"] = .string("/user/\(uid)")
        }
        return .array([.object(item)])
    }
}
