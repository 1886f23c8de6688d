import CDrupal
import DrupalSDK
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The "" that success responses hand out as their message (static: never allocated or freed).
nonisolated(unsafe) let emptyCString: UnsafePointer<CChar> = UnsafeRawPointer(("" as StaticString).utf8Start)
    .assumingMemoryBound(to: CChar.self)

/// What a drupal_response points at: everything the accessors return, converted to C once so
/// borrowed pointers stay valid for the life of the handle. An allocation that fails makes the
/// response's code DRUPAL_E_NO_MEMORY (or an accessor's return), never a trap.
final class ResponseHandle: @unchecked Sendable {
    let code: drupal_code
    let status: Int32
    let kind: Int32
    /// The system's error number of a DRUPAL_E_FILE failure (0: none).
    let osError: Int32
    /// Nil for success (the accessors then return ""): most responses need no message copy.
    private let ownedMessage: UnsafeMutablePointer<CChar>?
    /// The body with a NUL after it: the response's own bytes when it still has the ones
    /// received (they live as long as `drupalResponse`), else a malloc'ed copy (`ownedBody`);
    /// nil for an empty body (or one that could not be copied).
    private let bodyStart: UnsafePointer<CChar>?
    private let ownedBody: UnsafeMutablePointer<CChar>?
    let bodyLength: Int
    /// The answer as the client gave it, for the core's readers (nil for errors).
    let drupalResponse: DrupalResponse?
    private let headerFields: HTTPHeaders
    private let violationList: [DrupalError.Violation]
    private let jsonAPIErrorList: [JSONAPIError]
    /// The OAuth error's (member, value) pairs: "error", "error_description", "hint", "realm".
    private let oauthMembers: [(name: String, value: String)]
    /// Drupal's message verbatim (NULL when the answer carried none).
    let drupalMessage: UnsafeMutablePointer<CChar>?
    /// C copies of headers and violations, made on first use: most callers never ask.
    private let cStrings = Mutex<CStrings?>(nil)
    /// The answer's langcode as a C string, read from the body on first use (nil inside: none).
    private let langcodeCopy = Mutex<CString?>(nil)

    /// A C string owned by whoever holds it (freed in deinit).
    struct CString: @unchecked Sendable { var pointer: UnsafeMutablePointer<CChar>? }

    /// Pairs whose copies failed hold nil (the accessors then report DRUPAL_E_NO_MEMORY).
    typealias CStringPairs = [(UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<CChar>?)]
    private struct CStrings: @unchecked Sendable {
        var headers: CStringPairs
        var violations: CStringPairs
        /// Each JSON:API error's (member name, value) pairs.
        var jsonAPIErrors: [CStringPairs]
        var oauth: CStringPairs

        var all: CStringPairs { headers + violations + jsonAPIErrors.flatMap { $0 } + oauth }
    }

    init(code: DrupalError.Code?, status: Int, message: String, headers: HTTPHeaders, body: Data,
         borrowedBody: UnsafePointer<CChar>? = nil, drupalMessage: String? = nil, violations: [DrupalError.Violation] = [],
         jsonAPIErrors: [JSONAPIError] = [], response: DrupalResponse? = nil, kind: DrupalError.Kind = .other,
         oauthError: OAuthError? = nil, osError: Int32 = 0) {
        self.drupalResponse = response
        self.osError = osError
        self.kind = kind.rawValue
        self.status = Int32(clamping: status)
        self.ownedMessage = message.isEmpty ? nil : duplicateCString(message)
        self.drupalMessage = drupalMessage.flatMap(duplicateCString)
        // One extra NUL so C callers may treat a text body as a string.
        let buffer = body.isEmpty || borrowedBody != nil ? nil
            : malloc(body.count + 1)?.assumingMemoryBound(to: CChar.self)
        if let buffer {
            body.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { memcpy(buffer, base, body.count) }
            }
            buffer[body.count] = 0
        }
        self.ownedBody = buffer
        self.bodyStart = body.isEmpty ? nil : borrowedBody ?? buffer.map { UnsafePointer($0) }
        self.bodyLength = bodyStart == nil ? 0 : body.count
        let copied = (message.isEmpty || ownedMessage != nil) && (drupalMessage == nil || self.drupalMessage != nil)
            && (body.isEmpty || bodyStart != nil)
        self.code = copied ? code?.cCode ?? drupalOK : DrupalError.Code.noMemory.cCode
        self.headerFields = headers
        self.violationList = violations
        self.jsonAPIErrorList = jsonAPIErrors
        self.oauthMembers = oauthError.map { error in
            ["error", "error_description", "hint", "realm"].compactMap { name in
                error.member(name).map { (name: name, value: $0) }
            }
        } ?? []
    }

    var message: UnsafePointer<CChar> { ownedMessage.map { UnsafePointer($0) } ?? emptyCString }
    var body: UnsafePointer<CChar> { bodyStart ?? emptyCString }

    var headerCount: Int { headerFields.count }
    var violationCount: Int { violationList.count }
    var jsonAPIErrorCount: Int { jsonAPIErrorList.count }

    /// Header (name, value) pairs as C strings owned by this handle.
    var headers: CStringPairs { converted().headers }
    /// Violation (path, message) pairs as C strings owned by this handle.
    var violations: CStringPairs { converted().violations }
    /// The index-th JSON:API error's members as C strings owned by this handle.
    func jsonAPIErrorMembers(_ index: Int) -> CStringPairs { converted().jsonAPIErrors[index] }
    /// A member of the OAuth error as a C string owned by this handle (nil when absent).
    func oauthMember(_ name: String) -> UnsafePointer<CChar>? {
        guard let index = oauthMembers.firstIndex(where: { $0.name == name }) else { return nil }
        return converted().oauth[index].1.map { UnsafePointer($0) }
    }

    private func converted() -> CStrings {
        cStrings.withLock { cached in
            if let cached { return cached }
            let made = CStrings(
                headers: headerFields.map { (duplicateCString($0.name), duplicateCString($0.value)) },
                violations: violationList.map { (duplicateCString($0.path), duplicateCString($0.message)) },
                jsonAPIErrors: jsonAPIErrorList.map { error in
                    error.members.map { (duplicateCString($0.name), duplicateCString($0.value)) }
                },
                oauth: oauthMembers.map { (duplicateCString($0.name), duplicateCString($0.value)) })
            cached = made
            return made
        }
    }

    convenience init(_ response: consuming DrupalResponse) {
        self.init(code: nil, status: response.status, message: "", headers: response.headers, body: response.body,
                  borrowedBody: response.receivedBody, response: response)
    }

    convenience init(_ error: any Error) {
        let error = (error as? DrupalError) ?? DrupalError(.internal, "\(error)")
        self.init(code: error.code, status: error.status ?? 0, message: error.message, headers: error.headers,
                  body: error.body, drupalMessage: error.drupalMessage, violations: error.violations,
                  jsonAPIErrors: error.jsonAPIErrors, kind: error.kind, oauthError: error.oauthError,
                  osError: error.osError ?? 0)
    }

    /// The langcode of the entity the answer carries (the core's reading), or nil.
    var langcode: UnsafePointer<CChar>? {
        langcodeCopy.withLock { cached in
            if cached == nil { cached = CString(pointer: drupalResponse?.langcode.flatMap(duplicateCString)) }
            return cached?.pointer.map { UnsafePointer($0) }
        }
    }

    deinit {
        free(langcodeCopy.withLock { $0?.pointer })
        free(ownedMessage)
        free(drupalMessage)
        free(ownedBody)
        if let made = cStrings.withLock({ $0 }) {
            for (first, second) in made.all {
                free(first)
                free(second)
            }
        }
    }

    /// A call's outcome: its response, its error, or `end` for a call that succeeded without one.
    /// Consumes the outcome: its response moves into the handle instead of being copied.
    static func from(_ outcome: consuming DrupalClient.Outcome) -> ResponseHandle {
        switch consume outcome {
        case .success(let response?): return ResponseHandle(response)
        case .success(nil): return end
        case .failure(let error): return ResponseHandle(error)
        }
    }

    /// The outcome of a call that succeeded with no response: C callers get NULL for it.
    static let end = ResponseHandle(code: nil, status: 0, message: "", headers: HTTPHeaders(), body: Data())

    var opaque: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// What C callers are handed: this response, or NULL for `end`.
    var opaqueOrNull: OpaquePointer? { self === ResponseHandle.end ? nil : opaque }

    /// An owned reference for a _sync caller's *out, or NULL for `end`.
    var retainedOrNull: OpaquePointer? {
        self === ResponseHandle.end ? nil : OpaquePointer(Unmanaged.passRetained(self).toOpaque())
    }

    static func from(_ pointer: OpaquePointer?) -> ResponseHandle? {
        guard let pointer else { return nil }
        return Unmanaged<ResponseHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}
