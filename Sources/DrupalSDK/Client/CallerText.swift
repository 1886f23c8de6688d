extension DrupalError {
    /// The most of a caller's own text a message carries (a token provider's reason).
    public static let maxCallerTextLength = 1024

    /// A caller's text as part of a message: control characters shown as escapes (so it cannot
    /// start a fake log line or drive a terminal), at most `maxCallerTextLength` bytes of UTF-8,
    /// cut between two characters and ending with "...".
    public static func callerText(_ text: String) -> String {
        let escaped = text.escapingControlCharacters()
        guard escaped.utf8.count > maxCallerTextLength else { return escaped }
        var cut = String.UnicodeScalarView()
        var bytes = 0
        for scalar in escaped.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > maxCallerTextLength - 3 { break }
            cut.append(scalar)
        }
        return String(cut) + "..."
    }
}
