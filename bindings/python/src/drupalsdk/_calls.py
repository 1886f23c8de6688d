"""Async calls: ONE ctypes trampoline, an integer-keyed registry, Futures and asyncio hand-off.

Every async C call gets ``userdata`` = a fresh integer key into ``_pending``; the value is the
Python object waiting for the answer (a :class:`DrupalFuture` or an :class:`AsyncCall`), kept
alive by the registry until the library calls back (exactly once). The trampoline reads the
borrowed response while it is valid, converts it, and hands the outcome over. Nothing raised in
it ever reaches the library thread: failures land on the future or in the ``drupalsdk`` log.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures._base
import itertools
import logging
from collections import deque
from typing import Any, Deque, Dict, Optional, Tuple

from . import _ffi, _readers
from ._response import convert, returns_answer

__all__ = ["DrupalFuture", "AsyncCall", "LoopDispatcher", "TRAMPOLINE", "new_key", "pending", "keepalive"]

log = logging.getLogger("drupalsdk")

#: key -> the object whose ``_complete(code, response)`` the trampoline calls.
pending: Dict[int, Any] = {}
#: key -> what the C call still uses until it completes (progress and write callbacks).
keepalive: Dict[int, Any] = {}
#: next(_keys) is atomic under the GIL; 0 would be NULL, so keys start at 1.
new_key = itertools.count(1).__next__

_CANCELLED = _ffi.DRUPAL_E_CANCELLED
_call_cancel = _ffi.call_cancel
_call_free = _ffi.call_free
_response_error = _readers.response_error
_InvalidState = concurrent.futures.InvalidStateError
_DONE = (concurrent.futures._base.CANCELLED, concurrent.futures._base.CANCELLED_AND_NOTIFIED,
         concurrent.futures._base.FINISHED)
_HANDLE = "_call_handle"


def _on_complete(code: int, response: int, key: int) -> None:
    keepalive.pop(key, None)
    try:
        waiter = pending.pop(key)
    except KeyError:
        log.error("drupalsdk: completion for unknown call key %r (code %d)", key, code)
        return
    try:
        waiter._complete(code, response)
    except BaseException as error:  # never let anything escape into the library thread
        try:
            waiter._fail(error)
        except BaseException:
            log.exception("drupalsdk: a call completion failed")


#: The single C callback object, created once and alive for the life of the process.
TRAMPOLINE = _ffi.CALLBACK(_on_complete)


class DrupalFuture(concurrent.futures.Future):
    """A ``concurrent.futures.Future`` for one call in flight.

    :meth:`cancel` cancels the C call (``drupal_call_cancel``) and resolves the future as
    cancelled at once. A call cancelled by ``Client.close()`` resolves as cancelled too.
    Exceptions raised by done-callbacks are logged by ``concurrent.futures`` (they run on a
    library thread), never lost. The C call handle is released as soon as the future is done
    (or by :meth:`close`, or leaving ``with future:``, which also cancel a call still running).
    """

    def __init__(self, kind: int) -> None:
        super().__init__()
        self._kind = kind
        # The owned drupal_call * lives in the instance dict under _HANDLE until one of _release,
        # cancel or close pops it: dict.pop is one atomic step under the GIL, so exactly one of
        # the threads that race for it (the caller attaching it, the library thread completing,
        # a cancel) frees it, without taking the future's condition lock (a Python-level lock
        # per use: measured, 4 lock round trips per call were a fifth of a future's cost).

    @property
    def _call(self) -> Optional[int]:
        """The call handle while this future owns it (None once released)."""
        return self.__dict__.get(_HANDLE)

    def _attach(self, call: Optional[int]) -> None:
        """Takes the call handle; released at once if the call already ended."""
        self.__dict__[_HANDLE] = call
        if self._state in _DONE:   # read without the lock: a completion after this releases it
            self._release()

    def _release(self) -> None:
        call = self.__dict__.pop(_HANDLE, None)
        if call:
            _call_free(call)

    def cancel(self) -> bool:
        """Cancels the call; True if the future is now cancelled (False if it already ended)."""
        if self._state not in _DONE:
            # Taken from the dict, so no other thread frees it while it is cancelled.
            call = self.__dict__.pop(_HANDLE, None)
            if call:
                _call_cancel(call)   # also fine for a call that has just ended
                _call_free(call)
        cancelled = super().cancel()
        if cancelled:
            self._notify_cancelled()
        return cancelled

    def close(self) -> None:
        """Cancels the call if it is still running and releases its handle. Idempotent."""
        self.cancel()
        self._release()

    def __enter__(self) -> "DrupalFuture":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _notify_cancelled(self) -> None:
        """Tells ``wait``/``as_completed`` waiters, as an executor does for its own futures (a
        cancelled future that is never "notified" is never seen done by them)."""
        with self._condition:  # an RLock: set_running_or_notify_cancel takes it again
            if self._state == concurrent.futures._base.CANCELLED:
                self.set_running_or_notify_cancel()

    def _complete(self, code: int, response: Optional[int]) -> None:
        try:
            if code == 0 or returns_answer(self._kind, code):
                value = convert(self._kind, response, False, code)
                try:
                    self.set_result(value)
                except _InvalidState:  # cancelled meanwhile: drop the value
                    pass
            elif code == _CANCELLED:
                if concurrent.futures.Future.cancel(self):
                    self._notify_cancelled()
            else:
                self._fail(_response_error(code, response))
        finally:
            self._release()

    def _fail(self, error: BaseException) -> None:
        try:
            self.set_exception(error)
        except _InvalidState:
            pass

    def __del__(self) -> None:
        try:
            call = self.__dict__.pop(_HANDLE, None)
            if call:
                _call_free(call)
        except BaseException:
            pass


class LoopDispatcher:
    """Hands outcomes from library threads to one event loop, batching wake-ups.

    Only the first outcome queued since the last drain calls ``loop.call_soon_threadsafe``;
    the drain then resolves everything queued, so 32 calls finishing together cost one wake-up.
    """

    __slots__ = ("loop", "_queue", "_scheduled", "__weakref__")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._queue: Deque[Tuple[asyncio.Future, Any, Optional[BaseException]]] = deque()
        self._scheduled = False

    def post(self, future: asyncio.Future, value: Any, error: Optional[BaseException]) -> None:
        self._queue.append((future, value, error))
        if not self._scheduled:  # appended first, checked second: see _drain
            self._scheduled = True
            try:
                self.loop.call_soon_threadsafe(self._drain)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                self._scheduled = False
                self._queue.clear()

    def _drain(self) -> None:
        self._scheduled = False
        queue = self._queue
        popleft = queue.popleft
        while queue:
            future, value, error = popleft()
            if future.done():  # the awaiting task was cancelled
                continue
            if error is None:
                future.set_result(value)
            else:
                future.set_exception(error)


class AsyncCall:
    """The registry entry of an awaited call: converts on the library thread, resolves on the loop."""

    __slots__ = ("dispatcher", "future", "kind")

    def __init__(self, dispatcher: LoopDispatcher, future: asyncio.Future, kind: int) -> None:
        self.dispatcher = dispatcher
        self.future = future
        self.kind = kind

    def _complete(self, code: int, response: Optional[int]) -> None:
        if code == 0 or returns_answer(self.kind, code):
            self.dispatcher.post(self.future, convert(self.kind, response, False, code), None)
        else:
            self.dispatcher.post(self.future, None, _response_error(code, response))

    def _fail(self, error: BaseException) -> None:
        self.dispatcher.post(self.future, None, error)
