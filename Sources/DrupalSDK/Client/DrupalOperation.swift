import FoundationEssentials

/// Everything a client can be asked to do, as a value: what `DrupalClient.start` and `.run` take.
/// Swift's async methods (`client.get(...)`), the C API and the Python binding all come here, so a
/// live, mock, unimplemented or hand-built client behaves the same from every language.
public enum DrupalOperation: Sendable {
    /// POST /user/login; the response is Drupal's answer ({current_user, csrf_token, logout_token}).
    case login(name: String, password: String)
    /// POST /user/logout with the session's logout token.
    case logout
    /// GET /user/login_status with the session cookie alone; the body is "1" or "0".
    case loginStatus
    /// GET /session/token (always fetched); the body is the token.
    case refreshCSRFToken
    case get(entityType: String, id: String)
    case create(entityType: String, body: JSONBody)
    case update(entityType: String, id: String, body: JSONBody)
    case delete(entityType: String, id: String)
    /// One page of a Views REST export.
    case view(path: String, query: [(String, String)])
    case uploadFile(FileUpload)
    case request(DrupalRequest)
    /// A JSON:API read or write (`/jsonapi/...`).
    case jsonAPI(JSONAPICall)
    /// The next page of a pager: its response, or nil once the pages have ended.
    case nextPage(DrupalPager)
    /// Fetches an OAuth access token now (from the token endpoint, or the token provider), as
    /// after a refusal: bad credentials show at once. The answer (200, JSON) says what was
    /// obtained, never the token: `{"token_type", "has_refresh_token", "refresh_in"}`.
    case oauthAuthenticate
    /// The operation in a language: its paths under the language's prefix ("/fr/node/1",
    /// "/fr/jsonapi/..."; not the session and token endpoints, not file downloads). The prefix is
    /// the language's URL path prefix, usually its langcode; "" is the default language (no
    /// prefix), and the innermost language of nested ones wins. Reads of an entity with no such
    /// translation answer the original (see `HTTPResponse.langcode`). Two traps of core REST are
    /// guarded unless `force` is given: an update of an entity that has no translation in this
    /// language (Drupal would change the ORIGINAL, and a `langcode` in the body would change its
    /// language) is refused after one GET that shows it, and a delete is refused (it would delete
    /// the whole entity, every translation). A create makes a new entity in the default language.
    indirect case inLanguage(String, DrupalOperation, force: Bool = false)
    /// POST /user/register?_format=json (core REST's user_registration resource, anonymous
    /// only): Drupal answers 200 (not 201) with the new account as anonymous may see it (no mail,
    /// no roles); 422 with one violation per field (name or mail taken), or "A Password cannot be
    /// specified..." on sites that verify e-mail addresses; 403 for a logged-in caller.
    case register(Registration)
    /// POST /user/password?_format=json: sends a password reset e-mail to the account with this
    /// name or e-mail address. Drupal answers 200 with an empty body whether or not the account
    /// exists (no account enumeration); 400 only without either.
    case resetPassword(name: String?, mail: String?)
    /// GET /router/translate-path?path=...&_format=json (contrib decoupled_router): what a path or
    /// alias is (entity type, bundle, id, uuid, label, JSON:API URL; see `ResolvedPath`); 404 with
    /// Drupal's "Unable to resolve path ..." when nothing matches.
    case resolvePath(String)
    /// Fetches a file's content (see `FileDownload`) into a file or a sink, streamed, with
    /// progress and the client's response size cap (`.tooLarge`); never under a language prefix.
    /// The response is the content's answer (status, headers) with an empty body.
    case download(FileDownload)

    /// The operation's name, as errors and unimplemented clients give it.
    public var name: String {
        switch self {
        case .login: return "login"
        case .logout: return "logout"
        case .loginStatus: return "loginStatus"
        case .refreshCSRFToken: return "refreshCSRFToken"
        case .get: return "get"
        case .create: return "create"
        case .update: return "update"
        case .delete: return "delete"
        case .view: return "view"
        case .uploadFile: return "uploadFile"
        case .request: return "request"
        case .jsonAPI: return "jsonAPI"
        case .nextPage: return "nextPage"
        case .oauthAuthenticate: return "oauthAuthenticate"
        case .inLanguage(_, let operation, _): return operation.name
        case .register: return "register"
        case .resetPassword: return "resetPassword"
        case .resolvePath: return "resolvePath"
        case .download: return "download"
        }
    }
}

/// An entity body: JSON text, checked once when made (a typo is refused before anything is sent,
/// not answered by Drupal's 400 or 500).
public struct JSONBody: Sendable {
    public let data: Data

    /// Throws `.invalidArgument` unless `data` is JSON.
    public init(_ data: Data) throws {
        guard JSONValue.parse(data) != nil else {
            throw DrupalError.invalidArgument("the entity body is not valid JSON (\(data.count) bytes)")
        }
        self.data = data
    }

    /// For bodies that were just serialised by a JSON encoder (a Jansson `json_t`, `Encodable`):
    /// not parsed again.
    public init(encoded data: Data) { self.data = data }
}
