// Starting and cancelling requests on a CurlEngine from any thread (async `send`, callback-mode
// `start`) and `stop()`: each queues work in the inbox and wakes the loop.
import CCurl
import CCurlShim
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension CurlEngine {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if Task.isCancelled { throw DrupalError.cancelled() }
        let transfer = CurlTransfer(request: request, maxBodySize: options.maxBodySize)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                transfer.continuation = continuation
                submit(transfer)
            }
        } onCancel: {
            requestCancel(transfer)
        }
    }

    /// Callback mode: starts a request without a task; `completion` runs once on the loop's
    /// thread. The returned closure cancels the request (from any thread).
    func start(_ request: HTTPRequest, completion: @escaping Transport.Completion) -> Transport.Cancel {
        let transfer = CurlTransfer(request: request, maxBodySize: options.maxBodySize, engine: self)
        transfer.completion = completion
        if startingThread.load(ordering: .relaxed) == UInt(pthread_self()) {
            start(transfer)   // the thread about to drive this engine: no lock, no queue
        } else {
            submit(transfer)
        }
        return { transfer.engine?.requestCancel(transfer) }
    }

    /// Asks the loop to cancel a transfer; safe from any thread, and for finished transfers.
    func requestCancel(_ transfer: CurlTransfer) {
        transfer.cancelRequested.store(true, ordering: .relaxed)
        inbox.withLock { [multi, self] inbox in
            if inbox.stopped { return }
            inbox.cancellations.append(transfer)
            inbox.wakeIfSleeping(multi, self.posts)
        }
    }

    private func submit(_ transfer: CurlTransfer) {
        let accepted = inbox.withLock { [multi, self] inbox -> Bool in
            if inbox.stopping || inbox.stopped { return false }
            inbox.submissions.append(transfer)
            inbox.wakeIfSleeping(multi, self.posts)
            return true
        }
        if !accepted {
            resume(transfer, with: .failure(DrupalError(.cancelled, "the client was shut down")))
        }
    }

    /// Cancels every request in flight and ends the thread. Safe to call more than once.
    public func stop() {
        inbox.withLock { [multi] inbox in
            inbox.stopping = true
            // Unconditional (the loop may be about to sleep), but never after the loop freed
            // the multi handle.
            if !inbox.stopped { curl_multi_wakeup(multi) }
        }
    }
}
