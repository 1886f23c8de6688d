import FoundationEssentials

/// Downloads (`DrupalOperation.download`): the content's URL (a file entity's `uri` URL when given
/// an id), one GET with the client's credentials (same origin only) for the bytes as stored,
/// streamed to the destination; and the whole-answer delivery for transports that cannot stream.
extension LiveSession {
    func checkDownload(_ download: FileDownload) throws {
        switch download.source {
        case .url(let url): _ = try contentRequest(url)
        case .fileEntity(let id): _ = try fileEntityRequest(id)
        }
        _ = try DownloadWriter(download.destination)
    }

    func download(_ download: FileDownload) async throws -> DrupalResponse {
        // A file's content, not a route: no _format, no language prefix.
        var request: DrupalRequest
        switch download.source {
        case .url(let url):
            request = try contentRequest(url)
        case .fileEntity(let id):
            let entity = try await perform(try fileEntityRequest(id))
            guard let url = try entity.json()["uri"]?[0]?["url"]?.stringValue else {
                throw DrupalError(.decode, "file \(id) has no uri URL to download", status: entity.status,
                                  headers: entity.headers, body: entity.body)
            }
            // The server's URL: one that is not under the site is its protocol error, not the
            // caller's invalid argument.
            func elsewhere() -> DrupalError {
                DrupalError(.decode, "file \(id)'s uri URL \(PathSafety.shownURL(url)) is not under "
                            + "the site's base URL", status: entity.status, headers: entity.headers, body: entity.body)
            }
            // Absolute, or from the site's root.
            let absolute = PathSafety.isAbsoluteURL(Substring(url)) ? url : url.hasPrefix("/") ? siteRoot + url : nil
            guard let absolute else { throw elsewhere() }
            do {
                request = try contentRequest(absolute)
            } catch let error as DrupalError where error.code == .invalidArgument {
                throw elsewhere()
            }
        }
        let writer = try DownloadWriter(download.destination)
        // The file as stored: a .gz file that a server labels `Content-Encoding: gzip` is saved
        // as the .gz it is, and the progress counts the bytes the Content-Length counts.
        request.headers.set("Accept-Encoding", "identity")
        request.progress = download.progress
        request.bodySink = writer.sink
        request.writer = writer
        do {
            let response = try await perform(request)
            // A server sends 206 only to a Range request (RFC 9110 §15.3.7), and a download sends
            // none: the bytes are part of the file, not the file.
            if response.status == 206 {
                throw DrupalError(.network, "GET \(PathSafety.shownURL(request.path)) answered 206 Partial Content to a "
                                  + "request for the whole file (a protocol error of the server): nothing was saved",
                                  status: 206, headers: response.headers)
            }
            // 304 answers a conditional request (a hook's If-None-Match): the copy on disk is
            // current, and a 304 has no content to replace it with.
            if response.status == 304 {
                writer.abandon()
                return response
            }
            try writer.finish()
            return response
        } catch {
            writer.abandon()
            throw writer.failure ?? error
        }
    }

    private func fileEntityRequest(_ id: String) throws -> DrupalRequest {
        try checked(DrupalRequest(method: "GET", path: try paths.canonicalPath("file", id: id), expectedBody: .object),
                    language: nil)
    }

    /// The GET of a file's content at `url`: a path under the base URL, or an absolute URL on the
    /// site's origin. One outside the base URL's path is sent from the site's root: a file's URL
    /// has no language prefix, and a base URL may end in one ("https://site/fr"). A file entity's
    /// `uri` URL is given from the site's root (with its sub-directory, if any) or absolute.
    func contentRequest(_ url: String) throws -> DrupalRequest {
        let absolute = PathSafety.isAbsoluteURL(Substring(url))
        if !absolute || PathSafety.isUnder(url, baseURL: baseURL) {
            return try checked(DrupalRequest(method: "GET", path: url, format: nil), language: nil)
        }
        guard let target = URLParts(url), target.sameOrigin(as: site), !target.hasUserInfo else {
            throw DrupalError.invalidArgument("the URL \"\(PathSafety.shownURL(url))\" is not on the site's origin")
        }
        let fromRoot = target.path + (target.query.map { "?" + $0 } ?? "")
        var request = try checked(DrupalRequest(method: "GET", path: fromRoot, format: nil), language: nil)
        request.fromSiteRoot = true
        return request
    }

    /// For transports that cannot stream: the progress reported once at the end, and a
    /// successful answer's body handed to the sink whole (within the size cap).
    static func deliverWhole(_ request: HTTPRequest, _ response: inout HTTPResponse, maxBodySize: Int) throws {
        let total = Int64(request.bodyFile?.size ?? Int64(request.body?.count ?? response.body.count))
        if let progress = request.progress, !progress(total, total) {
            throw DrupalError(.cancelled, "\(request.method) was stopped by its progress callback")
        }
        guard let sink = request.bodySink, (200..<300).contains(response.status), response.status != 206 else { return }
        if response.body.count > maxBodySize {
            throw DrupalError(.tooLarge, "the response is larger than the limit of \(maxBodySize) bytes")
        }
        let delivered = response.body.withUnsafeBytes { sink($0) }
        response.body = Data()
        if !delivered { throw DrupalError(.cancelled, "\(request.method) was stopped by its write callback") }
    }
}
