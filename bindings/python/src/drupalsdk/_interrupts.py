"""Ctrl-C for blocking calls made on the main thread, the way ``time.sleep`` wakes up.

A blocking call waits inside the C library, where Python cannot run its signal handlers. So the
main thread gives the library a watch once (``drupal_set_interrupt_watch``): a pipe that Python's
C-level signal handler writes to (``signal.set_wakeup_fd``), and a check every
``CHECK_INTERVAL_MS`` for when another library (an asyncio loop) owns the wake-up fd. When the
pipe is readable or the interval is up, the library calls :func:`_on_wakeup` on the waiting
thread.

Python runs pending signal handlers when the main thread next enters Python code, which during a
blocking call is one of the binding's callbacks (this wake-up, progress, write, on_request, event
hooks, token providers). What a handler raises there (``KeyboardInterrupt``) is kept in
:data:`caught` (:func:`keep`), the callback stops the call (a progress or write callback returns
"cancel"; the next wake-up cancels) and :func:`reraise` raises it in the caller. A handler that
runs as a callback starts raises before the callback's ``try`` and ctypes reports it to
``sys.unraisablehook``: the binding's hook keeps it from there. The binding puts its hook back
(over whatever hook is there) before each blocking call, as others may set theirs after it.
Signals whose handlers return do not cancel anything.

Little of this runs per call once installed: the wake-up fd is set once (only if no one else
owns it; theirs stays theirs); a blocking call compares ``sys.unraisablehook`` with :data:`hook`
before and reads :data:`caught` after.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any, Optional

from . import _ffi

__all__ = ["install", "installed", "caught", "keep", "stopping", "callback", "hook", "install_hook", "reraise",
           "CHECK_INTERVAL_MS"]

#: How often a waiting blocking call on the main thread lets Python run its signal handlers when
#: the wake-up pipe is not ours: Ctrl-C then ends the call within two intervals.
CHECK_INTERVAL_MS = 50

_main_thread_id = threading.main_thread().ident
_read_fd = -1
_write_fd = -1
#: True once the main thread's watch is set (read by the binding before each blocking call).
installed = False
#: What a signal handler raised during a blocking call, until :func:`reraise` raises it (read by
#: the binding after each blocking call: the common case, None, calls nothing).
caught: Optional[BaseException] = None


def keep(error: BaseException) -> bool:
    """In a callback that caught ``error``: whether it is to end the blocking call and be raised
    by it (kept in :data:`caught`, the first one wins). That is what is not an ``Exception``
    (``KeyboardInterrupt``, ``SystemExit``) on the main thread, where only blocking calls run
    callbacks; the rest is the callback's own failure, which the callback logs."""
    global caught
    if isinstance(error, Exception) or threading.get_ident() != _main_thread_id:
        return False
    if caught is None:
        caught = error
    return True


def stopping() -> bool:
    """In a callback: whether the main thread's blocking call is to stop (something was kept)."""
    return caught is not None and threading.get_ident() == _main_thread_id


def callback(function: Any) -> Any:
    """Marks a function the library calls back through ctypes: what escapes it on the main thread
    (a signal handler raising as it starts) is kept by :data:`hook`, not reported."""
    function._drupalsdk_callback = True
    return function


@callback
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


def _hook_over(previous: Any) -> Any:
    def unraisable_hook(unraisable: Any) -> None:
        global caught
        error = unraisable.exc_value
        if getattr(unraisable.object, "_drupalsdk_callback", False) and isinstance(error, BaseException) \
                and threading.get_ident() == _main_thread_id:
            if caught is None:
                caught = error
            return
        previous(unraisable)
    return unraisable_hook


#: The binding's sys.unraisablehook, over the hook that was there when it was set.
hook: Any = None


def install_hook() -> None:
    """Puts the binding's hook in ``sys.unraisablehook`` (over the one there now, which gets every
    other report): before a blocking call, when it is not there."""
    global hook
    hook = _hook_over(sys.unraisablehook)
    sys.unraisablehook = hook


def install() -> None:
    """Before a blocking call: on the main thread, the first time, sets the library's watch for
    it (other threads: nothing, and the main thread's first call still installs it)."""
    global installed, _read_fd, _write_fd
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
    _read_fd, _write_fd = read_fd, write_fd
    _ffi.lib.drupal_set_interrupt_watch(read_fd, CHECK_INTERVAL_MS, _WAKEUP, None)


def _after_fork_in_child() -> None:
    """A forked child shares the parent's pipe: either would read the other's wake-ups (a Ctrl-C
    consumed by the wrong process). The child lets go of it; its next blocking call on its main
    thread (the thread that forked) makes its own."""
    global installed, _read_fd, _write_fd, _main_thread_id
    _main_thread_id = threading.get_ident()
    if _write_fd == -1:
        return
    try:
        previous = signal.set_wakeup_fd(-1)
    except ValueError:   # not the main interpreter: the pipe stays as it was
        return
    if previous != _write_fd:   # someone else's (an asyncio loop's) stays theirs
        signal.set_wakeup_fd(previous)
    os.close(_read_fd)
    os.close(_write_fd)
    installed, _read_fd, _write_fd = False, -1, -1


os.register_at_fork(after_in_child=_after_fork_in_child)


def reraise() -> None:
    """After a blocking call during which a signal handler raised: raises it in the caller (the
    call then ended as cancelled)."""
    global caught
    error, caught = caught, None
    if error is not None:
        raise error
