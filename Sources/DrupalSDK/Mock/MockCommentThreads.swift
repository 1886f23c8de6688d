/// A comment's place in its host's thread, as Drupal's Comment::preSave numbers it: one past the
/// highest number at the comment's depth among the host's comments (so a deleted comment's number
/// is not reused), "01/", "02/"... for top-level comments and "01.00/", "01.01/"... for replies to
/// "01/". The numbers are alphadecimal (Number::intToAlphadecimal), so that threads sort as text:
/// after "09" comes "0a", after "0z" comes "110".
extension MockState {
    func nextThread(for comment: [String: JSONValue]) -> String {
        let host = comment["entity_id"]?[0]?["target_id"]?.idString
        let parent = MockFields.firstValue(comment["pid"]).flatMap { entities["comment"]?[$0] }
        let prefix = parent.flatMap { MockFields.firstValue($0["thread"]) }.map { Self.withoutSlash($0) + "." } ?? ""
        let depth = prefix.filter { $0 == "." }.count
        // A reply's first number is 0, a top-level comment's 1.
        var highest = parent == nil ? 0 : -1
        for other in (entities["comment"] ?? [:]).values where other["entity_id"]?[0]?["target_id"]?.idString == host {
            guard let thread = MockFields.firstValue(other["thread"]), thread.hasPrefix(prefix) else { continue }
            let parts = Self.withoutSlash(thread).split(separator: ".")
            if depth < parts.count, let number = Int(parts[depth].dropFirst(), radix: 36) { highest = max(highest, number) }
        }
        return prefix + Self.alphadecimal(highest + 1) + "/"
    }

    /// Base 36 after one character giving its length less one ("0" + its length - 1, as PHP's chr).
    private static func alphadecimal(_ number: Int) -> String {
        let digits = String(number, radix: 36)
        return String(UnicodeScalar(UInt8(0x30 + digits.count - 1))) + digits
    }

    private static func withoutSlash(_ thread: String) -> String {
        thread.hasSuffix("/") ? String(thread.dropLast()) : thread
    }
}
