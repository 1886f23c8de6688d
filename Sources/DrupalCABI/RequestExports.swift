import CDrupal
import DrupalSDK
import FoundationEssentials

// drupal_view and drupal_request (async and _sync).

private func viewOperation(_ path: UnsafePointer<CChar>?, _ query: UnsafePointer<UnsafePointer<CChar>?>?) throws
    -> DrupalOperation {
    .view(path: try CInput.string(path, "path"), query: try CInput.queryPairs(query, "query"))
}

@_cdecl("drupal_view")
public func drupal_view(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                        _ path: UnsafePointer<CChar>?, _ query: UnsafePointer<UnsafePointer<CChar>?>?,
                        _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try viewOperation(path, query) }
}

@_cdecl("drupal_view_sync")
public func drupal_view_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                             _ path: UnsafePointer<CChar>?, _ query: UnsafePointer<UnsafePointer<CChar>?>?) -> drupal_code {
    CallRunner.wait(out, client) { try viewOperation(path, query) }
}

/// The request options of a caller's struct: read by its version, copied (the client checks them).
private func requestOperation(_ method: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                              _ options: UnsafePointer<drupal_request_options>?) throws -> DrupalOperation {
    var request = DrupalRequest(method: try CInput.string(method, "method"), path: try CInput.string(path, "path"))
    if let options {
        let version = UnsafeRawPointer(options).load(as: UInt32.self)
        guard version == 1 else {
            throw DrupalError(.invalidArgument, "unknown drupal_request_options version \(version)")
        }
        let fields = options.pointee
        request.query = try CInput.queryPairs(fields.query, "options.query")
        request.headers = try CInput.headerLines(fields.headers, "options.headers")
        if fields.body != nil || fields.body_length != 0 {
            request.body = try CInput.bytes(fields.body, fields.body_length, "options.body")
        }
        if fields.no_format != 0 { request.format = nil }
    }
    return .request(request)
}

@_cdecl("drupal_request")
public func drupal_request(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                           _ method: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                           _ options: UnsafePointer<drupal_request_options>?,
                           _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try requestOperation(method, path, options) }
}

@_cdecl("drupal_request_sync")
public func drupal_request_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                _ method: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                _ options: UnsafePointer<drupal_request_options>?) -> drupal_code {
    CallRunner.wait(out, client) { try requestOperation(method, path, options) }
}
