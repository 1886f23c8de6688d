import FoundationEssentials

/// The path module: URL aliases (path_alias entities) and the computed `path` field of nodes, terms
/// and media. No recording saves an alias; Drupal's source decides:
/// - PathItem::postSave: an item written with an alias makes a path_alias (in the item's langcode
///   when it came with a pid, else the entity's language) when the entity is new or the item has
///   no pid, and the item's pid becomes the alias id; with a pid, it renames that alias; an item
///   with a pid and no alias deletes it. A pid that names no alias fails on a null (500).
///   PathItem::preSave trims the alias; PathAlias::preSave also drops trailing slashes from the stored one.
/// - The write's answer shows the items as written plus that pid (langcode as sent: null if none); a
///   read computes the item (PathFieldItemList::computeValue): the newest alias of the entity's path
///   in its language or "und", `{alias, pid, langcode of the alias}`, else `{null, null, the entity's}`.
/// - AliasPathProcessor: a request's path that is an alias routes as its system path, any method
///   (`systemPath(forAlias:)`); an entity's URL uses its alias (`aliasedPath`).
extension MockState {
    struct PathAlias {
        var path: String
        var alias: String
        var langcode: String
    }

    static let typesWithPath: Set<String> = ["node", "taxonomy_term", "media"]

    /// After a save of the entity with the path items `written` (nil: the path was not written):
    /// the aliases, the stored value a read computes, and the items the write's answer shows; nil
    /// for types without a path field. `langcode`: a translation's, else the entity's own.
    mutating func savePath(_ entityType: String, _ id: String, written: JSONValue?, update: Bool,
                           langcode translationLangcode: String? = nil) throws -> JSONValue? {
        guard MockState.typesWithPath.contains(entityType), let entity = entities[entityType]?[id] else { return nil }
        let langcode = translationLangcode ?? MockState.langcode(of: entity)
        var failed = false
        let answer = written.map { items in
            JSONValue.array((items.arrayValue ?? []).map {
                postSave($0, MockState.canonicalPath(entityPaths, entityType, id), langcode, update, &failed)
            })
        }
        let computed = computedPath(entityType, id, langcode: langcode)
        if translationLangcode == nil { entities[entityType]?[id]?["path"] = computed }
        if failed { throw MockAnswer(response: MockReply.serverError) }
        return answer ?? computed
    }

    /// The path items a new entity was saved with: as stored (normalized) when the body sent a
    /// `path`, nil when it sent none (the path was not written).
    static func pathWritten(_ sent: [String: JSONValue], _ stored: [String: JSONValue]) -> JSONValue? {
        sent["path"] == nil ? nil : stored["path"]
    }

    /// PathItem::postSave of one item; the item as the answer shows it.
    private mutating func postSave(_ item: JSONValue, _ path: String, _ langcode: String, _ update: Bool,
                                   _ failed: inout Bool) -> JSONValue {
        guard case .object(var object) = item else { return item }
        if let text = object["alias"]?.stringValue { object["alias"] = .string(MockState.phpTrim(text)) }
        let alias = object["alias"] ?? .null
        let pid = object["pid"].flatMap { MockState.phpNonEmpty($0) ? $0.idString.flatMap { Int($0) } : nil }
        if let pid { object["pid"] = .number(Double(pid)) }
        if MockState.phpNonEmpty(alias) {
            let stored = MockState.droppingTrailingSlashes(alias.stringValue ?? alias.idString ?? "")
            if !update || pid == nil {
                lastPathAliasID += 1
                let given = object["langcode"]?.stringValue ?? ""
                let aliasLangcode = pid != nil && MockState.phpNonEmpty(.string(given)) ? given : langcode
                pathAliases[lastPathAliasID] = PathAlias(path: path, alias: stored, langcode: aliasLangcode)
                object["pid"] = .number(Double(lastPathAliasID))
            } else if pathAliases[pid!] != nil {
                pathAliases[pid!]?.alias = stored
            } else {
                failed = true
            }
        } else if let pid, pathAliases.removeValue(forKey: pid) == nil {
            failed = true
        }
        return .object(object)
    }

    /// The item a read computes: AliasRepository::lookupBySystemPath's alias.
    func computedPath(_ entityType: String, _ id: String, langcode: String) -> JSONValue {
        let path = MockState.canonicalPath(entityPaths, entityType, id)
        guard let (pid, alias) = newestAlias(langcode, where: { $0.path == path }) else {
            return .array([.object(["alias": .null, "pid": .null, "langcode": .string(langcode)])])
        }
        return .array([.object(["alias": .string(alias.alias), "pid": .number(Double(pid)),
                                "langcode": .string(alias.langcode)])])
    }

    /// The system path a (percent-decoded) path names when it is an alias (AliasRepository::
    /// lookupByAlias, whose LIKE ignores ASCII case), in `langcode` (the request's by default).
    func systemPath(forAlias path: String, langcode: String? = nil) -> String? {
        let langcode = langcode ?? contentLanguage ?? MockState.defaultLangcode
        return newestAlias(langcode, where: { $0.alias.caseInsensitiveEquals(path) })?.1.path
    }

    /// The entity's path as Drupal writes it in a URL: its alias (in its language), else its own.
    func aliasedPath(_ entityType: String, _ id: String) -> String {
        let langcode = MockState.langcode(of: entities[entityType]?[id])
        let computed = computedPath(entityType, id, langcode: langcode)
        return computed.arrayValue?.first?.objectValue?["alias"]?.stringValue
            ?? MockState.canonicalPath(entityPaths, entityType, id)
    }

    /// AliasRepository's choice among the aliases of `langcode` or "und" that match: the language's
    /// own before "und", then the newest.
    private func newestAlias(_ langcode: String, where matches: (PathAlias) -> Bool) -> (Int, PathAlias)? {
        let found = pathAliases.filter { [langcode, "und"].contains($0.value.langcode) && matches($0.value) }
        return found.max(by: {
            ($0.value.langcode == langcode ? 1 : 0, $0.key) < ($1.value.langcode == langcode ? 1 : 0, $1.key)
        }).map { ($0.key, $0.value) }
    }

    /// Deleting an entity deletes its aliases (PathFieldItemList::delete).
    mutating func forgetPathAliases(_ entityType: String, _ id: String) {
        let path = MockState.canonicalPath(entityPaths, entityType, id)
        pathAliases = pathAliases.filter { $0.value.path != path }
    }

    /// PHP's trim(): spaces, tabs, newlines, carriage returns, NUL and vertical tabs at both ends.
    static func phpTrim(_ text: String) -> String {
        let blank: Set<Character> = [" ", "\t", "\n", "\r", "\r\n", "\0", "\u{0B}"]
        return String(text.drop(while: blank.contains).reversed().drop(while: blank.contains).reversed())
    }

    private static func droppingTrailingSlashes(_ text: String) -> String {
        String(text.reversed().drop(while: { $0 == "/" || $0 == "\\" }).reversed())
    }
}
