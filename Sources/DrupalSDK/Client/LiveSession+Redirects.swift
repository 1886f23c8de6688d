import FoundationEssentials

/// Following redirects, when the client is told to (`TransportOptions.followRedirects`): the core
/// follows them itself, hop by hop, so that it decides what each hop carries. Credentials (the
/// Authorization, Cookie and X-CSRF-Token headers, Proxy-Authorization and the configured secret
/// headers) never leave the site's origin, a request body is never sent to another origin, and
/// the cookies of each hop come from the site's jar (empty for other origins). A Location with
/// user info is refused: libcurl would turn it into credentials the client did not choose.
extension LiveSession {
    static let maxRedirects = 5
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The exchange that follows `response`, or nil when it is not a redirect to follow.
    func nextHop(after exchange: Exchange, _ response: HTTPResponse, hops: Int) throws -> Exchange? {
        guard configuration.transport.followRedirects, LiveSession.redirectStatuses.contains(response.status),
              let location = response.headers["Location"] else { return nil }
        func refuse(_ why: String) -> DrupalError {
            DrupalError(.network, "\(exchange.http.method) \(Redaction.redactURL(exchange.http.url)) was redirected "
                        + "(HTTP \(response.status)) \(why)", status: response.status, headers: response.headers,
                        body: response.body)
        }
        guard hops < LiveSession.maxRedirects else { throw refuse("more than \(LiveSession.maxRedirects) times") }
        guard let url = URLParts.resolve(location, against: exchange.http.url), let target = URLParts(url),
              !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw refuse("to a URL that is not http or https: a protocol error of the server")
        }
        // libcurl would send the server's own choice of credentials as Basic authentication.
        // RFC 9110 §4.2.4: a URL with user info from an untrusted source is an error.
        guard !target.hasUserInfo else { throw refuse("to a URL with user info: a protocol error of the server") }
        var http = exchange.http
        http.url = url
        // 303 always becomes a GET, and so do 301/302 after a POST (what browsers and curl do);
        // 307 and 308 keep the method and the body.
        if response.status == 303 && http.method != "HEAD" || (response.status == 301 || response.status == 302)
            && http.method == "POST" {
            http.method = "GET"
            http.body = nil
            http.headers.remove("Content-Type")
        }
        let onSite = exchange.onSite && target.sameOrigin(as: site)
        if !target.sameOrigin(as: site) {
            if http.body != nil {
                throw refuse("to another origin and not followed: the request body would be sent there")
            }
            for (name, _) in http.headers where isSecretHeader(name) { http.headers.remove(name) }
        }
        http.headers.remove("Cookie")
        if onSite, let cookie = state.withLock({ $0.cookies.headerValue(forPath: target.path, now: HTTPDate.now()) }) {
            http.headers.add("Cookie", cookie)
        }
        // Under the site's base URL a hop is shown as a call's path is; elsewhere as its URL.
        let underBase = onSite && (basePath.isEmpty || CookieJar.pathMatches(basePath, target.path))
        let shown = underBase ? String(target.path.dropFirst(basePath.count)) : Redaction.redactURL(url)
        events.emit(.requestStarted(method: http.method, path: shown))
        return Exchange(method: http.method, path: shown, http: http,
                        started: events.hasObservers ? RequestInstant.now : nil, cookiePath: target.path,
                        onSite: onSite)
    }

    /// Headers that carry credentials: never sent off the site, never logged.
    func isSecretHeader(_ name: String) -> Bool { Redaction.isSecret(name, configuration.secretHeaders) }
}
