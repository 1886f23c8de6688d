import CDrupal
import Dispatch
import DrupalSDK
import FoundationEssentials

public typealias CCallback = @convention(c) (drupal_code, OpaquePointer?, UnsafeMutableRawPointer?) -> Void

/// The two ways every operation runs: async with (callback, userdata), or blocking (_sync).
enum CallRunner {
    /// Validates, starts the call and returns at once; the callback runs exactly once on success.
    static func start(_ callOut: UnsafeMutablePointer<OpaquePointer?>?, _ clientPointer: OpaquePointer?,
                      _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?,
                      _ prepare: (ClientHandle) throws -> ClientHandle.Operation) -> drupal_code {
        start(callOut, clientPointer, callback, userdata, call: { ClientHandle.Call(operation: try prepare($0)) })
    }

    /// `start` for calls that may also be plain requests (see `ClientHandle.Call`).
    static func start(_ callOut: UnsafeMutablePointer<OpaquePointer?>?, _ clientPointer: OpaquePointer?,
                      _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?,
                      call prepare: (ClientHandle) throws -> ClientHandle.Call) -> drupal_code {
        callOut?.pointee = nil
        guard let handle = ClientHandle.from(clientPointer) else { return fail(.invalidArgument, "client is NULL") }
        guard let callback else { return fail(.invalidArgument, "callback is NULL") }
        let operation: ClientHandle.Call
        do { operation = try prepare(handle) } catch { return fail(error) }
        let call = CallHandle(delivery: .callback(callback, UInt(bitPattern: userdata)))
        guard handle.begin(call, operation) else { return fail(.state, "the client is being freed") }
        callOut?.pointee = OpaquePointer(Unmanaged.passRetained(call).toOpaque())
        return drupalOK
    }

    /// Runs the call and waits for it on this thread. *out gets an owned response once started.
    static func wait(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ clientPointer: OpaquePointer?,
                     _ prepare: (ClientHandle) throws -> ClientHandle.Operation) -> drupal_code {
        wait(out, clientPointer, call: { ClientHandle.Call(operation: try prepare($0)) })
    }

    /// `wait` for calls that may also be plain requests (see `ClientHandle.Call`).
    static func wait(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ clientPointer: OpaquePointer?,
                     call prepare: (ClientHandle) throws -> ClientHandle.Call) -> drupal_code {
        out?.pointee = nil
        guard let out else { return fail(.invalidArgument, "out is NULL") }
        guard let response = waitForResponse(clientPointer, prepare) else { return drupal_last_error_code() }
        out.pointee = response.retainedOrNull
        if response.code != drupalOK { _ = drupal__fail(Int32(response.code.rawValue), response.message) }
        return response.code
    }

    /// The blocking core: nil when the call could not start (the last error says why).
    static func waitForResponse(_ clientPointer: OpaquePointer?,
                                _ prepare: (ClientHandle) throws -> ClientHandle.Call) -> ResponseHandle? {
        if drupal__in_callback() != 0 {
            fail(.state, "a _sync call cannot be made from inside a callback or event listener")
            return nil
        }
        guard let handle = ClientHandle.from(clientPointer) else {
            fail(.invalidArgument, "client is NULL")
            return nil
        }
        let operation: ClientHandle.Call
        do { operation = try prepare(handle) } catch { fail(error); return nil }
        if handle.canRunBlocking { return handle.runBlocking(operation) }
        let box = ResultBox()
        let started = handle.begin(CallHandle(delivery: .closure { response in
            box.response = response
            box.done.signal()
        }), operation)
        guard started else {
            fail(.state, "the client is being freed")
            return nil
        }
        box.done.wait()
        return box.response
    }
}

/// Hands the response from the library thread to the waiting caller (the semaphore orders it).
private final class ResultBox: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var response: ResponseHandle?
}
