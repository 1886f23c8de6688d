import FoundationEssentials
import Synchronization

/// OAuth 2 through Drupal's contrib simple_oauth module (6.x; the password grant comes from
/// simple_oauth_password_grant): what `Authentication.oauth` needs to get access tokens from the
/// site's token endpoint and keep them fresh. The client holds one token state (access token,
/// expiry, refresh token), refreshes before expiry and once on a 401 that refuses the token,
/// and never logs, emits or quotes a token or secret.
public struct OAuthSettings: Sendable, Equatable {
    /// How the client gets its first token (and a new one when a refresh is impossible).
    public enum Grant: Sendable, Equatable {
        /// `grant_type=client_credentials`: the consumer acts as its default user. Drupal gives no
        /// refresh token: a new token is fetched the same way when one expires.
        case clientCredentials
        /// `grant_type=password` (simple_oauth_password_grant): a user's name (or e-mail) and
        /// password. Drupal gives a refresh token; if a refresh is refused (revoked, expired), the
        /// password grant is used once more.
        case password(username: String, password: String)
        /// Start from a refresh token obtained elsewhere (`grant_type=refresh_token`); Drupal
        /// rotates it on every refresh, so the client keeps the newest.
        case refreshToken(String)
        /// `grant_type=authorization_code` (RFC 6749 §4.1, with PKCE: RFC 7636): the code the site
        /// sent to `redirectURI` once a person approved the request of an `OAuthAuthorization`,
        /// with its code verifier. Exchanged once; the refresh token Drupal gives with it keeps the
        /// session going. A code cannot be used twice: once it is spent and no refresh token is
        /// left (none given, or refused), calls fail with an authentication error until the
        /// client is given a new authorization.
        // Indirect: boxed, so that a Grant (and every Authentication) stays the size it was.
        indirect case authorizationCode(code: String, redirectURI: String, codeVerifier: String?)

        var isAuthorizationCode: Bool {
            if case .authorizationCode = self { return true }
            return false
        }
    }

    /// Where the client id and secret travel: form parameters (default) or an HTTP Basic header
    /// (RFC 6749 2.3.1; simple_oauth accepts both). In the header they go as they are, not
    /// form-encoded first: simple_oauth reads them so.
    public enum ClientAuthentication: Sendable, Equatable {
        case body
        case basicHeader
    }

    public var clientID: String
    /// Nil for a public consumer (no secret).
    public var clientSecret: String?
    public var grant: Grant
    /// Space-separated scopes to ask for; nil for the consumer's default.
    public var scope: String?
    /// The token endpoint, under the base URL (never under a language prefix).
    public var tokenPath = "/oauth/token"
    public var clientAuthentication = ClientAuthentication.body
    /// Seconds before the expiry the token is refreshed (at most half its lifetime, so a short-lived
    /// token is not refreshed on every request). 0 refreshes only on expiry or a 401.
    public var refreshMargin: Double = 30

    public init(clientID: String, clientSecret: String? = nil, grant: Grant, scope: String? = nil) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.grant = grant
        self.scope = scope
    }

    /// One setting that must travel in a form or header: not empty (unless `empty`), no control
    /// characters. The message names it, never quotes it (it may be a secret).
    static func check(_ value: String, _ what: String, empty: Bool = false) throws {
        if !empty && value.isEmpty { throw DrupalError.invalidArgument("the OAuth \(what) is empty") }
        if value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw DrupalError.invalidArgument("the OAuth \(what) contains control characters (CR, LF, NUL...)")
        }
    }

    /// Refuses settings that could not travel safely (the messages never quote a secret); a
    /// client checks them when it is given them.
    public func validate() throws {
        try Self.check(clientID, "client id")
        if let clientSecret { try Self.check(clientSecret, "client secret", empty: true) }
        if clientAuthentication == .basicHeader && clientID.utf8.contains(UInt8(ascii: ":")) {
            throw DrupalError.invalidArgument("an OAuth client id sent in a Basic header cannot contain ':'")
        }
        switch grant {
        case .clientCredentials: break
        case .password(let username, let password):
            try Self.check(username, "user name")
            try Self.check(password, "password", empty: true)
        case .refreshToken(let token): try Self.check(token, "refresh token")
        case .authorizationCode(let code, let redirectURI, let codeVerifier):
            try Self.check(code, "authorization code")
            try Self.check(redirectURI, "redirect URI")
            if let codeVerifier { try OAuthAuthorization.checkCodeVerifier(codeVerifier) }
        }
        if let scope { try Self.check(scope, "scope", empty: true) }
        _ = try PathSafety.normalizePath(tokenPath)
        // Any length: a refresh comes at half the token's lifetime at the latest (store()).
        guard refreshMargin >= 0 else {
            throw DrupalError.invalidArgument("the OAuth refresh margin must be 0 or more seconds")
        }
    }
}

/// An access token, as a token endpoint or a token provider gives it.
public struct AccessToken: Sendable, Equatable {
    /// What goes after "Bearer " (letters, digits and `-._~+/=`: no spaces or control characters).
    public var value: String
    /// Seconds it stays valid from now; nil when unknown (then it is replaced only after a 401).
    public var expiresIn: Double?
    /// The longest lifetime the client counts with (ten years); a longer one is taken as this.
    public static let longestLifetime: Double = 10 * 365 * 86_400
    /// A refresh token to get the next one with, if the site gave one.
    public var refreshToken: String?

    public init(_ value: String, expiresIn: Double? = nil, refreshToken: String? = nil) {
        self.value = value
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
    }

    /// Throws `.invalidArgument` for a token that cannot be sent in a header (never quoting it).
    public func validate() throws {
        try Authentication.bearer(token: value).validate()
        if let expiresIn, !(expiresIn.isFinite && expiresIn >= 0) {
            throw DrupalError.invalidArgument("the token's lifetime is not a number of seconds from 0")
        }
    }
}

/// Tokens minted some other way (a secrets manager, another identity provider): the client calls
/// `fetch` when it needs a token, with the same single flight, early refresh and one retry on a 401
/// as for the token endpoint. `fetch` may run on any thread of the client, at most once at a time
/// per client, in a task of its own: a call waiting for the token gives up at its timeout or when
/// cancelled, while `fetch` runs on to its end (it is not cancelled), and the token it gives is
/// kept for the calls after. What it throws fails the requests waiting for the token.
public final class TokenProvider: Sendable, Equatable {
    /// Why a token is asked for.
    public enum Reason: Int32, Sendable {
        /// The client holds none yet.
        case initial = 1
        /// The held one expires within the refresh margin.
        case expiring = 2
        /// The site refused the held one (a 401 with a Bearer challenge), or `authenticate` was asked.
        case rejected = 3
    }

    public let fetch: @Sendable (Reason) async throws -> AccessToken
    /// Told of each run of `fetch` before it starts, synchronously, in the call that needs the
    /// token; what it returns is called once the run has ended. The run may outlive that call:
    /// the C API uses this so that drupal_client_free waits for a C provider still running.
    public let runStarts: (@Sendable () -> @Sendable () -> Void)?

    public init(runStarts: (@Sendable () -> @Sendable () -> Void)? = nil,
                _ fetch: @escaping @Sendable (Reason) async throws -> AccessToken) {
        self.fetch = fetch
        self.runStarts = runStarts
    }

    public static func == (lhs: TokenProvider, rhs: TokenProvider) -> Bool { lhs === rhs }
}

/// What an OAuth 2 failure says: a token endpoint's error document (`{"error", "error_description",
/// "hint"}`, league/oauth2-server's) or the `WWW-Authenticate: Bearer` challenge of a refused
/// token (`error`, `error_description`, `realm`).
public struct OAuthError: Sendable, Equatable {
    /// "invalid_client", "invalid_grant", "unsupported_grant_type", "invalid_scope",
    /// "invalid_request"; "access_denied" in a Bearer challenge.
    public var error: String
    public var errorDescription: String?
    public var hint: String?
    /// The challenge's realm ("OAuth"); nil for token documents.
    public var realm: String?

    public init(error: String, errorDescription: String? = nil, hint: String? = nil, realm: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
        self.hint = hint
        self.realm = realm
    }

    /// A member by its wire name: "error", "error_description", "hint" or "realm".
    public func member(_ name: String) -> String? {
        switch name {
        case "error": return error
        case "error_description": return errorDescription
        case "hint": return hint
        case "realm": return realm
        default: return nil
        }
    }

    /// One line for humans: "invalid_grant: The refresh token is invalid. (Token has been revoked)".
    var summary: String {
        var text = error
        if let errorDescription, !errorDescription.isEmpty { text += ": " + errorDescription }
        if let hint, !hint.isEmpty { text += " (" + hint + ")" }
        return text
    }

    /// A token endpoint's error document, if the body is one.
    static func document(_ json: JSONValue) -> OAuthError? {
        guard let error = json["error"]?.stringValue else { return nil }
        return OAuthError(error: error, errorDescription: json["error_description"]?.stringValue,
                          hint: json["hint"]?.stringValue)
    }

    /// The parameters of a `WWW-Authenticate: Bearer realm="OAuth", error="...", error_description="..."`
    /// challenge (RFC 6750 3); nil for other schemes.
    static func bearerChallenge(_ value: String) -> OAuthError? {
        let bytes = Array(value.utf8)
        guard bytes.count >= 6, String(decoding: bytes.prefix(6), as: UTF8.self).lowercased() == "bearer",
              bytes.count == 6 || bytes[6] == UInt8(ascii: " ") else { return nil }
        var parameters: [String: String] = [:]
        var index = 6
        func skip(_ set: Set<UInt8>) { while index < bytes.count && set.contains(bytes[index]) { index += 1 } }
        while index < bytes.count {
            skip([0x20, 0x09, UInt8(ascii: ",")])
            let nameStart = index
            while index < bytes.count && bytes[index] != UInt8(ascii: "=") && bytes[index] != UInt8(ascii: ",") { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).trimmedWhitespace.lowercased()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            var parameter: [UInt8] = []
            if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") && index + 1 < bytes.count { index += 1 }
                    parameter.append(bytes[index])
                    index += 1
                }
                index += 1
            } else {
                while index < bytes.count && bytes[index] != UInt8(ascii: ",") { parameter.append(bytes[index]); index += 1 }
            }
            if !name.isEmpty { parameters[name] = String(decoding: parameter, as: UTF8.self).trimmedWhitespace }
        }
        return OAuthError(error: parameters["error"] ?? "", errorDescription: parameters["error_description"],
                          realm: parameters["realm"])
    }
}
