import FoundationEssentials

/// JSON:API's `filter` parameter (drupal-http-api.md §8.3, recordings 105-115b): the shorthand
/// `filter[field]=value`, `filter[field][operator|value]`, the full
/// `filter[label][condition][path|operator|value|memberOf]`, and groups
/// `filter[g][group][conjunction|memberOf]` that nest under the implicit AND root.
struct MockJSONAPIFilter {
    struct Condition {
        let path: String
        let op: String
        let values: [String]
        let memberOf: String?
    }

    struct Group {
        let conjunction: String
        let memberOf: String?
    }

    static let operators: Set<String> = ["=", "<>", ">", ">=", "<", "<=", "STARTS_WITH", "CONTAINS", "ENDS_WITH",
                                         "IN", "NOT IN", "BETWEEN", "NOT BETWEEN", "IS NULL", "IS NOT NULL"]
    static let root = "@root"

    var conditions: [Condition] = []
    var groups: [String: Group] = [:]

    init(_ tree: MockQueryTree?, _ request: MockRequest) throws {
        for (key, item) in tree?.entries ?? [] {
            if let value = item.text {
                conditions.append(Condition(path: key, op: "=", values: [value], memberOf: nil))
            } else if let group = item["group"] {
                let conjunction = group["conjunction"]?.text?.uppercased() ?? "AND"
                groups[key] = Group(conjunction: conjunction, memberOf: group["memberOf"]?.text)
            } else if let condition = item["condition"] {
                conditions.append(try MockJSONAPIFilter.condition(condition, path: nil, request))
            } else {
                // `filter[title][operator]=STARTS_WITH&filter[title][value]=Art`: the key is the path (107).
                conditions.append(try MockJSONAPIFilter.condition(item, path: key, request))
            }
        }
    }

    private static func condition(_ item: MockQueryTree, path: String?, _ request: MockRequest) throws -> Condition {
        guard let path = item["path"]?.text ?? path else {
            throw MockJSONAPIReply.fail(400, "Filter parameter is missing a 'path' key.", request)
        }
        let op = item["operator"]?.text ?? "="
        guard operators.contains(op) else {
            throw MockJSONAPIReply.fail(400, "The '\(op)' operator is not allowed in a filter parameter.", request)
        }
        let values = item["value"]?.texts
        if values == nil && op != "IS NULL" && op != "IS NOT NULL" {
            throw MockJSONAPIReply.fail(400, "Filter parameter is missing a 'value' key.", request)
        }
        return Condition(path: path, op: op, values: values ?? [], memberOf: item["memberOf"]?.text)
    }

    var paths: [String] { conditions.map(\.path) }

    /// Whether an entity passes, given the values each path has on it.
    func matches(_ values: (String) -> [JSONValue]) -> Bool {
        matches(group: MockJSONAPIFilter.root, conjunction: "AND", values)
    }

    private func matches(group: String, conjunction: String, _ values: (String) -> [JSONValue]) -> Bool {
        func member(_ memberOf: String?) -> Bool { (memberOf ?? MockJSONAPIFilter.root) == group }
        var results = conditions.filter { member($0.memberOf) }.map { MockJSONAPIFilter.holds($0, values($0.path)) }
        for (name, child) in groups where member(child.memberOf) && name != group {
            results.append(matches(group: name, conjunction: child.conjunction, values))
        }
        if results.isEmpty { return true }
        return conjunction == "OR" ? results.contains(true) : !results.contains(false)
    }

    /// A condition holds when one of the field's values satisfies it, as an entity query's
    /// condition on a multi-valued field does.
    static func holds(_ condition: Condition, _ values: [JSONValue]) -> Bool {
        let texts = values.compactMap(text)
        let wanted = condition.values
        switch condition.op {
        case "IS NULL": return texts.isEmpty
        case "IS NOT NULL": return !texts.isEmpty
        case "IN": return texts.contains { value in wanted.contains { compare(value, $0) == 0 } }
        case "NOT IN": return texts.contains { value in !wanted.contains { compare(value, $0) == 0 } }
        case "BETWEEN", "NOT BETWEEN":
            guard wanted.count >= 2 else { return false }
            let inside = texts.contains { compare($0, wanted[0]) >= 0 && compare($0, wanted[1]) <= 0 }
            return condition.op == "BETWEEN" ? inside : !inside && !texts.isEmpty
        default: break
        }
        guard let target = wanted.first else { return false }
        return texts.contains { value in
            // LIKE-based operators ignore case, on every database Drupal supports.
            let (lower, lowerTarget) = (value.lowercased(), target.lowercased())
            switch condition.op {
            case "=": return compare(value, target) == 0
            case "<>": return compare(value, target) != 0
            case ">": return compare(value, target) > 0
            case ">=": return compare(value, target) >= 0
            case "<": return compare(value, target) < 0
            case "<=": return compare(value, target) <= 0
            case "STARTS_WITH": return lower.hasPrefix(lowerTarget)
            case "ENDS_WITH": return lower.hasSuffix(lowerTarget)
            case "CONTAINS": return lower.contains(lowerTarget)
            default: return false
            }
        }
    }

    /// A stored value as the database compares it: booleans are 1 and 0; null is no value.
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .bool(let flag): return flag ? "1" : "0"
        case .null, .array, .object: return nil
        default: return value.idString
        }
    }

    /// Numbers by value, other text by its bytes; "true"/"false" given for a boolean work too.
    static func compare(_ value: String, _ target: String) -> Int {
        let target = target == "true" ? "1" : target == "false" ? "0" : target
        if let a = Double(value), let b = Double(target) { return a < b ? -1 : a > b ? 1 : 0 }
        return value < target ? -1 : value > target ? 1 : 0
    }
}

/// Field paths of filters and sorts (`title`, `uid.name`, `body.value`, `drupal_internal__nid`,
/// `id`): their values on an entity, and the 400 for a field that does not exist (115, 116).
extension MockJSONAPIDocuments {
    func checkPath(_ path: String, _ type: MockState.JSONAPIType, _ request: MockRequest) throws {
        var entityType = type.entityType
        var bundle: String? = type.bundle
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while index < parts.count {
            let name = parts[index]
            if let (_, target) = relationships(entityType, nil, bundle: bundle)
                .first(where: { MockJSONAPIFields.publicName(entityType, $0.field) == name }) {
                // `uid.id`, `node_type.meta.drupal_internal__target_id`: the reference itself.
                if index + 1 < parts.count, ["id", "meta", "target_id"].contains(parts[index + 1]) { return }
                if MockJSONAPIFields.configTypes.contains(target.entityType) { return }
                entityType = target.entityType
                bundle = nil
                index += 1
                continue
            }
            guard fieldExists(entityType, name, bundle: bundle) else {
                throw MockJSONAPIReply.fail(400, "Invalid nested filtering. The field `\(name)`, given in the path "
                                            + "`\(path)`, does not exist.", request)
            }
            // What follows an attribute is one of its properties (`body.value`).
            return
        }
    }

    /// Whether a public field name exists on the type: a stored field, a field the mock knows
    /// the type or bundle has, `id`, or a user's `display_name`.
    private func fieldExists(_ entityType: String, _ name: String, bundle: String?) -> Bool {
        if name == "id" || (entityType == "user" && name == "display_name") { return true }
        let field = MockJSONAPIFields.internalName(entityType, name)
        if MockJSONAPIFields.publicName(entityType, field) != name && !name.hasPrefix("drupal_internal__") { return false }
        if MockState.baseFields(entityType)?.contains(field) == true { return true }
        if MockEntityKind.requiredFields(entityType).contains(field) { return true }
        if (state.bundleFields[entityType] ?? [:]).values.contains(where: { $0.contains(field) }) { return true }
        return (state.entities[entityType] ?? [:]).values.contains { $0[field] != nil }
    }

    /// The values a path has on an entity: none on what the caller may not view (an anonymous
    /// filter on user names finds nothing: 170).
    func values(_ path: String, _ entityType: String, _ entity: [String: JSONValue]) -> [JSONValue] {
        guard state.canView(entityType, entity, caller) else { return [] }
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first else { return [] }
        let rest = parts.dropFirst()
        if let (field, target) = relationships(entityType, entity)
            .first(where: { MockJSONAPIFields.publicName(entityType, $0.field) == name }) {
            let items = entity[field]?.arrayValue ?? []
            switch rest.first {
            case "id"?:
                if MockJSONAPIFields.configTypes.contains(target.entityType) {
                    return items.compactMap { $0["target_id"]?.idString }
                        .map { .string(MockJSONAPIFields.configUUID(target.entityType, $0)) }
                }
                return targets(entityType, entity, name).compactMap { $0.entity["uuid"].flatMap { MockFields.firstValue($0) } }
                    .map(JSONValue.string)
            case "meta"?, "target_id"?, nil:
                return items.compactMap { $0["target_id"] }
            default:
                let subpath = rest.joined(separator: ".")
                return targets(entityType, entity, name).flatMap { values(subpath, $0.entityType, $0.entity) }
            }
        }
        if name == "id" { return entity["uuid"].flatMap { MockFields.firstValue($0) }.map { [.string($0)] } ?? [] }
        let field = entityType == "user" && name == "display_name" ? "name" : MockJSONAPIFields.internalName(entityType, name)
        return (entity[field]?.arrayValue ?? []).compactMap { item in
            guard let object = item.objectValue else { return item }
            return object[rest.first ?? "value"] ?? (rest.isEmpty ? object["target_id"] : nil)
        }
    }
}
