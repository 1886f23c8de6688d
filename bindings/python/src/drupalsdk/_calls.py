"""Async calls: the integer-keyed registry of calls in flight, and the Future of ``submit_*``.

Every async C call is registered under a fresh integer key in ``pending``; the value is what
waits for the answer, kept alive by the registry until the call ends (exactly once). The calls
end into completion queues (``_queues``): no Python runs on a library thread, and a thread of
the binding (futures) or the event loop (asyncio) resolves what waits.
"""
from __future__ import annotations

import concurrent.futures
import concurrent.futures._base
import itertools
import logging
import threading
from typing import Any, Dict, Optional, TypeVar

from . import _ffi, _readers
from ._response import convert, returns_answer

__all__ = ["DrupalFuture", "new_key", "pending", "keepalive"]

log = logging.getLogger("drupalsdk")

#: key -> what waits for the call's outcome (see _queues: a DrupalFuture, or an asyncio future
#: and the kind of value it gets).
pending: Dict[int, Any] = {}
#: key -> what the C call still uses until it completes (progress and write callbacks).
keepalive: Dict[int, Any] = {}
#: next(_keys) is atomic under the GIL; 0 would be NULL, so keys start at 1.
new_key = itertools.count(1).__next__
#: Set by _queues: the id of the drupalsdk-futures thread, and resolve_until(future, timeout),
#: which resolves futures on that thread while a done-callback there waits for one.
futures_thread: Optional[int] = None
resolve_until: Any = None

_CANCELLED = _ffi.DRUPAL_E_CANCELLED
_call_cancel = _ffi.call_cancel
_call_free = _ffi.call_free
_response_error = _readers.response_error
_InvalidState = concurrent.futures.InvalidStateError
_DONE = (concurrent.futures._base.CANCELLED, concurrent.futures._base.CANCELLED_AND_NOTIFIED,
         concurrent.futures._base.FINISHED)
_HANDLE = "_call_handle"

#: The type of a future's result (``submit_get`` gives a ``DrupalFuture[Entity]``).
T = TypeVar("T")


# Future is subscriptable at run time since Python 3.9 (PEP 585); the class's bases stay Future
# and object: only type checkers read T.
class DrupalFuture(concurrent.futures.Future[T]):
    """A ``concurrent.futures.Future`` for one call in flight (a ``DrupalFuture[T]``'s result is a ``T``).

    :meth:`cancel` cancels the C call (``drupal_call_cancel``) and resolves the future as
    cancelled at once. A call cancelled by ``Client.close()`` resolves as cancelled too.
    Exceptions raised by done-callbacks are logged by ``concurrent.futures`` (they run on the
    binding's ``drupalsdk-futures`` thread), never lost. A done-callback may wait for another
    future's :meth:`result` (the thread resolves futures meanwhile), not with
    ``concurrent.futures.wait`` or ``as_completed``, which would wait for it. The C call handle is released as soon
    as the future is done (or by :meth:`close`, or leaving ``with future:``, which also cancel a
    call still running).
    """

    def __init__(self, kind: int) -> None:
        super().__init__()
        self._kind = kind
        # The owned drupal_call * lives in the instance dict under _HANDLE until one of _release,
        # cancel or close pops it: dict.pop is one atomic step under the GIL, so exactly one of
        # the threads that race for it (the caller attaching it, the completion thread resolving
        # it, a cancel) frees it, without taking the future's condition lock (a Python-level lock
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

    def result(self, timeout: Optional[float] = None) -> T:
        """As ``Future.result``; also from a done-callback (which runs on the thread that resolves
        these futures: waiting there, it resolves them itself)."""
        return super().result(self._resolved_here(timeout))

    def exception(self, timeout: Optional[float] = None) -> Optional[BaseException]:
        """As ``Future.exception``; also from a done-callback (see :meth:`result`)."""
        return super().exception(self._resolved_here(timeout))

    def _resolved_here(self, timeout: Optional[float]) -> Optional[float]:
        """On the futures thread, resolves futures until this one is done or `timeout` passes,
        and gives the timeout left for the wait after it (none); elsewhere `timeout` as given."""
        if self._state in _DONE or threading.get_ident() != futures_thread:
            return timeout
        resolve_until(self, timeout)
        return 0

    def close(self) -> None:
        """Cancels the call if it is still running and releases its handle. Idempotent."""
        self.cancel()
        self._release()

    def __enter__(self) -> "DrupalFuture[T]":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _notify_cancelled(self) -> None:
        """Tells ``wait``/``as_completed`` waiters, as an executor does for its own futures (a
        cancelled future that is never "notified" is never seen done by them)."""
        with self._condition:  # an RLock: set_running_or_notify_cancel takes it again
            if self._state == concurrent.futures._base.CANCELLED:
                self.set_running_or_notify_cancel()

    def _complete(self, code: int, response: Optional[int], cause: Optional[BaseException] = None) -> None:
        try:
            if code == 0 or returns_answer(self._kind, code):
                value = convert(self._kind, response, False, code)
                try:
                    self.set_result(value)
                except _InvalidState:  # cancelled meanwhile: drop the value
                    pass
            elif code == _CANCELLED and cause is None:
                if concurrent.futures.Future.cancel(self):
                    self._notify_cancelled()
            else:   # a callable that raised: its exception, as the cause, is the outcome
                # A failure always comes with its response: only a pager's end (DRUPAL_OK) has none.
                assert response is not None
                self._fail(_response_error(code, response, cause))
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
