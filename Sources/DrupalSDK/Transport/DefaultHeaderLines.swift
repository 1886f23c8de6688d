import CCurl

/// A header line every request sends unless it sets that header itself, formatted once per
/// engine: libcurl would format its own User-Agent and Accept-Encoding lines anew for every
/// request (measured: ~3.5k instructions a request for Accept-Encoding alone).
struct DefaultHeaderLine: Sendable {
    let name: String
    let line: String

    init(_ name: String, _ value: String) {
        self.name = name
        line = "\(name): \(value)"
    }

    /// The lines for these options: the User-Agent (checked by TransportOptions.validate), and with
    /// `compression` the codings this libcurl decodes.
    static func lines(for options: TransportOptions) -> [DefaultHeaderLine] {
        var lines: [DefaultHeaderLine] = []
        if !options.userAgent.isEmpty { lines.append(DefaultHeaderLine("User-Agent", options.userAgent)) }
        if options.compression, let codings = decodedCodings { lines.append(DefaultHeaderLine("Accept-Encoding", codings)) }
        return lines
    }

    /// "deflate, gzip, br, zstd", or what of it this libcurl was built to decode (nil: none).
    static let decodedCodings: String? = {
        guard let info = curl_version_info(CURLVERSION_TENTH) else { return nil }
        let features = Int32(info.pointee.features)
        var names: [String] = []
        if features & Int32(CURL_VERSION_LIBZ) != 0 { names += ["deflate", "gzip"] }
        if features & Int32(CURL_VERSION_BROTLI) != 0 { names.append("br") }
        if features & Int32(CURL_VERSION_ZSTD) != 0 { names.append("zstd") }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }()
}
