import FoundationEssentials

/// Tokens, UUIDs and timestamps shaped like Drupal's.
enum MockIdentifiers {
    /// URL-safe base64 without padding of 32 random bytes: 43 characters, like Drupal's tokens.
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func hex(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<count).map { _ in digits[Int.random(in: 0..<16, using: &generator)] })
    }

    static func uuid() -> String { UUID().uuidString.lowercased() }

    /// Now as RFC 3339 in UTC with "+00:00", the form of Drupal 10/11 timestamp fields.
    static func now() -> String { rfc3339(seconds: Int64(Date.now.timeIntervalSince1970)) }

    static func rfc3339(seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(secondOfDay / 3600)):"
            + "\(pad(secondOfDay % 3600 / 60)):\(pad(secondOfDay % 60))+00:00"
    }

    /// Seconds since 1970 of an RFC 3339 time in UTC as `rfc3339(seconds:)` writes it, or nil.
    static func seconds(rfc3339 text: String) -> Int64? {
        let digits = text.split(whereSeparator: { "-T:+".contains($0) }).prefix(6).compactMap { Int64($0) }
        guard digits.count == 6, text.hasSuffix("+00:00") else { return nil }
        let days = HTTPDate.daysSinceEpoch(year: Int(digits[0]), month: Int(digits[1]), day: Int(digits[2]))
        return days * 86_400 + digits[3] * 3600 + digits[4] * 60 + digits[5]
    }

    /// A timestamp field item: `{"value": "...", "format": "Y-m-d\\TH:i:sP"}`.
    static func timestampField(_ value: String) -> JSONValue {
        .array([.object(["value": .string(value), "format": .string("Y-m-d\\TH:i:sP")])])
    }
}
