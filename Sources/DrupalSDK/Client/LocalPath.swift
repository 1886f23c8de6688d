#if canImport(Glibc)
import Glibc
#endif

/// A path on the local file system, as the bytes the system takes. On Linux a file name is any
/// bytes but "/" and NUL, UTF-8 or not (a Latin-1 "caf\xE9.png" from an old archive), and a
/// String cannot hold the ones that are not: the files uploads read and downloads write are
/// named by these. A String (or a literal) converts to its UTF-8 bytes.
public struct LocalPath: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    public init(_ path: String) { bytes = Array(path.utf8) }

    public init<Bytes: Sequence<UInt8>>(bytes: Bytes) { self.bytes = Array(bytes) }

    public init(stringLiteral path: String) { self.init(path) }

    public var isEmpty: Bool { bytes.isEmpty }

    /// The path for a message: its UTF-8 as it is, other bytes as "\xE9", control characters as
    /// escapes ("\u{a}"), so that a name cannot break a log line or drive a terminal.
    public var description: String {
        if let text = String(validating: bytes, as: UTF8.self) { return text.escapingControlCharacters() }
        var shown = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                shown.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] {
                    shown += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
                offset += length
            case .emptyInput:
                return shown.escapingControlCharacters()
            }
        }
    }

    /// `body` with the path as a C string, and `errno` after it as `body` left it (freeing the
    /// copy could change it). A NUL inside would end the path early and name another file:
    /// `.invalidArgument`, the one place every path is refused for it.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) throws(DrupalError) -> Result {
        if bytes.contains(0) { throw DrupalError.invalidArgument("the file path \(self) contains a NUL byte") }
        var number: Int32 = 0
        let result = (bytes + [0]).withUnsafeBufferPointer { terminated in
            defer { number = errno }
            return terminated.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
        errno = number
        return result
    }

    /// What follows the last "/" (all of it when there is none).
    var name: ArraySlice<UInt8> {
        bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes[($0 + 1)...] } ?? bytes[...]
    }

    /// The directory the last "/" ends: "." when there is none, "/" for "/name".
    var directory: LocalPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == 0 ? "/" : LocalPath(bytes: bytes[..<slash])
    }
}
