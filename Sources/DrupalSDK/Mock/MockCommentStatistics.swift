import FoundationEssentials

/// The comment module writes a new node's statistics row after the node is saved: the create
/// answer shows zeros (recording 120), every later read the node's creation time and its owner
/// (123, 183c), until a comment changes them.
extension MockState {
    /// The node as stored after its first save: statistics of a node without comments filled in.
    static func withCommentStatistics(_ node: [String: JSONValue]) -> [String: JSONValue] {
        guard var stats = node["comment"]?.arrayValue?.first?.objectValue,
              stats["comment_count"]?.numberValue ?? 0 == 0,
              let created = MockFields.firstValue(node["created"]).flatMap(MockIdentifiers.seconds(rfc3339:)),
              let owner = MockFields.firstValue(node["uid"]).flatMap({ Double($0) }) else { return node }
        stats["last_comment_timestamp"] = .number(Double(created))
        stats["last_comment_uid"] = .number(owner)
        var node = node
        node["comment"] = .array([.object(stats)])
        return node
    }
}
