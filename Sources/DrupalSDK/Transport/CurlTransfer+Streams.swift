import CCurl
import CCurlShim
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Streams on libcurl: a request body read from a file as libcurl asks for it (READFUNCTION),
/// progress (XFERINFOFUNCTION, which also cancels), and a successful answer's body handed to the
/// request's sink instead of the response (the size cap still counts every byte).
struct StreamState {
    /// Whether the answer's status was looked at (on its first body bytes), and whether it is a
    /// success whose body goes to the sink.
    var decided = false
    var sinking = false
    var sunk = 0
    /// The last progress reported (total -1: unknown), so that an unchanged one is not reported again.
    var reported: (Int64, Int64) = (-1, -1)
    /// Set when the sink or the progress callback stopped the transfer.
    var stoppedByCaller = false
}

extension CurlTransfer {
    /// Opens the upload file and sets the read and progress callbacks; an error when the file
    /// cannot be opened (it was there when the client checked it).
    func configureStreams(_ easy: UnsafeMutableRawPointer) -> DrupalError? {
        let unmanaged = Unmanaged.passUnretained(self).toOpaque()
        if let file = request.bodyFile {
            let descriptor: Int32
            do {
                descriptor = try file.path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
            } catch {
                return error
            }
            guard descriptor >= 0 else {
                return DrupalError.file("cannot open the upload file \(file.path)", errno: errno)
            }
            uploadDescriptor = descriptor
            uploadRemaining = file.size
            _ = shim_curl_easy_setopt_read(easy, curlReadFile)
            _ = shim_curl_easy_setopt_ptr(easy, CURLOPT_READDATA, unmanaged)
            // libcurl sends a request again on a new connection when a reused one closed before
            // any answer: without a seek function it cannot read the file again, and fails.
            _ = shim_curl_easy_setopt_seek(easy, curlSeekFile)
            _ = shim_curl_easy_setopt_ptr(easy, CURLOPT_SEEKDATA, unmanaged)
            if request.method == "POST" {
                _ = shim_curl_easy_setopt_long(easy, CURLOPT_POST, 1)
                _ = shim_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(file.size))
            } else {
                _ = shim_curl_easy_setopt_long(easy, CURLOPT_UPLOAD, 1)
                _ = shim_curl_easy_setopt_off(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(file.size))
            }
        }
        if request.progress != nil {
            _ = shim_curl_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
            _ = shim_curl_easy_setopt_xferinfo(easy, curlProgress)
            _ = shim_curl_easy_setopt_ptr(easy, CURLOPT_XFERINFODATA, unmanaged)
        }
        return nil
    }

    func closeUpload() {
        if uploadDescriptor >= 0 { close(uploadDescriptor) }
        uploadDescriptor = -1
    }

    /// Whether the answer's body goes to the sink: decided on its first bytes, from the status.
    func sinksBody() -> Bool {
        if !streamState.decided {
            streamState.decided = true
            streamState.sinking = Self.isTheFile(answerStatus())
        }
        return streamState.sinking
    }

    /// The answer's Content-Length, nil when it has none (yet): libcurl's progress total is 0
    /// for both, and an empty file's total is known.
    private func announcedLength() -> Int64? {
        var length: curl_off_t = -1
        if let easy { _ = shim_curl_easy_getinfo_off(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) }
        return length >= 0 ? Int64(length) : nil
    }

    /// Whether the answer arriving is a success (or its status has not come yet).
    private func answerMaySink() -> Bool {
        let status = answerStatus()
        return status == 0 || Self.isTheFile(status)
    }

    /// The status of the answer arriving (0 before its status line).
    private func answerStatus() -> Int {
        var status = 0
        if let easy { _ = shim_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status) }
        return status
    }

    /// A success is the file, but for 206: only part of it (a download asks for no range), which
    /// the download refuses after the transfer, so none of it goes to the sink.
    private static func isTheFile(_ status: Int) -> Bool { (200..<300).contains(status) && status != 206 }

    func appendStreamed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        streamState.sunk += bytes.count
        if streamState.sunk > maxBodySize {
            exceededMaxBody = true
            return false
        }
        guard let sink = request.bodySink, sink(bytes) else {
            streamState.stoppedByCaller = true
            return false
        }
        return true
    }

    /// At most the bytes still to send of the size announced: libcurl 7.88 sends whatever this
    /// returns, and a file that grew meanwhile would go out past the Content-Length, where the
    /// server reads it as the next request. A file that ends before that size stops the upload.
    fileprivate func readUpload(into buffer: UnsafeMutablePointer<CChar>, _ capacity: Int) -> Int {
        guard uploadRemaining > 0 else { return 0 }
        let wanted = min(capacity, Int(clamping: uploadRemaining))
        while true {
            let count = read(uploadDescriptor, buffer, wanted)
            if count > 0 {
                uploadRemaining -= Int64(count)
                return count
            }
            if count == 0 {
                uploadShrank = true
                return Int(CURL_READFUNC_ABORT)
            }
            if errno != EINTR {
                uploadReadError = errno
                return Int(CURL_READFUNC_ABORT)
            }
        }
    }

    /// Back to `offset` of the upload (libcurl sends the body again from its start).
    fileprivate func seekUpload(to offset: Int64, origin: Int32) -> Int32 {
        guard origin == SEEK_SET, let size = request.bodyFile?.size, offset >= 0, offset <= size,
              lseek(uploadDescriptor, off_t(offset), SEEK_SET) == off_t(offset) else { return CURL_SEEKFUNC_FAIL }
        uploadRemaining = size - offset
        return CURL_SEEKFUNC_OK
    }

    fileprivate func reportProgress(download: (Int64, Int64), upload: (Int64, Int64)) -> Int32 {
        guard let progress = request.progress else { return 0 }
        let total: Int64?, done: Int64
        if let size = request.bodyFile?.size ?? request.body.map({ Int64($0.count) }) {
            // An upload's size is known from the start; libcurl reads 0 until it sends.
            (done, total) = (upload.0, size)
        } else {
            // Only the file's bytes: an answer whose body does not go to the sink (an error about
            // to be retried, a redirect to follow) is no part of the download.
            if request.bodySink != nil && !answerMaySink() { return 0 }
            (done, total) = (download.0, download.1 > 0 ? download.1 : announcedLength())
        }
        // -1 for an unknown total: 0 is a known one (an empty file).
        if streamState.reported == (done, total ?? -1) { return 0 }
        streamState.reported = (done, total ?? -1)
        if progress(done, total) { return 0 }
        streamState.stoppedByCaller = true
        return 1
    }
}

private let curlReadFile: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    buffer, size, count, userdata in
    guard let userdata, let buffer else { return Int(CURL_READFUNC_ABORT) }
    return Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().readUpload(into: buffer, size * count)
}

private let curlSeekFile: @convention(c) (UnsafeMutableRawPointer?, curl_off_t, Int32) -> Int32 = {
    userdata, offset, origin in
    guard let userdata else { return CURL_SEEKFUNC_FAIL }
    return Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().seekUpload(to: Int64(offset), origin: origin)
}

private let curlProgress: @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
    -> Int32 = { userdata, downloadTotal, downloadNow, uploadTotal, uploadNow in
    guard let userdata else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
        .reportProgress(download: (Int64(downloadNow), Int64(downloadTotal)), upload: (Int64(uploadNow), Int64(uploadTotal)))
}
