/// Request bodies streamed from a file and response bodies streamed to the caller, with progress:
/// what a transport needs for uploads and downloads that never sit whole in memory. A transport
/// that cannot stream (`Transport.streams` false: the mock, most hand-made ones) gets the file read
/// into `body` and hands the whole answer to the sink once, the client arranges that.

/// A request body read from a file as it is sent.
public struct HTTPBodyFile: Sendable, Equatable {
    public var path: LocalPath
    /// Its size in bytes when the request was made (sent as Content-Length).
    public var size: Int64

    public init(path: LocalPath, size: Int64) {
        self.path = path
        self.size = size
    }
}

/// Progress of a transfer, from the thread moving the bytes: bytes sent (uploads) or received
/// (downloads) so far, and the total when known. Return false to cancel the transfer.
public typealias TransferProgress = @Sendable (_ done: Int64, _ total: Int64?) -> Bool

/// Receives the body of a successful (2xx) answer piece by piece as it arrives, instead of the
/// response holding it; the bytes are valid during the call. Return false to stop the transfer.
/// Error answers are still read whole, for the error model.
public typealias BodySink = @Sendable (UnsafeRawBufferPointer) -> Bool
