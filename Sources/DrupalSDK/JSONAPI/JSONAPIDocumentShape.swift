/// The shape a JSON:API answer must have for `JSONAPIDocument`'s readers, which answer without
/// throwing: a member of the wrong shape would otherwise read as absent (an included resource
/// left out of the index, an identifier dropped, a malformed `links.next` read as the last page).
/// C's and Python's readers refuse the same members (DRUPAL_E_DECODE, DecodeError).
enum JSONAPIDocumentShape {
    /// Where `document` first departs from that shape ("included[0].id"), or nil.
    static func problem(in document: JSONValue) -> String? {
        switch document["data"] {
        case nil, .null?: break
        case .object?: if let problem = resourceProblem(document["data"]!, at: "data") { return problem }
        case .array(let list)?:
            for (index, item) in list.enumerated() {
                if let problem = resourceProblem(item, at: "data[\(index)]") { return problem }
            }
        default: return "data is not a resource object, a list of them or null"
        }
        switch document["included"] {
        case nil: break
        case .array(let list)?:
            for (index, item) in list.enumerated() {
                if let problem = resourceProblem(item, at: "included[\(index)]") { return problem }
            }
        default: return "included is not a list"
        }
        return linksProblem(document["links"], at: "links")
    }

    /// A resource object: string type and id, attributes an object, relationships an object of
    /// relationship objects whose `data` is null, one identifier or a list of them.
    private static func resourceProblem(_ resource: JSONValue, at path: String) -> String? {
        guard case .object = resource else { return "\(path) is not a resource object" }
        if let problem = identifierProblem(resource, at: path) { return problem }
        if let attributes = resource["attributes"], attributes.objectValue == nil {
            return "\(path).attributes is not an object"
        }
        guard let relationships = resource["relationships"] else { return nil }
        guard let fields = relationships.objectValue else { return "\(path).relationships is not an object" }
        for (name, relationship) in fields.sorted(by: { $0.key < $1.key }) {
            let at = "\(path).relationships.\(name)"
            guard case .object = relationship else { return "\(at) is not an object" }
            switch relationship["data"] {
            case nil, .null?: break
            case .object?: if let problem = identifierProblem(relationship["data"]!, at: at + ".data") { return problem }
            case .array(let list)?:
                for (index, item) in list.enumerated() {
                    guard case .object = item else { return "\(at).data[\(index)] is not a resource identifier" }
                    if let problem = identifierProblem(item, at: "\(at).data[\(index)]") { return problem }
                }
            default: return "\(at).data is not a resource identifier, a list of them or null"
            }
        }
        return nil
    }

    private static func identifierProblem(_ identifier: JSONValue, at path: String) -> String? {
        if identifier["type"]?.stringValue == nil { return "\(path).type is not a string" }
        if identifier["id"]?.stringValue == nil { return "\(path).id is not a string" }
        return nil
    }

    /// Links: an object whose members are null, a URL, or an object with a string href.
    private static func linksProblem(_ links: JSONValue?, at path: String) -> String? {
        guard let links else { return nil }
        guard let members = links.objectValue else { return "\(path) is not an object" }
        for (name, link) in members.sorted(by: { $0.key < $1.key }) {
            switch link {
            case .null, .string: continue
            case .object where link["href"]?.stringValue != nil: continue
            default: return "\(path).\(name) is neither a URL nor an object with a string href"
            }
        }
        return nil
    }
}
