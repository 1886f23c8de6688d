/// A JSON:API resource type: an entity type and a bundle, written `node--article` in documents
/// and `/jsonapi/node/article` in paths.
public struct JSONAPIResourceType: Sendable, Hashable, CustomStringConvertible {
    public let entityType: String
    public let bundle: String

    /// From the entity type and bundle machine names (`"node"`, `"article"`).
    public init(_ entityType: String, _ bundle: String) throws {
        for (part, what) in [(entityType, "entity type"), (bundle, "bundle")] {
            guard !part.isEmpty, part.utf8.allSatisfy(JSONAPIResourceType.isMachineNameByte) else {
                throw DrupalError.invalidArgument("the JSON:API \(what) \"\(JSONAPIQuery.shown(part))\" is not a machine "
                                                  + "name (lower-case letters, digits and _)")
            }
        }
        self.entityType = entityType
        self.bundle = bundle
    }

    /// From a resource type name as documents write it (`"node--article"`).
    public init(_ name: String) throws {
        guard let separator = name.firstRange(of: "--") else {
            throw DrupalError.invalidArgument("\"\(JSONAPIQuery.shown(name))\" is not a JSON:API resource type "
                                              + "(entity type--bundle, e.g. node--article)")
        }
        try self.init(String(name[..<separator.lowerBound]), String(name[separator.upperBound...]))
    }

    /// `node--article`
    public var description: String { entityType + "--" + bundle }

    /// `/jsonapi/node/article`
    var path: String { "/jsonapi/" + entityType + "/" + bundle }

    /// Drupal machine names; they need no escaping in a path.
    private static func isMachineNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
    }
}
