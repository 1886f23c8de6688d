/// How big a request's URL and headers may be. Servers refuse far less (nginx and Apache stop at
/// 8 KiB lines by default); these bounds only keep an oversized id, path or header from turning
/// into an allocation failure or an opaque libcurl error: it is refused, saying which limit.
enum RequestLimits {
    static let maxURLBytes = 65_536
    static let maxHeaderBytes = 65_536
    /// The longest token (Bearer, CSRF) a header can carry with its name and scheme.
    static let maxTokenBytes = maxHeaderBytes - 64
    static let maxAllHeaderBytes = 262_144

    static func check(url: String, headers: HTTPHeaders) throws {
        let urlBytes = url.utf8.count
        if urlBytes > maxURLBytes {
            throw DrupalError(.tooLarge, "the request URL is \(urlBytes) bytes, over the limit of \(maxURLBytes) "
                              + "(a path, id or query value is too long)")
        }
        var total = 0
        for (name, value) in headers {
            let bytes = name.utf8.count + value.utf8.count + 2
            if bytes > maxHeaderBytes {
                throw DrupalError(.tooLarge, "header \(name) is \(bytes) bytes, over the limit of \(maxHeaderBytes)")
            }
            total += bytes
        }
        if total > maxAllHeaderBytes {
            throw DrupalError(.tooLarge, "the request headers are \(total) bytes, over the limit of \(maxAllHeaderBytes)")
        }
    }
}
