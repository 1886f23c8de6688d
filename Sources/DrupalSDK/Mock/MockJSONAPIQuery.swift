import FoundationEssentials

/// A query string as PHP reads it: `a[b][c]=v` nests, `a[]=v` appends at the next index
/// (`value[]` becomes `value[0]`, `value[1]`: 108), and keys keep the order they came in.
indirect enum MockQueryTree {
    case text(String)
    case map([(key: String, value: MockQueryTree)])

    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var entries: [(key: String, value: MockQueryTree)]? {
        if case .map(let entries) = self { return entries }
        return nil
    }

    subscript(key: String) -> MockQueryTree? { entries?.first { $0.key == key }?.value }

    /// The texts of a list (`value[]=1&value[]=3`), or the one text.
    var texts: [String] {
        switch self {
        case .text(let text): return [text]
        case .map(let entries): return entries.compactMap { $0.value.text }
        }
    }

    static func parse(_ pairs: [(String, String)]) -> [(key: String, value: MockQueryTree)] {
        var root = MockQueryTree.map([])
        for (name, value) in pairs where !name.isEmpty {
            root.insert(keyPath(name)[...], .text(value))
        }
        return root.entries ?? []
    }

    /// "filter[a][condition][path]" -> ["filter", "a", "condition", "path"]; "" for "[]".
    private static func keyPath(_ name: String) -> [String] {
        guard let open = name.firstIndex(of: "[") else { return [name] }
        var parts = [String(name[..<open])]
        var rest = name[open...]
        while rest.first == "[", let close = rest.firstIndex(of: "]") {
            parts.append(String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return parts
    }

    private mutating func insert(_ path: ArraySlice<String>, _ value: MockQueryTree) {
        guard let first = path.first else { self = value; return }
        var entries = self.entries ?? []
        var key = first
        if key.isEmpty {
            // PHP appends after the highest integer key; after PHP_INT_MAX it cannot, and drops it.
            let next = (entries.compactMap { Int($0.key) }.max() ?? -1).addingReportingOverflow(1)
            if next.overflow { return }
            key = String(next.partialValue)
        }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            var child = entries[index].value
            child.insert(path.dropFirst(), value)
            entries[index].value = child
        } else {
            var child = MockQueryTree.map([])
            child.insert(path.dropFirst(), value)
            entries.append((key, child))
        }
        self = .map(entries)
    }

    /// The entries as PHP's http_build_query writes them with RFC 3986 encoding (brackets and
    /// commas escaped: 104, 108); `keepSlash` as Drupal's UrlHelper::buildQuery, which pager
    /// links use.
    static func build(_ entries: [(key: String, value: MockQueryTree)], keepSlash: Bool = false) -> String {
        func encode(_ text: String) -> String {
            let encoded = PathSafety.percentEncode(text)
            return keepSlash ? encoded.replacingOccurrences(of: "%2F", with: "/") : encoded
        }
        var pairs: [String] = []
        func walk(_ prefix: String, _ tree: MockQueryTree) {
            switch tree {
            case .text(let value): pairs.append(prefix + "=" + encode(value))
            case .map(let children):
                for child in children { walk(prefix + "%5B" + encode(child.key) + "%5D", child.value) }
            }
        }
        for entry in entries { walk(encode(entry.key), entry.value) }
        return pairs.joined(separator: "&")
    }
}

/// What a JSON:API request asks for in its query: page, sort, sparse fieldsets, includes, filter
/// (evaluated in MockJSONAPIFilters.swift), and the links Drupal rebuilds from it.
struct MockJSONAPIQuery {
    /// Drupal's default and maximum page size.
    static let maxPageSize = 50

    let parameters: [(key: String, value: MockQueryTree)]
    var offset = 0
    /// The page size used: `page[limit]` capped at 50 (190).
    var limit = MockJSONAPIQuery.maxPageSize
    var sort: [(path: String, descending: Bool)] = []
    /// Field names per resource type name (`fields[node--article]=title,uid`).
    var fields: [String: Set<String>] = [:]
    /// Relationship paths; nil when the request has no `include` (then no `included` member).
    var includes: [[String]]?
    var filter: MockQueryTree?

    init(_ request: MockRequest) throws {
        parameters = MockQueryTree.parse(request.query)
        if let page = parameters.first(where: { $0.key == "page" })?.value {
            if let text = page["limit"]?.text {
                guard let size = Int(text.trimmedWhitespace), size > 0 else {
                    throw MockJSONAPIReply.fail(400, "The page size needs to be a positive integer.", request)
                }
                limit = min(size, MockJSONAPIQuery.maxPageSize)
            }
            if let text = page["offset"]?.text { offset = max(0, Int(text.trimmedWhitespace) ?? 0) }
        }
        for (key, value) in parameters {
            switch key {
            case "sort": sort = try MockJSONAPIQuery.sortFields(value, request)
            case "fields":
                for (type, list) in value.entries ?? [] {
                    fields[type] = Set((list.text ?? "").split(separator: ",").map { $0.trimmedWhitespace })
                }
            case "include":
                includes = (value.text ?? "").split(separator: ",").map { path in
                    path.trimmedWhitespace.split(separator: ".").map(String.init)
                }
            case "filter": filter = value
            default: break
            }
        }
    }

    /// `sort=a,-b` (a leading "-" is descending), or the long form `sort[k][path]`/`[direction]`.
    private static func sortFields(_ value: MockQueryTree, _ request: MockRequest) throws
        -> [(path: String, descending: Bool)] {
        if let text = value.text {
            return text.split(separator: ",").map { field in
                let field = field.trimmedWhitespace
                return field.hasPrefix("-") ? (String(field.dropFirst()), true) : (field, false)
            }
        }
        return try (value.entries ?? []).map { _, item in
            guard let path = item["path"]?.text else {
                throw MockJSONAPIReply.fail(400, "You need to provide a field name for the sort parameter.", request)
            }
            return (path, item["direction"]?.text?.uppercased() == "DESC")
        }
    }

    /// `links.self`: the request URL with the parameters sorted by name (Symfony's normalized
    /// query: 100, 108).
    func selfLink(_ request: MockRequest) -> String {
        let sorted = parameters.sorted { $0.key < $1.key }
        return MockJSONAPIQuery.url(request, MockQueryTree.build(sorted))
    }

    /// `first`, `prev`, `next`: the query in its order without `page`, then `page[offset]` and
    /// `page[limit]` (100, 190).
    func pageLink(_ request: MockRequest, offset: Int) -> String {
        let page = MockQueryTree.map([("offset", .text(String(offset))), ("limit", .text(String(limit)))])
        let entries = parameters.filter { $0.key != "page" } + [(key: "page", value: page)]
        return MockJSONAPIQuery.url(request, MockQueryTree.build(entries, keepSlash: true))
    }

    private static func url(_ request: MockRequest, _ query: String) -> String {
        request.linkOrigin + request.path + (query.isEmpty ? "" : "?" + query)
    }
}
