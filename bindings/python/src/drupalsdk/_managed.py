"""Ownership of C handles: every handle has exactly one Python owner with ``close()``.

``Managed`` is the base of every object that owns a handle. ``close()`` is idempotent, the
object is a context manager, and ``__del__`` closes what was not closed (guarded, so it is safe
at interpreter shutdown). Objects still open at exit are closed by an ``atexit`` hook while the
interpreter still works, so no library thread ever calls into a finalizing interpreter.
"""
from __future__ import annotations

import atexit
import threading
import weakref
from typing import Any, List, Optional, TypeVar

__all__ = ["Managed", "ClosedError"]

_T = TypeVar("_T", bound="Managed")

_open: "weakref.WeakSet[Managed]" = weakref.WeakSet()


class ClosedError(RuntimeError):
    """The object was used after ``close()``."""


class Managed:
    """Owns one C handle (an integer address). Subclasses implement :meth:`_free_handle`.

    Users of the handle bracket each C call with :meth:`_enter` / :meth:`_exit`. ``close()``
    frees the handle at once when no thread is inside a C call with it, otherwise the last such
    thread frees it on its way out, so a handle is never freed under a thread still using it.
    """

    _handle: Optional[int] = None
    _closed: bool = True

    def _adopt(self, handle: int) -> None:
        self._users: List[int] = []
        self._free_lock = threading.Lock()
        self._handle = handle
        self._closed = False
        _open.add(self)

    @staticmethod
    def _free_handle(handle: int) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _before_free(self, handle: int) -> None:
        """Hook run just before the handle is freed (subclasses drop Python-side state after)."""

    def _after_free(self) -> None:
        """Hook run just after the handle is freed."""

    # ---- Guarded use --------------------------------------------------------------------------

    def _enter(self) -> int:
        """Marks one more C call in progress and returns the handle; ClosedError once closed."""
        users = self._users
        users.append(1)  # atomic under the GIL; checked against _closed after, see close()
        if self._closed:
            self._exit()
            raise ClosedError("%s is closed" % type(self).__name__)
        return self._handle  # type: ignore[return-value]

    def _exit(self) -> None:
        users = self._users
        users.pop()
        if self._closed and not users:
            self._release()

    def _release(self) -> None:
        with self._free_lock:
            handle = self._handle
            if not handle:
                return
            self._before_free(handle)
            self._handle = None
        self._free_handle(handle)
        self._after_free()

    # ---- Public lifecycle ---------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed

    def close(self) -> None:
        """Frees the C handle. Idempotent."""
        if self._closed:
            return
        self._closed = True
        _open.discard(self)
        if not self._users:
            self._release()

    def __enter__(self: _T) -> _T:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if not self._closed:
                self.close()
        except BaseException:  # interpreter shutdown, half-built object: never raise from __del__
            pass


@atexit.register
def _close_all_at_exit() -> None:
    for managed in list(_open):
        try:
            managed.close()
        except BaseException:
            pass
