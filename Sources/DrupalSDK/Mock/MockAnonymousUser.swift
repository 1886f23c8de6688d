import FoundationEssentials

/// Drupal's anonymous user, uid 0: no account, never stored with the others (core REST does not
/// serve it), but JSON:API lists it first among the users, by its label "Anonymous" (171b), and a
/// reference to uid 0 (an anonymous author) names it.
extension MockState {
    var anonymousUser: [String: JSONValue] {
        ["uid": MockFields.single(.number(0)), "uuid": MockFields.single(.string(anonymousUUID)),
         "langcode": MockFields.single(.string("en")), "name": MockFields.single(.string("")),
         "status": MockFields.single(.bool(false))]
    }

    /// A user's `display_name`: its name, "Anonymous" for uid 0 (the site's name for visitors).
    static func displayName(_ user: [String: JSONValue]) -> String {
        MockFields.firstValue(user["uid"]) == "0" ? "Anonymous" : MockFields.firstValue(user["name"]) ?? ""
    }
}
