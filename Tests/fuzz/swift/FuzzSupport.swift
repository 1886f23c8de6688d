// Shared by the Swift fuzz targets (each is built as FuzzSupport.swift + one target file against
// the DrupalSDK module compiled with -enable-testing; see Tests/fuzz/run.sh).

/// The fuzzer's bytes, and ways to cut them into the several inputs a target needs.
struct FuzzInput {
    let bytes: [UInt8]

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The bytes cut at every `separator` (0xFF by default: it never occurs in UTF-8, so no text a
    /// target could want is lost), at most `limit` pieces (the last keeps the rest).
    func pieces(separator: UInt8 = 0xFF, limit: Int) -> [[UInt8]] {
        bytes.split(separator: separator, maxSplits: max(0, limit - 1), omittingEmptySubsequences: false).map(Array.init)
    }
}

extension Array where Element == UInt8 {
    /// As text, the way the library gets it from a caller: invalid UTF-8 repaired (U+FFFD).
    var text: String { String(decoding: self, as: UTF8.self) }
}

/// A violated property: stop with the reason, so libFuzzer keeps the input as a crash file.
func require(_ condition: Bool, _ what: @autoclosure () -> String, line: UInt = #line) {
    if !condition { fatalError("property violated: \(what())", line: line) }
}

/// A string for a failure message: escaped, so control characters stay visible.
func shown(_ text: String) -> String { text.debugDescription }

/// ASCII-only lower-casing, for comparing hosts and header names the way HTTP does.
func asciiLowercased(_ text: String) -> [UInt8] {
    text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
}

/// A server's text as the library prints it, written out from the definition rather than with
/// the library's helper: every control character (U+0000-U+001F, U+007F-U+009F) but those in
/// `kept` becomes "\u{hex}" (lower-case hex, no leading zeros).
func controlCharactersShown(_ text: String, keeping kept: Set<UInt32> = []) -> String {
    var shown = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        let value = scalar.value
        if (value < 0x20 || (0x7F...0x9F).contains(value)) && !kept.contains(value) {
            shown.append(contentsOf: "\\u{\(String(value, radix: 16))}".unicodeScalars)
        } else {
            shown.append(scalar)
        }
    }
    return String(shown)
}
