import CDrupal
import Dispatch
import DrupalSDK
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// OAuth 2: drupal_client_set_oauth, drupal_client_set_token_provider (and drupal_token_request_*,
// what a provider answers with), drupal_client_oauth_refresh_token, drupal_oauth_authenticate,
// drupal_response_oauth_error. The token state, its refreshes and its single flight are the
// core's (LiveSession+OAuth).

public typealias CTokenProvider = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> drupal_code

/// The options struct versions this library reads: 1 (up to refresh_margin), 2 (the code grant's).
private let knownOAuthVersions: ClosedRange<UInt32> = 1...2

/// A caller's options, only as far as the version it set (an older caller's struct ends before
/// the newer fields, which stay NULL).
func oauthOptions(_ pointer: UnsafePointer<drupal_oauth_options>?) throws -> drupal_oauth_options {
    guard let pointer else { throw DrupalError(.invalidArgument, "options is NULL") }
    let version = UnsafeRawPointer(pointer).load(as: UInt32.self)
    guard knownOAuthVersions.contains(version) else {
        throw DrupalError(.invalidArgument, "unknown drupal_oauth_options version \(version)")
    }
    let size = version == 1 ? MemoryLayout<drupal_oauth_options>.offset(of: \.code)! : MemoryLayout<drupal_oauth_options>.size
    var options = drupal_oauth_options()
    withUnsafeMutableBytes(of: &options) { $0.baseAddress!.copyMemory(from: UnsafeRawPointer(pointer), byteCount: size) }
    return options
}

@_cdecl("drupal_client_set_oauth")
public func drupal_client_set_oauth(_ client: OpaquePointer?,
                                    _ options: UnsafePointer<drupal_oauth_options>?) -> drupal_code {
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    do {
        try handle.client.setAuthentication(.oauth(try oauthSettings(try oauthOptions(options))))
        return drupalOK
    } catch {
        return fail(error)
    }
}

/// The settings of `options` with `grant` in place of the one they name (nil: theirs).
func oauthSettings(_ options: drupal_oauth_options, grant given: OAuthSettings.Grant? = nil) throws -> OAuthSettings {
    let grant = try given ?? oauthGrant(options)
    var settings = OAuthSettings(clientID: try CInput.string(options.client_id, "options.client_id"),
                                 clientSecret: try CInput.optionalString(options.client_secret, "options.client_secret"),
                                 grant: grant, scope: try CInput.optionalString(options.scope, "options.scope"))
    if let path = try CInput.optionalString(options.token_path, "options.token_path") { settings.tokenPath = path }
    settings.clientAuthentication = options.client_auth_basic != 0 ? .basicHeader : .body
    let margin = options.refresh_margin
    guard !margin.isNaN else { throw DrupalError(.invalidArgument, "options.refresh_margin is not a number") }
    if margin < 0 { settings.refreshMargin = 0 } else if margin > 0 { settings.refreshMargin = margin }
    return settings
}

/// The grant `options` name, with its fields.
private func oauthGrant(_ options: drupal_oauth_options) throws -> OAuthSettings.Grant {
    func required(_ pointer: UnsafePointer<CChar>?, _ name: String) throws -> String {
        guard pointer != nil else { throw DrupalError(.invalidArgument, "options.\(name) is NULL for this grant") }
        return try CInput.string(pointer, "options.\(name)")
    }
    switch options.grant.rawValue {
    case 1: return .clientCredentials
    case 2: return .password(username: try required(options.username, "username"),
                             password: try required(options.password, "password"))
    case 3: return .refreshToken(try required(options.refresh_token, "refresh_token"))
    case 4: return .authorizationCode(code: try required(options.code, "code"),
                                      redirectURI: try required(options.redirect_uri, "redirect_uri"),
                                      codeVerifier: try CInput.optionalString(options.code_verifier, "options.code_verifier"))
    default: throw DrupalError(.invalidArgument, "options.grant \(options.grant.rawValue) is not a drupal_oauth_grant")
    }
}

/// What a drupal_token_request points at while a token provider runs.
final class TokenRequestBox {
    let reason: TokenProvider.Reason
    var token: AccessToken?
    var problem: String?
    /// What the provider said of its failure (drupal_token_request_fail), made printable.
    var failure: String?

    init(_ reason: TokenProvider.Reason) { self.reason = reason }

    static func from(_ pointer: OpaquePointer?) -> TokenRequestBox? {
        guard let pointer else { return nil }
        return Unmanaged<TokenRequestBox>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

@_cdecl("drupal_client_set_token_provider")
public func drupal_client_set_token_provider(_ client: OpaquePointer?, _ provider: CTokenProvider?,
                                             _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    guard let provider else { return fail(.invalidArgument, "provider is NULL") }
    let bits = UInt(bitPattern: userdata)
    let identity = handle.identity
    let runs = handle.family.providerRuns
    // Counted from the moment a call decides to run it (runStarts), for drupal_client_free.
    let runStarts: @Sendable () -> @Sendable () -> Void = {
        runs.enter()
        return { runs.leave() }
    }
    do {
        try handle.client.setAuthentication(.tokenProvider(TokenProvider(runStarts: runStarts) { reason in
            // On a thread of its own: a provider may block (a network call, a vault) without
            // holding up the client's other requests.
            try await withUnsafeThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result {
                        try insideCallback(of: identity, kind: Int32(DRUPAL__TOKEN_PROVIDER)) {
                            try callProvider(provider, bits, reason)
                        }
                    })
                }
            }
        }))
        return drupalOK
    } catch {
        return fail(error)
    }
}

private func callProvider(_ provider: CTokenProvider, _ bits: UInt, _ reason: TokenProvider.Reason) throws -> AccessToken {
    let box = TokenRequestBox(reason)
    let code = withExtendedLifetime(box) {
        provider(OpaquePointer(Unmanaged.passUnretained(box).toOpaque()), UnsafeMutableRawPointer(bitPattern: bits))
    }
    guard code == drupalOK else {
        let known = DrupalError.Code(caller: code) ?? .internal
        // A provider that returns what a refused drupal_token_request_set returned fails for its reason.
        throw DrupalError(known, box.failure ?? box.problem
                          ?? "the token provider returned \(String(cString: drupal_code_name(code)))")
    }
    if let problem = box.problem { throw DrupalError(.invalidArgument, problem) }
    guard let token = box.token else {
        throw DrupalError(.internal, box.failure ?? "the token provider returned DRUPAL_OK without drupal_token_request_set")
    }
    return token
}

@_cdecl("drupal_token_request_reason")
public func drupal_token_request_reason(_ request: OpaquePointer?) -> drupal_token_reason {
    drupal_token_reason(UInt32(TokenRequestBox.from(request)?.reason.rawValue ?? 0))
}

@_cdecl("drupal_token_request_set")
public func drupal_token_request_set(_ request: OpaquePointer?, _ accessToken: UnsafePointer<CChar>?,
                                     _ expiresIn: Double) -> drupal_code {
    guard let box = TokenRequestBox.from(request) else { return fail(.invalidArgument, "request is NULL") }
    do {
        // 0 or less: unknown. NaN and the infinities go on to be refused as no lifetime.
        let token = AccessToken(try CInput.nonEmptyString(accessToken, "access_token"),
                                expiresIn: expiresIn.isFinite && expiresIn <= 0 ? nil : expiresIn)
        try token.validate()   // (its messages never quote the token: it is a secret)
        box.token = token
        box.problem = nil
        return drupalOK
    } catch {
        box.problem = (error as? DrupalError)?.message
        return fail(error)
    }
}

@_cdecl("drupal_token_request_fail")
public func drupal_token_request_fail(_ request: OpaquePointer?, _ code: drupal_code,
                                      _ message: UnsafePointer<CChar>?) -> drupal_code {
    let known = code == drupalOK ? .internal : DrupalError.Code(caller: code) ?? .internal
    guard let box = TokenRequestBox.from(request) else { return fail(.invalidArgument, "request is NULL") }
    guard let message else { return fail(.invalidArgument, "message is NULL") }
    // The caller's text, read leniently (it explains a failure; refusing it would lose that):
    // no further than the kept length needs, invalid UTF-8 as U+FFFD.
    let length = strnlen(message, 4 * DrupalError.maxCallerTextLength)
    let text = message.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    let failure = DrupalError.callerText(text)
    box.failure = failure
    return fail(known, failure)
}

@_cdecl("drupal_client_oauth_refresh_token")
public func drupal_client_oauth_refresh_token(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                              _ client: OpaquePointer?) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    guard let token = handle.client.oauthRefreshToken() else { return drupalOK }
    guard let copy = duplicateCString(token) else { return fail(.noMemory, "out of memory copying the refresh token") }
    out.pointee = copy
    return drupalOK
}

@_cdecl("drupal_oauth_authenticate")
public func drupal_oauth_authenticate(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { .oauthAuthenticate }
}

@_cdecl("drupal_oauth_authenticate_sync")
public func drupal_oauth_authenticate_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                           _ client: OpaquePointer?) -> drupal_code {
    CallRunner.wait(out, client) { .oauthAuthenticate }
}

@_cdecl("drupal_response_oauth_error")
public func drupal_response_oauth_error(_ response: OpaquePointer?, _ member: UnsafePointer<CChar>?)
    -> UnsafePointer<CChar>? {
    guard let handle = ResponseHandle.from(response), let member else { return nil }
    return handle.oauthMember(String(cString: member))
}
