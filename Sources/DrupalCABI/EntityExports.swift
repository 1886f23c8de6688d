import CDrupal
import CJansson
import DrupalSDK
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

// drupal_entity_* and drupal_file_upload (async and _sync).

private func getCall(_ client: DrupalClient, _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) throws
    -> ClientHandle.Call {
    let type = try CInput.nonEmptyString(type, "entity_type")
    let id = try CInput.nonEmptyString(id, "id")
    try EntityPath.validate(entityType: type, id: id)
    // A GET of the entity's path is all `get` does: clients with a callback mode run it as that.
    if let mode = client.callbackMode {
        return ClientHandle.Call(request: DrupalRequest(method: "GET", path: try mode.entityPath(type, id),
                                                        expectedBody: .object))
    }
    return ClientHandle.Call(operation: { try await $0.get(type, id) })
}

private func createOperation(_ type: UnsafePointer<CChar>?, _ body: Data) throws -> ClientHandle.Operation {
    // Refused before the call starts, not in its callback.
    try JSONValue.validateEntityBody(body)
    let type = try CInput.nonEmptyString(type, "entity_type")
    try EntityPath.validate(entityType: type)
    return { try await $0.create(type, body) }
}

private func updateOperation(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ body: Data) throws
    -> ClientHandle.Operation {
    // Refused before the call starts, not in its callback.
    try JSONValue.validateEntityBody(body)
    let type = try CInput.nonEmptyString(type, "entity_type")
    let id = try CInput.nonEmptyString(id, "id")
    try EntityPath.validate(entityType: type, id: id)
    return { try await $0.update(type, id, body) }
}

private func deleteOperation(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) throws -> ClientHandle.Operation {
    let type = try CInput.nonEmptyString(type, "entity_type")
    let id = try CInput.nonEmptyString(id, "id")
    try EntityPath.validate(entityType: type, id: id)
    return { try await $0.delete(type, id) }
}

/// Serialises a Jansson value at once, so the caller may change or free it after the call.
private func jsonBody(_ value: UnsafePointer<json_t>?) throws -> Data {
    guard let value else { throw DrupalError(.invalidArgument, "body is NULL") }
    guard let text = json_dumps(value, Int(JSON_COMPACT)) else {
        throw DrupalError(.invalidArgument, "body cannot be serialised as JSON")
    }
    defer { free(text) }
    return Data(bytes: text, count: strlen(text))
}

@_cdecl("drupal_entity_get")
public func drupal_entity_get(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                              _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                              _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata, call: { try getCall($0.client, type, id) })
}

@_cdecl("drupal_entity_get_sync")
public func drupal_entity_get_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                   _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client, call: { try getCall($0.client, type, id) })
}

@_cdecl("drupal_entity_create")
public func drupal_entity_create(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                 _ type: UnsafePointer<CChar>?, _ body: UnsafePointer<CChar>?, _ length: Int,
                                 _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in
        try createOperation(type, try CInput.bytes(body, length, "body"))
    }
}

@_cdecl("drupal_entity_create_sync")
public func drupal_entity_create_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ body: UnsafePointer<CChar>?,
                                      _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) { _ in try createOperation(type, try CInput.bytes(body, length, "body")) }
}

@_cdecl("drupal_entity_create_json")
public func drupal_entity_create_json(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ body: UnsafePointer<json_t>?,
                                      _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in try createOperation(type, try jsonBody(body)) }
}

@_cdecl("drupal_entity_create_json_sync")
public func drupal_entity_create_json_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                           _ type: UnsafePointer<CChar>?, _ body: UnsafePointer<json_t>?) -> drupal_code {
    CallRunner.wait(out, client) { _ in try createOperation(type, try jsonBody(body)) }
}

@_cdecl("drupal_entity_update")
public func drupal_entity_update(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                 _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                 _ body: UnsafePointer<CChar>?, _ length: Int,
                                 _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in
        try updateOperation(type, id, try CInput.bytes(body, length, "body"))
    }
}

@_cdecl("drupal_entity_update_sync")
public func drupal_entity_update_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                      _ body: UnsafePointer<CChar>?, _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) { _ in try updateOperation(type, id, try CInput.bytes(body, length, "body")) }
}

@_cdecl("drupal_entity_update_json")
public func drupal_entity_update_json(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                      _ body: UnsafePointer<json_t>?,
                                      _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in try updateOperation(type, id, try jsonBody(body)) }
}

@_cdecl("drupal_entity_update_json_sync")
public func drupal_entity_update_json_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                           _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                           _ body: UnsafePointer<json_t>?) -> drupal_code {
    CallRunner.wait(out, client) { _ in try updateOperation(type, id, try jsonBody(body)) }
}

@_cdecl("drupal_entity_delete")
public func drupal_entity_delete(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                 _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                 _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in try deleteOperation(type, id) }
}

@_cdecl("drupal_entity_delete_sync")
public func drupal_entity_delete_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { _ in try deleteOperation(type, id) }
}

private func uploadOperation(_ type: UnsafePointer<CChar>?, _ bundle: UnsafePointer<CChar>?,
                             _ field: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
                             _ data: UnsafeRawPointer?, _ length: Int) throws -> ClientHandle.Operation {
    let upload = FileUpload(entityType: try CInput.nonEmptyString(type, "entity_type"),
                            bundle: try CInput.nonEmptyString(bundle, "bundle"),
                            field: try CInput.nonEmptyString(field, "field"),
                            filename: try CInput.nonEmptyString(filename, "filename"),
                            data: try CInput.bytes(data, length, "data"))
    try upload.validate()
    return { try await $0.uploadFile(upload) }
}

@_cdecl("drupal_file_upload")
public func drupal_file_upload(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                               _ type: UnsafePointer<CChar>?, _ bundle: UnsafePointer<CChar>?,
                               _ field: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
                               _ data: UnsafeRawPointer?, _ length: Int,
                               _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { _ in
        try uploadOperation(type, bundle, field, filename, data, length)
    }
}

@_cdecl("drupal_file_upload_sync")
public func drupal_file_upload_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                    _ type: UnsafePointer<CChar>?, _ bundle: UnsafePointer<CChar>?,
                                    _ field: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
                                    _ data: UnsafeRawPointer?, _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) { _ in try uploadOperation(type, bundle, field, filename, data, length) }
}
