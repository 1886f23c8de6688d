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

/// Runs `body` on a mock client's site and hands the id it returns to `out` (owned by the
/// caller, NULL when not wanted).
private func newID(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ client: OpaquePointer?,
                   _ body: (MockDrupal) throws -> String) -> drupal_code {
    out?.pointee = nil
    do {
        let id = try body(try mockSite(client))
        if let out {
            guard let copy = duplicateCString(id) else { return fail(.noMemory, "out of memory copying the new id") }
            out.pointee = copy
        }
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_mock_add_user")
public func drupal_mock_add_user(_ uid: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ client: OpaquePointer?,
                                 _ name: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?,
                                 _ roles: UnsafePointer<UnsafePointer<CChar>?>?) -> drupal_code {
    newID(uid, client) { site in
        site.addUser(name: try CInput.nonEmptyString(name, "name"), password: try CInput.string(password, "password"),
                     roles: try CInput.stringList(roles, "roles"))
    }
}

@_cdecl("drupal_mock_add_entity")
public func drupal_mock_add_entity(_ id: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ client: OpaquePointer?,
                                   _ type: UnsafePointer<CChar>?, _ json: UnsafePointer<CChar>?) -> drupal_code {
    newID(id, client) { site in
        let entityType = try CInput.nonEmptyString(type, "entity_type")
        guard let body = JSONValue.parse(Data(try CInput.string(json, "json").utf8)), body.objectValue != nil else {
            throw DrupalError(.invalidArgument, "json is not a JSON object")
        }
        return site.addEntity(entityType, body)
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

@_cdecl("drupal_unimplemented_client_new")
public func drupal_unimplemented_client_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    out.pointee = OpaquePointer(Unmanaged.passRetained(ClientHandle(client: .unimplemented)).toOpaque())
    return drupalOK
}

/// Runs `body` on a mock client's site; the C code of the outcome.
private func onSite(_ client: OpaquePointer?, _ body: (MockDrupal) throws -> Void) -> drupal_code {
    do {
        try body(try mockSite(client))
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_mock_add_view")
public func drupal_mock_add_view(_ client: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?,
                                 _ bundle: UnsafePointer<CChar>?, _ itemsPerPage: UInt32) -> drupal_code {
    onSite(client) { site in
        site.addView(path: try CInput.nonEmptyString(path, "path"), entityType: try CInput.nonEmptyString(type, "entity_type"),
                     bundle: try CInput.optionalString(bundle, "bundle"), itemsPerPage: itemsPerPage == 0 ? 10 : Int(itemsPerPage))
    }
}

@_cdecl("drupal_mock_add_bundle")
public func drupal_mock_add_bundle(_ client: OpaquePointer?, _ type: UnsafePointer<CChar>?,
                                   _ bundle: UnsafePointer<CChar>?) -> drupal_code {
    onSite(client) { site in
        site.addBundle(try CInput.nonEmptyString(type, "entity_type"), try CInput.nonEmptyString(bundle, "bundle"))
    }
}

@_cdecl("drupal_mock_add_bearer_token")
public func drupal_mock_add_bearer_token(_ client: OpaquePointer?, _ token: UnsafePointer<CChar>?,
                                         _ uid: UnsafePointer<CChar>?) -> drupal_code {
    onSite(client) { site in
        site.addBearerToken(try CInput.nonEmptyString(token, "token"), uid: try CInput.nonEmptyString(uid, "uid"))
    }
}

@_cdecl("drupal_mock_add_oauth_consumer")
public func drupal_mock_add_oauth_consumer(_ client: OpaquePointer?, _ clientID: UnsafePointer<CChar>?,
                                           _ secret: UnsafePointer<CChar>?,
                                           _ grants: UnsafePointer<UnsafePointer<CChar>?>?, _ uid: UnsafePointer<CChar>?,
                                           _ redirectURIs: UnsafePointer<UnsafePointer<CChar>?>?) -> drupal_code {
    onSite(client) { site in
        var consumer = MockOAuthConsumer(clientID: try CInput.nonEmptyString(clientID, "client_id"),
                                         secret: try CInput.optionalString(secret, "secret"),
                                         uid: try CInput.optionalString(uid, "uid"),
                                         redirectURIs: try CInput.stringList(redirectURIs, "redirect_uris"))
        if grants != nil {
            let list = try CInput.stringList(grants, "grants")
            if let index = list.firstIndex(where: { !MockOAuthConsumer.grantTypes.contains($0) }) {
                throw DrupalError(.invalidArgument, "grants[\(index)] is not one of simple_oauth's grants: "
                                  + MockOAuthConsumer.grantTypes.sorted().joined(separator: ", "))
            }
            consumer.grants = Set(list)
        }
        site.addOAuthConsumer(consumer)
    }
}

@_cdecl("drupal_mock_add_language")
public func drupal_mock_add_language(_ client: OpaquePointer?, _ langcode: UnsafePointer<CChar>?,
                                     _ prefix: UnsafePointer<CChar>?) -> drupal_code {
    onSite(client) { site in
        try site.addLanguage(try CInput.nonEmptyString(langcode, "langcode"),
                             prefix: try CInput.optionalString(prefix, "prefix"))
    }
}

@_cdecl("drupal_mock_add_translation")
public func drupal_mock_add_translation(_ client: OpaquePointer?, _ type: UnsafePointer<CChar>?,
                                        _ id: UnsafePointer<CChar>?, _ langcode: UnsafePointer<CChar>?,
                                        _ json: UnsafePointer<CChar>?) -> drupal_code {
    onSite(client) { site in
        let entityType = try CInput.nonEmptyString(type, "entity_type")
        let entityID = try CInput.nonEmptyString(id, "id")
        let language = try CInput.nonEmptyString(langcode, "langcode")
        guard let fields = JSONValue.parse(Data(try CInput.string(json, "json").utf8)), fields.objectValue != nil else {
            throw DrupalError(.invalidArgument, "json is not a JSON object")
        }
        try site.addTranslation(entityType, entityID, language: language, fields)
    }
}

@_cdecl("drupal_mock_expire_oauth_tokens")
public func drupal_mock_expire_oauth_tokens(_ client: OpaquePointer?) -> drupal_code {
    onSite(client) { $0.expireOAuthTokens() }
}

@_cdecl("drupal_mock_invalidate_csrf_tokens")
public func drupal_mock_invalidate_csrf_tokens(_ client: OpaquePointer?) -> drupal_code {
    onSite(client) { $0.invalidateCSRFTokens() }
}

@_cdecl("drupal_mock_stub_answers")
public func drupal_mock_stub_answers(_ client: OpaquePointer?, _ method: UnsafePointer<CChar>?,
                                     _ path: UnsafePointer<CChar>?, _ query: UnsafePointer<UnsafePointer<CChar>?>?,
                                     _ answers: UnsafePointer<drupal_mock_answer>?, _ count: Int) -> drupal_code {
    onSite(client) { site in
        let method = try CInput.nonEmptyString(method, "method")
        let path = try CInput.nonEmptyString(path, "path")
        _ = try PathSafety.normalizePath(path)
        guard let answers, count > 0 else { throw DrupalError(.invalidArgument, "answers is NULL or count is 0") }
        let list = try (0..<count).map { index -> MockStubAnswer in
            let pointer = answers + index
            let version = UnsafeRawPointer(pointer).load(as: UInt32.self)
            guard version == 1 else { throw DrupalError(.invalidArgument, "unknown drupal_mock_answer version \(version)") }
            let answer = pointer.pointee
            if answer.fail != drupalOK {
                guard let code = DrupalError.Code(caller: answer.fail) else {
                    throw DrupalError(.invalidArgument, "answers[\(index)].fail is not a drupal_code")
                }
                return .transportFailure(code)
            }
            guard (100...599).contains(answer.status) else {
                throw DrupalError(.invalidArgument, "answers[\(index)].status \(answer.status) is not 100-599")
            }
            let headers = try CInput.headerLines(answer.headers, "answers[\(index)].headers")
            try headers.validate()
            return .response(HTTPResponse(status: Int(answer.status), headers: headers,
                                          body: try CInput.bytes(answer.body, answer.body_length, "answers[\(index)].body")))
        }
        site.stub(method: method, path: path, query: try CInput.queryPairs(query, "query"), answers: list)
    }
}

@_cdecl("drupal_mock_requests_json")
public func drupal_mock_requests_json(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                      _ client: OpaquePointer?) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    return onSite(client) { site in
        let list = JSONValue.array(site.receivedRequests.map { request in
            .object(["method": .string(request.method), "url": .string(request.url),
                     "headers": .array(request.headers.map { .array([.string($0.name), .string($0.value)]) }),
                     "body": request.body.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null])
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        guard let text = duplicateCString(String(decoding: (try? encoder.encode(list)) ?? Data("[]".utf8), as: UTF8.self))
        else {
            throw DrupalError(.noMemory, "out of memory copying the requests")
        }
        out.pointee = text
    }
}

@_cdecl("drupal_mock_clear_requests")
public func drupal_mock_clear_requests(_ client: OpaquePointer?) -> drupal_code {
    onSite(client) { $0.clearReceivedRequests() }
}
