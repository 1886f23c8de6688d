import CCurl
import CCurlShim
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// libcurl result codes mapped onto the SDK's error codes.
enum CurlErrors {
    static func error(for code: CURLcode, transfer: CurlTransfer, options: TransportOptions) -> DrupalError {
        // libcurl's text may quote the server (a certificate's subject name): shown, not obeyed.
        let detail = (transfer.curlErrorMessage.isEmpty
            ? String(cString: curl_easy_strerror(code)) : transfer.curlErrorMessage).escapingControlCharacters()
        let url = Redaction.redactURL(transfer.request.url)
        switch code {
        case CURLE_ABORTED_BY_CALLBACK where transfer.uploadShrank:
            let file = transfer.request.bodyFile
            return DrupalError(.file, "\(transfer.request.method) \(url): the upload file "
                               + "\(file?.path.description ?? "") ended before the \(file?.size ?? 0) bytes it had when the call "
                               + "started: it changed while it was sent")
        case CURLE_ABORTED_BY_CALLBACK where transfer.uploadReadError != 0:
            return DrupalError.file("\(transfer.request.method) \(url): reading the upload file "
                                    + "\(transfer.request.bodyFile?.path.description ?? "") failed", errno: transfer.uploadReadError)
        case CURLE_ABORTED_BY_CALLBACK,
             CURLE_WRITE_ERROR where transfer.streamState.stoppedByCaller:
            return DrupalError(.cancelled, "\(transfer.request.method) \(url) was stopped by its progress or write "
                               + "callback")
        case CURLE_READ_ERROR:
            return DrupalError(.file, "\(transfer.request.method) \(url): reading the upload file failed: \(detail)")
        case CURLE_OPERATION_TIMEDOUT:
            return DrupalError(.timeout, "\(transfer.request.method) \(url) timed out: \(detail)")
        case CURLE_WRITE_ERROR where transfer.outOfMemory:
            return DrupalError(.noMemory, "out of memory receiving the response to \(transfer.request.method) \(url)")
        case CURLE_WRITE_ERROR where transfer.exceededMaxHeaders:
            return DrupalError(.tooLarge, "the answer to \(transfer.request.method) \(url) has more than "
                               + "\(TransportOptions.maxResponseHeaderBytes) bytes of headers")
        case CURLE_WRITE_ERROR where transfer.exceededMaxBody, CURLE_FILESIZE_EXCEEDED:
            return DrupalError(.tooLarge, "the response to \(transfer.request.method) \(url) is larger than the "
                               + "limit of \(options.maxBodySize) bytes")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE:
            return DrupalError(.tls, "TLS failed for \(url): \(detail)")
        case CURLE_URL_MALFORMAT:
            return DrupalError(.invalidArgument, "cannot send to \(url): \(detail)")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY:
            // The answer was not HTTP (a bad status line, another protocol): the server's fault.
            return DrupalError(.network, "\(transfer.request.method) \(url): the server's answer is not valid HTTP "
                               + "(a protocol error): \(detail)")
        case CURLE_WRITE_ERROR where transfer.decodeFailure != 0:
            // The client's own decoder refused the body (ContentDecoding.swift).
            return transfer.decodeError()
        case CURLE_BAD_CONTENT_ENCODING:
            // The body is not what its Content-Encoding says (or a coding this libcurl lacks).
            return DrupalError(.decode, "\(transfer.request.method) \(url): the answer cannot be decoded as its "
                               + "Content-Encoding says (a protocol error of the server): \(detail)")
        case CURLE_OUT_OF_MEMORY:
            // libcurl reports a response header over its limit (CURL_MAX_HTTP_HEADER, 100 KiB) as
            // out of memory; the requests it sends were checked before (RequestLimits).
            return DrupalError(.tooLarge, "the answer to \(transfer.request.method) \(url) has a header line "
                               + "over libcurl's limit of 100 KiB (or libcurl ran out of memory): \(detail)")
        default:
            let proxy = code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_PROXY ? proxyNote(options) : ""
            var error = DrupalError(.network, "\(transfer.request.method) \(url) failed: \(detail)\(proxy)")
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST: error.connectionFailure = .notConnected
            case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE: error.connectionFailure = .lost
            default: break
            }
            return error
        }
    }

    /// A connection failure may be the proxy's: libcurl's text names a host and port, not which.
    /// The proxy is shown without its credentials.
    private static func proxyNote(_ options: TransportOptions) -> String {
        if let proxy = options.proxy {
            return proxy.isEmpty ? "" : " (through the proxy \(PathSafety.shownURL(proxy)))"
        }
        return options.proxyEnvironment.namesProxy
            ? " (through the proxy the environment may name: http_proxy, https_proxy, all_proxy)" : ""
    }
}
