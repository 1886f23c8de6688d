// The transfers of a CurlEngine, on the loop's thread: adding one to the multi handle, cancelling
// it, completing finished ones, recycling their easy handles, and shutting everything down.
import CCurl
import CCurlShim
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension CurlEngine {
    func start(_ transfer: CurlTransfer) {
        if transfer.cancelRequested.load(ordering: .relaxed) || interrupted {
            resume(transfer, with: .failure(DrupalError.cancelled()))
            return
        }
        guard let handle = idleHandles.popLast() ?? EasyHandle.make() else {
            resume(transfer, with: .failure(DrupalError(.noMemory, "curl_easy_init failed")))
            return
        }
        let dnsCacheTimeout = dnsCachePruning.timeout(startingAt: monotonicNanoseconds())
        if let error = transfer.configure(handle, options: options, defaultLines: defaultLines,
                                             plainHeaders: plainHeaders, dnsCacheTimeout: dnsCacheTimeout) {
            recycle(transfer)
            resume(transfer, with: .failure(error))
            return
        }
        active.append(transfer)
        curl_multi_add_handle(multi, handle.easy)
    }

    func cancel(_ transfer: CurlTransfer, reason: String = "the request was cancelled") {
        guard removeActive(transfer), let easy = transfer.easy else { return }
        curl_multi_remove_handle(multi, easy)
        recycle(transfer)
        resume(transfer, with: .failure(DrupalError(.cancelled, reason)))
    }

    @discardableResult
    private func removeActive(_ transfer: CurlTransfer) -> Bool {
        guard let index = active.lastIndex(where: { $0 === transfer }) else { return false }
        active.swapAt(index, active.count - 1)
        active.removeLast()
        return true
    }

    /// Resumes the tasks of finished transfers; returns how many finished.
    func completeFinishedTransfers() -> Int {
        var finished = 0
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var privatePointer: UnsafeMutableRawPointer?
            _ = shim_curl_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &privatePointer)
            curl_multi_remove_handle(multi, easy)
            guard let privatePointer else { continue }
            let transfer = CurlTransfer.inSlot(privatePointer).takeUnretainedValue()
            removeActive(transfer)
            let result = outcome(of: transfer, easy: easy, code: code)
            recycle(transfer)
            resume(transfer, with: result)
            finished += 1
        }
        return finished
    }

    private func outcome(of transfer: CurlTransfer, easy: UnsafeMutableRawPointer,
                         code: CURLcode) -> Result<HTTPResponse, any Error> {
        if code == CURLE_OK {
            if let error = transfer.finishDecoding() { return .failure(error) }
            var status = 0
            _ = shim_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            let body = transfer.responseBody.take()
            return .success(HTTPResponse(status: status, headers: transfer.takeHeaders(), body: body.data,
                                         nulTerminatedAt: body.start))
        }
        return .failure(CurlErrors.error(for: code, transfer: transfer, options: options))
    }

    /// Takes the transfer's easy handle back into the pool.
    private func recycle(_ transfer: CurlTransfer) {
        guard var handle = transfer.handle else { return }
        // A plain GET changed only per-request options, which the next transfer sets again.
        let clean = transfer.leavesHandleClean
        transfer.releaseResources()
        if clean { handle.configured = true } else { handle.reset() }
        idleHandles.append(handle)
    }

    /// Hands the outcome to the transfer's task or completion, once.
    func resume(_ transfer: CurlTransfer, with result: Result<HTTPResponse, any Error>) {
        if let continuation = transfer.continuation {
            transfer.continuation = nil
            continuation.resume(with: result)
        } else if let completion = transfer.completion {
            transfer.completion = nil
            completion(result)
        }
    }

    func shutDown() {
        for transfer in active {
            if let easy = transfer.easy {
                curl_multi_remove_handle(multi, easy)
                recycle(transfer)
            }
            resume(transfer, with: .failure(DrupalError(.cancelled, "the client was shut down")))
        }
        active.removeAll()
        let leftover = inbox.withLock { inbox -> Inbox in
            inbox.stopped = true
            let taken = inbox
            inbox.jobs.removeAll()
            inbox.submissions.removeAll()
            inbox.cancellations.removeAll()
            return taken
        }
        for transfer in leftover.submissions {
            resume(transfer, with: .failure(DrupalError(.cancelled, "the client was shut down")))
        }
        // Jobs that arrived meanwhile (including those the resumes above queued) still run.
        for job in leftover.jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        for handle in idleHandles { handle.destroy() }
        idleHandles.removeAll()
        curl_slist_free_all(plainHeaders)
        curl_multi_cleanup(multi)
    }
}
