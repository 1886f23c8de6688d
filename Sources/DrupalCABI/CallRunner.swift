import CDrupal
import DrupalSDK
import FoundationEssentials

public typealias CCallback = @convention(c) (drupal_code, OpaquePointer?, UnsafeMutableRawPointer?) -> Void

/// The two ways every C call runs: async with (callback, userdata), or blocking (_sync). Each
/// converts the C arguments into a `DrupalOperation` (`prepare`) and hands it to the client: what
/// to check and what to send is the core's business.
enum CallRunner {
    /// Starts the call and returns at once; the callback runs exactly once on success.
    static func start(_ callOut: UnsafeMutablePointer<OpaquePointer?>?, _ clientPointer: OpaquePointer?,
                      _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?,
                      _ prepare: () throws -> DrupalOperation) -> drupal_code {
        callOut?.pointee = nil
        guard let handle = ClientHandle.from(clientPointer) else { return fail(.invalidArgument, "client is NULL") }
        guard let callback else { return fail(.invalidArgument, "callback is NULL") }
        let call = CallHandle(delivery: .callback(callback, UInt(bitPattern: userdata)))
        // *call is set before the call starts: the callback, on another thread, may run before
        // this returns, and may look for its call there.
        callOut?.pointee = OpaquePointer(Unmanaged.passRetained(call).toOpaque())
        do {
            try handle.begin(call, try prepare())
        } catch {
            if let callOut {
                callOut.pointee = nil
                Unmanaged.passUnretained(call).release()
            }
            return fail(error)
        }
        return drupalOK
    }

    /// Runs the call and waits for it on this thread. *out gets an owned response once started
    /// (NULL for a call that ends without one, e.g. a pager past its end).
    static func wait(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ clientPointer: OpaquePointer?,
                     _ prepare: () throws -> DrupalOperation) -> drupal_code {
        out?.pointee = nil
        guard let out else { return fail(.invalidArgument, "out is NULL") }
        guard let response = waitForResponse(clientPointer, prepare) else { return drupal_last_error_code() }
        out.pointee = response.retainedOrNull
        recordFailure(of: response)
        return response.code
    }

    /// A failed call's code, message and kind become this thread's last error, as a _sync
    /// function promises.
    static func recordFailure(of response: ResponseHandle) {
        if response.code != drupalOK { _ = drupal__fail_kind(Int32(response.code.rawValue), response.kind, response.message) }
    }

    /// The blocking core: nil when the call could not start (the last error says why).
    static func waitForResponse(_ clientPointer: OpaquePointer?, _ prepare: () throws -> DrupalOperation)
        -> ResponseHandle? {
        if drupal__in_callback() != 0 {
            fail(.state, "a _sync call cannot be made from inside a callback or event listener")
            return nil
        }
        guard let handle = ClientHandle.from(clientPointer) else {
            fail(.invalidArgument, "client is NULL")
            return nil
        }
        if handle.isInsideCallback(kind: Int32(DRUPAL__TOKEN_PROVIDER)) {
            // The call would wait for the token its own provider is fetching.
            fail(.state, "a _sync call cannot be made on a client from inside its token provider")
            return nil
        }
        do {
            return try handle.run(try prepare())
        } catch {
            fail(error)
            return nil
        }
    }
}
