"""Where async calls end: completion queues (``drupal_queue``), one per event loop and one for
futures.

A call is started with the C function ``drupal_queue_callback``, so the library thread that
ends it queues the outcome without entering Python (taking the GIL there, per call, was most of
an async call's cost). The queue's eventfd wakes its consumer once for everything that arrived
since it last looked: the event loop (``add_reader``) for asyncio, the ``drupalsdk-futures``
thread for ``submit_*`` futures. The consumer converts each outcome and resolves what waits.
"""
from __future__ import annotations

import asyncio
import collections
import math
import os
import select
import threading
import time
import weakref
from ctypes import byref, c_void_p
from typing import Any, Optional

from . import _calls, _ffi, _managed
from ._calls import keepalive, log, pending
from ._readers import response_error
from ._response import convert, returns_answer
from ._transfers import callback_error

_CANCELLED = _ffi.DRUPAL_E_CANCELLED

__all__ = ["QUEUE_CALLBACK", "dispatcher_for", "futures_dispatcher", "settle_futures", "ticket_free"]

_lib = _ffi.lib
_pop = _lib.drupal_queue_pop
_response_free = _ffi.response_free
_BATCH = 64   # outcomes taken per drupal_queue_pop
_Batch = _ffi.Completion * _BATCH
QUEUE_CALLBACK = _ffi.QUEUE_CALLBACK
ticket_free = _lib.drupal_queue_ticket_free


class _Queue:
    """A drupal_queue and its consumer's side."""

    __slots__ = ("_queue", "fd", "_draining", "_generation", "_backlog", "__weakref__")

    def __init__(self) -> None:
        queue = c_void_p()
        code = _lib.drupal_queue_new(byref(queue))
        if code:
            raise _ffi.last_error(code)
        self._queue = queue.value
        self._generation = _managed.fork_generation
        self.fd = _lib.drupal_queue_fd(self._queue)
        # Held while outcomes are taken and resolved, so that another thread's drain (settle)
        # returns only once what was taken before it is resolved; re-entrant for a done-callback
        # that closes a client.
        self._draining = threading.RLock()
        self._backlog: "collections.deque[Any]" = collections.deque()

    def ticket(self, key: int) -> int:
        """The userdata of a call whose outcome comes back under `key`."""
        ticket = c_void_p()
        code = _lib.drupal_queue_ticket(byref(ticket), self._queue, key)
        if code:
            raise _ffi.last_error(code)
        return ticket.value  # type: ignore[return-value]

    def drain(self) -> None:
        """Resolves every outcome waiting (the responses are freed after)."""
        with self._draining:
            self._drain()

    def _drain(self) -> None:
        # Outcomes taken wait in the backlog, shared by the drains of this thread: any Python run
        # from here (a done-callback waiting for another future, the collector closing another
        # client) may drain again, nested, and must resolve what this one took but has not
        # reached yet (the outcome it waits for may be among them). Each is resolved once.
        batch, queue, resolve, backlog = _Batch(), self._queue, self._resolve, self._backlog
        while True:
            taken = _pop(batch, queue, _BATCH)
            # In front: a nested drain resolves what it was called for (a closed client's
            # cancelled calls) before the rest of the batch it interrupted.
            backlog.extendleft((batch[index].tag, batch[index].code, batch[index].response)
                               for index in reversed(range(taken)))
            while backlog:
                key, code, response = backlog.popleft()
                waiter = pending.pop(key, None)
                try:
                    if waiter is None:
                        log.error("drupalsdk: completion for unknown call key %r (code %d)", key, code)
                    else:
                        # What a progress or write callable raised is the cancellation's cause.
                        cause = callback_error(keepalive.get(key, ((),))[0]) if code == _CANCELLED else None
                        resolve(waiter, code, response, cause)
                except BaseException:  # pragma: no cover - resolve catches what it can
                    log.exception("drupalsdk: a call completion failed")
                finally:
                    _response_free(response)
                    # Last: this may drop the last reference to the call's client, whose
                    # collection closes it (and drains again, nested) once its answer is out.
                    keepalive.pop(key, None)
            if taken < _BATCH:
                return

    def _resolve(self, waiter: Any, code: int, response: int,
                 cause: Optional[BaseException]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def __del__(self) -> None:
        # Calls still in flight then end into nothing: the queue drops their outcomes. A forked
        # child drops its copy of the parent's queue (the library may hold its locks there).
        try:
            if self._generation == _managed.fork_generation:
                _lib.drupal_queue_free(self._queue)
        except BaseException:
            pass


class LoopDispatcher(_Queue):
    """The queue of one event loop's calls; ``pending`` holds [asyncio future, kind] for each."""

    __slots__ = ("loop",)

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        #: The loop, weakly: the registry below holds dispatchers until their loop goes.
        self.loop = weakref.ref(loop)
        loop.add_reader(self.fd, self.drain)

    def _resolve(self, waiter: Any, code: int, response: int, cause: Optional[BaseException]) -> None:
        future, kind = waiter
        waiter[0] = None   # taken (see _client._cancelled_call_ended)
        if future.done():  # the awaiting task was cancelled
            return
        if future.get_loop().is_closed():   # left in flight by a closed loop: nothing awaits it
            return
        if kind is None:   # a cancelled call's end, awaited by _cancelled_call_ended
            future.set_result(None)
            return
        try:
            if code == 0 or returns_answer(kind, code):
                future.set_result(convert(kind, response, False, code))
            else:
                future.set_exception(response_error(code, response, cause))
        except BaseException as error:  # a conversion that failed lands on the future
            future.set_exception(error)


#: The loop -> its dispatcher; an entry goes with its loop (whose reader keeps the dispatcher).
_loops: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopDispatcher]" = weakref.WeakKeyDictionary()


def dispatcher_for(loop: asyncio.AbstractEventLoop) -> LoopDispatcher:
    """The dispatcher of `loop`, made on first use (on the loop's thread)."""
    dispatcher = _loops.get(loop)
    if dispatcher is None:
        _let_go_of_closed_loops()
        dispatcher = _loops[loop] = LoopDispatcher(loop)
    return dispatcher


def _let_go_of_closed_loops() -> None:
    """Takes what the calls of closed loops left in their queues. A loop closed with tasks still
    awaiting calls never takes their outcomes, whose registry entries then keep the loop (and
    its queue) alive; dropped here, as a new loop starts, the loop goes once its calls have all
    ended (a call still in flight keeps it until a later sweep: its callbacks are in use)."""
    for loop, dispatcher in list(_loops.items()):
        if loop.is_closed():   # so no one else drains its queue
            dispatcher.drain()


class FuturesDispatcher(_Queue):
    """The queue of every ``submit_*`` call, drained by the ``drupalsdk-futures`` thread (where
    done-callbacks run); ``pending`` holds the DrupalFuture of each."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()
        threading.Thread(target=self._run, name="drupalsdk-futures", daemon=True).start()

    def _run(self) -> None:
        _calls.futures_thread = threading.get_ident()
        _calls.resolve_until = self.resolve_until
        poll = select.poll()
        poll.register(self.fd, select.POLLIN)
        while True:
            poll.poll()   # the GIL is released while it waits
            self.drain()

    def resolve_until(self, future: Any, timeout: Optional[float]) -> None:
        """On this thread, where a done-callback waits for `future` (no other thread resolves
        it): resolves outcomes here until it is done, or `timeout` seconds have passed."""
        deadline = None if timeout is None else time.monotonic() + timeout
        poll = select.poll()
        poll.register(self.fd, select.POLLIN)
        while not future.done():
            if self._backlog:   # taken by the drain this callback runs in: resolved first
                self.drain()
                continue
            if deadline is None:
                poll.poll()
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                poll.poll(math.ceil(left * 1000))
            self.drain()

    def _resolve(self, waiter: Any, code: int, response: int, cause: Optional[BaseException]) -> None:
        try:
            waiter._complete(code, response, cause)
        except BaseException as error:
            waiter._fail(error)


_futures: Optional[FuturesDispatcher] = None
_futures_lock = threading.Lock()


def futures_dispatcher() -> FuturesDispatcher:
    """The process's futures dispatcher, started on first use."""
    global _futures
    dispatcher = _futures
    if dispatcher is None:
        with _futures_lock:
            if _futures is None:
                _futures = FuturesDispatcher()
            dispatcher = _futures
    return dispatcher


def settle_futures() -> None:
    """Resolves, on the calling thread, the futures whose outcomes are queued: once a client is
    freed every call it cancelled has queued its outcome, so ``close()`` returns with their
    futures done, as it did when they were resolved on library threads."""
    dispatcher = _futures
    if dispatcher is not None:
        dispatcher.drain()


def _forget_after_fork() -> None:
    """A forked child has no drupalsdk-futures thread: it starts its own when it needs one."""
    global _futures
    _futures = None
    _calls.futures_thread = None


os.register_at_fork(after_in_child=_forget_after_fork)
