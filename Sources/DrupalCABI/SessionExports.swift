import CDrupal
import DrupalSDK
import FoundationEssentials

// drupal_login, drupal_logout, drupal_login_status, drupal_csrf_refresh (async and _sync): each
// answers with Drupal's own response.

private func loginOperation(_ name: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?) throws
    -> DrupalOperation {
    .login(name: try CInput.string(name, "name"), password: try CInput.string(password, "password"))
}

@_cdecl("drupal_login")
public func drupal_login(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                         _ name: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
                         _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try loginOperation(name, password) }
}

@_cdecl("drupal_login_sync")
public func drupal_login_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                              _ name: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { try loginOperation(name, password) }
}

@_cdecl("drupal_logout")
public func drupal_logout(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                          _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { .logout }
}

@_cdecl("drupal_logout_sync")
public func drupal_logout_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?) -> drupal_code {
    CallRunner.wait(out, client) { .logout }
}

@_cdecl("drupal_login_status")
public func drupal_login_status(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { .loginStatus }
}

@_cdecl("drupal_login_status_sync")
public func drupal_login_status_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                     _ loggedIn: UnsafeMutablePointer<Int32>?,
                                     _ client: OpaquePointer?) -> drupal_code {
    loggedIn?.pointee = 0
    out?.pointee = nil
    if out == nil && loggedIn == nil { return fail(.invalidArgument, "out and logged_in are both NULL") }
    guard let response = CallRunner.waitForResponse(client, { .loginStatus }) else { return drupal_last_error_code() }
    if response.code == drupalOK, let answer = response.drupalResponse {
        // The core's reading of Drupal's answer (it already refused anything but "1" or "0").
        loggedIn?.pointee = (try? LoginStatus.interpret(answer)) == true ? 1 : 0
    }
    if let out { out.pointee = response.retainedOrNull }
    CallRunner.recordFailure(of: response)
    return response.code
}

@_cdecl("drupal_response_logged_in")
public func drupal_response_logged_in(_ loggedIn: UnsafeMutablePointer<Int32>?, _ response: OpaquePointer?) -> drupal_code {
    loggedIn?.pointee = 0
    guard let loggedIn else { return fail(.invalidArgument, "logged_in is NULL") }
    guard let answer = ResponseHandle.from(response)?.drupalResponse else {
        return fail(.invalidArgument, "response is NULL or not an answer")
    }
    do {
        loggedIn.pointee = try LoginStatus.interpret(answer) ? 1 : 0
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_csrf_refresh")
public func drupal_csrf_refresh(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { .refreshCSRFToken }
}

@_cdecl("drupal_csrf_refresh_sync")
public func drupal_csrf_refresh_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?) -> drupal_code {
    CallRunner.wait(out, client) { .refreshCSRFToken }
}
