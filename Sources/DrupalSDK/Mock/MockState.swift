import FoundationEssentials

/// Everything the in-memory site holds. Lives behind MockDrupal's mutex; handlers run on it whole,
/// so each request is atomic like a PHP request against one database.
struct MockState {
    struct Account {
        var uid: String
        var name: String
        var password: String
        /// Role machine names without "authenticated", which every account has.
        var roles: [String]
        /// Status false: blocked, or registered and awaiting approval.
        var isBlocked = false
        var isAdmin: Bool { roles.contains("administrator") }
    }

    struct Session {
        var uid: String
        var csrfToken: String
        var logoutToken: String
    }

    struct View {
        var entityType: String
        var bundle: String?
        var itemsPerPage: Int
    }

    struct Stub {
        var method: String
        var path: String
        /// Query items the request must carry (all of them; others may be there too).
        var query: [(String, String)]
        /// Given in order; the last one answers every later request.
        var answers: [MockStubAnswer]
        var served = 0

        func matches(_ request: MockRequest) -> Bool {
            method == request.method && path == request.path
                && query.allSatisfy { item in request.query.contains { $0 == item } }
        }

        mutating func next() -> MockStubAnswer {
            defer { served += 1 }
            return answers[min(served, answers.count - 1)]
        }
    }

    /// The requests the site received, oldest first (the last `MockState.recordLimit`).
    var received = RecentRequests(limit: MockState.recordLimit)
    static let recordLimit = 1000

    let entityPaths: [String: EntityPath]
    /// `SESS` + 32 hex, fixed per site like Drupal's hash of host and base path.
    let cookieName = "SESS" + MockIdentifiers.hex(32)
    var accounts: [String: Account] = [:]
    /// Entity JSON objects (REST normalization) per entity type, then per id.
    var entities: [String: [String: [String: JSONValue]]] = [:]
    var lastIDs: [String: Int] = [:]
    /// Revision ids: one sequence per entity type, for new entities and new revisions alike.
    var lastRevisionIDs: [String: Int] = [:]
    /// Known bundles of bundled types; types not listed accept any bundle.
    var bundles: [String: Set<String>] = [:]
    /// The fields bundles declare (besides their type's base fields), per type, then per bundle.
    var bundleFields: [String: [String: Set<String>]] = [:]
    var sessions: [String: Session] = [:]
    var bearerTokens: [String: String] = [:]
    /// simple_oauth: consumers, tokens and codes (MockOAuthTokens, MockOAuthEndpoints).
    var oauth = MockOAuthTokens()
    var views: [String: View] = [:]
    /// Uploaded files' bytes by their URL path, decoded ("/sites/default/files/2024-05/a.png").
    var fileContents: [String: Data] = [:]
    var stubs: [Stub] = []
    var requestCount = 0
    /// Path aliases by id (MockPathAliases), and the last id given.
    var pathAliases: [Int: PathAlias] = [:]
    var lastPathAliasID = 0
    /// Old revisions JSON:API can read (`resourceVersion=id:N`): entity type, id, revision id.
    var oldRevisions: [String: [String: [String: [String: JSONValue]]]] = [:]
    /// Languages other than the default by their URL prefix ("fr" -> "fr"), translations per entity
    /// type, id and langcode (the translatable fields only), and the bundles with translation on
    /// by resource type name (MockLanguages).
    var languagePrefixes: [String: String] = [:]
    var translations: [String: [String: [String: [String: JSONValue]]]] = [:]
    var translatableBundles: Set<String> = []
    /// The language the request being answered was negotiated in (its prefix); nil: the default.
    var contentLanguage: String?
    /// The anonymous user's UUID: Drupal gives uid 0 one; JSON:API lists it with the users (171b).
    let anonymousUUID = MockIdentifiers.uuid()

    init(entityPaths: [String: EntityPath]) {
        self.entityPaths = entityPaths
    }

    mutating func nextID(_ entityType: String) -> String {
        let id = (lastIDs[entityType] ?? 0) + 1
        lastIDs[entityType] = id
        return String(id)
    }

    mutating func nextRevisionID(_ entityType: String) -> Int {
        let id = (lastRevisionIDs[entityType] ?? 0) + 1
        lastRevisionIDs[entityType] = id
        return id
    }

    func account(named name: String) -> Account? {
        accounts.values.first { $0.name == name }
    }
}
