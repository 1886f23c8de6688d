extension TransportOptions {
    /// Throws `.invalidArgument` for an option libcurl would take and misuse: a User-Agent that
    /// could smuggle a header (the rule every header follows, HeaderSafety) or a proxy that is not
    /// a proxy URL (ProxyOption). Checked by what takes them: a client (live or mock) when it is
    /// made, and `Transport.curl` (which uses them) before it starts anything.
    func validate() throws {
        if !userAgent.isEmpty, let problem = HeaderSafety.problem(name: "User-Agent", value: userAgent) {
            throw DrupalError.invalidArgument(problem)
        }
        try ProxyOption.validate(proxy)
    }
}
