import FoundationEssentials
import Synchronization

/// What a stub answers: a response, or a failure of the transport (the request never got an
/// answer: `.network`, `.timeout`, ...).
public enum MockStubAnswer: Sendable {
    case response(HTTPResponse)
    case failure(DrupalError)

    /// A failure as the transport would report it: `.network` as a lost connection (which an
    /// idempotent request may retry), `.timeout`, `.tls`...
    public static func transportFailure(_ code: DrupalError.Code) -> MockStubAnswer {
        var error = DrupalError(code, "a stubbed \(code) failure")
        if code == .network { error.connectionFailure = .lost }
        return .failure(error)
    }
}

/// An in-memory Drupal 10/11 site: a server behind a `Transport`, answering `HTTPRequest`s with the
/// status codes, headers and `{"message": ...}` bodies a real site sends (drupal-http-api.md and the
/// recordings). A client built with `DrupalClient.mock(site)` runs the live protocol code
/// (cookies, CSRF fetch and retry, error mapping, events, middleware) against it, with no network
/// (async calls are answered on one thread of the client's). Each site has its own state; tests
/// can seed it and inspect it.
///
/// Seeded by default: users `admin`/`admin` (uid 1, administrator) and `editor`/`editor` (uid 2,
/// content_editor); node bundles `article` and `page`; the `tags` vocabulary; comment type
/// `comment`; and the view `/api/articles` over published articles, 2 per page.
///
/// Set up as the recorded site: visitors register at /user/register (without a password, as
/// e-mail is verified) and the account stays blocked until an administrator sets its `status`;
/// blocked accounts cannot log in; /user/password answers 200 whether or not the account exists.
/// Uploaded files are kept and served at their URL (`/sites/default/files/<YYYY-MM>/<name>`), to anyone.
/// JSON:API (`/jsonapi/{entity_type}/{bundle}[/{uuid}]`: reads, queries, includes, writes; the entry
/// point `/jsonapi`; related and relationship routes, with relationship writes; `resourceVersion` reads;
/// the anonymous user among the users) serves the same entities as the REST routes, as
/// drupal10-jsonapi-transcripts records it, file uploads to a file field included; stubs answer before both.
/// Path aliases (a node's or term's `path`) route as their entity's path, and the contrib
/// decoupled_router's `/router/translate-path` (`resolvePath`) resolves paths and aliases.
/// simple_oauth comes with the first `addOAuthConsumer`: its token and authorize endpoints, and
/// Bearer tokens checked. English alone until `addLanguage` adds one at its URL prefix, and
/// `addTranslation` translates an entity (what `inLanguage` clients read and write).
public final class MockDrupal: Sendable {
    private let state: Mutex<MockState>

    /// - Parameters:
    ///   - entityPaths: the REST paths per entity type; pass the client's table when it has custom types.
    ///   - seeded: false starts from an empty site (no users, bundles or views).
    public init(entityPaths: [String: EntityPath] = EntityPath.core, seeded: Bool = true) {
        state = Mutex(MockState(entityPaths: entityPaths))
        guard seeded else { return }
        _ = addUser(name: "admin", password: "admin", roles: ["administrator"])
        _ = addUser(name: "editor", password: "editor", roles: ["content_editor"])
        addBundle("node", "article", fields: ["body", "comment", "field_image", "field_tags"])
        // The standard profile's basic page has a body too (field.field.node.page.body).
        addBundle("node", "page", fields: ["body"])
        addBundle("taxonomy_term", "tags")
        addBundle("comment", "comment")
        addView(path: "/api/articles", entityType: "node", bundle: "article", itemsPerPage: 2)
    }

    /// The transport a client uses to reach this site. Answers in memory: a blocking call runs
    /// entirely on the caller's thread, async calls are answered on one thread of the client's
    /// (`MockAnswerer`), as a live client's are on its curl thread.
    public var transport: Transport {
        let answerer = MockAnswerer()
        return Transport(send: { [self] request in try outcome(of: request).get() },
                         runBlocking: { register, work in CallerThreadExecutor.run(register: register, work) },
                         shutdown: { answerer.stop() },
                         start: { [self] request, completion in
                             answerer.submit { [self] cancelled in
                                 completion(cancelled ? .failure(DrupalError.cancelled())
                                                      : outcome(of: request).mapError { $0 })
                             }
                         })
    }

    /// Answers one request as the site would (a stub that fails answers status 0 here; through
    /// the transport it is the failure). Every request counts towards `requestCount`.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        (try? outcome(of: request).get()) ?? HTTPResponse(status: 0)
    }

    func outcome(of request: HTTPRequest) -> Result<HTTPResponse, DrupalError> {
        state.withLock { $0.outcome(of: request) }
    }

    /// How many requests the site has answered (stubbed ones included).
    public var requestCount: Int { state.withLock { $0.requestCount } }

    /// The requests the site received, oldest first (the last 1,000), as the client sent them:
    /// method, absolute URL, headers (credentials included: it is your test's own site), body.
    public var receivedRequests: [HTTPRequest] { state.withLock { $0.received.all } }

    public func clearReceivedRequests() { state.withLock { $0.received.removeAll() } }

    // MARK: Seeding

    /// Adds an account that can log in (and use Basic auth); returns its uid. "authenticated" is
    /// implied; "administrator" may do everything and sees its roles in the login answer. Other
    /// accounts may do what the seeded editor may: create content, edit their own nodes, comments
    /// and account (not its roles or status; a new password or mail needs `pass[0].existing`), read
    /// published content and their own drafts, delete their own nodes.
    @discardableResult
    public func addUser(name: String, password: String, roles: [String] = []) -> String {
        let body: [String: JSONValue] = [
            "name": MockFields.single(.string(name)),
            "pass": MockFields.single(.string(password)),
            "mail": MockFields.single(.string("\(name)@drupal.mock")),
            "roles": .array(roles.map { .object(["target_id": .string($0)]) }),
        ]
        return state.withLock { $0.insertEntity("user", body, owner: "1").id }
    }

    /// Stores an entity as if created over REST (id, uuid, timestamps, owner uid 1 filled in) but
    /// without access checks or validation; returns its id. `body` is a JSON object of fields, where
    /// bare values (`"title": "x"`) are taken as one item (REST writes refuse them with 422).
    @discardableResult
    public func addEntity(_ entityType: String, _ body: JSONValue) -> String {
        state.withLock { state in
            let fields = body.objectValue ?? [:]
            let (id, entity) = state.insertEntity(entityType, fields, owner: "1")
            // A path given makes its alias, as a save does (MockPathAliases).
            _ = try? state.savePath(entityType, id, written: MockState.pathWritten(fields, entity), update: false)
            return id
        }
    }

    /// The stored entity JSON, as GET would answer it to an administrator; nil when absent.
    public func entity(_ entityType: String, _ id: String) -> JSONValue? {
        state.withLock { state in state.entities[entityType]?[id].map(JSONValue.object) }
    }

    /// Declares a bundle; once a type has any, POST and PATCH refuse the others with 422.
    /// `fields` are added to the bundle's own fields (base fields come with the type): once a node
    /// bundle has some, a POST naming a field it does not have gets Drupal's 500 (recording 23b).
    /// The seeded article has body, comment, field_image and field_tags; the seeded page, body.
    public func addBundle(_ entityType: String, _ bundle: String, fields: [String] = []) {
        state.withLock { state in
            state.bundles[entityType, default: []].insert(bundle)
            state.bundleFields[entityType, default: [:]][bundle, default: []].formUnion(fields)
        }
    }

    /// Adds a REST export view at `path` (e.g. "/api/articles") listing published entities of the
    /// type (and bundle) by id, `itemsPerPage` a page, with an exposed "contains" filter on the label.
    public func addView(path: String, entityType: String, bundle: String? = nil, itemsPerPage: Int = 10) {
        let path = path.hasPrefix("/") ? path : "/" + path
        state.withLock { $0.views[path] = MockState.View(entityType: entityType, bundle: bundle,
                                                         itemsPerPage: max(1, itemsPerPage)) }
    }

    /// Adds a language (the language module), negotiated by its URL prefix (`prefix`, the langcode
    /// by default): a request under "/fr" is answered in French (`Content-Language: fr`), showing
    /// each entity's French translation, or the original when it has none, and JSON:API's links
    /// keep the prefix. English stays the default, without a prefix. What a client's `inLanguage`
    /// reaches; see `addTranslation` for what writes under a prefix do. Throws `.invalidArgument`
    /// for a langcode or prefix that is not a path segment of letters, digits, "-" and "_", or
    /// for "en".
    public func addLanguage(_ langcode: String, prefix: String? = nil) throws {
        guard let langcode = try LanguagePrefix.validate(langcode), langcode != MockState.defaultLangcode,
              let prefix = try LanguagePrefix.validate(prefix ?? langcode) else {
            throw DrupalError.invalidArgument("the language must be other than \"en\", the default, and not empty")
        }
        state.withLock { state in
            state.languagePrefixes = state.languagePrefixes.filter { $0.value != langcode }
            state.languagePrefixes[prefix] = langcode
        }
    }

    /// Adds (or replaces) the `language` translation of a stored entity (content_translation),
    /// which turns translation on for its bundle: the bundle's entities show
    /// content_translation_source and content_translation_outdated. The translation starts as a
    /// copy of the original's translatable fields (title, body, status, ...) with `fields` over
    /// them (bare values taken as one item, as `addEntity` does; a `path` with an alias makes the
    /// alias in that language); shared fields (ids, references such as field_tags) stay the original's. As Drupal answers (recordings 80-85):
    /// - core REST under the prefix: PATCH edits this translation; on an entity without one it
    ///   edits the original (so a `langcode` sent changes the original's language); POST makes a
    ///   new entity; DELETE deletes the whole entity, every translation with it;
    /// - JSON:API under the prefix: PATCH edits this translation, but is a 405 on an entity
    ///   without one (JSON:API does not create translations), and DELETE is a 405.
    /// Throws `.invalidArgument` for a language not added (`addLanguage`), `.notFound` for an
    /// entity that is not stored.
    public func addTranslation(_ entityType: String, _ id: String, language: String, _ fields: JSONValue) throws {
        try state.withLock { state in
            guard state.languagePrefixes.values.contains(language) else {
                throw DrupalError.invalidArgument("the site has no language \"\(language)\": add it with addLanguage")
            }
            guard state.entities[entityType]?[id] != nil else {
                throw DrupalError(.notFound, "the site has no \(entityType) \(id)")
            }
            state.addTranslation(entityType, id, language, fields.objectValue ?? [:])
        }
    }

    /// Adds a consumer of simple_oauth, which the site then has: `/oauth/token` answers its grants
    /// (tokens live 300 s; refresh tokens rotate, the old pair revoked), `/oauth/authorize`
    /// approves a logged-in person's code request at once (a first-party consumer), and a Bearer
    /// token the site did not issue, or that expired, is a 401 on any path (tokens of
    /// `addBearerToken` stay valid). Scopes are not checked.
    public func addOAuthConsumer(_ consumer: MockOAuthConsumer) {
        state.withLock { $0.oauth.consumers[consumer.clientID] = consumer }
    }

    /// Every access token issued so far expires now (refresh tokens and codes stay valid): what
    /// waiting out their lifetime gives, without the wait.
    public func expireOAuthTokens() {
        state.withLock { $0.oauth.expireAll() }
    }

    /// Makes `Authorization: Bearer <token>` authenticate as the user `uid`.
    public func addBearerToken(_ token: String, uid: String) {
        state.withLock { $0.bearerTokens[token] = uid }
    }

    // MARK: Control

    /// Answers `method` on `path` (compared without the query string, e.g. "/node/1") with this
    /// response, before anything else. The latest stub for a method and path wins.
    public func stub(method: String, path: String, status: Int, headers: HTTPHeaders = HTTPHeaders(),
                     body: Data = Data()) {
        stub(method: method, path: path, answers: [.response(HTTPResponse(status: status, headers: headers, body: body))])
    }

    /// A stub with everything: `query` items the request must carry (others may come too), and
    /// `answers` given in order, the last one to every later request; an answer may be a failure
    /// (`DrupalError(.network, ...)`, `.timeout`) the transport reports instead of a response.
    public func stub(method: String, path: String, query: [(String, String)] = [], answers: [MockStubAnswer]) {
        guard !answers.isEmpty else { return }
        let path = path.hasPrefix("/") ? path : "/" + path
        let stub = MockState.Stub(method: method.uppercased(), path: path, query: query, answers: answers)
        state.withLock { $0.stubs.append(stub) }
    }

    /// A stub with a JSON body and `Content-Type: application/json`.
    public func stub(method: String, path: String, status: Int, json: JSONValue) {
        stub(method: method, path: path, status: status,
             headers: HTTPHeaders([("Content-Type", "application/json")]), body: json.encoded())
    }

    public func removeStubs() {
        state.withLock { $0.stubs.removeAll() }
    }

    /// Gives every session a new CSRF token, as a token that went stale would: the next unsafe
    /// request with the old one gets 403 "X-CSRF-Token request header is invalid".
    public func invalidateCSRFTokens() {
        state.withLock { state in
            for id in state.sessions.keys { state.sessions[id]?.csrfToken = MockIdentifiers.token() }
        }
    }
}
