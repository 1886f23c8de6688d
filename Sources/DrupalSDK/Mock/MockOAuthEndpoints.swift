import FoundationEssentials

/// simple_oauth 6's endpoints on the mock site once it has a consumer (`MockDrupal.addOAuthConsumer`):
/// `POST /oauth/token` (client_credentials, password, refresh_token, authorization_code with
/// PKCE) and `GET /oauth/authorize`, with league/oauth2-server's documents and texts, as the fake's
/// oauth.py and oauth_code.py answer them (recordings 70-73 and 77c of
/// drupal10-oauth-language-transcripts; the code grant follows source). Scopes are not checked.
extension MockState {
    /// league's OAuthServerException: an error document, and a Basic challenge when the client
    /// came in an Authorization header.
    struct OAuthFailure: Error {
        var status: Int
        var error: String
        var description: String
        var hint: String?
        var basicChallenge = false

        var response: HTTPResponse {
            var document: [String: JSONValue] = ["error": .string(error), "error_description": .string(description)]
            if let hint { document["hint"] = .string(hint) }
            var headers = HTTPHeaders([("Content-Type", "application/json")])
            if basicChallenge { headers.add("WWW-Authenticate", "Basic realm=\"OAuth\"") }
            return HTTPResponse(status: status, headers: headers, body: JSONValue.object(document).encoded())
        }

        static func invalidRequest(_ parameter: String, hint: String? = nil) -> OAuthFailure {
            OAuthFailure(status: 400, error: "invalid_request", description: "The request is missing a required "
                         + "parameter, includes an invalid parameter value, includes a parameter more than once, "
                         + "or is otherwise malformed.", hint: hint ?? "Check the `\(parameter)` parameter")
        }

        static func invalidClient(basic: Bool = false) -> OAuthFailure {
            OAuthFailure(status: 401, error: "invalid_client", description: "Client authentication failed",
                         basicChallenge: basic)
        }

        static let unsupportedGrant = OAuthFailure(
            status: 400, error: "unsupported_grant_type",
            description: "The authorization grant type is not supported by the authorization server.",
            hint: "Check that all required parameters have been provided")

        static func invalidRefresh(_ hint: String) -> OAuthFailure {
            OAuthFailure(status: 400, error: "invalid_grant", description: "The refresh token is invalid.", hint: hint)
        }

        static func invalidGrant(_ hint: String) -> OAuthFailure {
            OAuthFailure(status: 400, error: "invalid_grant", description: "The provided authorization grant (e.g., "
                         + "authorization code, resource owner credentials) or refresh token is invalid, expired, "
                         + "revoked, does not match the redirection URI used in the authorization request, or was "
                         + "issued to another client.", hint: hint)
        }
    }

    /// simple_oauth's answer to a refused Bearer token: 401 in the request's format, with the
    /// reason in the challenge (recordings 76, 77).
    static func bearerRefused(_ reason: String, format: String?) -> HTTPResponse {
        let message = "The resource owner or authorization server denied the request."
        var response = format == "json" ? MockReply.message(401, message) : MockReply.text(401, message)
        response.headers.add("WWW-Authenticate", "Bearer realm=\"OAuth\", error=\"access_denied\", "
                             + "error_description=\"\(reason)\"")
        return response
    }

    // MARK: POST /oauth/token

    mutating func oauthToken(_ request: MockRequest) -> HTTPResponse {
        guard request.method == "POST" else { return MockReply.methodNotAllowed(request, allow: ["POST"]) }
        do {
            let headers = HTTPHeaders([("Content-Type", "application/json; charset=UTF-8"), ("Pragma", "no-cache"),
                                       ("Cache-Control", "no-store, private")])
            return HTTPResponse(status: 200, headers: headers, body: try tokenDocument(request).encoded())
        } catch let failure as OAuthFailure {
            return failure.response
        } catch {
            return MockReply.serverError
        }
    }

    private mutating func tokenDocument(_ request: MockRequest) throws -> JSONValue {
        // Only a form is read (a JSON body has no client_id); PHP keeps the last of a repeated name.
        var params: [String: String] = [:]
        if request.contentType == "application/x-www-form-urlencoded", let body = request.body {
            for (name, value) in PathSafety.formDecodedPairs(Substring(decoding: body, as: UTF8.self)) {
                params[name] = value
            }
        }
        let basic = MockState.basicCredentials(request)
        guard let clientID = params["client_id"].flatMap({ $0.isEmpty ? nil : $0 }) ?? basic?.user else {
            throw OAuthFailure.invalidRequest("client_id")
        }
        // simple_oauth picks the consumer (and its grants) before league looks at anything.
        guard let consumer = oauth.consumers[clientID] else { throw OAuthFailure.invalidClient(basic: basic != nil) }
        let grant = params["grant_type"] ?? ""
        guard consumer.grants.contains(grant) else { throw OAuthFailure.unsupportedGrant }
        if let secret = consumer.secret, (params["client_secret"] ?? basic?.password) != secret {
            throw OAuthFailure.invalidClient(basic: basic != nil)   // a public client's secret is not checked
        }
        let uid: String?
        switch grant {
        case "client_credentials":
            return MockState.tokenDocument(oauth.issue(clientID, uid: consumer.uid, withRefresh: false))
        case "password": uid = try passwordUser(params)
        case "refresh_token": uid = try rotateRefreshToken(params, clientID)
        default: uid = try exchangeCode(params, clientID)
        }
        return MockState.tokenDocument(oauth.issue(clientID, uid: uid, withRefresh: true))
    }

    private static func tokenDocument(_ tokens: (access: String, refresh: String?)) -> JSONValue {
        var document: [String: JSONValue] = [
            "token_type": .string("Bearer"),
            "expires_in": .number(Double(MockOAuthTokens.accessLifetime.components.seconds)),
            "access_token": .string(tokens.access),
        ]
        if let refresh = tokens.refresh { document["refresh_token"] = .string(refresh) }
        return .object(document)
    }

    private func passwordUser(_ params: [String: String]) throws -> String {
        guard let name = params["username"] else { throw OAuthFailure.invalidRequest("username") }
        guard let password = params["password"] else { throw OAuthFailure.invalidRequest("password") }
        guard let account = activeAccount(name, password) else {
            throw OAuthFailure(status: 400, error: "invalid_grant", description: "The user credentials were incorrect.")
        }
        return account.uid
    }

    /// The refresh_token grant: the token and its access token are revoked at once (72b, 72c).
    private mutating func rotateRefreshToken(_ params: [String: String], _ clientID: String) throws -> String? {
        guard let value = params["refresh_token"] else { throw OAuthFailure.invalidRequest("refresh_token") }
        guard let record = oauth.refresh[value] else { throw OAuthFailure.invalidRefresh("Cannot decrypt the refresh token") }
        guard let access = oauth.access[record.access], access.clientID == clientID else {
            throw OAuthFailure.invalidRefresh("Token is not linked to client")
        }
        if ContinuousClock.now >= record.expires { throw OAuthFailure.invalidRefresh("Token has expired") }
        if record.revoked { throw OAuthFailure.invalidRefresh("Token has been revoked") }
        oauth.refresh[value]?.revoked = true
        oauth.access[record.access]?.revoked = true
        return access.uid
    }

    /// league's AuthCodeGrant: the code, its client and redirect URI, and PKCE.
    private mutating func exchangeCode(_ params: [String: String], _ clientID: String) throws -> String {
        guard let value = params["code"] else { throw OAuthFailure.invalidRequest("code") }
        guard let code = oauth.codes[value] else {
            throw OAuthFailure.invalidRequest("code", hint: "Issue decrypting the authorization code")
        }
        if ContinuousClock.now > code.expires { throw OAuthFailure.invalidGrant("Authorization code has expired") }
        if code.revoked { throw OAuthFailure.invalidGrant("Authorization code has been revoked") }
        guard code.clientID == clientID else {
            throw OAuthFailure.invalidRequest("code", hint: "Authorization code was not issued to this client")
        }
        let redirectURI = params["redirect_uri"]
        if code.redirectURI != nil && redirectURI == nil { throw OAuthFailure.invalidRequest("redirect_uri") }
        if let redirectURI, redirectURI != code.redirectURI {
            throw OAuthFailure.invalidRequest("redirect_uri", hint: "Invalid redirect URI")
        }
        let verifier = params["code_verifier"]
        if let challenge = code.challenge {
            guard let verifier else { throw OAuthFailure.invalidRequest("code_verifier") }
            guard MockState.isPKCEShaped(verifier) else {
                throw OAuthFailure.invalidRequest("code_verifier", hint: "Code Verifier must follow the specifications of RFC-7636.")
            }
            let computed = code.method == "plain" ? verifier : OAuthAuthorization.base64URL(SHA256.digest(Array(verifier.utf8)))
            guard computed == challenge else { throw OAuthFailure.invalidGrant("Failed to verify `code_verifier`.") }
        } else if verifier != nil {
            // Blocks a PKCE downgrade.
            throw OAuthFailure.invalidRequest("code_challenge", hint: "code_verifier received when no code_challenge is present")
        }
        oauth.codes[value]?.revoked = true   // only a successful exchange uses the code up
        return code.uid
    }

    /// RFC 7636 §4.1/§4.2: 43 to 128 unreserved characters, for a verifier and a challenge alike.
    private static func isPKCEShaped(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count) && text.utf8.allSatisfy(PathSafety.isUnreservedByte)
    }

    // MARK: GET /oauth/authorize

    /// simple_oauth's authorize controller for a first-party consumer: an anonymous person is sent
    /// to log in and back; a request league accepts is approved at once, the code sent to the
    /// redirect URI; one it refuses ends on the front page (Drupal logs why). The route takes a
    /// session or a Bearer token, not Basic.
    mutating func oauthAuthorize(_ request: MockRequest, _ caller: MockCaller) throws -> HTTPResponse {
        guard let consumer = oauth.consumers[request.queryValue("client_id") ?? ""] else {
            var failure = OAuthFailure.invalidClient()
            failure.basicChallenge = request.headers["Authorization"] != nil
            return failure.response
        }
        try refuseBasic(caller)
        guard let account = caller.account else {
            return MockReply.redirect(request.origin + "/user/login?destination="
                                      + MockState.rawEncoded(MockState.authorizeDestination(request.query)))
        }
        guard let (redirectURI, challenge, method) = try? MockState.validateAuthorization(request, consumer) else {
            return MockReply.redirect(request.origin + "/")
        }
        let code = "def50200" + MockIdentifiers.hex(600)   // league's codes are encrypted payloads
        oauth.codes[code] = MockOAuthTokens.Code(
            clientID: consumer.clientID, uid: account.uid, redirectURI: request.queryValue("redirect_uri"),
            challenge: challenge, method: method, expires: ContinuousClock.now + MockOAuthTokens.accessLifetime)
        var parameters = [("code", code)]
        if let state = request.queryValue("state") { parameters.append(("state", state)) }
        let query = parameters.map { MockState.phpURLEncoded($0.0) + "=" + MockState.phpURLEncoded($0.1) }.joined(separator: "&")
        return MockReply.redirect(redirectURI + (redirectURI.contains("?") ? "&" : "?") + query)
    }

    /// league's AuthCodeGrant::validateAuthorizationRequest: the redirect URI to use, and the code
    /// challenge with its method.
    private static func validateAuthorization(_ request: MockRequest, _ consumer: MockOAuthConsumer) throws
        -> (String, String?, String?) {
        guard request.queryValue("response_type") == "code", consumer.grants.contains("authorization_code") else {
            throw OAuthFailure.unsupportedGrant
        }
        let redirectURI: String
        if let asked = request.queryValue("redirect_uri") {
            guard consumer.redirectURIs.contains(asked) else { throw OAuthFailure.invalidClient() }
            redirectURI = asked
        } else {
            guard consumer.redirectURIs.count == 1 else { throw OAuthFailure.invalidClient() }
            redirectURI = consumer.redirectURIs[0]
        }
        guard let challenge = request.queryValue("code_challenge") else {
            if consumer.secret == nil { throw OAuthFailure.invalidRequest("code_challenge") }
            return (redirectURI, nil, nil)
        }
        let method = request.queryValue("code_challenge_method") ?? "plain"
        guard ["S256", "plain"].contains(method), isPKCEShaped(challenge) else { throw OAuthFailure.invalidRequest("code_challenge") }
        return (redirectURI, challenge, method)
    }

    /// Where the login page sends the person back: this page, its query rebuilt as Drupal's Url does.
    private static func authorizeDestination(_ query: [(String, String)]) -> String {
        var names: [String] = []
        var values: [String: String] = [:]   // PHP: the last value wins, in the first one's place
        for (name, value) in query {
            if values[name] == nil { names.append(name) }
            values[name] = value
        }
        let built = names.map { rawEncoded($0) + "=" + rawEncoded(values[$0] ?? "") }.joined(separator: "&")
        return "/oauth/authorize" + (built.isEmpty ? "" : "?" + built)
    }

    /// PHP's urlencode (http_build_query): letters, digits and "-_." kept, a space as "+".
    private static func phpURLEncoded(_ text: String) -> String {
        PathSafety.percentEncode(text) { PathSafety.isUnreservedByte($0) && $0 != UInt8(ascii: "~") || $0 == 0x20 }
            .replacingOccurrences(of: " ", with: "+")
    }
}
