import CDrupal
import DrupalSDK
import FoundationEssentials

// Languages: drupal_client_with_language (a handle on the same session whose calls go under a
// language's prefix) and drupal_response_langcode. The prefixing and the write guards are the
// core's (Languages.swift, DrupalOperation.inLanguage).

/// drupal_client_with_language's flag: untranslated updates and whole-entity deletes allowed.
private let languageForce: UInt32 = 1

@_cdecl("drupal_client_with_language")
public func drupal_client_with_language(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                        _ language: UnsafePointer<CChar>?, _ flags: UInt32) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    guard flags & ~languageForce == 0 else { return fail(.invalidArgument, "unknown flags \(flags)") }
    do {
        let code = try CInput.optionalString(language, "language")
        let view = try handle.client.inLanguage(code, force: flags & languageForce != 0)
        out.pointee = OpaquePointer(Unmanaged.passRetained(ClientHandle(client: view, baseURL: handle.baseURL, mock: handle.mock, family: handle.family)).toOpaque())
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_response_langcode")
public func drupal_response_langcode(_ response: OpaquePointer?) -> UnsafePointer<CChar>? {
    ResponseHandle.from(response)?.langcode
}
