import CDrupal
import DrupalSDK
import FoundationEssentials

// drupal_view and drupal_request (async and _sync).

private func viewCall(_ path: UnsafePointer<CChar>?, _ query: UnsafePointer<UnsafePointer<CChar>?>?) throws
    -> ClientHandle.Call {
    let path = try CInput.nonEmptyString(path, "path")
    let query = try CInput.queryPairs(query, "query")
    _ = try PathSafety.normalizeTarget(path, baseURL: nil)
    // A view is a GET of its path: clients with a callback mode run it as that.
    var call = ClientHandle.Call(operation: { try await $0.view(path, query) })
    call.request = DrupalRequest(method: "GET", path: path, query: query, expectedBody: .array)
    return call
}

@_cdecl("drupal_view")
public func drupal_view(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                        _ path: UnsafePointer<CChar>?, _ query: UnsafePointer<UnsafePointer<CChar>?>?,
                        _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata, call: { _ in try viewCall(path, query) })
}

@_cdecl("drupal_view_sync")
public func drupal_view_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                             _ path: UnsafePointer<CChar>?, _ query: UnsafePointer<UnsafePointer<CChar>?>?) -> drupal_code {
    CallRunner.wait(out, client, call: { _ in try viewCall(path, query) })
}

private func requestCall(_ method: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                         _ options: UnsafePointer<drupal_request_options>?) throws -> ClientHandle.Call {
    let method = try CInput.nonEmptyString(method, "method")
    guard method.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }) else {
        throw DrupalError(.invalidArgument, "method is not an HTTP method name (letters only)")
    }
    let path = try CInput.nonEmptyString(path, "path")
    _ = try PathSafety.normalizeTarget(path, baseURL: nil)
    var request = DrupalRequest(method: method.uppercased(), path: path)
    if let options = options?.pointee {
        guard options.version == 1 else {
            throw DrupalError(.invalidArgument, "unknown drupal_request_options version \(options.version)")
        }
        request.query = try CInput.queryPairs(options.query, "options.query")
        request.headers = try CInput.headerLines(options.headers, "options.headers")
        try request.headers.validate()
        if options.body != nil || options.body_length > 0 {
            request.body = try CInput.bytes(options.body, options.body_length, "options.body")
        }
        if options.no_format != 0 { request.format = nil }
    }
    let finalRequest = request
    return ClientHandle.Call(request: finalRequest)
}

@_cdecl("drupal_request")
public func drupal_request(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                           _ method: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                           _ options: UnsafePointer<drupal_request_options>?,
                           _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata, call: { _ in try requestCall(method, path, options) })
}

@_cdecl("drupal_request_sync")
public func drupal_request_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                _ method: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                _ options: UnsafePointer<drupal_request_options>?) -> drupal_code {
    CallRunner.wait(out, client, call: { _ in try requestCall(method, path, options) })
}
