import FoundationEssentials

/// One request of simple_oauth's authorization code grant with PKCE (RFC 6749 §4.1, RFC 7636),
/// for a program that acts for a person (a desktop tool), who approves it in a browser:
///  1. `url(site:)` is the page to open: the site's /oauth/authorize with the client id, redirect
///     URI, scope, a random `state` and the S256 challenge of a random `codeVerifier`;
///  2. the site sends the browser on to the redirect URI with `code` and `state`: the program reads
///     that URL (its loopback listener, a custom scheme, or a person pasting it) and gives it whole
///     to `code(fromRedirect:)`, which checks the state and reads the code or the refusal;
///  3. `grant(code:)` is what `OAuthSettings` exchanges it with (`Authentication.oauth`).
/// The verifier and the state belong to this one request: never logged, never quoted in errors.
public struct OAuthAuthorization: Sendable, Equatable {
    public let clientID: String
    public let redirectURI: String
    /// Space-separated scopes to ask for; nil for the consumer's default.
    public let scope: String?
    /// Random (128 bits): the redirect must carry it back, or it answers another request.
    public let state: String
    /// Random (256 bits, 43 characters): sent only with the code, to prove the same program asks.
    public let codeVerifier: String
    /// The authorize endpoint, under the base URL.
    public var authorizePath = "/oauth/authorize"

    /// Throws `.invalidArgument` for an empty client id or redirect URI, or control characters in
    /// any of them (never quoted).
    public init(clientID: String, redirectURI: String, scope: String? = nil) throws {
        try OAuthSettings.check(clientID, "client id")
        try OAuthSettings.check(redirectURI, "redirect URI")
        if let scope { try OAuthSettings.check(scope, "scope", empty: true) }
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
        state = OAuthAuthorization.randomToken(bytes: 16)
        codeVerifier = OAuthAuthorization.randomToken(bytes: 32)
    }

    /// S256: BASE64URL(SHA-256(code_verifier)), no padding (RFC 7636 §4.2).
    public var codeChallenge: String { OAuthAuthorization.base64URL(SHA256.digest(Array(codeVerifier.utf8))) }

    /// The page to open for the person: `baseURL` (the client's, without a language prefix) and
    /// `authorizePath`, with the request in its query. Throws `.invalidArgument` for a base URL
    /// that is not http(s) or an unsafe `authorizePath`.
    public func url(site baseURL: String) throws -> String {
        let base = try PathSafety.normalizeBaseURL(baseURL)
        let path = try PathSafety.normalizePath(authorizePath)
        var query = [("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI)]
        if let scope, !scope.isEmpty { query.append(("scope", scope)) }
        query += [("state", state), ("code_challenge", codeChallenge), ("code_challenge_method", "S256")]
        return base + path + "?" + query.map { PathSafety.formEncode($0.0) + "=" + PathSafety.formEncode($0.1) }
            .joined(separator: "&")
    }

    /// The code of the URL the site sent the browser to. Throws `.invalidArgument` when its
    /// `state` is missing or not this request's (the redirect answers another request, or is
    /// forged), or when it carries neither a code nor an error; a refusal (`error=access_denied`,
    /// ...) throws an authentication error whose `oauthError` holds the site's words.
    public func code(fromRedirect url: String) throws -> String {
        let parameters = OAuthAuthorization.queryParameters(url)
        func parameter(_ name: String) -> String? { parameters.last { $0.0 == name }?.1 }
        guard let returned = parameter("state"), returned == state else {
            throw DrupalError.invalidArgument("the redirect does not carry this authorization's state: it answers "
                                              + "another request, or was forged")
        }
        if let error = parameter("error") {
            let refusal = OAuthError(error: error, errorDescription: parameter("error_description"),
                                     hint: parameter("hint"))
            var failure = DrupalError(.http, DrupalError.printable("the authorization was refused: " + refusal.summary))
            failure.kind = .authentication
            failure.oauthError = refusal
            throw failure
        }
        guard let code = parameter("code"), !code.isEmpty else {
            throw DrupalError.invalidArgument("the redirect carries no authorization code")
        }
        return code
    }

    /// What `OAuthSettings` exchanges `code` with.
    public func grant(code: String) -> OAuthSettings.Grant {
        .authorizationCode(code: code, redirectURI: redirectURI, codeVerifier: codeVerifier)
    }

    /// RFC 7636 §4.1: 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (never quoted: it is a secret).
    static func checkCodeVerifier(_ verifier: String) throws {
        let unreserved = verifier.utf8.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~")
        }
        guard unreserved, (43...128).contains(verifier.utf8.count) else {
            throw DrupalError.invalidArgument("the PKCE code verifier must be 43 to 128 characters of A-Z, a-z, "
                                              + "0-9, '-', '.', '_' and '~' (RFC 7636)")
        }
    }

    /// The name-value pairs of a URL's query (any scheme: a desktop tool's redirect URI may be
    /// its own, "myapp://callback"), decoded as a form is ("+" is a space).
    static func queryParameters(_ url: String) -> [(String, String)] {
        var text = Substring(url)
        if let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) { text = text[..<hash] }
        guard let mark = text.utf8.firstIndex(of: UInt8(ascii: "?")) else { return [] }
        return PathSafety.formDecodedPairs(text[text.utf8.index(after: mark)...])
    }

    /// `bytes` random bytes (the system's generator: getrandom), base64url without padding.
    private static func randomToken(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}
