import FoundationEssentials

/// A JSON:API document as Drupal answers it: `data` (one resource, a list, or null), `included`,
/// `links`, `meta`. The raw JSON stays available; the included resources are indexed by type and
/// id once, so resolving relationships is a lookup.
///
/// A sparse fieldset can drop the relationship that links a resource to what `include` added:
/// then the included resources are there, but `related` cannot say which resource they belong to.
public struct JSONAPIDocument: Sendable {
    public let raw: JSONValue
    private let includedIndex: [ResourceKey: Int]

    struct ResourceKey: Hashable {
        let type: String
        let id: String
    }

    /// Throws `.decode` unless the body is a JSON:API document: a JSON object whose `data`,
    /// `included` and `links` have the shapes the readers below expect (the message names the
    /// first member that does not).
    public init(_ response: DrupalResponse) throws {
        guard let value = JSONValue.parse(response.body), case .object = value else {
            throw DrupalError(.decode, "the JSON:API answer is not a JSON object (\(response.body.count) bytes)",
                              status: response.status, headers: response.headers, body: response.body)
        }
        if let problem = JSONAPIDocumentShape.problem(in: value) {
            throw DrupalError(.decode, "the answer is not a JSON:API document: \(problem)",
                              status: response.status, headers: response.headers, body: response.body)
        }
        self.init(value)
    }

    /// A document as given, unchecked: members of the wrong shape read as absent.
    public init(_ raw: JSONValue) {
        self.raw = raw
        var index: [ResourceKey: Int] = [:]
        for (position, resource) in (raw["included"]?.arrayValue ?? []).enumerated() {
            if let type = resource["type"]?.stringValue, let id = resource["id"]?.stringValue {
                index[ResourceKey(type: type, id: id)] = index[ResourceKey(type: type, id: id)] ?? position
            }
        }
        includedIndex = index
    }

    /// The primary data as resources: the list of a collection, the one of an individual read
    /// (none for `data: null`).
    public var resources: [JSONAPIResource] {
        switch raw["data"] {
        case .array(let list)?: return list.map(JSONAPIResource.init)
        case .object?: return [JSONAPIResource(raw["data"]!)]
        default: return []
        }
    }

    /// The resource of an individual read, or nil (collections, `data: null`).
    public var resource: JSONAPIResource? {
        if case .object? = raw["data"] { return JSONAPIResource(raw["data"]!) }
        return nil
    }

    public var included: [JSONAPIResource] { (raw["included"]?.arrayValue ?? []).map(JSONAPIResource.init) }

    public var meta: JSONValue? { raw["meta"] }

    /// The href of a top-level link (`"next"`, `"self"`): Drupal writes `{"href": ...}`.
    public func link(_ name: String) -> String? { JSONAPIDocument.href(raw["links"]?[name]) }

    /// The next page of a collection, or nil on the last page (there is no `last` link or count).
    public var next: String? { link("next") }

    /// The included resource with this type and id, or nil.
    public func includedResource(type: String, id: String) -> JSONAPIResource? {
        guard let position = includedIndex[ResourceKey(type: type, id: id)],
              let value = raw["included"]?[position] else { return nil }
        return JSONAPIResource(value)
    }

    /// The included resources a relationship of `resource` points to, in its order; identifiers
    /// with nothing included (not asked for, no access, or an empty reference) are left out.
    public func related(_ resource: JSONAPIResource, _ field: String) -> [JSONAPIResource] {
        resource.identifiers(field).compactMap { includedResource(type: $0.type, id: $0.id) }
    }

    static func href(_ link: JSONValue?) -> String? {
        switch link {
        case .string(let url)?: return url
        case .object?: return link?["href"]?.stringValue
        default: return nil
        }
    }
}

/// One resource object: `type`, `id`, `attributes`, `relationships`, `links`, `meta`.
public struct JSONAPIResource: Sendable {
    public let raw: JSONValue

    public init(_ raw: JSONValue) { self.raw = raw }

    public var type: String { raw["type"]?.stringValue ?? "" }
    public var id: String { raw["id"]?.stringValue ?? "" }
    public var attributes: [String: JSONValue] { raw["attributes"]?.objectValue ?? [:] }
    public var relationships: [String: JSONValue] { raw["relationships"]?.objectValue ?? [:] }

    /// An attribute's value, or nil.
    public subscript(attribute: String) -> JSONValue? { raw["attributes"]?[attribute] }

    /// The identifiers (type, id) of a relationship: one for a to-one, the list for a to-many,
    /// none for `data: null`, `data: []` or a relationship the answer does not carry.
    public func identifiers(_ field: String) -> [(type: String, id: String)] {
        let data = raw["relationships"]?[field]?["data"]
        let items: [JSONValue]
        switch data {
        case .array(let list)?: items = list
        case .object?: items = [data!]
        default: items = []
        }
        return items.compactMap { item in
            guard let type = item["type"]?.stringValue, let id = item["id"]?.stringValue else { return nil }
            return (type, id)
        }
    }
}
