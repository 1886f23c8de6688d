import FoundationEssentials

/// The file upload resource (drupal-http-api.md §7): raw bytes in, a temporary file entity out;
/// and the bytes served back at the file's URL.
extension MockState {
    mutating func uploadFile(_ request: MockRequest, _ caller: MockCaller, target: [String]) throws -> HTTPResponse {
        guard request.method == "POST" else { return MockReply.methodNotAllowed(request, allow: ["POST"]) }
        guard let contentType = request.headers["Content-Type"] else {
            throw MockReply.fail(415, "No \"Content-Type\" request header specified")
        }
        guard request.contentType == "application/octet-stream" else {
            throw MockReply.fail(415, "No route found that matches \"Content-Type: \(contentType)\"")
        }
        try requireJSONFormat(request)
        try checkCSRF(request, caller)
        let filename = try MockState.uploadFilename(request.headers["Content-Disposition"])
        // Access is create access on the host bundle; the mock treats every bundle alike.
        try authorize(.create, target[0], nil, caller)
        try MockState.checkExtension(filename, target: target)
        return MockReply.json(201, .object(storeUploadedFile(request, caller, filename).entity))
    }

    /// The request's body as a new temporary file entity named `filename` (renamed on a clash),
    /// served at its URL from now on.
    mutating func storeUploadedFile(_ request: MockRequest, _ caller: MockCaller, _ filename: String)
        -> (id: String, entity: [String: JSONValue]) {
        // A file field's default directory is the month's, "[date:custom:Y]-[date:custom:m]" (recording 52).
        let folder = String(MockIdentifiers.now().prefix(7))
        let name = uniqueFilename(filename, in: folder)
        let data = request.body ?? Data()
        let body: [String: JSONValue] = [
            "filename": MockFields.single(.string(name)),
            "uri": .array([.object(["value": .string("public://\(folder)/\(name)"),
                                    "url": .string("/sites/default/files/\(folder)/\(name)")])]),
            "filemime": MockFields.single(.string(MockState.mimeType(name))),
            "filesize": MockFields.single(.number(Double(data.count))),
            // Temporary until an entity references it.
            "status": MockFields.single(.bool(false)),
        ]
        let stored = insertEntity("file", body, owner: caller.uid ?? "0")
        fileContents["/sites/default/files/\(folder)/\(name)"] = data
        return stored
    }

    /// An uploaded file stays temporary until an entity that references it is saved; then its
    /// usage makes it permanent (recording 53b, after the node of 53). Only POST is recorded.
    mutating func makeReferencedFilesPermanent(_ entity: [String: JSONValue]) {
        for item in entity["field_image"]?.arrayValue ?? [] {
            guard let fid = item["target_id"]?.idString, var file = entities["file"]?[fid],
                  MockFields.firstValue(file["status"]) == "false" else { continue }
            file["status"] = MockFields.single(.bool(true))
            file["changed"] = MockIdentifiers.timestampField(MockIdentifiers.now())
            entities["file"]?[fid] = file
        }
    }

    /// A public file as the web server sends it: to anyone, with its type, outside Drupal's routes.
    /// (The client's size cap applies to it as to any download.)
    func fileContent(_ request: MockRequest) -> HTTPResponse? {
        guard let data = fileContents["/" + request.segments.joined(separator: "/")] else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            return MockReply.methodNotAllowed(request, allow: ["GET"])
        }
        let name = request.segments.last ?? ""
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", MockState.mimeType(name))]),
                            body: request.method == "HEAD" ? Data() : data)
    }

    /// The quoted `filename="..."` of Content-Disposition, reduced to its base name.
    static func uploadFilename(_ disposition: String?) throws -> String {
        let hint = "A file name in the format \"filename=FILENAME\" must be provided."
        guard let disposition else {
            throw MockReply.fail(400, "\"Content-Disposition\" header is required. \(hint)")
        }
        if disposition.contains("filename*=") {
            throw MockReply.fail(400, "The extended \"filename*\" format is currently not supported in the "
                                 + "\"Content-Disposition\" header.")
        }
        guard let start = disposition.firstRange(of: "filename=\"") else {
            throw MockReply.fail(400, "No filename found in \"Content-Disposition\" header. \(hint)")
        }
        let rest = disposition[start.upperBound...]
        let quoted = rest.firstIndex(of: "\"").map { rest[..<$0] } ?? ""
        let base = String(quoted.split(separator: "/").last ?? "")
        guard !base.isEmpty, base != ".", base != ".." else {
            throw MockReply.fail(400, "No filename found in \"Content-Disposition\" header. \(hint)")
        }
        return base
    }

    /// The extensions a file field allows, where the mock knows the field: the standard
    /// profile's article image (recording 52e). Other targets take any file.
    static let allowedExtensions = ["node/article/field_image": ["png", "gif", "jpg", "jpeg", "webp"]]

    /// Drupal's extension validator: case-insensitive, on the name's last extension.
    static func checkExtension(_ filename: String, target: [String]) throws {
        guard let allowed = allowedExtensions[target.joined(separator: "/")] else { return }
        let ext = filename.contains(".") ? filename.split(separator: ".").last.map { $0.lowercased() } : nil
        guard let ext, allowed.contains(ext) else {
            throw MockReply.fail(422, "Unprocessable Entity: file validation failed.\n"
                                 + "Only files with the following extensions are allowed: \(allowed.joined(separator: " ")).")
        }
    }

    /// Drupal renames on clash in the folder: a.png, a_0.png, a_1.png...
    private func uniqueFilename(_ name: String, in folder: String) -> String {
        let prefix = "public://\(folder)/"
        let taken = Set((entities["file"] ?? [:]).values.compactMap { file in
            MockFields.firstValue(file["uri"]).flatMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
        })
        guard taken.contains(name) else { return name }
        let dot = name.lastIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var counter = 0
        while taken.contains("\(stem)_\(counter)\(suffix)") { counter += 1 }
        return "\(stem)_\(counter)\(suffix)"
    }

    static func mimeType(_ name: String) -> String {
        let types = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
                     "webp": "image/webp", "svg": "image/svg+xml", "txt": "text/plain", "pdf": "application/pdf",
                     "json": "application/json"]
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return name.contains(".") ? types[ext] ?? "application/octet-stream" : "application/octet-stream"
    }
}
