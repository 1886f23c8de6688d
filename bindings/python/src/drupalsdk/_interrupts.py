"""Ctrl-C for blocking calls made on the main thread, the way ``time.sleep`` wakes up.

A blocking call waits inside the C library, where Python cannot run its signal handlers. So the
main thread gives the library a watch once (``drupal_set_interrupt_watch``): a pipe that Python's
C-level signal handler writes to (``signal.set_wakeup_fd``), and a check every
``CHECK_INTERVAL_MS`` for when another library (an asyncio loop) owns the wake-up fd. When the
pipe is readable or the interval is up, the library calls :func:`_on_wakeup` on the waiting
thread. Python runs pending signal handlers as that callback starts; a handler that raises
(``KeyboardInterrupt``) makes the callback fail before its body runs, which ctypes reports to
``sys.unraisablehook`` instead of raising: the hook below keeps that exception, the next wake-up
(the pipe is still readable, or the next interval) cancels the call, and :func:`reraise` raises it
in the caller. Signals whose handlers return do not cancel anything.

Nothing of this runs per call once installed: the wake-up fd is set once (only if no one else
owns it; theirs stays theirs), and the binding reads :data:`caught` after each blocking call.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any, Optional

from . import _ffi

__all__ = ["install", "installed", "caught", "reraise", "CHECK_INTERVAL_MS"]

#: How often a waiting blocking call on the main thread lets Python run its signal handlers when
#: the wake-up pipe is not ours: Ctrl-C then ends the call within two intervals.
CHECK_INTERVAL_MS = 50

_main_thread_id = threading.main_thread().ident
_read_fd = -1
_previous_hook: Any = None
#: True once the main thread's watch is set (read by the binding before each blocking call).
installed = False
#: What a signal handler raised during a blocking call, until :func:`reraise` raises it (read by
#: the binding after each blocking call: the common case, None, calls nothing).
caught: Optional[BaseException] = None


def _on_wakeup(_userdata: Any) -> int:
    """Runs on the main thread inside a blocking C call: the pipe is readable or the interval is
    up (Python has run the pending signal handlers as this started)."""
    try:
        while os.read(_read_fd, 4096):
            pass
    except OSError:  # empty (non-blocking)
        pass
    return 1 if caught is not None else 0


_WAKEUP = _ffi.INTERRUPT_CALLBACK(_on_wakeup)


def _unraisable(unraisable: Any) -> None:
    global caught
    if unraisable.object is _on_wakeup and isinstance(unraisable.exc_value, BaseException):
        caught = unraisable.exc_value
        return
    _previous_hook(unraisable)


def install() -> None:
    """Before a blocking call: on the main thread, the first time, sets the library's watch for
    it (other threads: nothing, and the main thread's first call still installs it)."""
    global installed, _read_fd, _previous_hook
    if threading.get_ident() != _main_thread_id:   # (cheaper than current_thread())
        return
    installed = True
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    os.set_blocking(write_fd, False)
    try:
        previous = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter: its signal handlers do not run here
        os.close(read_fd)
        os.close(write_fd)
        return
    if previous != -1:
        # Someone else's (an asyncio loop's) stays theirs: the interval check is enough.
        signal.set_wakeup_fd(previous)
    _read_fd = read_fd
    _previous_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable
    _ffi.lib.drupal_set_interrupt_watch(read_fd, CHECK_INTERVAL_MS, _WAKEUP, None)


def reraise() -> None:
    """After a blocking call during which a signal handler raised: raises it in the caller (the
    call then ended as cancelled)."""
    global caught
    error, caught = caught, None
    if error is not None:
        raise error
