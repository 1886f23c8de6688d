/// Which fields an entity has, where the mock knows it: a node's base fields (as recording 20
/// shows them, plus the hidden `revision_default`) and the fields a bundle declares (the seeded
/// article's body, comment, field_image and field_tags).
extension MockState {
    static func baseFields(_ entityType: String) -> Set<String>? {
        switch entityType {
        case "node":
            return ["nid", "uuid", "vid", "langcode", "type", "revision_timestamp", "revision_uid", "revision_log",
                    "status", "uid", "title", "created", "changed", "promote", "sticky", "default_langcode",
                    "revision_default", "revision_translation_affected", "path"]
        default: return nil
        }
    }

    /// Every field of the bundle; nil when the mock does not know them (the bundle declares none,
    /// or the type's base fields are not described), and then any field name is taken.
    func knownFields(_ entityType: String, _ bundle: String?) -> Set<String>? {
        guard let bundle, let declared = bundleFields[entityType]?[bundle], !declared.isEmpty,
              let base = MockState.baseFields(entityType) else { return nil }
        return base.union(declared)
    }
}
