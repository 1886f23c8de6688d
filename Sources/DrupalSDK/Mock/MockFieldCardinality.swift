/// FieldItemList's Count constraint: a field of cardinality 1 given more than one item. Drupal gives
/// every field of limited cardinality Count(max) with the message "%name: this field cannot hold more
/// than @count values." (%name: the field's label). The violation's property path is the field's name:
/// core REST's 422 line is "uid: Authored by: this field cannot hold more than 1 values." and JSON:API's
/// pointer /data/attributes/uid (for a relationship too: UnprocessableHttpEntityExceptionNormalizer
/// builds every pointer under /data/attributes). No recording; Drupal's source decides, as for the
/// fake (cardinality.py).
extension MockState {
    /// The single-value fields and their labels, in the fields' order: the base field definitions
    /// (Node, Comment, Term, User, EntityPublishedTrait's "Published", EntityOwnerTrait's "User ID",
    /// PathHooks' "URL alias") and the standard profile's field configs. The single-value fields
    /// missing here (langcode, revision logs, read-only ones, a bundle's own) are not counted.
    static let singleValueLabels: [String: [(field: String, label: String)]] = [
        "node": [("status", "Published"), ("uid", "Authored by"), ("title", "Title"), ("created", "Authored on"),
                 ("promote", "Promoted to front page"), ("sticky", "Sticky at top of lists"), ("path", "URL alias"),
                 ("body", "Body"), ("comment", "Comments"), ("field_image", "Image")],
        "comment": [("status", "Published"), ("uid", "User ID"), ("pid", "Parent ID"), ("entity_id", "Entity ID"),
                    ("subject", "Subject"), ("name", "Name"), ("mail", "Email"), ("homepage", "Homepage"),
                    ("created", "Created"), ("comment_body", "Comment")],
        "taxonomy_term": [("status", "Published"), ("name", "Name"), ("description", "Description"), ("weight", "Weight")],
        "user": [("name", "Name"), ("pass", "Password"), ("mail", "Email"), ("timezone", "Timezone"),
                 ("status", "User status"), ("created", "Created"), ("user_picture", "Picture")],
    ]

    /// The single-value fields of `entity` holding more than one item, with their violation's message.
    static func cardinalityViolations(_ entityType: String, _ entity: [String: JSONValue])
        -> [(field: String, line: String)] {
        (singleValueLabels[entityType] ?? []).compactMap { field, label in
            guard (entity[field]?.arrayValue?.count ?? 0) > 1 else { return nil }
            return (field, "\(field): \(label): this field cannot hold more than 1 values.")
        }
    }
}
