import FoundationEssentials

/// A simple_oauth consumer of the mock site (`MockDrupal.addOAuthConsumer`): what its token
/// endpoint and authorize page accept from a client.
public struct MockOAuthConsumer: Sendable, Equatable {
    public var clientID: String
    /// Nil for a public client (its requests are not authenticated, and the code grant then needs
    /// PKCE, as simple_oauth 6's "pkce" consumer setting asks).
    public var secret: String?
    /// The grant types it may use, of `grantTypes`.
    public var grants: Set<String>
    /// The grants simple_oauth 6 has (the password grant with simple_oauth_password_grant).
    public static let grantTypes: Set<String> = ["client_credentials", "password", "refresh_token", "authorization_code"]
    /// The user client_credentials tokens act as (the consumer's default user); nil: anonymous.
    public var uid: String?
    /// The redirect URIs it registered, for the authorization code grant (compared exactly).
    public var redirectURIs: [String]

    public init(clientID: String, secret: String? = nil,
                grants: Set<String> = ["client_credentials", "password", "refresh_token"],
                uid: String? = nil, redirectURIs: [String] = []) {
        self.clientID = clientID
        self.secret = secret
        self.grants = grants
        self.uid = uid
        self.redirectURIs = redirectURIs
    }
}

/// simple_oauth's token storage on the mock site: the consumers, the access tokens (shaped like
/// its JWTs, not signed: a token the site did not issue is "not verified", as a forged signature
/// is), the refresh tokens and the authorization codes, with league/oauth2-server's checks of a
/// presented Bearer token (the fake's oauth_tokens.py does the same).
struct MockOAuthTokens {
    struct Access {
        let clientID: String
        let uid: String?
        var expires: ContinuousClock.Instant
        var revoked = false
    }

    struct Refresh {
        let access: String
        let expires: ContinuousClock.Instant
        var revoked = false
    }

    struct Code {
        let clientID: String
        let uid: String
        let redirectURI: String?
        let challenge: String?
        let method: String?
        let expires: ContinuousClock.Instant
        var revoked = false
    }

    /// simple_oauth's defaults: 300 s for an access token (and a code), 14 days for a refresh token.
    static let accessLifetime = Duration.seconds(300)
    static let refreshLifetime = Duration.seconds(1_209_600)

    var consumers: [String: MockOAuthConsumer] = [:]
    var access: [String: Access] = [:]
    var refresh: [String: Refresh] = [:]
    var codes: [String: Code] = [:]

    /// The module is installed once the site has a consumer: Bearer tokens are then checked.
    var installed: Bool { !consumers.isEmpty }

    /// A new access token, and a refresh token with it unless `withRefresh` is false.
    mutating func issue(_ clientID: String, uid: String?, withRefresh: Bool) -> (access: String, refresh: String?) {
        let now = ContinuousClock.now
        let jti = MockIdentifiers.hex(80)
        var claims: [String: JSONValue] = ["aud": .string(clientID), "jti": .string(jti), "scope": .array([])]
        if let uid { claims["sub"] = .string(uid) }
        let header: JSONValue = .object(["typ": .string("JWT"), "alg": .string("RS256"), "jti": .string(jti)])
        let token = [header, JSONValue.object(claims)].map { OAuthAuthorization.base64URL(Array($0.encoded())) }
            .joined(separator: ".") + "." + (0..<8).map { _ in MockIdentifiers.token() }.joined()   // ~ an RS256 signature
        access[token] = Access(clientID: clientID, uid: uid, expires: now + MockOAuthTokens.accessLifetime)
        guard withRefresh else { return (token, nil) }
        // league's refresh tokens are encrypted payloads starting with "def50200".
        let refreshToken = "def50200" + MockIdentifiers.hex(480)
        refresh[refreshToken] = Refresh(access: token, expires: now + MockOAuthTokens.refreshLifetime)
        return (token, refreshToken)
    }

    /// Every access token issued so far expires now (refresh tokens stay valid): what waiting out
    /// the lifetime gives, without the wait.
    mutating func expireAll() {
        let now = ContinuousClock.now
        access = access.mapValues { record in
            var record = record
            record.expires = min(record.expires, now)
            return record
        }
    }

    /// The uid a presented Bearer token acts as (nil: anonymous, a client_credentials token of a
    /// consumer without a default user), or league's reason to refuse it.
    func verify(_ token: String) -> Result<String?, MockOAuthRefusal> {
        // The order of lcobucci/jwt's parser, then league's BearerTokenValidator.
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(MockOAuthRefusal("The JWT string must have two dots")) }
        let base64URL = { (part: Substring) in
            part.utf8.allSatisfy { PathSafety.isUnreservedByte($0) && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "~") }
        }
        guard parts.allSatisfy(base64URL) else {
            return .failure(MockOAuthRefusal("Error while decoding from Base64Url, invalid base64 characters detected"))
        }
        for part in parts.prefix(2) {
            var text = String(part).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            text += String(repeating: "=", count: (4 - text.count % 4) % 4)
            guard let data = Data(base64Encoded: text), case .object? = JSONValue.parse(data) else {
                return .failure(MockOAuthRefusal("Error while decoding from JSON"))
            }
        }
        // An unknown signature and an expired token read the same.
        guard let record = access[token], ContinuousClock.now < record.expires else {
            return .failure(MockOAuthRefusal("Access token could not be verified"))
        }
        if record.revoked { return .failure(MockOAuthRefusal("Access token has been revoked")) }
        return .success(record.uid)
    }
}

/// Why simple_oauth refused a Bearer token (the challenge's error_description).
struct MockOAuthRefusal: Error {
    let description: String
    init(_ description: String) { self.description = description }
}
