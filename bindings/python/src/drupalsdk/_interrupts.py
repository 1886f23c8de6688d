"""Ctrl-C for blocking calls made on the main thread, the way ``time.sleep`` wakes up.

A blocking call waits inside the C library, where Python cannot run its signal handlers. So the
main thread's blocking calls also watch a pipe that Python's C-level signal handler writes to
(``signal.set_wakeup_fd``), given to the library with ``drupal_set_interrupt_fd``. When it becomes
readable the library calls :func:`_on_wakeup` on the waiting thread. Python runs pending signal
handlers as that callback starts; a handler that raises (``KeyboardInterrupt``) makes the callback
fail before its body runs, which ctypes reports to ``sys.unraisablehook`` instead of raising: the
hook below keeps that exception, the next wake-up (the pipe is still readable) cancels the call,
and :func:`reraise` raises it in the caller. Signals whose handlers return do not cancel anything.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any, Optional

from . import _ffi

__all__ = ["watch", "reraise"]

_main_thread_id = threading.main_thread().ident
_pipe: Optional[tuple] = None     # (read fd, write fd), made on the first blocking call
_caught: Optional[BaseException] = None   # what a signal handler raised during a blocking call
_previous_hook: Any = None
_received = bytearray()   # the signal numbers read from the pipe, for another wake-up fd owner
# Whether a signal arrived since the last reraise (_received or _caught set): read by the binding
# after every blocking call, so that the common case (none, and no other fd owner to give the fd
# back to: watch() returned -1) costs no call to reraise.
signalled = False


def _drain() -> None:
    global signalled
    signalled = True
    try:
        while True:
            chunk = os.read(_pipe[0], 4096)  # type: ignore[index]
            if not chunk:
                return
            _received.extend(chunk)
    except OSError:  # empty (non-blocking)
        pass


def _on_wakeup(_userdata: Any) -> int:
    """Runs on the main thread inside a blocking C call when the pipe is readable."""
    _drain()
    return 1 if _caught is not None else 0


_WAKEUP = _ffi.INTERRUPT_CALLBACK(_on_wakeup)


def _unraisable(unraisable: Any) -> None:
    global _caught, signalled
    if unraisable.object is _on_wakeup and isinstance(unraisable.exc_value, BaseException):
        _caught = unraisable.exc_value
        signalled = True
        return
    _previous_hook(unraisable)


def _setup() -> tuple:
    global _pipe, _previous_hook
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    os.set_blocking(write_fd, False)
    _previous_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable
    _ffi.lib.drupal_set_interrupt_fd(read_fd, _WAKEUP, None)
    _pipe = (read_fd, write_fd)
    return _pipe


def watch() -> int:
    """Before a blocking call: on the main thread, routes signals to the library's wait. Returns
    the wake-up fd to give back to :func:`reraise` (-1 when there is none to give back)."""
    if threading.get_ident() != _main_thread_id:   # (cheaper than current_thread(): per call)
        return -1
    write_fd = (_pipe or _setup())[1]
    try:
        previous = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter
        return -1
    # Ours already (every call after the first), or none: nothing to give back afterwards.
    return -1 if previous == write_fd else previous


def reraise(previous: int) -> None:
    """After a blocking call: gives another owner its wake-up fd back, and raises what a signal
    handler raised during the call (the call then ended as cancelled)."""
    global _caught, signalled
    if _pipe is not None and previous not in (-1, _pipe[1]):
        # Someone else (an asyncio loop) owns the wake-up fd: it gets it back, with the signal
        # numbers that arrived meanwhile.
        signal.set_wakeup_fd(previous)
        _drain()
        try:
            os.write(previous, bytes(_received))
        except OSError:
            pass
    _received.clear()
    signalled = False
    error, _caught = _caught, None
    if error is not None:
        raise error
