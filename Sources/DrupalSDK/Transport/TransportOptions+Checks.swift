extension TransportOptions {
    /// Throws `.invalidArgument` for an option libcurl would take and misuse: a User-Agent that
    /// could smuggle a header (the rule every header follows, HeaderSafety), a proxy that is not a
    /// proxy URL (ProxyOption), or a number out of its range (a negative or NaN timeout would mean
    /// none at all, a zero body limit would refuse every body). Checked by what takes them: a
    /// client (live or mock) when it is made, and `Transport.curl` before it starts anything. The
    /// C and Python layers only convert their encodings ("0: the default") and leave the ranges here.
    func validate() throws {
        if !userAgent.isEmpty, let problem = HeaderSafety.problem(name: "User-Agent", value: userAgent) {
            throw DrupalError.invalidArgument(problem)
        }
        try ProxyOption.validate(proxy)
        if let path = caBundle {
            // libcurl reads it only when a TLS connection starts: a typo would show as a TLS
            // failure of the first https request. The check an upload's file gets.
            do {
                _ = try LocalFiles.regularFileSize(path)
            } catch let error as DrupalError {
                throw DrupalError.invalidArgument("the CA bundle: " + error.message)
            }
        }
        for (name, seconds) in [("connect timeout", connectTimeout), ("timeout", timeout)]
        where !(seconds >= 0 && seconds <= TransportOptions.maxTimeout) {
            throw DrupalError.invalidArgument("the \(name) must be from 0 to \(Int(TransportOptions.maxTimeout)) seconds")
        }
        guard maxBodySize >= 1 else { throw DrupalError.invalidArgument("the body size limit must be at least 1 byte") }
        guard maxConnections >= 1 && maxConnections <= TransportOptions.maxMaxConnections else {
            throw DrupalError.invalidArgument("the connection pool must keep from 1 to "
                                              + "\(TransportOptions.maxMaxConnections) connections")
        }
        guard busyPollMicroseconds >= 0 && busyPollMicroseconds <= TransportOptions.maxBusyPollMicroseconds else {
            throw DrupalError.invalidArgument("busy polling must be from 0 to "
                                              + "\(TransportOptions.maxBusyPollMicroseconds) microseconds")
        }
        guard minimumFileRate >= 1 && minimumFileRate <= TransportOptions.maxMinimumFileRate else {
            throw DrupalError.invalidArgument("the minimum file rate must be from 1 to "
                                              + "\(TransportOptions.maxMinimumFileRate) bytes a second")
        }
    }
}
