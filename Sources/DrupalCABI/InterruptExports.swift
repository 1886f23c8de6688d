import CDrupal
import DrupalSDK

// drupal_set_interrupt_fd: letting a signal end blocking calls on a thread.

public typealias CInterruptCallback = @convention(c) (UnsafeMutableRawPointer?) -> Int32

@_cdecl("drupal_set_interrupt_fd")
public func drupal_set_interrupt_fd(_ fd: Int32, _ callback: CInterruptCallback?,
                                    _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    guard fd >= -1 else { return fail(.invalidArgument, "fd \(fd) is not a file descriptor (or -1)") }
    guard fd >= 0 else {
        BlockingInterrupt.current = nil
        return drupalOK
    }
    let bits = UInt(bitPattern: userdata)
    BlockingInterrupt.current = BlockingInterrupt.Watch(fileDescriptor: fd) {
        guard let callback else { return true }
        return callback(UnsafeMutableRawPointer(bitPattern: bits)) != 0
    }
    return drupalOK
}
