import FoundationEssentials

/// How the client proves who it is.
public enum Authentication: Sendable, Equatable {
    /// Anonymous (a session cookie, if one is held, is still sent).
    case none
    /// The session cookie set by `login`, with X-CSRF-Token on unsafe requests.
    case cookie
    /// HTTP Basic on every request (basic_auth module).
    case basic(user: String, password: String)
    /// `Authorization: Bearer` on every request (e.g. simple_oauth), a token you manage yourself.
    case bearer(token: String)
    /// OAuth 2 tokens from the site's token endpoint (simple_oauth), fetched, refreshed and
    /// rotated by the client (see `OAuthSettings`), sent as `Authorization: Bearer`.
    case oauth(OAuthSettings)
    /// Bearer tokens from your own provider, kept fresh by the client as `.oauth`'s are.
    case tokenProvider(TokenProvider)

    /// The Authorization header value of the modes whose credentials are fixed (OAuth's
    /// changes with its token: see `LiveSession+OAuth`).
    var authorizationHeader: String? {
        switch self {
        case .none, .cookie, .oauth, .tokenProvider: return nil
        case .basic(let user, let password):
            return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        case .bearer(let token): return "Bearer \(token)"
        }
    }

    /// Whether the client gets and refreshes the Bearer token itself.
    var managesTokens: Bool {
        switch self {
        case .oauth, .tokenProvider: return true
        default: return false
        }
    }

    /// Rejects credentials that could not travel safely in a header.
    func validate() throws {
        switch self {
        case .none, .cookie, .tokenProvider: return
        case .oauth(let settings): try settings.validate()
        case .basic(let user, let password):
            if user.isEmpty { throw DrupalError.invalidArgument("the Basic auth user name is empty") }
            // On the bytes, as the server splits: ":" + a combining mark is no Character of its own.
            if user.utf8.contains(UInt8(ascii: ":")) { throw DrupalError.invalidArgument("a Basic auth user name cannot contain ':'") }
            if (user + password).utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                throw DrupalError.invalidArgument("Basic auth credentials contain CR, LF or NUL")
            }
        case .bearer(let token):
            if token.isEmpty { throw DrupalError.invalidArgument("the bearer token is empty") }
            if !HeaderSafety.isPlainToken(token) {
                throw DrupalError.invalidArgument("the bearer token contains spaces or control characters")
            }
            // Refused here, not at every request it would be sent with.
            if token.utf8.count > RequestLimits.maxTokenBytes {
                throw DrupalError.invalidArgument("the bearer token is \(token.utf8.count) bytes, over the limit of "
                                                  + "\(RequestLimits.maxTokenBytes)")
            }
        }
    }
}

/// The account a login returned.
public struct CurrentUser: Sendable, Equatable {
    /// The user id exactly as Drupal sent it (a string on Drupal 10/11).
    public var uid: String
    public var name: String
    /// Present only for users who may see their roles (administrators).
    public var roles: [String]?

    public init(uid: String, name: String, roles: [String]? = nil) {
        self.uid = uid
        self.name = name
        self.roles = roles
    }
}

/// What `loginStatus` returns: whether the session cookie is logged in, and Drupal's answer.
public struct LoginStatus: Sendable {
    public var loggedIn: Bool
    /// Drupal's answer as received (`text/plain` "1" or "0").
    public var response: DrupalResponse

    public init(loggedIn: Bool, response: DrupalResponse) {
        self.loggedIn = loggedIn
        self.response = response
    }

    /// Drupal's answer: text "1" or "0" (anything else is a `.decode` error).
    public static func interpret(_ response: DrupalResponse) throws -> Bool {
        switch response.text.trimmedWhitespace {
        case "1": return true
        case "0": return false
        default:
            throw DrupalError(.decode, "/user/login_status answered neither 0 nor 1", status: response.status,
                              headers: response.headers, body: response.body)
        }
    }
}

/// What `login` returns.
public struct LoginResult: Sendable {
    public var user: CurrentUser
    public var csrfToken: String
    public var logoutToken: String
    /// Drupal's answer as received.
    public var response: DrupalResponse

    public init(user: CurrentUser, csrfToken: String, logoutToken: String, response: DrupalResponse) {
        self.user = user
        self.csrfToken = csrfToken
        self.logoutToken = logoutToken
        self.response = response
    }

    /// Reads Drupal's login answer: {current_user: {uid, name, roles?}, csrf_token, logout_token}.
    static func decode(_ response: DrupalResponse) throws -> LoginResult {
        let body = response.body
        guard let json = JSONValue.parse(body), let user = json["current_user"],
              let uid = user["uid"]?.idString, let csrf = json["csrf_token"]?.stringValue,
              let logout = json["logout_token"]?.stringValue
        else {
            throw DrupalError(.decode, "the login answer is not the JSON Drupal sends "
                              + "({current_user, csrf_token, logout_token})", body: body)
        }
        // Both go back to the site as they are (a header, a query value): a server's CR or LF in
        // the CSRF token would smuggle headers into every later write, and control bytes must
        // fail here, as its answer, not later as the caller's bad input.
        for (name, token) in [("csrf_token", csrf), ("logout_token", logout)] where !HeaderSafety.isPlainToken(token) {
            throw DrupalError(.decode, "the login answer's \(name) is not a token Drupal makes "
                              + "(empty, or not printable ASCII)", body: body)
        }
        let roles = user["roles"]?.arrayValue?.compactMap(\.stringValue)
        return LoginResult(user: CurrentUser(uid: uid, name: user["name"]?.stringValue ?? "", roles: roles),
                           csrfToken: csrf, logoutToken: logout, response: response)
    }
}
