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
    /// `compression` the codings the client decodes.
    static func lines(for options: TransportOptions) -> [DefaultHeaderLine] {
        var lines: [DefaultHeaderLine] = []
        if !options.userAgent.isEmpty { lines.append(DefaultHeaderLine("User-Agent", options.userAgent)) }
        if options.compression { lines.append(DefaultHeaderLine("Accept-Encoding", decodedCodings)) }
        return lines
    }

    /// The codings the client decodes itself (ContentDecoding.swift), with the end-of-stream
    /// checks libcurl 7.88's decoders lack; zstd is not among them.
    static let decodedCodings = "gzip, deflate, br"
}
