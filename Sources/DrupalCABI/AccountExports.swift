import CDrupal
import DrupalSDK
import FoundationEssentials

// drupal_user_register, drupal_user_password_reset, drupal_path_resolve (async and _sync): each
// converts its C arguments into the operation; what is sent is the core's (Accounts.swift).

private func registerOperation(_ name: UnsafePointer<CChar>?, _ mail: UnsafePointer<CChar>?,
                               _ password: UnsafePointer<CChar>?, _ fields: UnsafePointer<CChar>?) throws
    -> DrupalOperation {
    let extra = try CInput.optionalString(fields, "fields_json").map { try JSONBody(Data($0.utf8)) }
    return .register(Registration(name: try CInput.string(name, "name"), mail: try CInput.string(mail, "mail"),
                                  password: try CInput.optionalString(password, "password"), fields: extra))
}

private func resetOperation(_ name: UnsafePointer<CChar>?, _ mail: UnsafePointer<CChar>?) throws -> DrupalOperation {
    .resetPassword(name: try CInput.optionalString(name, "name"), mail: try CInput.optionalString(mail, "mail"))
}

@_cdecl("drupal_user_register")
public func drupal_user_register(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                 _ name: UnsafePointer<CChar>?, _ mail: UnsafePointer<CChar>?,
                                 _ password: UnsafePointer<CChar>?, _ fields: UnsafePointer<CChar>?,
                                 _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try registerOperation(name, mail, password, fields) }
}

@_cdecl("drupal_user_register_sync")
public func drupal_user_register_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ name: UnsafePointer<CChar>?, _ mail: UnsafePointer<CChar>?,
                                      _ password: UnsafePointer<CChar>?, _ fields: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { try registerOperation(name, mail, password, fields) }
}

@_cdecl("drupal_user_password_reset")
public func drupal_user_password_reset(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ name: UnsafePointer<CChar>?, _ mail: UnsafePointer<CChar>?,
                                       _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try resetOperation(name, mail) }
}

@_cdecl("drupal_user_password_reset_sync")
public func drupal_user_password_reset_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                            _ name: UnsafePointer<CChar>?, _ mail: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { try resetOperation(name, mail) }
}

@_cdecl("drupal_path_resolve")
public func drupal_path_resolve(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                _ path: UnsafePointer<CChar>?, _ callback: CCallback?,
                                _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { .resolvePath(try CInput.string(path, "path")) }
}

@_cdecl("drupal_path_resolve_sync")
public func drupal_path_resolve_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                     _ path: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { .resolvePath(try CInput.string(path, "path")) }
}
