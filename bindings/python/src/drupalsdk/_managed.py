"""Ownership of C handles: every handle has exactly one Python owner with ``close()``.

``Managed`` is the base of every object that owns a handle. ``close()`` is idempotent, the
object is a context manager, and ``__del__`` closes what was not closed (guarded, so it is safe
at interpreter shutdown). Objects still open at exit are closed by an ``atexit`` hook while the
interpreter still works, so no library thread ever calls into a finalizing interpreter.

The library is not fork-safe: a forked child has none of its threads (they stay in the parent)
and may inherit its locks held. So a handle made before a fork refuses every use in the child
(``DrupalError`` ``DRUPAL_E_STATE``) and is dropped there, not freed. Once the library's shared
threads ran (:func:`threads_start`: async calls, concurrent pagers), a forked child cannot use the
library at all (new clients crashed in it, freeing them too): :func:`new_handle` refuses.
"""
from __future__ import annotations

import atexit
import os
import threading
import weakref
from typing import Any, List, Optional, TypeVar

from ._errors import DrupalError

__all__ = ["Managed", "ClosedError", "fork_generation", "threads_start", "new_handle"]

_T = TypeVar("_T", bound="Managed")

_open: "weakref.WeakSet[Managed]" = weakref.WeakSet()


class ClosedError(RuntimeError):
    """The object was used after ``close()``."""


#: How many forks this process is from the one that loaded the binding (what handles record).
fork_generation = 0
#: Whether the library's shared threads ran here, or in a parent before this process was forked.
_threads_started = False
_threads_forked = False


def _after_fork_in_child() -> None:
    global fork_generation, _threads_forked
    fork_generation += 1
    _threads_forked = _threads_started


os.register_at_fork(after_in_child=_after_fork_in_child)


def threads_start() -> None:
    """Before a call that runs on the library's shared threads (async calls, concurrent pagers)."""
    global _threads_started
    _threads_started = True


def new_handle() -> None:
    """Before the library makes a handle: refused in a forked child of a process where the
    library's shared threads ran (its locks may be held in the child, whose library would crash)."""
    if _threads_forked:
        raise DrupalError("the library's threads ran in the parent before this process was forked, and the "
                          "library is not fork-safe: a forked child cannot use drupalsdk then; start worker "
                          "processes with the 'spawn' or 'forkserver' method, or fork before the first async "
                          "call", code="DRUPAL_E_STATE")


def _forked_error(managed: "Managed") -> DrupalError:
    return DrupalError("this %s was made before os.fork() and belongs to the parent process (the library is "
                       "not fork-safe); make a new one in the child" % type(managed).__name__,
                       code="DRUPAL_E_STATE")


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
        self._generation = fork_generation
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
        if self._generation != fork_generation:
            self._exit()
            raise _forked_error(self)
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
            if self._generation != fork_generation:
                # The parent's, in a forked child: freeing would wait for threads that are not
                # here or take locks held at the fork. The child's copy of it is just dropped.
                self._handle = None
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
