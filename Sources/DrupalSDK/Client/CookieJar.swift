/// The session cookies of one client, in memory only. One base URL per client, so the jar keeps
/// names and values and honours deletion; it is never shared and never written anywhere.
struct CookieJar: Sendable {
    private(set) var cookies: [(name: String, value: String)] = []

    var isEmpty: Bool { cookies.isEmpty }

    /// True when a Drupal session cookie (SESS... or SSESS...) is held: CSRF rules depend on it.
    var hasSession: Bool { cookies.contains { $0.name.hasPrefix("SESS") || $0.name.hasPrefix("SSESS") } }

    /// The Cookie header value, or nil with no cookies.
    var headerValue: String? {
        cookies.isEmpty ? nil : cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Applies every Set-Cookie of a response: replaces, adds, or deletes expired ones.
    mutating func store(setCookieHeaders: [String]) {
        for header in setCookieHeaders {
            let attributes = header.split(separator: ";").map { $0.trimmedWhitespace }
            guard let pair = attributes.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            guard !name.isEmpty else { continue }
            cookies.removeAll { $0.name == name }
            if !CookieJar.isDeletion(value: value, attributes: attributes.dropFirst()) {
                cookies.append((name, value))
            }
        }
    }

    mutating func removeAll() { cookies.removeAll() }

    private static func isDeletion(value: String, attributes: ArraySlice<String>) -> Bool {
        if value.isEmpty || value == "deleted" { return true }
        for attribute in attributes {
            let lower = attribute.lowercased()
            if lower.hasPrefix("max-age="), let age = Int(lower.dropFirst(8)), age <= 0 { return true }
            // Drupal expires cookies with a date in 1970.
            if lower.hasPrefix("expires="), lower.contains("1970") { return true }
        }
        return false
    }
}
