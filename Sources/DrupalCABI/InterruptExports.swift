import CDrupal
import DrupalSDK

// drupal_set_interrupt_fd and drupal_set_interrupt_watch: letting a signal end blocking calls on
// a thread.

public typealias CInterruptCallback = @convention(c) (UnsafeMutableRawPointer?) -> Int32

@_cdecl("drupal_set_interrupt_fd")
public func drupal_set_interrupt_fd(_ fd: Int32, _ callback: CInterruptCallback?,
                                    _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    drupal_set_interrupt_watch(fd, 0, callback, userdata)
}

@_cdecl("drupal_set_interrupt_watch")
public func drupal_set_interrupt_watch(_ fd: Int32, _ intervalMilliseconds: Int32, _ callback: CInterruptCallback?,
                                       _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    guard fd >= -1 else { return fail(.invalidArgument, "fd \(fd) is not a file descriptor (or -1)") }
    guard intervalMilliseconds >= 0 && intervalMilliseconds <= BlockingInterrupt.maxCheckIntervalMilliseconds else {
        return fail(.invalidArgument, "interval_ms \(intervalMilliseconds) is not between 0 and "
                    + "\(BlockingInterrupt.maxCheckIntervalMilliseconds)")
    }
    guard fd >= 0 || intervalMilliseconds > 0 else {
        BlockingInterrupt.current = nil
        return drupalOK
    }
    let bits = UInt(bitPattern: userdata)
    BlockingInterrupt.current = BlockingInterrupt.Watch(fileDescriptor: fd,
                                                        checkIntervalMilliseconds: intervalMilliseconds) {
        guard let callback else { return true }
        return callback(UnsafeMutableRawPointer(bitPattern: bits)) != 0
    }
    return drupalOK
}
