/// A JSON:API query: filters (conditions and nested AND/OR groups), sort, paging, include and
/// sparse fieldsets. It builds the query string the drupal-jsonapi-params library builds for the
/// same calls (key names, shorthand forms, order, encoding), so its examples carry over.
///
/// Every input is checked when it is added: an operator Drupal does not know (`LIKE`), a value
/// list on an operator that takes one value, a page size below 1 or a malformed resource version
/// is refused here rather than answered by Drupal's 400.
public struct JSONAPIQuery: Sendable, Equatable {
    /// The operators Drupal's JSON:API accepts in a filter condition.
    public enum Operator: String, Sendable, CaseIterable {
        case equal = "="
        case notEqual = "<>"
        case greater = ">"
        case greaterOrEqual = ">="
        case less = "<"
        case lessOrEqual = "<="
        case startsWith = "STARTS_WITH"
        case contains = "CONTAINS"
        case endsWith = "ENDS_WITH"
        case `in` = "IN"
        case notIn = "NOT IN"
        case between = "BETWEEN"
        case notBetween = "NOT BETWEEN"
        case isNull = "IS NULL"
        case isNotNull = "IS NOT NULL"

        /// The operator spelled as in a query (`"STARTS_WITH"`, `"<>"`), or `.invalidArgument`.
        public init(name: String) throws {
            guard let known = Operator(rawValue: name) else {
                throw DrupalError.invalidArgument("\"\(JSONAPIQuery.shown(name))\" is not a JSON:API filter operator "
                    + "(one of " + Operator.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            self = known
        }

        var takesNoValue: Bool { self == .isNull || self == .isNotNull }
        var takesList: Bool { self == .in || self == .notIn || self == .between || self == .notBetween }
    }

    public enum Conjunction: String, Sendable {
        case and = "AND"
        case or = "OR"

        public init(name: String) throws {
            guard let known = Conjunction(rawValue: name.uppercased()) else {
                throw DrupalError.invalidArgument("a filter group's conjunction is AND or OR, not \"\(JSONAPIQuery.shown(name))\"")
            }
            self = known
        }
    }

    /// One `filter[key]` entry, as drupal-jsonapi-params writes it.
    enum Filter: Sendable, Equatable {
        /// `filter[path]=value`
        case shorthand(String)
        /// `filter[path][value]=v&filter[path][operator]=op`
        case shorthandWithOperator(String, Operator)
        /// `filter[key][condition][path|value|operator|memberOf]`
        case condition(path: String, values: [String]?, single: String?, operator: Operator?, memberOf: String?)
        /// `filter[name][group][conjunction|memberOf]`
        case group(Conjunction, memberOf: String?)
    }

    var filters: [(key: String, filter: Filter)] = []
    var includes: [String] = []
    var page: [(name: String, value: Int)] = []
    var sorts: [String] = []
    var fieldsets: [(type: String, fields: String)] = []
    var parameters: [(name: String, value: String)] = []

    public init() {}

    // MARK: Filters

    /// A condition with one value (or none, for `IS NULL` and `IS NOT NULL`). Without `memberOf`
    /// and `key`, and for a path not filtered yet, it is written in the shorthand form.
    /// - Parameters:
    ///   - path: a field, or a path through relationships (`uid.name`).
    ///   - value: percent-encoded, so any text goes as given, tabs and line breaks too (not NUL).
    ///   - key: the condition's name in the query; by default the path, or a generated one when
    ///     the path is taken (as drupal-jsonapi-params does).
    public mutating func filter(_ path: String, _ value: String?, operator op: Operator = .equal,
                                memberOf: String? = nil, key: String? = nil) throws {
        try JSONAPIQuery.checkName(path, "filter path")
        if let memberOf { try JSONAPIQuery.checkName(memberOf, "filter group name") }
        if op.takesNoValue && value != nil {
            throw DrupalError.invalidArgument("the filter operator \(op.rawValue) takes no value")
        }
        let name = try filterKey(key ?? path, enforced: key != nil)
        if op.takesNoValue {
            filters.append((name, .condition(path: path, values: nil, single: nil, operator: op, memberOf: memberOf)))
            return
        }
        guard let value else {
            throw DrupalError.invalidArgument("the filter operator \(op.rawValue) needs a value")
        }
        try PathSafety.rejectNUL(value, what: "filter value")
        if op.takesList {
            throw DrupalError.invalidArgument("the filter operator \(op.rawValue) takes a list of values")
        }
        if memberOf == nil && name == path && !filters.contains(where: { $0.key == path }) {
            filters.append((name, op == .equal ? .shorthand(value) : .shorthandWithOperator(value, op)))
            return
        }
        filters.append((name, .condition(path: path, values: nil, single: value,
                                         operator: op == .equal ? nil : op, memberOf: memberOf)))
    }

    /// A condition with a list of values: `IN` and `NOT IN` (one or more), `BETWEEN` and `NOT
    /// BETWEEN` (exactly two, both ends included).
    public mutating func filter(_ path: String, values: [String], operator op: Operator, memberOf: String? = nil,
                                key: String? = nil) throws {
        try JSONAPIQuery.checkName(path, "filter path")
        if let memberOf { try JSONAPIQuery.checkName(memberOf, "filter group name") }
        switch op {
        case .between, .notBetween:
            guard values.count == 2 else {
                throw DrupalError.invalidArgument("the filter operator \(op.rawValue) takes exactly 2 values, not \(values.count)")
            }
        case .in, .notIn:
            guard !values.isEmpty else {
                throw DrupalError.invalidArgument("the filter operator \(op.rawValue) needs at least one value")
            }
        default:
            throw DrupalError.invalidArgument("the filter operator \(op.rawValue) takes one value, not a list")
        }
        for value in values { try PathSafety.rejectNUL(value, what: "filter value") }
        let name = try filterKey(key ?? path, enforced: key != nil)
        filters.append((name, .condition(path: path, values: values, single: nil, operator: op, memberOf: memberOf)))
    }

    /// A condition group: conditions and groups join it with `memberOf: name`. A group of the
    /// same name is replaced where it stands.
    public mutating func group(_ name: String, conjunction: Conjunction = .or, memberOf: String? = nil) throws {
        try JSONAPIQuery.checkName(name, "filter group name")
        if let memberOf { try JSONAPIQuery.checkName(memberOf, "filter group name") }
        // Up the chain of groups it would join: itself there makes the site's filter tree a cycle.
        var parent = memberOf
        for _ in 0...filters.count {
            guard let current = parent else { break }
            if current == name {
                throw DrupalError.invalidArgument("a filter group cannot be a member of itself, directly or through other groups")
            }
            guard case .group(_, let next)? = filters.first(where: { $0.key == current })?.filter else { break }
            parent = next
        }
        let entry = Filter.group(conjunction, memberOf: memberOf)
        if let index = filters.firstIndex(where: { $0.key == name }) {
            guard case .group = filters[index].filter else {
                throw DrupalError.invalidArgument("the filter key \"\(name)\" names a condition; a group cannot replace it")
            }
            filters[index].filter = entry
        } else {
            filters.append((name, entry))
        }
    }

    /// drupal-jsonapi-params' key for a new condition: the proposed one while it is free; taken,
    /// "proposed--N" (the first free N) when the key was asked for, else the number of filters
    /// (or the first free number after it: a key given before may be "2", and the site keeps
    /// only the last of two equal keys).
    private func filterKey(_ proposed: String, enforced: Bool) throws -> String {
        try JSONAPIQuery.checkName(proposed, "filter key")
        func free(_ key: String) -> Bool { !filters.contains(where: { $0.key == key }) }
        guard !free(proposed) else { return proposed }
        if enforced {
            for number in 1...filters.count + 1 where free("\(proposed)--\(number)") { return "\(proposed)--\(number)" }
        }
        for number in filters.count...(2 * filters.count + 1) where free(String(number)) { return String(number) }
        throw DrupalError(.internal, "no free filter key")   // filters.count + 2 candidates, at most count taken
    }

    // MARK: Sort, page, include, fields, other parameters

    /// Sorts by a field or relationship path (`uid.name`); several sorts apply in the order added.
    public mutating func sort(_ path: String, descending: Bool = false) throws {
        try JSONAPIQuery.checkListItem(path, "sort path")
        // "-title" is descending already (as drupal-jsonapi-params writes it); with descending
        // too it would be "--title", which the site cannot read.
        if descending && path.hasPrefix("-") {
            throw DrupalError.invalidArgument("a descending sort path starts with no \"-\"")
        }
        sorts.append(descending ? "-" + path : path)
    }

    /// `page[limit]`: Drupal caps it at 50 without an error (the pager follows the capped size).
    public mutating func pageLimit(_ limit: Int) throws {
        guard limit >= 1 else { throw DrupalError.invalidArgument("the page limit must be at least 1, not \(limit)") }
        setPage("limit", limit)
    }

    /// `page[offset]`: how many resources to skip.
    public mutating func pageOffset(_ offset: Int) throws {
        guard offset >= 0 else { throw DrupalError.invalidArgument("the page offset must not be negative (\(offset))") }
        setPage("offset", offset)
    }

    private mutating func setPage(_ name: String, _ value: Int) {
        if let index = page.firstIndex(where: { $0.name == name }) { page[index].value = value } else { page.append((name, value)) }
    }

    /// Relationship paths whose resources come back in `included` (`uid`, `field_tags.vid`).
    public mutating func include(_ paths: [String]) throws {
        for path in paths { try JSONAPIQuery.checkListItem(path, "include path") }
        includes += paths
    }

    /// A sparse fieldset: only these attributes and relationships of `type` (`node--article`)
    /// come back. A relationship left out here cannot link a resource to what `include` adds.
    public mutating func fields(_ type: String, _ fields: [String]) throws {
        try JSONAPIQuery.checkName(type, "resource type")
        for field in fields { try JSONAPIQuery.checkListItem(field, "field name") }
        let joined = fields.joined(separator: ",")
        if let index = fieldsets.firstIndex(where: { $0.type == type }) {
            fieldsets[index].fields = joined
        } else {
            fieldsets.append((type, joined))
        }
    }

    /// `resourceVersion`: "rel:latest-version", "rel:working-copy" or "id:<revision id>".
    public mutating func resourceVersion(_ version: String) throws {
        let isRevisionId = version.hasPrefix("id:") && version.utf8.count > 3
            && version.utf8.dropFirst(3).allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        guard version == "rel:latest-version" || version == "rel:working-copy" || isRevisionId else {
            throw DrupalError.invalidArgument("a resource version is rel:latest-version, rel:working-copy or "
                                              + "id:<revision id>, not \"\(JSONAPIQuery.shown(version))\"")
        }
        try parameter("resourceVersion", version)
    }

    /// Any other query parameter, after the JSON:API ones (a parameter of the same name is
    /// replaced). `filter`, `include`, `page`, `sort` and `fields` have their own methods.
    public mutating func parameter(_ name: String, _ value: String) throws {
        try JSONAPIQuery.checkName(name, "parameter name")
        try PathSafety.rejectNUL(value, what: "query value")
        let base = name.split(separator: "[", maxSplits: 1).first.map(String.init) ?? name
        guard !["filter", "include", "page", "sort", "fields"].contains(base) else {
            throw DrupalError.invalidArgument("\"\(base)\" has its own query method; it cannot be given as a parameter")
        }
        guard base != "_format" else {
            throw DrupalError.invalidArgument("JSON:API answers _format with 406: it is never sent")
        }
        if let index = parameters.firstIndex(where: { $0.name == name }) {
            parameters[index].value = value
        } else {
            parameters.append((name, value))
        }
    }

    // MARK: Output

    /// The query as name/value pairs, unencoded, in drupal-jsonapi-params' order: filter,
    /// include, page, sort, fields, then the other parameters.
    public var pairs: [(String, String)] {
        var pairs: [(String, String)] = []
        for (key, filter) in JSONAPIQuery.propertyOrder(filters) {
            let prefix = "filter[\(key)]"
            switch filter {
            case .shorthand(let value):
                pairs.append((prefix, value))
            case .shorthandWithOperator(let value, let op):
                pairs.append((prefix + "[value]", value))
                pairs.append((prefix + "[operator]", op.rawValue))
            case .condition(let path, let values, let single, let op, let memberOf):
                let condition = prefix + "[condition]"
                pairs.append((condition + "[path]", path))
                if let single { pairs.append((condition + "[value]", single)) }
                for (index, value) in (values ?? []).enumerated() { pairs.append((condition + "[value][\(index)]", value)) }
                if let op { pairs.append((condition + "[operator]", op.rawValue)) }
                if let memberOf { pairs.append((condition + "[memberOf]", memberOf)) }
            case .group(let conjunction, let memberOf):
                pairs.append((prefix + "[group][conjunction]", conjunction.rawValue))
                if let memberOf { pairs.append((prefix + "[group][memberOf]", memberOf)) }
            }
        }
        if !includes.isEmpty { pairs.append(("include", includes.joined(separator: ","))) }
        for (name, value) in page { pairs.append(("page[\(name)]", String(value))) }
        if !sorts.isEmpty { pairs.append(("sort", sorts.joined(separator: ","))) }
        for (type, fields) in fieldsets { pairs.append(("fields[\(type)]", fields)) }
        pairs += parameters
        return pairs
    }

    /// The encoded query string, without "?": what drupal-jsonapi-params' getQueryString() gives
    /// (every byte but A-Z a-z 0-9 - . _ ~ percent-encoded, brackets too).
    public var queryString: String {
        pairs.map { PathSafety.percentEncode($0.0) + "=" + PathSafety.percentEncode($0.1) }.joined(separator: "&")
    }

    public var isEmpty: Bool {
        filters.isEmpty && includes.isEmpty && page.isEmpty && sorts.isEmpty && fieldsets.isEmpty && parameters.isEmpty
    }

    /// drupal-jsonapi-params builds a JavaScript object, whose integer-like keys ("0", "12") come
    /// first, in numeric order, and the others in the order added.
    private static func propertyOrder(_ filters: [(key: String, filter: Filter)]) -> [(key: String, filter: Filter)] {
        let indexed = filters.compactMap { entry in arrayIndex(entry.key).map { ($0, entry) } }
        if indexed.isEmpty { return filters }
        return indexed.sorted { $0.0 < $1.0 }.map(\.1) + filters.filter { arrayIndex($0.key) == nil }
    }

    /// The key as a JavaScript array index (a canonical decimal below 2^32 - 1), or nil.
    private static func arrayIndex(_ key: String) -> UInt64? {
        let bytes = key.utf8
        guard !bytes.isEmpty, bytes.count <= 10, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              bytes.count == 1 || bytes.first != 0x30, let value = UInt64(key), value < 4_294_967_295 else { return nil }
        return value
    }

    public static func == (lhs: JSONAPIQuery, rhs: JSONAPIQuery) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// Names are not empty and hold no control characters (which no query may carry).
    private static func checkName(_ name: String, _ what: String) throws {
        if name.isEmpty { throw DrupalError.invalidArgument("the \(what) is empty") }
        try PathSafety.rejectControlCharacters(name, what: what)
    }

    /// A name that goes into a comma-separated list (include, sort, fields): a comma in it
    /// would add names the caller did not give.
    private static func checkListItem(_ name: String, _ what: String) throws {
        try checkName(name, what)
        if name.utf8.contains(UInt8(ascii: ",")) { throw DrupalError.invalidArgument("a \(what) has no comma: give each alone") }
    }

    /// Text fit for an error message: at most 64 characters, control characters escaped.
    static func shown(_ text: String) -> String {
        let escaped = text.unicodeScalars.prefix(64).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }
        return escaped.joined() + (text.unicodeScalars.count > 64 ? "..." : "")
    }
}
