import CDrupal
import CJansson
import DrupalSDK
import FoundationEssentials

// drupal_jsonapi_* calls (async and _sync) and drupal_jsonapi_pager_new. Each converts its C
// arguments into a JSONAPICall; the core checks them and builds the request.

private func resourceType(_ type: UnsafePointer<CChar>?) throws -> JSONAPIResourceType {
    try JSONAPIResourceType(try CInput.string(type, "type"))
}

private func getCall(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ query: OpaquePointer?) throws
    -> DrupalOperation {
    let resourceType = try resourceType(type)
    let query = QueryHandle.query(query)
    guard let id = try CInput.optionalString(id, "id") else { return .jsonAPI(.collection(resourceType, query: query)) }
    return .jsonAPI(.get(resourceType, id: id, query: query))
}

private func relatedCall(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ field: UnsafePointer<CChar>?,
                         _ query: OpaquePointer?) throws -> DrupalOperation {
    .jsonAPI(.related(try resourceType(type), id: try CInput.string(id, "id"), field: try CInput.string(field, "field"),
                      query: QueryHandle.query(query)))
}

private func relationshipCall(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                              _ field: UnsafePointer<CChar>?) throws -> DrupalOperation {
    .jsonAPI(.relationship(try resourceType(type), id: try CInput.string(id, "id"),
                           field: try CInput.string(field, "field")))
}

private func createCall(_ type: UnsafePointer<CChar>?, _ document: JSONBody) throws -> DrupalOperation {
    .jsonAPI(.create(try resourceType(type), document: document))
}

private func updateCall(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ document: JSONBody) throws
    -> DrupalOperation {
    .jsonAPI(.update(try resourceType(type), id: try CInput.string(id, "id"), document: document))
}

private func deleteCall(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) throws -> DrupalOperation {
    .jsonAPI(.delete(try resourceType(type), id: try CInput.string(id, "id")))
}

private func changeCall(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ field: UnsafePointer<CChar>?,
                        _ change: drupal_relationship_change, _ identifiers: JSONBody) throws -> DrupalOperation {
    let kind: JSONAPICall.RelationshipChange
    switch change {
    case DRUPAL_RELATIONSHIP_ADD: kind = .add
    case DRUPAL_RELATIONSHIP_REPLACE: kind = .replace
    case DRUPAL_RELATIONSHIP_REMOVE: kind = .remove
    default: throw DrupalError(.invalidArgument, "change is not a drupal_relationship_change (\(change.rawValue))")
    }
    return .jsonAPI(.changeRelationship(try resourceType(type), id: try CInput.string(id, "id"),
                                        field: try CInput.string(field, "field"), kind,
                                        identifiers: identifiers))
}

/// A document given as JSON text: checked once by the core.
private func textDocument(_ text: UnsafePointer<CChar>?, _ length: Int, _ name: String) throws -> JSONBody {
    try JSONBody(try CInput.bytes(text, length, name))
}

private func uploadCall(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ field: UnsafePointer<CChar>?,
                        _ filename: UnsafePointer<CChar>?, _ data: UnsafeRawPointer?, _ length: Int) throws
    -> DrupalOperation {
    .jsonAPI(.upload(try resourceType(type), id: try CInput.optionalString(id, "id"),
                     field: try CInput.string(field, "field"), filename: try CInput.string(filename, "filename"),
                     data: try CInput.bytes(data, length, "data")))
}

private func uploadPathCall(_ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ field: UnsafePointer<CChar>?,
                            _ path: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
                            _ options: UnsafePointer<drupal_transfer_options>?, of client: OpaquePointer?) throws
    -> DrupalOperation {
    let callbacks = try transferCallbacks(options, of: client)
    if callbacks.write != nil { throw DrupalError(.invalidArgument, "options.write is for downloads") }
    return .jsonAPI(.upload(try resourceType(type), id: try CInput.optionalString(id, "id"),
                            field: try CInput.string(field, "field"), path: try CInput.path(path, "path"),
                            filename: try CInput.optionalString(filename, "filename"), progress: callbacks.progress))
}

private func followCall(_ link: UnsafePointer<CChar>?) throws -> DrupalOperation {
    .jsonAPI(.follow(try CInput.string(link, "link")))
}

@_cdecl("drupal_jsonapi_get")
public func drupal_jsonapi_get(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                               _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ query: OpaquePointer?,
                               _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try getCall(type, id, query) }
}

@_cdecl("drupal_jsonapi_get_sync")
public func drupal_jsonapi_get_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                    _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                    _ query: OpaquePointer?) -> drupal_code {
    CallRunner.wait(out, client) { try getCall(type, id, query) }
}

@_cdecl("drupal_jsonapi_related")
public func drupal_jsonapi_related(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                   _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                   _ field: UnsafePointer<CChar>?, _ query: OpaquePointer?,
                                   _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try relatedCall(type, id, field, query) }
}

@_cdecl("drupal_jsonapi_related_sync")
public func drupal_jsonapi_related_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                        _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                        _ field: UnsafePointer<CChar>?, _ query: OpaquePointer?) -> drupal_code {
    CallRunner.wait(out, client) { try relatedCall(type, id, field, query) }
}

@_cdecl("drupal_jsonapi_relationship")
public func drupal_jsonapi_relationship(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                        _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                        _ field: UnsafePointer<CChar>?, _ callback: CCallback?,
                                        _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try relationshipCall(type, id, field) }
}

@_cdecl("drupal_jsonapi_relationship_sync")
public func drupal_jsonapi_relationship_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                             _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                             _ field: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { try relationshipCall(type, id, field) }
}

@_cdecl("drupal_jsonapi_create")
public func drupal_jsonapi_create(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                  _ type: UnsafePointer<CChar>?, _ document: UnsafePointer<CChar>?, _ length: Int,
                                  _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try createCall(type, try textDocument(document, length, "document"))
    }
}

@_cdecl("drupal_jsonapi_create_sync")
public func drupal_jsonapi_create_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ type: UnsafePointer<CChar>?, _ document: UnsafePointer<CChar>?,
                                       _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) { try createCall(type, try textDocument(document, length, "document")) }
}

@_cdecl("drupal_jsonapi_create_json")
public func drupal_jsonapi_create_json(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ type: UnsafePointer<CChar>?, _ document: UnsafePointer<json_t>?,
                                       _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try createCall(type, try CInput.jsonBody(document, "document"))
    }
}

@_cdecl("drupal_jsonapi_create_json_sync")
public func drupal_jsonapi_create_json_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                            _ type: UnsafePointer<CChar>?,
                                            _ document: UnsafePointer<json_t>?) -> drupal_code {
    CallRunner.wait(out, client) { try createCall(type, try CInput.jsonBody(document, "document")) }
}

@_cdecl("drupal_jsonapi_update")
public func drupal_jsonapi_update(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                  _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                  _ document: UnsafePointer<CChar>?, _ length: Int, _ callback: CCallback?,
                                  _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try updateCall(type, id, try textDocument(document, length, "document"))
    }
}

@_cdecl("drupal_jsonapi_update_sync")
public func drupal_jsonapi_update_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                       _ document: UnsafePointer<CChar>?, _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) { try updateCall(type, id, try textDocument(document, length, "document")) }
}

@_cdecl("drupal_jsonapi_update_json")
public func drupal_jsonapi_update_json(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                       _ document: UnsafePointer<json_t>?, _ callback: CCallback?,
                                       _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try updateCall(type, id, try CInput.jsonBody(document, "document"))
    }
}

@_cdecl("drupal_jsonapi_update_json_sync")
public func drupal_jsonapi_update_json_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                            _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                            _ document: UnsafePointer<json_t>?) -> drupal_code {
    CallRunner.wait(out, client) { try updateCall(type, id, try CInput.jsonBody(document, "document")) }
}

@_cdecl("drupal_jsonapi_delete")
public func drupal_jsonapi_delete(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                  _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                  _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try deleteCall(type, id) }
}

@_cdecl("drupal_jsonapi_delete_sync")
public func drupal_jsonapi_delete_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { try deleteCall(type, id) }
}

@_cdecl("drupal_jsonapi_relationship_change")
public func drupal_jsonapi_relationship_change(_ call: UnsafeMutablePointer<OpaquePointer?>?,
                                               _ client: OpaquePointer?, _ type: UnsafePointer<CChar>?,
                                               _ id: UnsafePointer<CChar>?, _ field: UnsafePointer<CChar>?,
                                               _ change: drupal_relationship_change,
                                               _ identifiers: UnsafePointer<CChar>?, _ length: Int,
                                               _ callback: CCallback?,
                                               _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try changeCall(type, id, field, change, try textDocument(identifiers, length, "identifiers"))
    }
}

@_cdecl("drupal_jsonapi_relationship_change_sync")
public func drupal_jsonapi_relationship_change_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                                    _ client: OpaquePointer?, _ type: UnsafePointer<CChar>?,
                                                    _ id: UnsafePointer<CChar>?, _ field: UnsafePointer<CChar>?,
                                                    _ change: drupal_relationship_change,
                                                    _ identifiers: UnsafePointer<CChar>?,
                                                    _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) {
        try changeCall(type, id, field, change, try textDocument(identifiers, length, "identifiers"))
    }
}

@_cdecl("drupal_jsonapi_relationship_change_json")
public func drupal_jsonapi_relationship_change_json(_ call: UnsafeMutablePointer<OpaquePointer?>?,
                                                    _ client: OpaquePointer?, _ type: UnsafePointer<CChar>?,
                                                    _ id: UnsafePointer<CChar>?, _ field: UnsafePointer<CChar>?,
                                                    _ change: drupal_relationship_change,
                                                    _ identifiers: UnsafePointer<json_t>?, _ callback: CCallback?,
                                                    _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try changeCall(type, id, field, change, try CInput.jsonBody(identifiers, "identifiers"))
    }
}

@_cdecl("drupal_jsonapi_relationship_change_json_sync")
public func drupal_jsonapi_relationship_change_json_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                                         _ client: OpaquePointer?, _ type: UnsafePointer<CChar>?,
                                                         _ id: UnsafePointer<CChar>?, _ field: UnsafePointer<CChar>?,
                                                         _ change: drupal_relationship_change,
                                                         _ identifiers: UnsafePointer<json_t>?) -> drupal_code {
    CallRunner.wait(out, client) {
        try changeCall(type, id, field, change, try CInput.jsonBody(identifiers, "identifiers"))
    }
}

@_cdecl("drupal_jsonapi_upload")
public func drupal_jsonapi_upload(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                  _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                  _ field: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
                                  _ data: UnsafeRawPointer?, _ length: Int, _ callback: CCallback?,
                                  _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try uploadCall(type, id, field, filename, data, length) }
}

@_cdecl("drupal_jsonapi_upload_sync")
public func drupal_jsonapi_upload_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                       _ field: UnsafePointer<CChar>?, _ filename: UnsafePointer<CChar>?,
                                       _ data: UnsafeRawPointer?, _ length: Int) -> drupal_code {
    CallRunner.wait(out, client) { try uploadCall(type, id, field, filename, data, length) }
}

@_cdecl("drupal_jsonapi_upload_path")
public func drupal_jsonapi_upload_path(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                       _ field: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                       _ filename: UnsafePointer<CChar>?,
                                       _ options: UnsafePointer<drupal_transfer_options>?, _ callback: CCallback?,
                                       _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try uploadPathCall(type, id, field, path, filename, options, of: client) }
}

@_cdecl("drupal_jsonapi_upload_path_sync")
public func drupal_jsonapi_upload_path_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                            _ type: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?,
                                            _ field: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                            _ filename: UnsafePointer<CChar>?,
                                            _ options: UnsafePointer<drupal_transfer_options>?) -> drupal_code {
    CallRunner.wait(out, client) { try uploadPathCall(type, id, field, path, filename, options, of: client) }
}

@_cdecl("drupal_jsonapi_entry_point")
public func drupal_jsonapi_entry_point(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { .jsonAPI(.entryPoint) }
}

@_cdecl("drupal_jsonapi_entry_point_sync")
public func drupal_jsonapi_entry_point_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                            _ client: OpaquePointer?) -> drupal_code {
    CallRunner.wait(out, client) { .jsonAPI(.entryPoint) }
}

@_cdecl("drupal_jsonapi_follow")
public func drupal_jsonapi_follow(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                  _ link: UnsafePointer<CChar>?, _ callback: CCallback?,
                                  _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) { try followCall(link) }
}

@_cdecl("drupal_jsonapi_follow_sync")
public func drupal_jsonapi_follow_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                       _ link: UnsafePointer<CChar>?) -> drupal_code {
    CallRunner.wait(out, client) { try followCall(link) }
}

@_cdecl("drupal_jsonapi_pager_new")
public func drupal_jsonapi_pager_new(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                     _ type: UnsafePointer<CChar>?, _ query: OpaquePointer?, _ concurrency: UInt32,
                                     _ maxPages: UInt32) -> drupal_code {
    newPager(out, client) { client in
        try client.jsonAPIPages(try resourceType(type), query: QueryHandle.query(query),
                                concurrency: concurrency == 0 ? 1 : Int(concurrency),
                                maxPages: maxPages == 0 ? 100_000 : Int(maxPages))
    }
}
