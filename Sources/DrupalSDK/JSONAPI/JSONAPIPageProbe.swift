import FoundationEssentials

/// What a pager needs of a collection page: its `links.next` and whether it holds resources.
/// Decoded without building the whole document (a `JSONValue` of a 50-resource page costs
/// milliseconds; this reads two members).
struct JSONAPIPageProbe: Decodable {
    let next: String?
    let isEmpty: Bool

    private enum Key: String, CodingKey { case data, links, next, href }

    /// A `links.next` that is neither a URL nor a link object with one: the walk cannot go on,
    /// and ending it there would give a collection cut short as if it were whole.
    private struct MalformedNext: Error {}

    init(from decoder: Decoder) throws {
        let document = try decoder.container(keyedBy: Key.self)
        if let links = try? document.nestedContainer(keyedBy: Key.self, forKey: .links), links.contains(.next),
           !((try? links.decodeNil(forKey: .next)) ?? false) {
            if let href = try? links.decode(String.self, forKey: .next) {
                next = href
            } else if let href = try? links.nestedContainer(keyedBy: Key.self, forKey: .next).decode(String.self, forKey: .href) {
                next = href
            } else {
                throw MalformedNext()
            }
        } else {
            next = nil
        }
        if let list = try? document.nestedUnkeyedContainer(forKey: .data) {
            isEmpty = (list.count ?? 0) == 0
        } else {
            isEmpty = !document.contains(.data) || (try? document.decodeNil(forKey: .data)) ?? true
        }
    }

    /// Throws `.decode` for a body that is not a JSON:API document.
    init(_ response: DrupalResponse) throws {
        do {
            self = try JSONDecoder().decode(JSONAPIPageProbe.self, from: response.body)
        } catch is MalformedNext {
            throw DrupalError(.decode, "the JSON:API page's links.next is neither a URL nor a link object with an href",
                              status: response.status, headers: response.headers, body: response.body)
        } catch {
            throw DrupalError(.decode, "the JSON:API page is not a JSON object (\(response.body.count) bytes)",
                              status: response.status, headers: response.headers, body: response.body)
        }
    }
}
