import CDrupal
import DrupalSDK
import FoundationEssentials

// drupal_mock_*: a client over the in-memory Drupal, for testing C code without a server.

@_cdecl("drupal_mock_client_new")
public func drupal_mock_client_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    let site = MockDrupal()
    let handle = ClientHandle(client: .mock(site), mock: site)
    out.pointee = OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
    return drupalOK
}

private func mockSite(_ client: OpaquePointer?) throws -> MockDrupal {
    guard let handle = ClientHandle.from(client) else { throw DrupalError(.invalidArgument, "client is NULL") }
    guard let site = handle.mock else {
        throw DrupalError(.invalidArgument, "client is not a mock client (use drupal_mock_client_new)")
    }
    return site
}

@_cdecl("drupal_mock_add_user")
public func drupal_mock_add_user(_ uid: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ client: OpaquePointer?,
                                 _ name: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
                                 _ roles: UnsafePointer<UnsafePointer<CChar>?>?) -> drupal_code {
    uid?.pointee = nil
    do {
        let site = try mockSite(client)
        let newUID = site.addUser(name: try CInput.nonEmptyString(name, "name"),
                                  password: try CInput.string(password, "password"),
                                  roles: try CInput.stringList(roles, "roles"))
        if let uid {
            guard let copy = duplicateCString(newUID) else { return fail(.noMemory, "out of memory copying the new id") }
            uid.pointee = copy
        }
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_mock_add_entity")
public func drupal_mock_add_entity(_ id: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ client: OpaquePointer?,
                                   _ type: UnsafePointer<CChar>?, _ json: UnsafePointer<CChar>?) -> drupal_code {
    id?.pointee = nil
    do {
        let site = try mockSite(client)
        let entityType = try CInput.nonEmptyString(type, "entity_type")
        let text = try CInput.string(json, "json")
        guard let body = JSONValue.parse(Data(text.utf8)), body.objectValue != nil else {
            throw DrupalError(.invalidArgument, "json is not a JSON object")
        }
        let newID = site.addEntity(entityType, body)
        if let id {
            guard let copy = duplicateCString(newID) else { return fail(.noMemory, "out of memory copying the new id") }
            id.pointee = copy
        }
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_mock_stub")
public func drupal_mock_stub(_ client: OpaquePointer?, _ method: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                             _ status: Int32, _ contentType: UnsafePointer<CChar>?, _ body: UnsafeRawPointer?,
                             _ length: Int) -> drupal_code {
    do {
        let site = try mockSite(client)
        let method = try CInput.nonEmptyString(method, "method")
        let path = try CInput.nonEmptyString(path, "path")
        // A stub for a path the client would refuse could never be reached.
        _ = try PathSafety.normalizePath(path)
        guard (100...599).contains(status) else { throw DrupalError(.invalidArgument, "status \(status) is not 100-599") }
        var headers = HTTPHeaders()
        if let type = try CInput.optionalString(contentType, "content_type") { headers.add("Content-Type", type) }
        try headers.validate()
        site.stub(method: method, path: path, status: Int(status), headers: headers,
                  body: try CInput.bytes(body, length, "body"))
        return drupalOK
    } catch {
        return fail(error)
    }
}
