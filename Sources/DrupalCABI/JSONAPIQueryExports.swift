import CDrupal
import DrupalSDK
import FoundationEssentials
import Synchronization

// drupal_jsonapi_query_*: the core's JSONAPIQuery behind an opaque handle. Each setter converts
// its C arguments and lets the core check them.

/// What a drupal_jsonapi_query points at. Locked: a query may be read by calls on other threads.
final class QueryHandle: Sendable {
    let query = Mutex(JSONAPIQuery())

    static func from(_ pointer: OpaquePointer?) -> QueryHandle? {
        guard let pointer else { return nil }
        return Unmanaged<QueryHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// The query a call takes (a copy: later changes do not reach a call in flight); an empty
    /// query for NULL.
    static func query(_ pointer: OpaquePointer?) -> JSONAPIQuery {
        from(pointer)?.query.withLock { $0 } ?? JSONAPIQuery()
    }
}

/// Runs one change on the query; nothing changes when it throws.
private func change(_ pointer: OpaquePointer?, _ body: (inout JSONAPIQuery) throws -> Void) -> drupal_code {
    guard let handle = QueryHandle.from(pointer) else { return fail(.invalidArgument, "query is NULL") }
    do {
        try handle.query.withLock { query in
            var changed = query
            try body(&changed)
            query = changed
        }
        return drupalOK
    } catch {
        return fail(error)
    }
}

private func filterOperator(_ pointer: UnsafePointer<CChar>?) throws -> JSONAPIQuery.Operator {
    guard pointer != nil else { return .equal }
    return try JSONAPIQuery.Operator(name: try CInput.string(pointer, "operator"))
}

/// A size_t above Int.max arrives negative.
private func size(_ value: Int, _ name: String) throws -> Int {
    guard value >= 0 else { throw DrupalError(.invalidArgument, "\(name) is larger than any page can be") }
    return value
}

@_cdecl("drupal_jsonapi_query_new")
public func drupal_jsonapi_query_new(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> drupal_code {
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    out.pointee = OpaquePointer(Unmanaged.passRetained(QueryHandle()).toOpaque())
    return drupalOK
}

@_cdecl("drupal_jsonapi_query_free")
public func drupal_jsonapi_query_free(_ query: OpaquePointer?) {
    guard let query else { return }
    Unmanaged<QueryHandle>.fromOpaque(UnsafeRawPointer(query)).release()
}

@_cdecl("drupal_jsonapi_query_filter")
public func drupal_jsonapi_query_filter(_ query: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                        _ op: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?,
                                        _ memberOf: UnsafePointer<CChar>?, _ key: UnsafePointer<CChar>?) -> drupal_code {
    change(query) { query in
        try query.filter(try CInput.string(path, "path"), try CInput.optionalString(value, "value"),
                         operator: try filterOperator(op), memberOf: try CInput.optionalString(memberOf, "member_of"),
                         key: try CInput.optionalString(key, "key"))
    }
}

@_cdecl("drupal_jsonapi_query_filter_values")
public func drupal_jsonapi_query_filter_values(_ query: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                               _ op: UnsafePointer<CChar>?,
                                               _ values: UnsafePointer<UnsafePointer<CChar>?>?,
                                               _ memberOf: UnsafePointer<CChar>?,
                                               _ key: UnsafePointer<CChar>?) -> drupal_code {
    change(query) { query in
        guard values != nil else { throw DrupalError(.invalidArgument, "values is NULL") }
        try query.filter(try CInput.string(path, "path"), values: try CInput.stringList(values, "values"),
                         operator: try JSONAPIQuery.Operator(name: try CInput.string(op, "operator")),
                         memberOf: try CInput.optionalString(memberOf, "member_of"),
                         key: try CInput.optionalString(key, "key"))
    }
}

@_cdecl("drupal_jsonapi_query_group")
public func drupal_jsonapi_query_group(_ query: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                       _ conjunction: UnsafePointer<CChar>?,
                                       _ memberOf: UnsafePointer<CChar>?) -> drupal_code {
    change(query) { query in
        try query.group(try CInput.string(name, "name"),
                        conjunction: try JSONAPIQuery.Conjunction(name: try CInput.string(conjunction, "conjunction")),
                        memberOf: try CInput.optionalString(memberOf, "member_of"))
    }
}

@_cdecl("drupal_jsonapi_query_sort")
public func drupal_jsonapi_query_sort(_ query: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                      _ descending: CInt) -> drupal_code {
    change(query) { try $0.sort(try CInput.string(path, "path"), descending: descending != 0) }
}

@_cdecl("drupal_jsonapi_query_include")
public func drupal_jsonapi_query_include(_ query: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> drupal_code {
    change(query) { try $0.include([try CInput.string(path, "path")]) }
}

@_cdecl("drupal_jsonapi_query_fields")
public func drupal_jsonapi_query_fields(_ query: OpaquePointer?, _ type: UnsafePointer<CChar>?,
                                        _ fields: UnsafePointer<CChar>?) -> drupal_code {
    change(query) { query in
        // Split on the bytes, as Drupal splits: "," followed by a combining mark is one Character.
        let list = try CInput.string(fields, "fields").utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        try query.fields(try CInput.string(type, "type"), list.map { String(decoding: $0, as: UTF8.self) })
    }
}

@_cdecl("drupal_jsonapi_query_page_limit")
public func drupal_jsonapi_query_page_limit(_ query: OpaquePointer?, _ limit: Int) -> drupal_code {
    change(query) { try $0.pageLimit(try size(limit, "limit")) }
}

@_cdecl("drupal_jsonapi_query_page_offset")
public func drupal_jsonapi_query_page_offset(_ query: OpaquePointer?, _ offset: Int) -> drupal_code {
    change(query) { try $0.pageOffset(try size(offset, "offset")) }
}

@_cdecl("drupal_jsonapi_query_resource_version")
public func drupal_jsonapi_query_resource_version(_ query: OpaquePointer?,
                                                  _ version: UnsafePointer<CChar>?) -> drupal_code {
    change(query) { try $0.resourceVersion(try CInput.string(version, "version")) }
}

@_cdecl("drupal_jsonapi_query_param")
public func drupal_jsonapi_query_param(_ query: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                       _ value: UnsafePointer<CChar>?) -> drupal_code {
    change(query) { try $0.parameter(try CInput.string(name, "name"), try CInput.string(value, "value")) }
}

@_cdecl("drupal_jsonapi_query_string")
public func drupal_jsonapi_query_string(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                        _ query: OpaquePointer?) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    guard let handle = QueryHandle.from(query) else { return fail(.invalidArgument, "query is NULL") }
    guard let text = duplicateCString(handle.query.withLock { $0.queryString }) else {
        return fail(.noMemory, "out of memory copying the query string")
    }
    out.pointee = text
    return drupalOK
}
