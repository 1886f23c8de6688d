import CDrupal
import CJansson
import DrupalSDK
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reading what C callers pass in: every pointer may be NULL and every string may be invalid
/// UTF-8; both become `.invalidArgument` errors that name the parameter.
enum CInput {
    static func string(_ pointer: UnsafePointer<CChar>?, _ name: String) throws -> String {
        guard let pointer else { throw DrupalError(.invalidArgument, "\(name) is NULL") }
        // Read straight from the C buffer (String(validatingCString:) copies it first); ASCII,
        // the usual case for types, ids and paths, needs no UTF-8 validation.
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                        count: strlen(pointer))
        if isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        guard let value = String(validating: bytes, as: UTF8.self) else {
            throw DrupalError(.invalidArgument, "\(name) is not valid UTF-8")
        }
        return value
    }

    /// A file system path: its bytes as they are, UTF-8 or not (a Linux name is any bytes but
    /// NUL); what opens it decides the rest.
    static func path(_ pointer: UnsafePointer<CChar>?, _ name: String) throws -> LocalPath {
        guard let pointer else { throw DrupalError(.invalidArgument, "\(name) is NULL") }
        return LocalPath(bytes: UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                                    count: strlen(pointer)))
    }

    static func optionalPath(_ pointer: UnsafePointer<CChar>?, _ name: String) throws -> LocalPath? {
        guard pointer != nil else { return nil }
        return try path(pointer, name)
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    static func nonEmptyString(_ pointer: UnsafePointer<CChar>?, _ name: String) throws -> String {
        let value = try string(pointer, name)
        if value.isEmpty { throw DrupalError(.invalidArgument, "\(name) is empty") }
        return value
    }

    static func optionalString(_ pointer: UnsafePointer<CChar>?, _ name: String) throws -> String? {
        guard pointer != nil else { return nil }
        return try string(pointer, name)
    }

    /// Bytes of a body; NULL is allowed only with length 0.
    static func bytes(_ pointer: UnsafeRawPointer?, _ length: Int, _ name: String) throws -> Data {
        if length == 0 { return Data() }
        // A size_t above Int.max arrives negative: no buffer is that big.
        guard length > 0 else { throw DrupalError(.invalidArgument, "\(name)'s length is larger than any buffer can be") }
        guard let pointer else { throw DrupalError(.invalidArgument, "\(name) is NULL but its length is \(length)") }
        return Data(bytes: pointer, count: length)
    }

    /// Serialises a Jansson value at once, so the caller may change or free it after the call.
    /// It is JSON by construction: not parsed again.
    static func jsonBody(_ value: UnsafePointer<json_t>?, _ name: String) throws -> JSONBody {
        guard let value else { throw DrupalError(.invalidArgument, "\(name) is NULL") }
        guard let text = json_dumps(value, Int(JSON_COMPACT)) else {
            throw DrupalError(.invalidArgument, "\(name) cannot be serialised as JSON")
        }
        defer { free(text) }
        return JSONBody(encoded: Data(bytes: text, count: strlen(text)))
    }

    /// A NULL-terminated array of strings.
    static func stringList(_ list: UnsafePointer<UnsafePointer<CChar>?>?, _ name: String) throws -> [String] {
        guard let list else { return [] }
        var result: [String] = []
        var index = 0
        while let item = list[index] {
            result.append(try string(item, "\(name)[\(index)]"))
            index += 1
            if index > 100_000 { throw DrupalError(.invalidArgument, "\(name) is not NULL-terminated") }
        }
        return result
    }

    /// name, value, name, value, ..., NULL
    static func queryPairs(_ list: UnsafePointer<UnsafePointer<CChar>?>?, _ name: String) throws -> [(String, String)] {
        let items = try stringList(list, name)
        guard items.count % 2 == 0 else {
            throw DrupalError(.invalidArgument, "\(name) must hold name/value pairs (found \(items.count) strings)")
        }
        return try stride(from: 0, to: items.count, by: 2).map { index in
            guard !items[index].isEmpty else {
                throw DrupalError(.invalidArgument, "\(name)[\(index)]: a parameter name is empty")
            }
            return (items[index], items[index + 1])
        }
    }

    /// type, canonical path, create path, type, ..., NULL: REST paths of custom entity types
    /// (the client checks them when it is made).
    static func entityPaths(_ list: UnsafePointer<UnsafePointer<CChar>?>?, _ name: String) throws
        -> [(String, EntityPath)] {
        let items = try stringList(list, name)
        guard items.count % 3 == 0 else {
            throw DrupalError(.invalidArgument, "\(name) must hold (type, canonical path, create path) triples "
                              + "(found \(items.count) strings)")
        }
        return stride(from: 0, to: items.count, by: 3).map { index in
            (items[index], EntityPath(canonical: items[index + 1], create: items[index + 2]))
        }
    }

    /// "Name: value" lines.
    static func headerLines(_ list: UnsafePointer<UnsafePointer<CChar>?>?, _ name: String) throws -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (index, line) in try stringList(list, name).enumerated() {
            // The line is not quoted: without a colon, nothing tells its name from a secret value.
            // Found on the bytes: ":" followed by a combining mark is no Character of its own.
            guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else {
                throw DrupalError(.invalidArgument, "\(name)[\(index)] is not a \"Name: value\" line")
            }
            let headerName = String(line[..<colon])
            var value = Substring(line[line.utf8.index(after: colon)...])
            while value.utf8.first == UInt8(ascii: " ") || value.utf8.first == UInt8(ascii: "\t") {
                value = value[value.utf8.index(after: value.startIndex)...]
            }
            headers.add(headerName, String(value))
        }
        return headers
    }
}

/// Records a failure for drupal_last_error() (and its kind for drupal_last_error_kind()) and
/// returns its code.
@discardableResult
func fail(_ error: any Error) -> drupal_code {
    let drupalError = (error as? DrupalError) ?? DrupalError(.internal, "\(error)")
    _ = drupalError.message.withCString { drupal__fail_kind(drupalError.code.rawValue, drupalError.kind.rawValue, $0) }
    return drupalError.code.cCode
}

@discardableResult
func fail(_ code: DrupalError.Code, _ message: String) -> drupal_code {
    _ = message.withCString { drupal__fail(code.rawValue, $0) }
    return drupal_code(UInt32(code.rawValue))
}

let drupalOK = drupal_code(0)

extension DrupalError.Code {
    var cCode: drupal_code { drupal_code(UInt32(rawValue)) }

    /// The code a caller's callback returned, nil for one that is no drupal_code: C callers may
    /// return any value of the enum's type, a negative one included (which Int32(_:) traps on).
    init?(caller code: drupal_code) {
        guard let value = Int32(exactly: code.rawValue) else { return nil }
        self.init(rawValue: value)
    }
}

/// strdup for Swift strings; nil when out of memory. A NUL inside the text (a server's JSON may
/// hold "\u0000") would end the C string there without a word: it is handed out as U+FFFD.
func duplicateCString(_ text: String) -> UnsafeMutablePointer<CChar>? {
    guard text.utf8.contains(0) else { return text.withCString { strdup($0) } }
    let shown = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
    return shown.withCString { strdup($0) }
}
