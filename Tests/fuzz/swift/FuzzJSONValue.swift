// libFuzzer target: JSONParser, which reads every body the library reads untyped (error bodies,
// login and token answers, JSON:API documents), against Jansson's json_loadb as the oracle.
//
// Input: the bytes are the document. Asserted, beyond no crash, leak or UB:
//  - JSONParser accepts exactly what Jansson accepts (JSON_DECODE_ANY | JSON_ALLOW_NUL) and nests
//    no deeper than 512 containers (JSONParser's limit, JSONDecoder's; Jansson's is 2048);
//  - an accepted document gives the same value: types, numbers (Jansson's integers and reals
//    against the Double JSONParser keeps), strings byte for byte (NUL included), arrays in order,
//    objects with the same keys (the last of a repeated key) and values.
// Where the two differ by design, only "no crash" is asserted: Jansson refuses integers beyond
// 64 bits (JSONParser keeps them as a Double), lone surrogate escapes (JSONParser gives U+FFFD)
// and "\u0000" in a key (JSONParser keeps it); and Jansson 2.14 swallows a NUL byte after a number or literal, so an input with a raw
// NUL byte (never JSON) must only be refused.
import CSDKVersion
import FoundationEssentials
@testable import DrupalSDK

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONValue(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size).bytes
    let ours = JSONParser.parse(Data(input))
    if input.contains(0) {
        require(ours == nil, "a raw NUL byte is refused")
        return 0
    }
    var error = json_error_t()
    let theirs = input.withUnsafeBufferPointer { buffer in
        json_loadb(buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, buffer.count,
                   Int(JSON_DECODE_ANY) | Int(JSON_ALLOW_NUL), &error)
    }
    defer { json_decref(theirs) }
    guard let theirs else {
        let reason = withUnsafeBytes(of: error.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if ["too big ", "invalid Unicode", "NUL byte in object key"].contains(where: reason.contains) { return 0 }
        require(ours == nil, "JSONParser accepts what Jansson refuses (\(reason))")
        return 0
    }
    guard depth(theirs) <= JSONParser.maxDepth else {
        require(ours == nil, "JSONParser accepts a document deeper than \(JSONParser.maxDepth)")
        return 0
    }
    guard let ours else {
        require(false, "JSONParser refuses what Jansson accepts")
        return 0
    }
    require(same(ours, theirs), "JSONParser reads another value than Jansson: \(ours)")
    return 0
}

/// How many containers deep a value nests (a scalar 0, `[]` 1).
private func depth(_ value: UnsafeMutablePointer<json_t>) -> Int {
    var deepest = 0
    var stack: [(UnsafeMutablePointer<json_t>, Int)] = [(value, 0)]
    while let (next, level) = stack.popLast() {
        switch next.pointee.type {
        case JSON_ARRAY:
            deepest = max(deepest, level + 1)
            for index in 0..<json_array_size(next) { stack.append((json_array_get(next, index), level + 1)) }
        case JSON_OBJECT:
            deepest = max(deepest, level + 1)
            var iterator = json_object_iter(next)
            while let current = iterator {
                stack.append((json_object_iter_value(current), level + 1))
                iterator = json_object_iter_next(next, current)
            }
        default:
            break
        }
    }
    return deepest
}

private func same(_ ours: JSONValue, _ theirs: UnsafeMutablePointer<json_t>) -> Bool {
    switch (ours, theirs.pointee.type) {
    case (.null, JSON_NULL), (.bool(true), JSON_TRUE), (.bool(false), JSON_FALSE):
        return true
    case (.number(let number), JSON_INTEGER):
        return number == Double(json_integer_value(theirs))
    case (.number(let number), JSON_REAL):
        return number == json_real_value(theirs)
    case (.string(let text), JSON_STRING):
        let bytes = UnsafeRawBufferPointer(start: json_string_value(theirs), count: json_string_length(theirs))
        return text.utf8.elementsEqual(bytes)
    case (.array(let items), JSON_ARRAY):
        guard items.count == json_array_size(theirs) else { return false }
        return items.indices.allSatisfy { same(items[$0], json_array_get(theirs, $0)) }
    case (.object(let members), JSON_OBJECT):
        guard members.count == json_object_size(theirs) else { return false }
        var iterator = json_object_iter(theirs)
        while let current = iterator {
            let keyBytes = UnsafeRawBufferPointer(start: json_object_iter_key(current), count: json_object_iter_key_len(current))
            guard let key = String(validating: keyBytes, as: UTF8.self), let member = members[key],
                  same(member, json_object_iter_value(current)) else { return false }
            iterator = json_object_iter_next(theirs, current)
        }
        return true
    default:
        return false
    }
}
