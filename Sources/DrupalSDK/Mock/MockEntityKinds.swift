/// What differs between entity types in REST bodies: the id key, the bundle key, the label field,
/// and which types anonymous visitors may read. Values from drupal-http-api.md §5.
enum MockEntityKind {
    static func idKey(_ entityType: String) -> String {
        switch entityType {
        case "node": return "nid"
        case "comment": return "cid"
        case "taxonomy_term": return "tid"
        case "user": return "uid"
        case "file": return "fid"
        case "media": return "mid"
        default: return "id"
        }
    }

    /// The field naming the bundle, required on POST and PATCH; nil for bundle-less types.
    static func bundleKey(_ entityType: String) -> String? {
        switch entityType {
        case "node", "block_content": return "type"
        case "comment": return "comment_type"
        case "taxonomy_term": return "vid"
        case "media", "menu_link_content": return "bundle"
        case "contact_message": return "contact_form"
        default: return nil
        }
    }

    /// The config entity type a bundle reference points at.
    static func bundleEntityType(_ entityType: String) -> String? {
        switch entityType {
        case "node": return "node_type"
        case "comment": return "comment_type"
        case "taxonomy_term": return "taxonomy_vocabulary"
        case "block_content": return "block_content_type"
        case "media": return "media_type"
        case "contact_message": return "contact_form"
        default: return nil
        }
    }

    /// The label field: what views show as the title and what their title filter searches.
    static func labelKey(_ entityType: String) -> String {
        switch entityType {
        case "node": return "title"
        case "comment": return "subject"
        case "file": return "filename"
        case "menu_link_content", "shortcut": return "title"
        default: return "name"
        }
    }

    /// Fields whose absence fails validation with "This value should not be null.".
    static func requiredFields(_ entityType: String) -> [String] {
        switch entityType {
        case "node": return ["title"]
        case "taxonomy_term", "user": return ["name"]
        default: return []
        }
    }

    /// Content types whose published entities anonymous visitors may read ("access content").
    static func isPublicContent(_ entityType: String) -> Bool {
        ["node", "comment", "taxonomy_term", "file", "media"].contains(entityType)
    }

    /// Boolean base fields (published, promoted, ...), of every type that has them.
    static let booleanFields: Set<String> = ["status", "promote", "sticky", "default_langcode",
                                             "revision_translation_affected"]

    /// Types with an owner reference `uid` set to the author on create.
    static func hasOwner(_ entityType: String) -> Bool {
        ["node", "comment", "media", "file"].contains(entityType)
    }
}

/// Field values in REST normalization: every field an array of item objects.
enum MockFields {
    /// A field of a REST body as Drupal's FieldNormalizer takes it: a list of items (an item may
    /// be a bare value: `"title": ["x"]`), or one item object. A value PHP finds falsy (null, false,
    /// 0, "", "0") is skipped, which empties the field; any other bare value is refused (23f).
    static func denormalize(_ name: String, _ value: JSONValue) throws -> JSONValue {
        switch value {
        case .array, .object: return normalize(name, value)
        case .null, .bool(false), .number(0), .string(""), .string("0"): return .array([])
        default: throw MockReply.fail(422, "Field values for \"\(name)\" must use an array structure")
        }
    }

    /// The field `name` as stored: `normalize(value)`, and a boolean field's values as true or false
    /// whatever form they came in (0, "1"...), as Drupal stores and echoes them.
    static func normalize(_ name: String, _ value: JSONValue) -> JSONValue {
        let field = normalize(value)
        // `body` is text with a summary: an item sent without one has a null one (recording 20).
        if name == "body", let items = field.arrayValue {
            return .array(items.map { item in
                guard case .object(var object) = item, object["summary"] == nil else { return item }
                object["summary"] = .null
                return .object(object)
            })
        }
        // A path item has its three properties whatever was sent (recording 20: alias, pid and
        // langcode), null for those not sent: a write's answer shows them so, a save then sets
        // `pid` (MockPathAliases).
        if name == "path", let items = field.arrayValue {
            return .array(items.map { item in
                guard case .object(var object) = item else { return item }
                for key in ["pid", "langcode"] where object[key] == nil { object[key] = .null }
                return .object(object)
            })
        }
        guard MockEntityKind.booleanFields.contains(name), let items = field.arrayValue else { return field }
        return .array(items.map { item in
            guard case .object(var object) = item, let value = object["value"], value != .null else { return item }
            object["value"] = .bool(isTrue(value))
            return .object(object)
        })
    }

    /// A value as the boolean column keeps it: 0, "", "0" and "false" are false.
    private static func isTrue(_ value: JSONValue) -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .number(let number): return number != 0
        case .string(let text): return !["", "0", "false"].contains(text)
        default: return true
        }
    }

    /// Stores item objects, also from the shorthands seeding accepts (`"title": "x"`, `["x"]`);
    /// formatted text gets its `processed` copy as Drupal renders it.
    static func normalize(_ value: JSONValue) -> JSONValue {
        let items = value.arrayValue ?? [value]
        return .array(items.map { item in
            guard case .object(var object) = item else { return .object(["value": item]) }
            if object["format"]?.stringValue != nil, object["processed"] == nil, let text = object["value"] {
                object["processed"] = text
            }
            return .object(object)
        })
    }

    /// The main value of a field's first item: `value`, else `target_id`, as text ("true"/"false"
    /// for booleans, so a `status` can be compared).
    static func firstValue(_ field: JSONValue?) -> String? {
        guard let field else { return nil }
        var item = field.arrayValue.map { $0.first ?? .null } ?? field
        if case .object(let object) = item { item = object["value"] ?? object["target_id"] ?? .null }
        if case .bool(let flag) = item { return flag ? "true" : "false" }
        return item.idString
    }

    static func isEmpty(_ field: JSONValue?) -> Bool {
        guard let field else { return true }
        if case .null = field { return true }
        if let items = field.arrayValue {
            return items.allSatisfy { item in
                if case .null = item { return true }
                if case .object(let object) = item, let value = object["value"] ?? object["target_id"],
                   case .null = value { return true }
                return false
            }
        }
        return false
    }

    static func single(_ value: JSONValue) -> JSONValue { .array([.object(["value": value])]) }

    static func number(_ id: String) -> JSONValue { Int(id).map { .number(Double($0)) } ?? .string(id) }
}
