import CDrupal
import Dispatch

/// The handles on one session: a client and its language views (drupal_client_with_language)
/// complete their calls on the same threads, so to callback frames they are one client.
final class ClientFamily: Sendable {
    /// Runs of the session's C token provider: each may outlive the call that started it (which
    /// stops waiting at its timeout or when cancelled), so drupal_client_free waits for them too.
    let providerRuns = DispatchGroup()
}

/// A client in callback frames: the address of its family, never dereferenced, so closures
/// that outlive the client may hold it.
struct ClientIdentity: Sendable {
    private let address: UInt

    init(_ family: ClientFamily) { address = UInt(bitPattern: Unmanaged.passUnretained(family).toOpaque()) }

    var pointer: UnsafeRawPointer { UnsafeRawPointer(bitPattern: address)! }
}

/// Runs `body` as a library callback of `client` on this thread, a frame of cdrupal.h's stack:
/// what lets `_sync` calls refuse inside callbacks, and `drupal_client_free` tell its own
/// client's callbacks (whose calls cannot end before it returns) from another client's.
func insideCallback<T>(of client: ClientIdentity, kind: Int32 = Int32(DRUPAL__CALLBACK), _ body: () throws -> T)
    rethrows -> T {
    var frame = drupal__callback_frame()
    return try withUnsafeMutablePointer(to: &frame) { frame in
        drupal__callback_enter(frame, client.pointer, kind)
        defer { drupal__callback_leave(frame) }
        return try body()
    }
}

extension ClientHandle {
    var identity: ClientIdentity { ClientIdentity(family) }

    /// Whether this thread runs a callback of this client (of `kind`, or of any kind for 0).
    func isInsideCallback(kind: Int32 = 0) -> Bool { drupal__in_callback_of(identity.pointer, kind) != 0 }
}
