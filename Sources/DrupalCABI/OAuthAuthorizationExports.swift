import CDrupal
import DrupalSDK
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

// The authorization code grant with PKCE: drupal_oauth_authorization_*. The request (state,
// verifier, URL) and the reading of the redirect are the core's (OAuthAuthorization); this keeps
// the request, its URL as a C string, and the options the exchange will use.

/// What a drupal_oauth_authorization points at.
final class AuthorizationHandle {
    let request: OAuthAuthorization
    /// The settings the exchange uses (their grant is replaced by the code's).
    let settings: OAuthSettings
    let url: UnsafeMutablePointer<CChar>

    init(request: OAuthAuthorization, settings: OAuthSettings, url: String) {
        self.request = request
        self.settings = settings
        self.url = strdup(url)
    }

    deinit { free(url) }

    static func from(_ pointer: OpaquePointer?) -> AuthorizationHandle? {
        guard let pointer else { return nil }
        return Unmanaged<AuthorizationHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

@_cdecl("drupal_oauth_authorization_new")
public func drupal_oauth_authorization_new(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                           _ options: UnsafePointer<drupal_oauth_options>?) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    do {
        let options = try oauthOptions(options)
        guard let redirectURI = try CInput.optionalString(options.redirect_uri, "options.redirect_uri") else {
            throw DrupalError(.invalidArgument, "options.redirect_uri is NULL (it needs options version 2)")
        }
        let request = try OAuthAuthorization(clientID: try CInput.string(options.client_id, "options.client_id"),
                                             redirectURI: redirectURI,
                                             scope: try CInput.optionalString(options.scope, "options.scope"))
        // The exchange's settings, checked now: a mistake shows here, not after the person approved.
        let settings = try oauthSettings(options, grant: request.grant(code: "unused"))
        try settings.validate()
        guard let baseURL = handle.baseURL else {
            throw DrupalError(.state, "the client has no site to authorize on (a mock or unimplemented client)")
        }
        let box = AuthorizationHandle(request: request, settings: settings, url: try request.url(site: baseURL))
        out.pointee = OpaquePointer(Unmanaged.passRetained(box).toOpaque())
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_oauth_authorization_url")
public func drupal_oauth_authorization_url(_ authorization: OpaquePointer?) -> UnsafePointer<CChar>? {
    AuthorizationHandle.from(authorization).map { UnsafePointer($0.url) }
}

@_cdecl("drupal_oauth_authorization_finish")
public func drupal_oauth_authorization_finish(_ authorization: OpaquePointer?, _ client: OpaquePointer?,
                                              _ redirectedTo: UnsafePointer<CChar>?) -> drupal_code {
    guard let box = AuthorizationHandle.from(authorization) else { return fail(.invalidArgument, "authorization is NULL") }
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    do {
        let code = try box.request.code(fromRedirect: try CInput.string(redirectedTo, "redirected_to"))
        var settings = box.settings
        settings.grant = box.request.grant(code: code)
        try handle.client.setAuthentication(.oauth(settings))
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_oauth_authorization_free")
public func drupal_oauth_authorization_free(_ authorization: OpaquePointer?) {
    guard let authorization else { return }
    Unmanaged<AuthorizationHandle>.fromOpaque(UnsafeRawPointer(authorization)).release()
}
