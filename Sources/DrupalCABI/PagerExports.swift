import CDrupal
import Dispatch
import DrupalSDK
import FoundationEssentials

// drupal_view_pager_new, drupal_pager_next (async and _sync), drupal_pager_free; newPager for the
// other pagers' exports.

/// What a drupal_pager points at: a core pager and the client whose calls fetch its pages (kept
/// alive by the pager; once the client is freed, fetching fails with DRUPAL_E_STATE).
final class PagerHandle: Sendable {
    let client: ClientHandle
    let pager: DrupalPager

    init(client: ClientHandle, pager: DrupalPager) {
        self.client = client
        self.pager = pager
    }

    static func from(_ pointer: OpaquePointer?) -> PagerHandle? {
        guard let pointer else { return nil }
        return Unmanaged<PagerHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// The client pointer the call runners take.
    var clientPointer: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(client).toOpaque()) }
}

/// Makes a pager on the client for a drupal_*_pager_new export.
func newPager(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
              _ make: (DrupalClient) throws -> DrupalPager) -> drupal_code {
    out?.pointee = nil
    guard let out else { return fail(.invalidArgument, "out is NULL") }
    guard let handle = ClientHandle.from(client) else { return fail(.invalidArgument, "client is NULL") }
    do {
        let pager = try make(handle.client)
        handle.opened(pager)
        out.pointee = OpaquePointer(Unmanaged.passRetained(PagerHandle(client: handle, pager: pager)).toOpaque())
        return drupalOK
    } catch {
        return fail(error)
    }
}

@_cdecl("drupal_view_pager_new")
public func drupal_view_pager_new(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                  _ path: UnsafePointer<CChar>?, _ query: UnsafePointer<UnsafePointer<CChar>?>?,
                                  _ maxPages: UInt32) -> drupal_code {
    newPager(out, client) { client in
        try client.viewPages(try CInput.string(path, "path"), try CInput.queryPairs(query, "query"),
                             maxPages: maxPages == 0 ? 1000 : Int(maxPages))
    }
}

@_cdecl("drupal_pager_next")
public func drupal_pager_next(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ pager: OpaquePointer?,
                              _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    call?.pointee = nil
    guard let handle = PagerHandle.from(pager) else { return fail(.invalidArgument, "pager is NULL") }
    return CallRunner.start(call, handle.clientPointer, callback, userdata) { .nextPage(handle.pager) }
}

@_cdecl("drupal_pager_next_sync")
public func drupal_pager_next_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                   _ pager: OpaquePointer?) -> drupal_code {
    out?.pointee = nil
    guard let handle = PagerHandle.from(pager) else { return fail(.invalidArgument, "pager is NULL") }
    return CallRunner.wait(out, handle.clientPointer) { .nextPage(handle.pager) }
}

@_cdecl("drupal_pager_free")
public func drupal_pager_free(_ pager: OpaquePointer?) {
    guard let pager else { return }
    let handle = Unmanaged<PagerHandle>.fromOpaque(UnsafeRawPointer(pager)).takeRetainedValue()
    handle.client.freed(handle.pager)
    // Pages fetched ahead are cancelled and waited for: once this returns, none of the pager's
    // requests is in flight. From a callback of its client (the loop that ends them) the wait is
    // skipped.
    handle.pager.closeFromC(waiting: !handle.client.isInsideCallback())
    withExtendedLifetime(handle) {}
}

extension DrupalPager {
    /// Ends the pager's fetches ahead from a C thread: waiting until none is in flight, or (from
    /// a callback of its client, which those fetches may need) in the background.
    func closeFromC(waiting: Bool) {
        guard waiting else {
            Task.detached { await self.close() }
            return
        }
        // The task borrows the pager, so the last reference (and the pager's end) stays on this
        // thread.
        let borrowed = Unmanaged.passUnretained(self)
        let stopped = DispatchSemaphore(value: 0)
        Task.detached {
            await borrowed.takeUnretainedValue().close()
            stopped.signal()
        }
        stopped.wait()
        withExtendedLifetime(self) {}
    }
}
