import FoundationEssentials

/// Accounts and paths: registration and password reset (core's user REST routes) and
/// decoupled_router's path resolution, as requests built once here.
public struct Registration: Sendable {
    public var name: String
    public var mail: String
    /// Nil on sites that verify e-mail addresses (Drupal then refuses one, 422) and mail the
    /// user a link; required where visitors register without verification.
    public var password: String?
    /// More fields of the account in Drupal's REST JSON (`{"field_x": [{"value": ...}]}`): a JSON
    /// object; `name`, `mail` and `pass` are set from the values above.
    public var fields: JSONBody?

    public init(name: String, mail: String, password: String? = nil, fields: JSONBody? = nil) {
        self.name = name
        self.mail = mail
        self.password = password
        self.fields = fields
    }

    /// The entity Drupal's user_registration resource takes.
    func body() throws -> Data {
        if name.isEmpty { throw DrupalError.invalidArgument("the new account's name is empty") }
        if mail.isEmpty { throw DrupalError.invalidArgument("the new account's mail is empty") }
        var object: [String: JSONValue] = [:]
        if let fields {
            guard case .object(let extra)? = JSONValue.parse(fields.data) else {
                throw DrupalError.invalidArgument("the registration's fields must be a JSON object")
            }
            object = extra
        }
        func item(_ value: String) -> JSONValue { .array([.object(["value": .string(value)])]) }
        object["name"] = item(name)
        object["mail"] = item(mail)
        // The password comes from its parameter alone: none when it is nil, whatever `fields` say.
        object["pass"] = password.map(item)
        return JSONValue.object(object).encoded()
    }
}

enum AccountRequests {
    static func register(_ registration: Registration) throws -> DrupalRequest {
        DrupalRequest(method: "POST", path: "/user/register", body: try registration.body(), expectedBody: .object)
    }

    static func resetPassword(name: String?, mail: String?) throws -> DrupalRequest {
        var object: [String: JSONValue] = [:]
        if let name, !name.isEmpty { object["name"] = .string(name) }
        if let mail, !mail.isEmpty { object["mail"] = .string(mail) }
        if object.isEmpty { throw DrupalError.invalidArgument("a password reset needs the account's name or mail") }
        return DrupalRequest(method: "POST", path: "/user/password", body: JSONValue.object(object).encoded(),
                             sendsCSRFToken: false)
    }

    static func resolvePath(_ path: String) throws -> DrupalRequest {
        if path.isEmpty { throw DrupalError.invalidArgument("the path to resolve is empty") }
        try PathSafety.rejectControlCharacters(path, what: "path to resolve")
        return DrupalRequest(method: "GET", path: "/router/translate-path", query: [("path", path)],
                             expectedBody: .object)
    }
}

/// What decoupled_router says a path is (`DrupalOperation.resolvePath`).
public struct ResolvedPath: Sendable, Equatable {
    /// The URL the path resolves to (after aliases and redirects).
    public var resolved: String?
    public var isExternal: Bool
    public var isHomePath: Bool
    /// The entity behind the path: type ("node"), bundle ("article"), id ("1"), uuid, canonical URL.
    public var entityType: String?
    public var bundle: String?
    public var id: String?
    public var uuid: String?
    public var canonical: String?
    public var label: String?
    /// The entity's JSON:API resource: its URL and type ("node--article").
    public var jsonAPIIndividual: String?
    public var jsonAPIResourceName: String?

    /// Reads decoupled_router's answer (`.decode` error if it is not one).
    public init(_ response: DrupalResponse) throws {
        let json = try response.json()
        guard json.objectValue != nil, json["resolved"] != nil || json["entity"] != nil else {
            throw DrupalError(.decode, "the answer is not decoupled_router's ({resolved, entity, ...})",
                              status: response.status, headers: response.headers, body: response.body)
        }
        resolved = json["resolved"]?.stringValue
        isExternal = json["isExternal"] == .bool(true)
        isHomePath = json["isHomePath"] == .bool(true)
        let entity = json["entity"]
        entityType = entity?["type"]?.stringValue
        bundle = entity?["bundle"]?.stringValue
        id = entity?["id"]?.idString
        uuid = entity?["uuid"]?.stringValue
        canonical = entity?["canonical"]?.stringValue
        label = json["label"]?.stringValue
        jsonAPIIndividual = json["jsonapi"]?["individual"]?.stringValue
        jsonAPIResourceName = json["jsonapi"]?["resourceName"]?.stringValue
    }
}
