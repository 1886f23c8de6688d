import CDrupal
import DrupalSDK
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

// drupal_response_*: reading a response. Strings are borrowed from the handle.


@_cdecl("drupal_response_retain")
public func drupal_response_retain(_ response: OpaquePointer?) -> OpaquePointer? {
    guard let response else { return nil }
    _ = Unmanaged<ResponseHandle>.fromOpaque(UnsafeRawPointer(response)).retain()
    return response
}

@_cdecl("drupal_response_free")
public func drupal_response_free(_ response: OpaquePointer?) {
    guard let response else { return }
    Unmanaged<ResponseHandle>.fromOpaque(UnsafeRawPointer(response)).release()
}

@_cdecl("drupal_response_code")
public func drupal_response_code(_ response: OpaquePointer?) -> drupal_code {
    guard let handle = ResponseHandle.from(response) else { return fail(.invalidArgument, "response is NULL") }
    return handle.code
}

@_cdecl("drupal_response_status")
public func drupal_response_status(_ response: OpaquePointer?) -> Int32 {
    ResponseHandle.from(response)?.status ?? 0
}

@_cdecl("drupal_response_error_kind")
public func drupal_response_error_kind(_ response: OpaquePointer?) -> drupal_error_kind {
    drupal_error_kind(UInt32(ResponseHandle.from(response)?.kind ?? 0))
}

@_cdecl("drupal_response_error_message")
public func drupal_response_error_message(_ response: OpaquePointer?) -> UnsafePointer<CChar> {
    guard let handle = ResponseHandle.from(response) else { return emptyCString }
    return handle.message
}

@_cdecl("drupal_response_drupal_message")
public func drupal_response_drupal_message(_ response: OpaquePointer?) -> UnsafePointer<CChar>? {
    ResponseHandle.from(response)?.drupalMessage.map { UnsafePointer($0) }
}

@_cdecl("drupal_response_os_error")
public func drupal_response_os_error(_ response: OpaquePointer?) -> Int32 {
    ResponseHandle.from(response)?.osError ?? 0
}

@_cdecl("drupal_response_body")
public func drupal_response_body(_ response: OpaquePointer?, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar> {
    guard let handle = ResponseHandle.from(response) else {
        length?.pointee = 0
        return emptyCString
    }
    length?.pointee = handle.bodyLength
    return handle.body
}

@_cdecl("drupal_response_header")
public func drupal_response_header(_ response: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    guard let handle = ResponseHandle.from(response), let name else { return nil }
    return handle.headers.first { $0.0.map { strcasecmp($0, name) == 0 } ?? false }?.1.map { UnsafePointer($0) }
}

@_cdecl("drupal_response_header_count")
public func drupal_response_header_count(_ response: OpaquePointer?) -> Int {
    ResponseHandle.from(response)?.headerCount ?? 0
}

@_cdecl("drupal_response_header_at")
public func drupal_response_header_at(_ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                      _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                      _ response: OpaquePointer?, _ index: Int) -> drupal_code {
    pair(name, value, response, index, what: "header", count: \.headerCount, pairs: \.headers)
}

@_cdecl("drupal_response_violation_count")
public func drupal_response_violation_count(_ response: OpaquePointer?) -> Int {
    ResponseHandle.from(response)?.violationCount ?? 0
}

@_cdecl("drupal_response_violation_at")
public func drupal_response_violation_at(_ path: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                         _ message: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                         _ response: OpaquePointer?, _ index: Int) -> drupal_code {
    pair(path, message, response, index, what: "violation", count: \.violationCount, pairs: \.violations)
}

@_cdecl("drupal_response_jsonapi_error_count")
public func drupal_response_jsonapi_error_count(_ response: OpaquePointer?) -> Int {
    ResponseHandle.from(response)?.jsonAPIErrorCount ?? 0
}

@_cdecl("drupal_response_jsonapi_error_member")
public func drupal_response_jsonapi_error_member(_ response: OpaquePointer?, _ index: Int,
                                                 _ member: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    guard let handle = ResponseHandle.from(response), let member, index >= 0, index < handle.jsonAPIErrorCount
    else { return nil }
    return handle.jsonAPIErrorMembers(index).first { $0.0.map { strcmp($0, member) == 0 } ?? false }?.1
        .map { UnsafePointer($0) }
}

@_cdecl("drupal_response_jsonapi_error_member_at")
public func drupal_response_jsonapi_error_member_at(_ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                                    _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                                    _ response: OpaquePointer?, _ index: Int,
                                                    _ memberIndex: Int) -> drupal_code {
    name?.pointee = nil
    value?.pointee = nil
    guard let handle = ResponseHandle.from(response) else { return fail(.invalidArgument, "response is NULL") }
    guard index >= 0, index < handle.jsonAPIErrorCount else {
        return fail(.notFound, "JSON:API error index \(UInt(bitPattern: index)) is past the last error "
                    + "(\(handle.jsonAPIErrorCount))")
    }
    let members = handle.jsonAPIErrorMembers(index)
    guard memberIndex >= 0, memberIndex < members.count else {
        return fail(.notFound, "member index \(UInt(bitPattern: memberIndex)) is past the last member (\(members.count))")
    }
    guard let memberName = members[memberIndex].0, let memberValue = members[memberIndex].1 else {
        return fail(.noMemory, "out of memory copying a JSON:API error member")
    }
    name?.pointee = UnsafePointer(memberName)
    value?.pointee = UnsafePointer(memberValue)
    return drupalOK
}

/// The index-th (first, second) pair of a response's headers or violations, borrowed.
private func pair(_ first: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                  _ second: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                  _ response: OpaquePointer?, _ index: Int, what: String,
                  count: KeyPath<ResponseHandle, Int>,
                  pairs: KeyPath<ResponseHandle, ResponseHandle.CStringPairs>) -> drupal_code {
    first?.pointee = nil
    second?.pointee = nil
    guard let handle = ResponseHandle.from(response) else { return fail(.invalidArgument, "response is NULL") }
    let total = handle[keyPath: count]
    guard index >= 0, index < total else {
        // A size_t in C: SIZE_MAX is no "-1".
        return fail(.notFound, "\(what) index \(UInt(bitPattern: index)) is past the last \(what) (\(total))")
    }
    let item = handle[keyPath: pairs][index]
    guard let itemFirst = item.0, let itemSecond = item.1 else {
        return fail(.noMemory, "out of memory copying a \(what)")
    }
    first?.pointee = UnsafePointer(itemFirst)
    second?.pointee = UnsafePointer(itemSecond)
    return drupalOK
}

@_cdecl("drupal_response_json")
public func drupal_response_json(_ out: UnsafeMutablePointer<UnsafeMutablePointer<json_t>?>?,
                                 _ response: OpaquePointer?) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    guard let handle = ResponseHandle.from(response) else { return fail(.invalidArgument, "response is NULL") }
    return drupal_json_parse(out, handle.body, handle.bodyLength)
}
