import FoundationEssentials

/// Reference items as core REST's EntityReferenceItemNormalizer writes them: the target's type and
/// UUID beside `target_id` (a bundle's, a role's too: recordings 20, 32, 33b, 34), a content
/// entity's path as `url` (32: "/node/1"), and for an image its file's absolute URL, alt, title,
/// width and height (53). The mock stores references as they were sent, so they are filled in on
/// the way out, from the target as it is now; a reference to an entity that is gone keeps its
/// `target_id` alone, as Drupal's normalizer skips what it cannot load.
extension MockState {
    /// The entity as a core REST answer shows it to the caller.
    func restEntity(_ entityType: String, _ entity: [String: JSONValue], _ caller: MockCaller, origin: String)
        -> [String: JSONValue] {
        var fields = viewableFields(entityType, entity, caller)
        for (field, target) in MockJSONAPIFields.knownRelationships(entityType) {
            guard let items = fields[field]?.arrayValue else { continue }
            fields[field] = .array(items.map { referenceItem($0, target.entityType, origin: origin) })
        }
        return fields
    }

    private func referenceItem(_ item: JSONValue, _ targetType: String, origin: String) -> JSONValue {
        // A root term's parent is `{"target_id": null}` alone (33b).
        guard case .object(var object) = item, let id = object["target_id"]?.idString else { return item }
        if MockJSONAPIFields.configTypes.contains(targetType) {
            object["target_type"] = .string(targetType)
            object["target_uuid"] = .string(MockJSONAPIFields.configUUID(targetType, id))
            return .object(object)
        }
        guard let target = entities[targetType]?[id], let uuid = MockFields.firstValue(target["uuid"]) else {
            return .object(object)
        }
        object["target_type"] = .string(targetType)
        object["target_uuid"] = .string(uuid)
        guard targetType == "file" else {
            object["url"] = .string(MockState.canonicalPath(entityPaths, targetType, id))
            return .object(object)
        }
        let path = target["uri"]?[0]?["url"]?.stringValue ?? ""
        object["url"] = .string(origin + path)
        for name in ["alt", "title"] where object[name] == nil { object[name] = .null }
        // ImageItem::preSave reads the size from the file when the item has none (53: 2 x 2).
        if object["width"] == nil || object["height"] == nil {
            let size = fileContents[path].flatMap(MockState.imageSize)
            object["width"] = size.map { .number(Double($0.width)) } ?? .null
            object["height"] = size.map { .number(Double($0.height)) } ?? .null
        }
        return .object(object)
    }

    /// The pixel size a PNG (its IHDR) or GIF (its screen descriptor) declares.
    static func imageSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        func number(_ range: Range<Int>, bigEndian: Bool) -> Int {
            let slice = bigEndian ? Array(bytes[range]) : bytes[range].reversed()
            return slice.reduce(0) { $0 << 8 | Int($1) }
        }
        if bytes.count >= 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            return (number(16..<20, bigEndian: true), number(20..<24, bigEndian: true))
        }
        if bytes.count >= 10, bytes[0..<6] == Array("GIF87a".utf8)[...] || bytes[0..<6] == Array("GIF89a".utf8)[...] {
            return (number(6..<8, bigEndian: false), number(8..<10, bigEndian: false))
        }
        return nil
    }
}
