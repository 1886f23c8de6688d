extension String {
    /// The text with its control characters (C0, DEL and C1) shown as escapes ("\u{1b}"), so
    /// that text from a server or a caller cannot colour a terminal, move its cursor or start a
    /// fake log line where it is printed. `kept` are left as they are (a message's line breaks).
    func escapingControlCharacters(keeping kept: Set<Unicode.Scalar> = []) -> String {
        guard unicodeScalars.contains(where: { $0.isControlCharacter && !kept.contains($0) }) else { return self }
        var text = ""
        for scalar in unicodeScalars {
            if scalar.isControlCharacter && !kept.contains(scalar) {
                text += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}

private extension Unicode.Scalar {
    var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
