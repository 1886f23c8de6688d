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

/// A comment saved or deleted updates its host's statistics row as CommentStatistics::update
/// writes it: the latest published comment's id, time and author ('' as the name of an author
/// with an account), and the count of published comments; with none left, zeros, the node's
/// changed time and its owner (recording 43: node 1 after 32's comment).
extension MockState {
    static func commentHost(_ comment: [String: JSONValue]) -> String? {
        comment["entity_id"]?[0]?["target_id"]?.idString
    }

    mutating func refreshCommentStatistics(host: String?) {
        guard let host, var node = entities["node"]?[host],
              var stats = node["comment"]?.arrayValue?.first?.objectValue else { return }
        let published = (entities["comment"] ?? [:]).filter { _, comment in
            comment["entity_id"]?[0]?["target_id"]?.idString == host && MockFields.firstValue(comment["status"]) != "false"
        }
        func seconds(_ entity: [String: JSONValue], _ field: String) -> Int64 {
            MockFields.firstValue(entity[field]).flatMap(MockIdentifiers.seconds(rfc3339:)) ?? 0
        }
        // The newest by creation (CommentStatistics::update orders by created), its changed time.
        let latest = published.max { a, b in
            (seconds(a.value, "created"), Int(a.key) ?? 0) < (seconds(b.value, "created"), Int(b.key) ?? 0)
        }
        if let (cid, comment) = latest {
            let uid = MockFields.firstValue(comment["uid"]) ?? "0"
            stats["cid"] = MockFields.number(cid)
            stats["last_comment_timestamp"] = .number(Double(seconds(comment, "changed")))
            stats["last_comment_uid"] = MockFields.number(uid)
            stats["last_comment_name"] = uid == "0" ? .string(MockFields.firstValue(comment["name"]) ?? "") : .string("")
        } else {
            stats["cid"] = .number(0)
            stats["last_comment_timestamp"] = .number(Double(seconds(node, "changed")))
            stats["last_comment_uid"] = MockFields.number(MockFields.firstValue(node["uid"]) ?? "0")
            stats["last_comment_name"] = .string("")
        }
        stats["comment_count"] = .number(Double(published.count))
        node["comment"] = .array([.object(stats)])
        entities["node"]?[host] = node
    }
}
