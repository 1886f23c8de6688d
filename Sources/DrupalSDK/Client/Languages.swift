import FoundationEssentials

/// Languages by URL prefix (Drupal's language module with path prefix negotiation): the one place
/// where a language becomes part of a request's path, for every path (core REST, Views, JSON:API),
/// and what an answer says about the language it is in.
enum LanguagePrefix {
    /// Checks a language prefix: one path segment of letters, digits, "-" and "_" ("fr", "pt-br",
    /// "zh-hans"); nil or "" is the default language (no prefix).
    static func validate(_ language: String?) throws -> String? {
        guard let language, !language.isEmpty else { return nil }
        guard language.utf8.count <= 64, language.utf8AllSatisfy({
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }) else {
            throw DrupalError.invalidArgument("the language must be a path prefix such as \"fr\" or \"pt-br\" "
                                              + "(letters, digits, '-' and '_', at most 64)")
        }
        return language
    }

    /// A normalized path under the language's prefix; a path already under it (a JSON:API link
    /// of a French answer, "/fr/jsonapi/...") is kept as it is.
    static func apply(_ language: String, to path: String) -> String {
        let prefix = "/" + language
        if path == prefix || path.hasPrefix(prefix + "/") { return path }
        return path == "/" ? prefix : prefix + path
    }
}

extension HTTPResponse {
    /// The langcode of the entity an answer carries: core REST's `langcode[0].value`, or JSON:API's
    /// `data.attributes.langcode`; nil for other answers. A read under a language prefix of an
    /// entity without that translation answers the original: compare this with the language asked.
    public var langcode: String? {
        guard body.looksLikeJSON(object: true), let json = JSONValue.parse(body) else { return nil }
        if let rest = json["langcode"]?[0]?["value"]?.stringValue { return rest }
        return json["data"]?["attributes"]?["langcode"]?.stringValue
    }

    /// The language Drupal negotiated for the request (its `Content-Language`, e.g. "pt-br" for a
    /// site that serves Brazilian Portuguese at /br); nil when the answer names none.
    var negotiatedLanguage: String? {
        guard let value = headers["Content-Language"] else { return nil }
        let first = value.split(separator: ",").first?.trimmedWhitespace ?? ""
        return first.isEmpty ? nil : first
    }
}

extension DrupalClient {
    /// This client in a language: every operation goes under the language's prefix (see
    /// `DrupalOperation.inLanguage`), sharing this client's session, tokens and connections (one
    /// session for every language, not a client per language). "" is the default language (no
    /// prefix), nil this client's own. An operation given its own language keeps it. Throws
    /// `.invalidArgument` for a language that is not a path prefix.
    public func inLanguage(_ language: String?, force: Bool = false) throws -> DrupalClient {
        guard let language else { return self }
        _ = try LanguagePrefix.validate(language)
        var client = self
        let start = self.start, run = self.run
        client.start = { operation, completion in try start(.inLanguage(language, operation, force: force), completion) }
        client.run = { operation, register in try run(.inLanguage(language, operation, force: force), register) }
        return client
    }
}
