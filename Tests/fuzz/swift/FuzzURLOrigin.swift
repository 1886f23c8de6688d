// libFuzzer target: the origin the client decides a URL has, against the origin libcurl connects
// to for the same URL. Credentials, cookies and bodies go where the client's reading says the
// site is; libcurl connects where its own parser says. Where the two disagree about a URL the
// client calls the site's, a server (or a caller's target) can send the site's credentials
// elsewhere: the combining-mark bug in URLParts was one such disagreement.
//
// Input: byte 0 picks a site (a base URL); the rest is a redirect's Location, resolved against a
// URL on the site as LiveSession+Redirects resolves it, and also a caller's target
// (PathSafety.normalizeTarget), made into the request URL as LiveSession makes it. Asserted,
// beyond no crash:
//  - a followed hop's URL (resolved, http(s), no control bytes or spaces, no user info) that
//    URLParts reads as the site's origin is one libcurl either refuses or reads as exactly the
//    site's scheme, host (ASCII case aside) and port;
//  - a URL made from an accepted target is one libcurl reads as the site's origin, always;
//  - URLParts reads user info exactly when libcurl does;
//  - a hop on the site has the path libcurl sends (the one its cookies are chosen for).
// libcurl parses as it does for a request (url.c: CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME).
import CCurl
@testable import DrupalSDK

private let sites = ["http://127.0.0.1:8080", "https://site.example", "http://[::1]:8080/drupal",
                     "https://Site.Example:8443/sub/dir", "http://localhost"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLOrigin(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size).bytes
    guard let first = input.first else { return 0 }
    let site = sites[Int(first) % sites.count]
    let text = Array(input.dropFirst()).text
    guard let siteParts = URLParts(site) else { fatalError("the site \(site) does not parse") }
    checkRedirect(text, site: site, siteParts: siteParts)
    checkTarget(text, site: site, siteParts: siteParts)
    return 0
}

/// libcurl's reading of a URL: nil when it refuses it.
private struct CurlOrigin {
    var scheme: String
    var host: String
    var port: Int
    var hasUser: Bool
    var path: String?

    init?(_ url: String) {
        guard let handle = curl_url() else { fatalError("curl_url: out of memory") }
        defer { curl_url_cleanup(handle) }
        let flags = UInt32(CURLU_GUESS_SCHEME) | UInt32(CURLU_NON_SUPPORT_SCHEME)
        guard curl_url_set(handle, CURLUPART_URL, url, flags) == CURLUE_OK else { return nil }
        func part(_ what: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, what, &value, flags) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let scheme = part(CURLUPART_SCHEME), let host = part(CURLUPART_HOST),
              let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) }) else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
        hasUser = part(CURLUPART_USER) != nil
        path = part(CURLUPART_PATH)
    }

    func isOrigin(of parts: URLParts) -> Bool {
        asciiLowercased(scheme) == asciiLowercased(parts.scheme) && asciiLowercased(host) == asciiLowercased(parts.host)
            && port == parts.port
    }
}

private func describe(_ curl: CurlOrigin?) -> String {
    curl.map { "\($0.scheme)://\(shown($0.host)):\($0.port)" } ?? "refused"
}

private func checkRedirect(_ location: String, site: String, siteParts: URLParts) {
    // nextHop refuses the rest before anything is sent (and a NUL would cut libcurl's C string).
    guard let url = URLParts.resolve(location, against: site + "/node/1?_format=json"), let parts = URLParts(url),
          !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return }
    let curl = CurlOrigin(url)
    if let curl {
        require(curl.hasUser == parts.hasUserInfo,
                "user info: URLParts \(parts.hasUserInfo), libcurl \(curl.hasUser) in \(shown(url))")
    }
    guard !parts.hasUserInfo, parts.sameOrigin(as: siteParts) else { return }
    require(curl.map { $0.isOrigin(of: siteParts) } ?? true,
            "\(shown(url)) is the site \(site) for the client, \(describe(curl)) for libcurl")
    // The hop's cookies are chosen for URLParts' path: the one libcurl sends (dot segments gone).
    if let curlPath = curl?.path {
        require(curlPath == parts.path, "\(shown(url)): path \(shown(parts.path)) for the client, \(shown(curlPath)) for libcurl")
    }
}

private func checkTarget(_ target: String, site: String, siteParts: URLParts) {
    guard let (path, query) = try? PathSafety.normalizeTarget(target, baseURL: site) else { return }
    let url = site + path + (query.map { "?" + $0 } ?? "")
    let curl = CurlOrigin(url)
    require(curl?.isOrigin(of: siteParts) ?? false,
            "the target \(shown(target)) made \(shown(url)): \(describe(curl)) for libcurl, not the site \(site)")
}
