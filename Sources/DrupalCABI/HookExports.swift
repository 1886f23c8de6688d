import CDrupal
import DrupalSDK
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

// Request and log hooks (drupal_client_options.request_hook / log_hook), as core middleware, and
// drupal_request_edit_*: what a request hook may read and change.

public typealias CRequestHook = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> drupal_code
public typealias CLogHook = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void

/// What a drupal_request_edit points at while a request hook runs: the request, and C copies of
/// what the accessors returned (valid until the hook returns).
final class RequestEdit {
    var request: HTTPRequest
    private var copies: [UnsafeMutablePointer<CChar>] = []

    init(_ request: HTTPRequest) { self.request = request }

    deinit { for copy in copies { free(copy) } }

    /// A C string that lives as long as this edit (nil when out of memory).
    func borrowed(_ text: String) -> UnsafePointer<CChar>? {
        guard let copy = duplicateCString(text) else { return nil }
        copies.append(copy)
        return UnsafePointer(copy)
    }

    static func from(_ pointer: OpaquePointer?) -> RequestEdit? {
        guard let pointer else { return nil }
        return Unmanaged<RequestEdit>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

enum Hooks {
    /// Middleware that hands each request to a C request hook, which may change its headers.
    static func request(_ hook: CRequestHook, _ userdata: UnsafeMutableRawPointer?) -> Middleware {
        let bits = UInt(bitPattern: userdata)
        return Middleware(onRequest: { request in
            let edit = RequestEdit(request)
            let code = withExtendedLifetime(edit) {
                hook(OpaquePointer(Unmanaged.passUnretained(edit).toOpaque()), UnsafeMutableRawPointer(bitPattern: bits))
            }
            guard code == drupalOK else {
                let known = DrupalError.Code(caller: code) ?? .internal
                throw DrupalError(known, "the request hook refused the request (\(String(cString: drupal_code_name(code))))")
            }
            request = edit.request
        })
    }

    /// Middleware that gives a C log hook each request and response, secrets redacted.
    static func log(_ hook: CLogHook, _ userdata: UnsafeMutableRawPointer?, secretHeaders: [String]) -> Middleware {
        let bits = UInt(bitPattern: userdata)
        return .logging(secretHeaders: secretHeaders) { line in
            line.withCString { hook($0, UnsafeMutableRawPointer(bitPattern: bits)) }
        }
    }
}

@_cdecl("drupal_request_edit_method")
public func drupal_request_edit_method(_ edit: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let edit = RequestEdit.from(edit) else { return nil }
    return edit.borrowed(edit.request.method)
}

@_cdecl("drupal_request_edit_url")
public func drupal_request_edit_url(_ edit: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let edit = RequestEdit.from(edit) else { return nil }
    return edit.borrowed(edit.request.url)
}

@_cdecl("drupal_request_edit_header")
public func drupal_request_edit_header(_ edit: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    guard let edit = RequestEdit.from(edit), let name, let value = edit.request.headers[String(cString: name)]
    else { return nil }
    return edit.borrowed(value)
}

@_cdecl("drupal_request_edit_set_header")
public func drupal_request_edit_set_header(_ edit: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                           _ value: UnsafePointer<CChar>?) -> drupal_code {
    guard let edit = RequestEdit.from(edit) else { return fail(.invalidArgument, "edit is NULL") }
    do {
        var headers = HTTPHeaders()
        headers.add(try CInput.string(name, "name"), try CInput.string(value, "value"))
        try headers.validate()
        edit.request.headers.set(headers.fields[0].name, headers.fields[0].value)
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_request_edit_remove_header")
public func drupal_request_edit_remove_header(_ edit: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> drupal_code {
    guard let edit = RequestEdit.from(edit) else { return fail(.invalidArgument, "edit is NULL") }
    do {
        edit.request.headers.remove(try CInput.string(name, "name"))
        return drupalOK
    } catch {
        return fail(error)
    }
}
