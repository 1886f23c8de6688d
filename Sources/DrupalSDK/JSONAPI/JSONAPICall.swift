import FoundationEssentials

/// One JSON:API exchange, as a value (`DrupalOperation.jsonAPI`): what it reads or writes, and
/// how. It knows JSON:API's rules once: paths under `/jsonapi`, `application/vnd.api+json` both
/// ways, no `_format` (Drupal answers 406 or 400 to one), a JSON object back from every read and
/// write that answers a document.
public struct JSONAPICall: Sendable {
    /// What the call addresses.
    public enum Target: Sendable {
        /// `GET /jsonapi`: the resource types, and `meta.links.me` when logged in.
        case entryPoint
        /// `/jsonapi/{entity_type}/{bundle}`
        case collection(JSONAPIResourceType)
        /// `/jsonapi/{entity_type}/{bundle}/{id}`
        case resource(JSONAPIResourceType, id: String)
        /// `/jsonapi/{entity_type}/{bundle}/{id}/{field}`: the related resource(s).
        case related(JSONAPIResourceType, id: String, field: String)
        /// `/jsonapi/{entity_type}/{bundle}/{id}/relationships/{field}`: the identifiers.
        case relationship(JSONAPIResourceType, id: String, field: String)
        /// `/jsonapi/{entity_type}/{bundle}[/{id}]/{field}` with a file: the upload route.
        case fileField(JSONAPIResourceType, id: String?, field: String)
        /// A link from a document (`links.next`), followed as given: it must be under the base URL.
        case link(String)
    }

    public var method: String
    public var target: Target
    public var query: JSONAPIQuery
    /// A JSON:API document (or identifiers, for relationship writes), checked JSON.
    public var document: JSONBody?
    /// The file of an upload (`fileField` targets); a nil filename is the base name of `filePath`.
    public var file: (filename: String?, data: Data)?
    /// A file on disk streamed as the upload's body instead of `file.data` (never read whole).
    public var filePath: LocalPath?
    /// Bytes sent so far and the total (the file's size), on the thread sending them; false
    /// cancels the upload.
    public var progress: TransferProgress?

    init(method: String, target: Target, query: JSONAPIQuery = JSONAPIQuery(), document: JSONBody? = nil,
         file: (filename: String?, data: Data)? = nil) {
        self.method = method
        self.target = target
        self.query = query
        self.document = document
        self.file = file
    }

    // MARK: The calls

    /// The entry point: the resource types this site exposes, and who the caller is.
    public static var entryPoint: JSONAPICall { JSONAPICall(method: "GET", target: .entryPoint) }

    /// A page of a collection (filters, sort, paging, include, fields in `query`).
    public static func collection(_ type: JSONAPIResourceType, query: JSONAPIQuery = JSONAPIQuery()) -> JSONAPICall {
        JSONAPICall(method: "GET", target: .collection(type), query: query)
    }

    /// One resource by UUID (`include`, `fields` and `resourceVersion` in `query`).
    public static func get(_ type: JSONAPIResourceType, id: String, query: JSONAPIQuery = JSONAPIQuery()) -> JSONAPICall {
        JSONAPICall(method: "GET", target: .resource(type, id: id), query: query)
    }

    /// POST a new resource; `document` is `{"data": {"type", "attributes", "relationships"}}`,
    /// with `data.id` for a client-generated UUID. Drupal answers 201 and the stored resource.
    public static func create(_ type: JSONAPIResourceType, document: JSONBody) -> JSONAPICall {
        JSONAPICall(method: "POST", target: .collection(type), document: document)
    }

    /// PATCH the members in `document` (whose `data.id` must be `id`); answers the whole resource.
    public static func update(_ type: JSONAPIResourceType, id: String, document: JSONBody) -> JSONAPICall {
        JSONAPICall(method: "PATCH", target: .resource(type, id: id), document: document)
    }

    /// DELETE a resource (204).
    public static func delete(_ type: JSONAPIResourceType, id: String) -> JSONAPICall {
        JSONAPICall(method: "DELETE", target: .resource(type, id: id))
    }

    /// GET the resource(s) a relationship points to (`/{id}/uid`).
    public static func related(_ type: JSONAPIResourceType, id: String, field: String,
                               query: JSONAPIQuery = JSONAPIQuery()) -> JSONAPICall {
        JSONAPICall(method: "GET", target: .related(type, id: id, field: field), query: query)
    }

    /// GET a relationship's identifiers (`/{id}/relationships/field_tags`).
    public static func relationship(_ type: JSONAPIResourceType, id: String, field: String) -> JSONAPICall {
        JSONAPICall(method: "GET", target: .relationship(type, id: id, field: field))
    }

    /// How a relationship write changes a relationship.
    public enum RelationshipChange: Sendable {
        /// POST: add these to a to-many relationship (200 and the whole list, or 204).
        case add
        /// PATCH: make the relationship exactly these (204 when the result is what was sent).
        case replace
        /// DELETE: remove these from a to-many relationship (204).
        case remove

        var method: String {
            switch self {
            case .add: return "POST"
            case .replace: return "PATCH"
            case .remove: return "DELETE"
            }
        }
    }

    /// Changes a relationship; `identifiers` is `{"data": [{"type", "id"}, ...]}` (or one
    /// identifier, or null, for a to-one relationship replaced).
    public static func changeRelationship(_ type: JSONAPIResourceType, id: String, field: String,
                                          _ change: RelationshipChange, identifiers: JSONBody) -> JSONAPICall {
        JSONAPICall(method: change.method, target: .relationship(type, id: id, field: field), document: identifiers)
    }

    /// Uploads a file to a file field: to `/{field}` (201, a temporary file to reference from a
    /// resource) or, with `id`, to `/{id}/{field}` (200, attached to that resource).
    public static func upload(_ type: JSONAPIResourceType, id: String? = nil, field: String, filename: String,
                              data: Data) -> JSONAPICall {
        JSONAPICall(method: "POST", target: .fileField(type, id: id, field: field), file: (filename, data))
    }

    /// `upload` with the file at `path` streamed as it is sent, named `filename` (default: the
    /// path's base name), with progress (total = the file's size). A path that is not a readable
    /// regular file is `.invalidArgument` before anything is sent, and so is a default name that
    /// is not UTF-8 (`FileUpload.sentName`).
    public static func upload(_ type: JSONAPIResourceType, id: String? = nil, field: String, path: LocalPath,
                              filename: String? = nil, progress: TransferProgress? = nil) -> JSONAPICall {
        var call = JSONAPICall(method: "POST", target: .fileField(type, id: id, field: field), file: (filename, Data()))
        call.filePath = path
        call.progress = progress
        return call
    }

    public static func upload(_ type: JSONAPIResourceType, id: String? = nil, field: String, path: String,
                              filename: String? = nil, progress: TransferProgress? = nil) -> JSONAPICall {
        upload(type, id: id, field: field, path: LocalPath(path), filename: filename, progress: progress)
    }

    /// GET a link a document gave (`links.next`, `links.related`), as given.
    public static func follow(_ link: String) -> JSONAPICall { JSONAPICall(method: "GET", target: .link(link)) }

    /// The link the call follows (a URL the server named), or nil.
    var followedLink: String? {
        if case .link(let url) = target { return url }
        return nil
    }

    // MARK: The request

    /// The request this call sends. Throws `.invalidArgument` for an id or field no path may
    /// hold, or a query on a call that takes none.
    func request() throws -> DrupalRequest {
        var headers = HTTPHeaders()
        headers.add("Accept", JSONAPICall.mediaType)
        var body: Data?
        if let document {
            headers.add("Content-Type", JSONAPICall.mediaType)
            body = document.data
        }
        if let file {
            guard case .fileField = target else { throw DrupalError.invalidArgument("a file goes to a file field") }
            headers.add("Content-Type", "application/octet-stream")
            headers.add("Content-Disposition", "file; filename=\"\(try FileUpload.sentName(file.filename, path: filePath))\"")
            body = filePath == nil ? file.data : nil
        }
        var path = try targetPath()
        if !query.isEmpty {
            if case .link = target { throw DrupalError.invalidArgument("a followed link carries its own query") }
            if method != "GET" && query.pairs.contains(where: { $0.0 == "resourceVersion" }) {
                throw DrupalError.invalidArgument("JSON:API reads a resourceVersion only on GET (Drupal refuses it on writes)")
            }
            path += (path.contains("?") ? "&" : "?") + query.queryString
        }
        // Reads and writes answer a document; DELETE and relationship writes may answer 204.
        let answersDocument = method == "GET" || (method == "POST" && !isRelationship) || (method == "PATCH" && !isRelationship)
        var request = DrupalRequest(method: method, path: path, headers: headers, body: body, format: nil,
                                    expectedBody: answersDocument ? .object : .any)
        if file != nil, let filePath {
            request.bodyFile = HTTPBodyFile(path: filePath, size: try LocalFiles.regularFileSize(filePath))
        }
        request.progress = progress
        return request
    }

    static let mediaType = "application/vnd.api+json"

    private var isRelationship: Bool {
        if case .relationship = target { return true }
        return false
    }

    private func targetPath() throws -> String {
        switch target {
        case .entryPoint:
            return "/jsonapi"
        case .collection(let type):
            return type.path
        case .resource(let type, let id):
            return type.path + "/" + (try JSONAPICall.segment(id, "resource id"))
        case .related(let type, let id, let field):
            return type.path + "/" + (try JSONAPICall.segment(id, "resource id")) + "/"
                + (try JSONAPICall.segment(field, "relationship field"))
        case .relationship(let type, let id, let field):
            return type.path + "/" + (try JSONAPICall.segment(id, "resource id")) + "/relationships/"
                + (try JSONAPICall.segment(field, "relationship field"))
        case .fileField(let type, let id, let field):
            let idPart = try id.map { "/" + (try JSONAPICall.segment($0, "resource id")) } ?? ""
            return type.path + idPart + "/" + (try JSONAPICall.segment(field, "file field"))
        case .link(let url):
            if url.isEmpty { throw DrupalError.invalidArgument("the link to follow is empty") }
            return url
        }
    }

    private static func segment(_ text: String, _ what: String) throws -> String {
        if text.isEmpty { throw DrupalError.invalidArgument("the \(what) is empty") }
        return try PathSafety.encodeSegment(text)
    }
}
