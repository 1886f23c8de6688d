#if canImport(Glibc)
import Glibc
#endif

/// Dates in HTTP headers (`Expires` of Set-Cookie, `Retry-After`), read with RFC 6265's lenient
/// cookie-date algorithm (§5.1.1), which accepts IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"),
/// RFC 850 and asctime forms alike. Seconds since 1970, UTC; nil when no date can be read, or
/// the date does not exist (31 February).
enum HTTPDate {
    /// Now, in seconds since 1970.
    static func now() -> Int64 { Int64(time(nil)) }

    static func parse(_ text: String) -> Int64? {
        var hour: Int?, minute = 0, second = 0, day: Int?, month: Int?, year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            let digits = token.prefix { $0 >= 0x30 && $0 <= 0x39 }
            if hour == nil, let time = parseTime(token) {
                (hour, minute, second) = time
            } else if day == nil, (1...2).contains(digits.count), let value = number(digits) {
                day = value
            } else if month == nil, token.count >= 3, let value = monthNumber(token.prefix(3)) {
                month = value
            } else if year == nil, (2...4).contains(digits.count), let value = number(digits) {
                year = value < 70 ? value + 2000 : value < 100 ? value + 1900 : value
            }
        }
        guard let hour, let day, let month, let year, (1...daysIn(month, of: year)).contains(day), year >= 1601,
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        return daysSinceEpoch(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    /// "hh:mm:ss" (1-2 digits each), then nothing or a non-digit and anything: the algorithm's
    /// time production ("08:49:37GMT" is a time).
    private static func parseTime(_ token: Substring.UTF8View.SubSequence) -> (Int, Int, Int)? {
        var values: [Int] = []
        var index = token.startIndex
        for field in 0..<3 {
            if field > 0 {
                guard index < token.endIndex, token[index] == UInt8(ascii: ":") else { return nil }
                index = token.index(after: index)
            }
            let digits = token[index...].prefix { $0 >= 0x30 && $0 <= 0x39 }
            guard (1...2).contains(digits.count), let value = number(digits) else { return nil }
            values.append(value)
            index = digits.endIndex
        }
        return (values[0], values[1], values[2])
    }

    /// The days of `month` (1-12) in `year`, leap years as the Gregorian calendar has them.
    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func number<S: Sequence>(_ digits: S) -> Int? where S.Element == UInt8 {
        var value = 0
        var any = false
        for digit in digits {
            value = value * 10 + Int(digit - 0x30)
            any = true
        }
        return any ? value : nil
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func monthNumber<S: Sequence>(_ letters: S) -> Int? where S.Element == UInt8 {
        let name = String(decoding: letters.map { $0 | 0x20 }, as: UTF8.self)
        return months.firstIndex(of: name).map { $0 + 1 }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (the days-from-civil formula: 400-year
    /// eras of 146,097 days, years starting in March so the leap day comes last).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
