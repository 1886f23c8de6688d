import FoundationEssentials

/// The language and content_translation modules (`MockDrupal.addLanguage`, `addTranslation`): more
/// languages than English, each negotiated by its URL prefix ("/fr/node/1" is node 1 in French),
/// and translations of entities. What drupal10-oauth-language-transcripts (80-85) record, and the
/// fake's extended site answers alike (languages.py):
/// - a read under a prefix shows the translation, or the original when there is none (no 404);
///   JSON:API's links keep the prefix (81-81d); every answer says its language in Content-Language;
/// - core REST: a PATCH under a prefix edits an existing translation (82), but on an entity without
///   one it edits the original, so a `langcode` sent changes the original's language (82g, 82h);
///   POST makes a new entity (82c: its Location has no prefix); DELETE deletes the whole entity (85);
/// - JSON:API refuses to create (83) or delete (83c) a translation: 405; it edits an existing one
///   (83b); a POST makes a new entity in the language sent (83d);
/// - a bundle with translation on shows content_translation_source ("und" on an original, the
///   source language on a translation) and content_translation_outdated (80, 80b).
extension MockState {
    /// The default language: no prefix.
    static let defaultLangcode = "en"

    /// The fields a translation holds (content_translation makes these per language); the others
    /// are shared by every translation. Those of nodes, as the recorded site's articles have them,
    /// and the labels and texts of the other content types.
    static let translatableFields: Set<String> = [
        "langcode", "status", "uid", "title", "created", "changed", "promote", "sticky", "default_langcode",
        "revision_translation_affected", "path", "content_translation_source", "content_translation_outdated",
        "body", "name", "description", "subject", "comment_body", "content_translation_uid",
        "content_translation_status", "content_translation_created",
    ]

    static let contentTranslationFields: Set<String> = ["content_translation_source", "content_translation_outdated"]

    /// An entity's language: its langcode field, else the default.
    static func langcode(of entity: [String: JSONValue]?) -> String {
        MockFields.firstValue(entity?["langcode"]) ?? defaultLangcode
    }

    /// The langcode a request's path prefix names, and the path without it; nil for the default
    /// language (no prefix, or a site with one language).
    func languageOf(_ path: String) -> (langcode: String, prefix: String, rest: String)? {
        guard !languagePrefixes.isEmpty else { return nil }
        let segment = String(decoding: path.utf8.dropFirst().prefix { $0 != UInt8(ascii: "/") }, as: UTF8.self)
        guard let langcode = languagePrefixes[segment] else { return nil }
        let prefix = "/" + segment
        let rest = String(path.dropFirst(prefix.count))
        return (langcode, prefix, rest.isEmpty ? "/" : rest)
    }

    /// Language negotiation: a request under a language's prefix is routed as its path without it,
    /// in that language (`contentLanguage`, which the entity reads below follow).
    mutating func negotiateLanguage(_ request: MockRequest) -> MockRequest {
        guard let (langcode, prefix, rest) = languageOf(request.path) else {
            contentLanguage = nil
            return request
        }
        contentLanguage = langcode
        return request.negotiated(prefix: prefix, path: rest)
    }

    /// Langcodes a `langcode` field may hold: the site's languages and the two special codes.
    var langcodes: Set<String> { Set(languagePrefixes.values).union([MockState.defaultLangcode, "und", "zxx"]) }

    /// Whether the entity's bundle has content translation on.
    func isTranslatable(_ entityType: String, _ bundle: String?) -> Bool {
        translatableBundles.contains(JSONAPIType(entityType: entityType, bundle: bundle ?? entityType).name)
    }

    func isTranslatable(_ entityType: String, _ entity: [String: JSONValue]) -> Bool {
        translatableBundles.contains(jsonAPIType(of: entityType, entity).name)
    }

    /// The fields content_translation gives an original of a translatable bundle.
    static func addSourceFields(_ entity: inout [String: JSONValue]) {
        if entity["content_translation_source"] == nil {
            entity["content_translation_source"] = MockFields.single(.string("und"))
        }
        if entity["content_translation_outdated"] == nil {
            entity["content_translation_outdated"] = MockFields.single(.bool(false))
        }
    }

    /// Turns translation on for an entity's bundle: its entities gain the source fields.
    mutating func enableTranslation(_ entityType: String, _ entity: [String: JSONValue]) {
        let type = jsonAPIType(of: entityType, entity)
        guard translatableBundles.insert(type.name).inserted else { return }
        for (id, stored) in entities[entityType] ?? [:] where jsonAPIType(of: entityType, stored) == type {
            MockState.addSourceFields(&entities[entityType]![id]!)
        }
    }

    /// Stores (or replaces) a translation: the original's translatable fields, then those given.
    mutating func addTranslation(_ entityType: String, _ id: String, _ langcode: String, _ fields: [String: JSONValue]) {
        guard let original = entities[entityType]?[id] else { return }
        enableTranslation(entityType, original)
        let source = MockState.langcode(of: original)
        var translation = original.filter { MockState.translatableFields.contains($0.key) }
        for (name, value) in fields { translation[name] = MockFields.normalize(name, value) }
        translation["langcode"] = MockFields.single(.string(langcode))
        translation["default_langcode"] = MockFields.single(.bool(false))
        translation["content_translation_source"] = MockFields.single(.string(source))
        translation["content_translation_outdated"] = MockFields.single(.bool(false))
        translation["changed"] = MockIdentifiers.timestampField(MockIdentifiers.now())
        translations[entityType, default: [:]][id, default: [:]][langcode] = translation
        // A path given makes its alias in the translation's language, as a save does.
        if let path = fields["path"] {
            _ = try? savePath(entityType, id, written: MockFields.normalize("path", path), update: false,
                              langcode: langcode)
        }
    }

    /// The translation the request's language has of an entity, if any.
    func translation(_ entityType: String, _ id: String) -> [String: JSONValue]? {
        guard let language = contentLanguage else { return nil }
        return translations[entityType]?[id]?[language]
    }

    /// The entity as the request's language shows it: its translation over the shared fields, or
    /// the entity itself (whatever its language) when it has none.
    func translated(_ entityType: String, _ id: String, _ entity: [String: JSONValue]) -> [String: JSONValue] {
        guard let translation = translation(entityType, id) else { return entity }
        var merged = entity.merging(translation) { $1 }
        if let langcode = MockFields.firstValue(translation["langcode"]), MockState.typesWithPath.contains(entityType) {
            merged["path"] = computedPath(entityType, id, langcode: langcode)
        }
        // Comment statistics belong to the default translation alone (80).
        if let status = entity["comment"]?[0]?["status"] {
            merged["comment"] = .array([.object([
                "status": status, "cid": .null, "last_comment_timestamp": .null, "last_comment_name": .null,
                "last_comment_uid": .null, "comment_count": .null])])
        }
        return merged
    }

    /// The entity and each of its translations, whole: what an entity query's conditions range
    /// over (the data table has a row per translation, and no langcode condition is added unless
    /// a filter sends one), so a JSON:API filter matches when one of them does.
    func everyTranslation(_ entityType: String, _ id: String, _ original: [String: JSONValue]) -> [[String: JSONValue]] {
        let languages = (translations[entityType]?[id] ?? [:]).sorted { $0.key < $1.key }
        return [original] + languages.map { original.merging($0.value) { $1 } }
    }

    /// Saves an entity as read by `translated` and edited: under a translation its translatable
    /// fields go to the translation and the others to the entity; else the whole entity.
    mutating func storeTranslated(_ entityType: String, _ id: String, _ edited: [String: JSONValue]) {
        guard let language = contentLanguage, translation(entityType, id) != nil else {
            entities[entityType, default: [:]][id] = edited
            return
        }
        for (name, value) in edited where name != "comment" {
            if MockState.translatableFields.contains(name) {
                translations[entityType]?[id]?[language]?[name] = value
            } else {
                entities[entityType]?[id]?[name] = value
            }
        }
    }

    /// The langcode the request edits an entity in: its translation's, else the entity's own.
    func editedLangcode(_ entityType: String, _ id: String) -> String? {
        translation(entityType, id).flatMap { MockFields.firstValue($0["langcode"]) }
    }

    /// JSON:API's entity converter (EntityUuidConverter::convert) on a translatable entity (its
    /// bundle has translation on, its language is not und or zxx): the 405 of a PATCH of an entity
    /// not shown in the request's language (the default without a prefix), or of a DELETE of one
    /// that is, moreover, not the default translation (83, 83c). So a French original is written
    /// under /fr and refused without a prefix. The list names the entity's languages, the default
    /// first, then by langcode (Drupal: by the languages' weights).
    func jsonAPITranslationRefusal(_ request: MockRequest, _ entityType: String, _ id: String,
                                   _ entity: [String: JSONValue]) -> MockAnswer? {
        let original = entities[entityType]?[id] ?? entity
        let originalLangcode = MockState.langcode(of: original)
        guard request.method == "PATCH" || request.method == "DELETE", !languagePrefixes.isEmpty,
              isTranslatable(entityType, original), !["und", "zxx"].contains(originalLangcode) else { return nil }
        let current = contentLanguage ?? MockState.defaultLangcode
        let isTranslation = translation(entityType, id) != nil
        let shown = isTranslation ? current : originalLangcode
        let allow = HTTPHeaders([("Allow", "GET")])
        if request.method == "DELETE", isTranslation || shown != current {
            return MockAnswer(response: MockJSONAPIReply.error(
                405, "Deleting a resource object translation is not yet supported. See "
                + "https://www.drupal.org/docs/8/modules/jsonapi/translations.", request, headers: allow))
        }
        guard request.method == "PATCH", shown != current else { return nil }
        let existing = Set([originalLangcode]).union((translations[entityType]?[id] ?? [:]).keys)
        let others = existing.subtracting([MockState.defaultLangcode]).sorted()
        let listed = (existing.contains(MockState.defaultLangcode) ? [MockState.defaultLangcode] : []) + others
        return MockAnswer(response: MockJSONAPIReply.error(
            405, "The requested translation of the resource object does not exist, instead modify one of the "
            + "translations that do exist: \(listed.joined(separator: ", ")).", request, headers: allow))
    }

    /// Deleting an entity deletes every translation of it.
    mutating func forgetTranslations(_ entityType: String, _ id: String) {
        translations[entityType]?[id] = nil
    }
}
