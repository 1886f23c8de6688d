/// Where an entity type's REST resource lives: the canonical path (GET/PATCH/DELETE, with `{id}`)
/// and the create path (POST). Core types are built in; custom types can be added.
public struct EntityPath: Sendable, Equatable {
    public var canonical: String
    public var create: String

    public init(canonical: String, create: String) {
        self.canonical = canonical
        self.create = create
    }

    /// Drupal's fallback for types without link templates: /entity/{type}/{id} and /entity/{type}.
    public static func generic(_ entityType: String) -> EntityPath {
        EntityPath(canonical: "/entity/\(entityType)/{id}", create: "/entity/\(entityType)")
    }

    /// Core entity types on Drupal 10 and 11 (drupal-http-api.md §5.1).
    public static let core: [String: EntityPath] = [
        "node": EntityPath(canonical: "/node/{id}", create: "/node"),
        "comment": EntityPath(canonical: "/comment/{id}", create: "/comment"),
        "taxonomy_term": EntityPath(canonical: "/taxonomy/term/{id}", create: "/taxonomy/term"),
        "user": EntityPath(canonical: "/user/{id}", create: "/entity/user"),
        "file": EntityPath(canonical: "/entity/file/{id}", create: "/entity/file"),
        "media": EntityPath(canonical: "/media/{id}/edit", create: "/entity/media"),
        "block_content": EntityPath(canonical: "/admin/content/block/{id}", create: "/block"),
        "menu_link_content": EntityPath(canonical: "/admin/structure/menu/item/{id}/edit",
                                        create: "/entity/menu_link_content"),
        "path_alias": EntityPath(canonical: "/entity/path_alias/{id}", create: "/entity/path_alias"),
        "contact_message": EntityPath(canonical: "/entity/contact_message/{id}",
                                      create: "/entity/contact_message"),
        "shortcut": EntityPath(canonical: "/admin/config/user-interface/shortcut/link/{id}",
                               create: "/entity/shortcut"),
    ]
}

extension EntityPath {
    /// Throws `.invalidArgument` unless `entityType` is a machine name, the canonical path holds
    /// "{id}" once and both paths stay under the base URL.
    public func validate(entityType: String) throws {
        try EntityPathTable.validateEntityType(entityType)
        guard canonical.components(separatedBy: "{id}").count == 2 else {
            throw DrupalError.invalidArgument("the canonical path of \(entityType) must contain \"{id}\" once")
        }
        _ = try PathSafety.normalizePath(canonical.replacingOccurrences(of: "{id}", with: "1"))
        _ = try PathSafety.normalizePath(create)
    }
}

/// Builds the path of an entity operation, refusing names and ids that could escape it.
/// Templates are split around "{id}" once, so a path is two concatenations per request.
struct EntityPathTable: Sendable {
    private struct Compiled: Sendable {
        /// The canonical template's pieces: "/node/" and "" for "/node/{id}".
        var pieces: [String]
        var create: String

        init(_ path: EntityPath) {
            pieces = path.canonical.components(separatedBy: "{id}")
            create = path.create
        }

        func canonical(_ encodedID: String) -> String {
            guard pieces.count == 2 else { return pieces.joined(separator: encodedID) }
            return String.concatenating(pieces[0], encodedID, pieces[1])
        }
    }

    private let compiled: [String: Compiled]

    static let core = EntityPathTable(paths: EntityPath.core)

    init(paths: [String: EntityPath]) {
        compiled = paths.mapValues(Compiled.init)
    }

    func canonicalPath(_ entityType: String, id: String) throws -> String {
        try EntityPathTable.validateEntityType(entityType)
        guard !id.isEmpty else { throw DrupalError.invalidArgument("the \(entityType) id is empty") }
        let encodedID = try PathSafety.encodeSegment(id)
        guard let path = compiled[entityType] else { return "/entity/" + entityType + "/" + encodedID }
        return path.canonical(encodedID)
    }

    func createPath(_ entityType: String) throws -> String {
        try EntityPathTable.validateEntityType(entityType)
        return compiled[entityType]?.create ?? EntityPath.generic(entityType).create
    }

    /// Entity type ids are machine names: lower-case letters, digits and underscores.
    static func validateEntityType(_ entityType: String) throws {
        guard !entityType.isEmpty, entityType.utf8AllSatisfy({
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F
        }) else {
            throw DrupalError.invalidArgument("invalid entity type \"\(entityType)\": expected a machine name "
                                              + "like node or taxonomy_term")
        }
    }
}
