import CDrupal
import CJansson
import DrupalSDK
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

// drupal_entity_* and drupal_file_upload (async and _sync).

// Each converts its C arguments into the operation; the client checks them (a NULL or invalid
// string is refused here, as it cannot be converted).

private func getOperation(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) throws -> DrupalOperation {
    .get(entityType: try CInput.string(type, "entity_type"), id: try CInput.string(id, "id"))
}

private func createOperation(_ type: UnsafePointer<CChar>?, _ body: JSONBody) throws -> DrupalOperation {
    .create(entityType: try CInput.string(type, "entity_type"), body: body)
}

private func updateOperation(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ body: JSONBody) throws
    -> DrupalOperation {
    .update(entityType: try CInput.string(type, "entity_type"), id: try CInput.string(id, "id"), body: body)
}

private func deleteOperation(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) throws -> DrupalOperation {
    .delete(entityType: try CInput.string(type, "entity_type"), id: try CInput.string(id, "id"))
}

/// A body given as bytes: JSON the client checks once.
private func textBody(_ body: UnsafePointer<CChar>?, _ length: Int) throws -> JSONBody {
    try JSONBody(try CInput.bytes(body, length, "body"))
}

@_cdecl("drupal_entity_get")
public func drupal_entity_get(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                              _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                              _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try getOperation(type, id) }
}

@_cdecl("drupal_entity_get_sync")
public func drupal_entity_get_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                   _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { try getOperation(type, id) }
}

@_cdecl("drupal_entity_create")
public func drupal_entity_create(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                 _ type: UnsafePointer<CChar>?, _ body: UnsafePointer<CChar>?, _ length: Int,
                                 _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try createOperation(type, try textBody(body, length))
    }
}

@_cdecl("drupal_entity_create_sync")
public func drupal_entity_create_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ body: UnsafePointer<CChar>?,
                                      _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) { try createOperation(type, try textBody(body, length)) }
}

@_cdecl("drupal_entity_create_json")
public func drupal_entity_create_json(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ body: UnsafePointer<json_t>?,
                                      _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try createOperation(type, try CInput.jsonBody(body, "body")) }
}

@_cdecl("drupal_entity_create_json_sync")
public func drupal_entity_create_json_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                           _ type: UnsafePointer<CChar>?, _ body: UnsafePointer<json_t>?) -> drupal_code {
    CallRunner.wait(out, client) { try createOperation(type, try CInput.jsonBody(body, "body")) }
}

@_cdecl("drupal_entity_update")
public func drupal_entity_update(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                 _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                 _ body: UnsafePointer<CChar>?, _ length: Int,
                                 _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try updateOperation(type, id, try textBody(body, length))
    }
}

@_cdecl("drupal_entity_update_sync")
public func drupal_entity_update_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                      _ body: UnsafePointer<CChar>?, _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) { try updateOperation(type, id, try textBody(body, length)) }
}

@_cdecl("drupal_entity_update_json")
public func drupal_entity_update_json(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                      _ body: UnsafePointer<json_t>?,
                                      _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try updateOperation(type, id, try CInput.jsonBody(body, "body")) }
}

@_cdecl("drupal_entity_update_json_sync")
public func drupal_entity_update_json_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                           _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                           _ body: UnsafePointer<json_t>?) -> drupal_code {
    CallRunner.wait(out, client) { try updateOperation(type, id, try CInput.jsonBody(body, "body")) }
}

@_cdecl("drupal_entity_delete")
public func drupal_entity_delete(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                 _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                 _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try deleteOperation(type, id) }
}

@_cdecl("drupal_entity_delete_sync")
public func drupal_entity_delete_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { try deleteOperation(type, id) }
}

private func uploadOperation(_ type: UnsafePointer<CChar>?, _ bundle: UnsafePointer<CChar>?,
                             _ field: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
                             _ data: UnsafeRawPointer?, _ length: Int) throws -> DrupalOperation {
    .uploadFile(FileUpload(entityType: try CInput.string(type, "entity_type"),
                           bundle: try CInput.string(bundle, "bundle"), field: try CInput.string(field, "field"),
                           filename: try CInput.string(filename, "filename"),
                           data: try CInput.bytes(data, length, "data")))
}

@_cdecl("drupal_file_upload")
public func drupal_file_upload(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                               _ type: UnsafePointer<CChar>?, _ bundle: UnsafePointer<CChar>?,
                               _ field: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
                               _ data: UnsafeRawPointer?, _ length: Int,
                               _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try uploadOperation(type, bundle, field, filename, data, length)
    }
}

@_cdecl("drupal_file_upload_sync")
public func drupal_file_upload_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                    _ type: UnsafePointer<CChar>?, _ bundle: UnsafePointer<CChar>?,
                                    _ field: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
                                    _ data: UnsafeRawPointer?, _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) { try uploadOperation(type, bundle, field, filename, data, length) }
}
