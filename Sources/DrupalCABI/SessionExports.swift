import CDrupal
import DrupalSDK
import FoundationEssentials
import Synchronization

// drupal_login, drupal_logout, drupal_login_status, drupal_csrf_refresh (async and _sync).

private func loginOperation(_ name: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?) throws
    -> ClientHandle.Operation {
    let name = try CInput.string(name, "name")
    let password = try CInput.string(password, "password")
    return { client in try await client.login(name, password).response }
}

@_cdecl("drupal_login")
public func drupal_login(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                         _ name: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
                         _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in try loginOperation(name, password) }
}

@_cdecl("drupal_login_sync")
public func drupal_login_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                              _ name: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { _ in try loginOperation(name, password) }
}

private let logoutOperation: ClientHandle.Operation = { client in
    try await client.logout()
    return DrupalResponse(status: 204)
}

@_cdecl("drupal_logout")
public func drupal_logout(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                          _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in logoutOperation }
}

@_cdecl("drupal_logout_sync")
public func drupal_logout_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?) -> drupal_code {
    CallRunner.wait(out, client) { _ in logoutOperation }
}

private let loginStatusOperation: ClientHandle.Operation = { client in try await client.loginStatus().response }

@_cdecl("drupal_login_status")
public func drupal_login_status(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in loginStatusOperation }
}

@_cdecl("drupal_login_status_sync")
public func drupal_login_status_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                     _ loggedIn: UnsafeMutablePointer<Int32>?,
                                     _ client: OpaquePointer?) -> drupal_code {
    loggedIn?.pointee = 0
    if out == nil && loggedIn == nil { return fail(.invalidArgument, "out and logged_in are both NULL") }
    let answer = Mutex(false)
    func run(_ out: UnsafeMutablePointer<OpaquePointer?>) -> drupal_code {
        let code = CallRunner.wait(out, client) { _ in
            { client in
                let status = try await client.loginStatus()
                answer.withLock { $0 = status.loggedIn }
                return status.response
            }
        }
        if code == drupalOK { loggedIn?.pointee = answer.withLock { $0 } ? 1 : 0 }
        return code
    }
    if let out { return run(out) }
    // Only *logged_in (and the code) are wanted.
    var unwanted: OpaquePointer?
    let code = run(&unwanted)
    drupal_response_free(unwanted)
    return code
}

private let csrfRefreshOperation: ClientHandle.Operation = { client in
    let token = try await client.refreshCSRFToken()
    var headers = HTTPHeaders()
    headers.add("Content-Type", "text/plain")
    return DrupalResponse(status: 200, headers: headers, body: Data(token.utf8))
}

@_cdecl("drupal_csrf_refresh")
public func drupal_csrf_refresh(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in csrfRefreshOperation }
}

@_cdecl("drupal_csrf_refresh_sync")
public func drupal_csrf_refresh_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?) -> drupal_code {
    CallRunner.wait(out, client) { _ in csrfRefreshOperation }
}
