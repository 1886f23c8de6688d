import CDrupal
import DrupalSDK
import FoundationEssentials

// drupal_client_* and drupal_call_*: creating, configuring and freeing handles.

/// The options struct versions this library reads: 1 (up to follow_redirects), 2 (entity_paths,
/// max_retries, secret_headers, the request and log hooks), 3 (max_connections, busy_poll_us,
/// http2), 4 (proxy), 5 (compression), 6 (min_file_rate).
private let knownOptionsVersions: ClosedRange<UInt32> = 1...6

/// The size of each version's struct: a caller's struct is only as big as the version it set.
private func optionsSize(_ version: UInt32) -> Int {
    switch version {
    case 1: return MemoryLayout<drupal_client_options>.offset(of: \.entity_paths)!
    case 2: return MemoryLayout<drupal_client_options>.offset(of: \.max_connections)!
    case 3: return MemoryLayout<drupal_client_options>.offset(of: \.proxy)!
    case 4: return MemoryLayout<drupal_client_options>.offset(of: \.compression)!
    case 5: return MemoryLayout<drupal_client_options>.offset(of: \.min_file_rate)!
    default: return MemoryLayout<drupal_client_options>.size
    }
}

@_cdecl("drupal_client_options_init")
public func drupal_client_options_init(_ options: UnsafeMutablePointer<drupal_client_options>?,
                                       _ version: UInt32) -> drupal_code {
    guard let options else { return fail(.invalidArgument, "options is NULL") }
    guard knownOptionsVersions.contains(version) else {
        return fail(.invalidArgument, "unknown drupal_client_options version \(version)")
    }
    var defaults = drupal_client_options(version: version, connect_timeout: 0, timeout: 0, user_agent: nil,
                                         ca_bundle: nil, verify_tls: 0, max_body_size: 0, headers: nil,
                                         follow_redirects: 0, entity_paths: nil, max_retries: 0,
                                         secret_headers: nil, request_hook: nil, request_hook_userdata: nil,
                                         log_hook: nil, log_hook_userdata: nil, max_connections: 0,
                                         busy_poll_us: 0, http2: 0, proxy: nil, compression: 0,
                                         min_file_rate: 0)
    // Only the caller's version's fields: an older caller's struct ends before the newer ones.
    withUnsafeBytes(of: &defaults) { bytes in
        UnsafeMutableRawPointer(options).copyMemory(from: bytes.baseAddress!, byteCount: optionsSize(version))
    }
    return drupalOK
}

/// Reads drupal_client_options into the Swift configuration: the version first, then only the
/// fields that version has (later ones keep their defaults).
private func configuration(from pointer: UnsafePointer<drupal_client_options>?) throws -> DrupalClient.Configuration {
    var configuration = DrupalClient.Configuration()
    guard let pointer else { return configuration }
    let version = UnsafeRawPointer(pointer).load(as: UInt32.self)
    guard knownOptionsVersions.contains(version) else {
        throw DrupalError(.invalidArgument, "unknown drupal_client_options version \(version)")
    }
    var options = drupal_client_options()
    withUnsafeMutableBytes(of: &options) { bytes in
        bytes.baseAddress!.copyMemory(from: UnsafeRawPointer(pointer), byteCount: optionsSize(version))
    }
    // 0 keeps a default; any other number goes to the client, which checks its range
    // (TransportOptions.validate) as it does a Swift caller's.
    var transport = configuration.transport
    // size_t arrives as Int: one above Int.max is negative.
    guard options.max_body_size >= 0 else {
        throw DrupalError(.invalidArgument, "options.max_body_size is larger than any buffer can be")
    }
    if options.connect_timeout != 0 { transport.connectTimeout = options.connect_timeout }
    if options.timeout != 0 { transport.timeout = options.timeout }
    // Checked by the client it configures, as a Swift caller's would be (HeaderSafety).
    if let agent = try CInput.optionalString(options.user_agent, "options.user_agent") { transport.userAgent = agent }
    transport.caBundle = try CInput.optionalPath(options.ca_bundle, "options.ca_bundle")
    // 0 verifies, so a zero-filled struct is as safe as the default (1 is accepted too: the
    // first versions of the header named it "verify").
    guard [0, 1, -1].contains(options.verify_tls) else {
        throw DrupalError(.invalidArgument, "options.verify_tls must be 0 (verify, the default) or -1 (don't verify)")
    }
    transport.verifyTLS = options.verify_tls != -1
    if options.max_body_size > 0 { transport.maxBodySize = Int(options.max_body_size) }
    transport.followRedirects = options.follow_redirects != 0
    if options.max_connections != 0 { transport.maxConnections = Int(options.max_connections) }
    transport.busyPollMicroseconds = Int(options.busy_poll_us)
    guard options.http2 == 0 || options.http2 == -1 else {
        throw DrupalError(.invalidArgument, "options.http2 must be 0 (HTTP/2 over https when offered) or -1 (off)")
    }
    transport.http2 = options.http2 == 0
    transport.proxy = try CInput.optionalString(options.proxy, "options.proxy")
    guard options.compression == 0 || options.compression == -1 else {
        throw DrupalError(.invalidArgument, "options.compression must be 0 (ask for compressed answers) or -1 (off)")
    }
    transport.compression = options.compression == 0
    // 0 is the default; the range is the transport's to check.
    if options.min_file_rate != 0 { transport.minimumFileRate = Int(options.min_file_rate) }
    configuration.transport = transport
    configuration.defaultHeaders = try CInput.headerLines(options.headers, "options.headers")
    for (type, path) in try CInput.entityPaths(options.entity_paths, "options.entity_paths") {
        configuration.entityPaths[type] = path
    }
    guard options.max_retries >= -1 else { throw DrupalError(.invalidArgument, "options.max_retries is below -1") }
    if options.max_retries != 0 { configuration.retry.maxRetries = max(0, Int(options.max_retries)) }
    configuration.secretHeaders = try CInput.stringList(options.secret_headers, "options.secret_headers")
    if let hook = options.request_hook { configuration.middleware.append(Hooks.request(hook, options.request_hook_userdata)) }
    if let hook = options.log_hook {
        configuration.middleware.append(Hooks.log(hook, options.log_hook_userdata, secretHeaders: configuration.secretHeaders))
    }
    return configuration
}

@_cdecl("drupal_client_new")
public func drupal_client_new(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ baseURL: UnsafePointer<CChar>?,
                              _ options: UnsafePointer<drupal_client_options>?) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    do {
        let url = try CInput.nonEmptyString(baseURL, "base_url")
        let client = try DrupalClient.live(baseURL: url, configuration: try configuration(from: options))
        out.pointee = OpaquePointer(Unmanaged.passRetained(ClientHandle(client: client, baseURL: url)).toOpaque())
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_client_free")
public func drupal_client_free(_ client: OpaquePointer?) {
    guard let client else { return }
    let handle = Unmanaged<ClientHandle>.fromOpaque(UnsafeRawPointer(client))
    let owner = handle.takeUnretainedValue()
    owner.close()
    // A token provider run outlives the call that started it: none may use its userdata after
    // this returns (unless called from one of this client's callbacks, which cannot wait).
    if !owner.isInsideCallback() { owner.family.providerRuns.wait() }
    handle.release()
}

private func setAuthentication(_ client: OpaquePointer?, _ make: () throws -> Authentication) -> drupal_code {
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    do {
        try handle.client.setAuthentication(try make())
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_client_set_basic_auth")
public func drupal_client_set_basic_auth(_ client: OpaquePointer?, _ user: UnsafePointer<CChar>?,
                                         _ password: UnsafePointer<CChar>?) -> drupal_code {
    setAuthentication(client) {
        .basic(user: try CInput.string(user, "user"), password: try CInput.string(password, "password"))
    }
}

@_cdecl("drupal_client_set_bearer_token")
public func drupal_client_set_bearer_token(_ client: OpaquePointer?, _ token: UnsafePointer<CChar>?) -> drupal_code {
    setAuthentication(client) { .bearer(token: try CInput.string(token, "token")) }
}

@_cdecl("drupal_client_set_no_auth")
public func drupal_client_set_no_auth(_ client: OpaquePointer?) -> drupal_code {
    setAuthentication(client) { .none }
}

@_cdecl("drupal_client_has_session")
public func drupal_client_has_session(_ client: OpaquePointer?) -> Int32 {
    guard let handle = ClientHandle.from(client) else { return 0 }
    return handle.client.hasSession() ? 1 : 0
}

@_cdecl("drupal_client_forget_session")
public func drupal_client_forget_session(_ client: OpaquePointer?) -> drupal_code {
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    handle.client.forgetSession()
    return drupalOK
}

@_cdecl("drupal_call_cancel")
public func drupal_call_cancel(_ call: OpaquePointer?) -> drupal_code {
    guard let handle = CallHandle.from(call) else { return fail(.invalidArgument, "call is NULL") }
    handle.cancel()
    return drupalOK
}

@_cdecl("drupal_call_free")
public func drupal_call_free(_ call: OpaquePointer?) {
    guard let call else { return }
    Unmanaged<CallHandle>.fromOpaque(UnsafeRawPointer(call)).release()
}
