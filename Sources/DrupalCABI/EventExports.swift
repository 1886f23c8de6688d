import CDrupal
import DrupalSDK
import FoundationEssentials

// drupal_client_add_listener / drupal_client_remove_listener.

public typealias CEventCallback = @convention(c) (UnsafePointer<drupal_event>?, UnsafeMutableRawPointer?) -> Void

@_cdecl("drupal_client_add_listener")
public func drupal_client_add_listener(_ id: UnsafeMutablePointer<UInt64>?, _ client: OpaquePointer?,
                                       _ callback: CEventCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    id?.pointee = 0
    guard let id else { return fail(.invalidArgument, "id is NULL") }
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    guard let callback else { return fail(.invalidArgument, "callback is NULL") }
    let userdataBits = UInt(bitPattern: userdata)
    let identity = handle.identity
    let token = handle.client.addObserver { event in
        deliver(event) { pointer in
            insideCallback(of: identity) {
                callback(pointer, UnsafeMutableRawPointer(bitPattern: userdataBits))
            }
        }
    }
    handle.listeners.withLock { $0[token.id] = token }
    id.pointee = token.id
    return drupalOK
}

@_cdecl("drupal_client_remove_listener")
public func drupal_client_remove_listener(_ client: OpaquePointer?, _ id: UInt64) -> drupal_code {
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    guard let token = handle.listeners.withLock({ $0.removeValue(forKey: id) }) else {
        return fail(.notFound, "no listener with id \(id)")
    }
    handle.client.removeObserver(token)
    return drupalOK
}

/// Builds the C view of an event with strings that live until `body` returns.
private func deliver(_ event: DrupalEvent, _ body: (UnsafePointer<drupal_event>) -> Void) {
    var type = DRUPAL_EVENT_LOGIN
    var method = "", path = "", userName = "", uid = ""
    var status: Int32 = 0
    var durationMS = 0.0
    var attemptNumber: Int32 = 0
    switch event {
    case .login(let user):
        type = DRUPAL_EVENT_LOGIN
        userName = user.name
        uid = user.uid
    case .logout:
        type = DRUPAL_EVENT_LOGOUT
    case .requestStarted(let m, let p):
        type = DRUPAL_EVENT_REQUEST_START
        method = m
        path = p
    case .requestFinished(let m, let p, let s, let duration):
        type = DRUPAL_EVENT_REQUEST_FINISH
        method = m
        path = p
        status = Int32(clamping: s ?? 0)
        durationMS = milliseconds(duration)
    case .retry(let m, let p, let attempt, let s, let delay):
        type = DRUPAL_EVENT_RETRY
        method = m
        path = p
        status = Int32(clamping: s ?? 0)
        durationMS = milliseconds(delay)
        attemptNumber = Int32(clamping: attempt)
    }
    method.withCString { methodC in
        path.withCString { pathC in
            userName.withCString { userC in
                uid.withCString { uidC in
                    var cEvent = drupal_event(type: type, method: methodC, path: pathC, status: status,
                                              duration_ms: durationMS, user_name: userC, uid: uidC,
                                              attempt: attemptNumber)
                    withUnsafePointer(to: &cEvent) { body($0) }
                }
            }
        }
    }
}

private func milliseconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
}
