"""Client and AsyncClient: the Pythonic surface over the C API.

The binding holds no Drupal protocol logic (paths, tokens, retries, paging are the library's);
it converts arguments (``_convert``), calls the C function of an operation (``_operations``,
which also gives these classes their per-operation methods, declared for type checkers by the
bases in ``_operation_methods``) and converts the answer. What the two
share (configuration, authentication, languages, pagers, starting a call) is _ClientBase, in
``_client_base``.
"""
from __future__ import annotations

import asyncio
import sys
from ctypes import byref, c_void_p
from typing import TYPE_CHECKING, Any, AsyncIterator, Dict, Iterator, Optional, Tuple, TypeVar

from . import _ffi, _interrupts, _readers
from ._calls import DrupalFuture
from ._queues import LoopDispatcher, dispatcher_for, futures_dispatcher
from ._client_base import _ClientBase, log  # noqa: F401 (log: drupalsdk._client.log as before)
from ._convert import Query
from ._jsonapi_document import Document, Resource
from ._jsonapi_query import Query as JSONAPIQuery
from ._managed import Managed
from ._operation_methods import _AsyncClientOperations, _ClientOperations
from ._operations import NEXT_DOCUMENT, NEXT_PAGE, Operation, ResourceType, install
from ._response import KIND_ANSWER, KIND_RESPONSE, convert, returns_answer
from ._transfers import callback_error

if TYPE_CHECKING:   # (imported where used: _mock imports this module)
    from ._mock import AsyncMockClient, MockClient

__all__ = ["Client", "AsyncClient"]

_lib = _ffi.lib
_last_error = _ffi.last_error
_response_error = _readers.response_error
_CANCELLED = _ffi.DRUPAL_E_CANCELLED
_response_free = _ffi.response_free
_call_cancel = _ffi.call_cancel
_call_free = _ffi.call_free
_install_interrupts = _interrupts.install
#: The class at hand: ``async with AsyncMockClient()`` gives an AsyncMockClient.
_AsyncClient = TypeVar("_AsyncClient", bound="AsyncClient")


def _reraise_interrupt(response: Optional[int]) -> None:
    """Raises what a signal handler raised during a blocking call (KeyboardInterrupt), after
    freeing the call's response."""
    try:
        _interrupts.reraise()
    except BaseException:
        if response:
            _response_free(response)
        raise


# ---- The blocking client ---------------------------------------------------------------------------


class Client(_ClientBase, _ClientOperations):
    """A connection to one Drupal site: its own cookies, CSRF token, auth mode and connection pool.

    Blocking methods wait on the calling thread (the GIL is released meanwhile, so other Python
    threads run; Ctrl-C wakes a call on the main thread); ``submit_*`` methods return a
    :class:`concurrent.futures.Future` at once. One client may be used from any number of
    threads. Close it with :meth:`close` or ``with``: calls still in flight are then cancelled
    (their futures resolve as cancelled).

    Make clients after ``os.fork()``, not before: the library is not fork-safe. In a forked child a
    client made before the fork raises ``DrupalError`` (``DRUPAL_E_STATE``) from every call, and
    once the parent made async calls (or paged with ``concurrency`` > 1) no new client can be made
    in the child either; use multiprocessing's ``spawn`` or ``forkserver`` start method.

    Errors raise :class:`DrupalError` subclasses (see :mod:`drupalsdk`).
    """

    #: Whether blocking calls may wait (on the network): only then do they watch for Ctrl-C.
    _waits = True

    def _call_on(self, owner: Managed, operation: Operation, args: Tuple[Any, ...], kind: int) -> Any:
        """Runs an operation's blocking C call on the handle of `owner` and converts its outcome."""
        out = c_void_p()
        handle = owner._enter()
        if self._waits and not _interrupts.installed:
            _install_interrupts()
        if sys.unraisablehook is not _interrupts.hook:  # (set, or replaced by someone since)
            _interrupts.install_hook()
        try:
            code = operation.wait(byref(out), handle, *args)
        finally:
            owner._exit()
        response = out.value
        if _interrupts.caught is not None:  # (the common case calls nothing)
            _reraise_interrupt(response)
        if response is None:
            if code == 0:  # a call that ends with no response (a pager past its end)
                return convert(kind, None, True)
            raise _last_error(code)  # not started: the reason is this thread's last error
        if code and not returns_answer(kind, code):
            try:
                raise _response_error(code, response, callback_error(args) if code == _CANCELLED else None)
            finally:
                _response_free(response)
        if kind == KIND_RESPONSE or kind == KIND_ANSWER:
            return convert(kind, response, True, code)  # the Response owns it now
        try:
            return convert(kind, response, True)
        finally:
            _response_free(response)

    def _submit(self, operation: Operation, args: Tuple[Any, ...], kind: int,
                owner: Optional[Managed] = None) -> DrupalFuture[Any]:
        future: DrupalFuture[Any] = DrupalFuture(kind)
        future._attach(self._start(operation, args, future, futures_dispatcher(), owner))
        if _interrupts.caught is not None and _interrupts.stopping():
            # Ctrl-C in a callback the start ran on this (main) thread: no blocking call is
            # here to raise it, and left kept the next one would, stale.
            future.cancel()
            _interrupts.reraise()
        return future

    def view_all(self, path: str, query: Query = None, *, max_pages: int = 1000) -> Iterator[Dict[str, Any]]:
        """Yields the rows of every page of a view: ``page`` = 0, 1, ... (from the query's own
        ``page`` if given), ending at an empty page, at a page that repeats the one before (a
        display without a full pager ignores ``page``), or after ``max_pages`` pages.
        """
        with self._view_pager(path, query, max_pages) as pager:
            while True:
                rows = self._call_on(pager, NEXT_PAGE, (), NEXT_PAGE.kind)
                if rows is None:
                    return
                yield from rows

    def jsonapi_pages(self, type: ResourceType, query: Optional[JSONAPIQuery] = None, *, concurrency: int = 1,
                      max_pages: int = 0) -> Iterator[Document]:
        """Yields each page of a JSON:API collection as a :class:`Document`, ending at the first
        page without ``links.next`` (Drupal gives no count, caps ``page[limit]`` at 50 and may
        answer short pages). ``concurrency`` 2 to 64 fetches the pages after the first by offset,
        that many at a time, still yielded in order. ``max_pages``: the most pages fetched, a
        page skipped because access checks hid all its resources included; 0 means the library's
        limit (100,000). A ``links.next`` naming a page already fetched (a cycle) raises
        :class:`DecodeError`."""
        with self._jsonapi_pager(type, query, concurrency, max_pages) as pager:
            while True:
                page = self._call_on(pager, NEXT_DOCUMENT, (), NEXT_DOCUMENT.kind)
                if page is None:
                    return
                yield page

    def jsonapi_resource_types(self) -> Dict[str, str]:
        """Every resource type the site exposes ("node--article") and its collection URL, from
        the entry point ``/jsonapi``."""
        return self.jsonapi_entry_point().resource_types  # type: ignore[attr-defined]

    def jsonapi_iter(self, type: ResourceType, query: Optional[JSONAPIQuery] = None, *, concurrency: int = 1,
                     max_pages: int = 0) -> Iterator[Resource]:
        """Yields every resource of a JSON:API collection, page after page (see :meth:`jsonapi_pages`);
        each resolves its relationships in its page's ``included``."""
        for page in self.jsonapi_pages(type, query, concurrency=concurrency, max_pages=max_pages):
            yield from page.resources

    def submit(self, method: str, *args: Any, **kwargs: Any) -> DrupalFuture[Any]:
        """Starts ``method`` (``"get"``, ``"create"``, ...) without waiting: ``submit("get", "node", 1)``."""
        starter = getattr(self, "submit_" + method, None)
        if starter is None:
            raise ValueError("no asynchronous variant of %r" % method)
        return starter(*args, **kwargs)

    @classmethod
    def mock(cls) -> MockClient:
        """A client backed by an in-memory Drupal (see :class:`MockClient`)."""
        from ._mock import MockClient
        return MockClient()


install(Client, "blocking")


# ---- The asyncio client ----------------------------------------------------------------------------


async def _cancelled_call_ended(loop: asyncio.AbstractEventLoop, waiter: list) -> None:
    """Waits until the outcome of a cancelled call is taken from the loop's queue. Until then the
    call's registry entries hold this loop's future (and the call's callbacks, still in use), and
    a loop closed first (``asyncio.run(asyncio.wait_for(...))``) never took them: each timed-out
    call kept its closed loop alive. Cancelled, the library ends a call promptly."""
    if waiter[0] is None:   # already taken
        return
    ended = waiter[0] = loop.create_future()
    waiter[1] = None
    while not ended.done():
        try:
            await asyncio.shield(ended)
        except asyncio.CancelledError:   # cancelled again meanwhile: the caller raises anyway
            pass


class AsyncClient(_ClientBase, _AsyncClientOperations):
    """As :class:`Client`, with awaitable methods for asyncio.

    The library runs each call on its own threads and queues its outcome for the event loop,
    which the loop takes and resolves (one wake-up per batch). Cancelling the awaiting task
    cancels the C call.
    Use ``async with AsyncClient(url) as client:`` or call :meth:`aclose`.
    """

    _dispatcher: Optional[LoopDispatcher] = None

    async def _await(self, operation: Operation, args: Tuple[Any, ...], kind: int,
                     owner: Optional[Managed] = None) -> Any:
        loop = asyncio.get_running_loop()
        dispatcher = self._dispatcher
        if dispatcher is None or dispatcher.loop() is not loop:   # (else a registry look-up per call)
            dispatcher = self._dispatcher = dispatcher_for(loop)
        future = loop.create_future()
        waiter = [future, kind]   # what LoopDispatcher resolves; a list: cancellation swaps the future
        call_handle = self._start(operation, args, waiter, dispatcher, owner)
        if _interrupts.caught is not None and _interrupts.stopping():
            # Ctrl-C in a callback the start ran on this (main) thread: raised here, as a
            # blocking call would (left kept, the next blocking call would raise it, stale).
            waiter[1] = None   # the cancelled outcome then resolves `future` quietly
            _call_cancel(call_handle)
            _call_free(call_handle)
            _interrupts.reraise()
        try:
            return await future
        except asyncio.CancelledError:
            _call_cancel(call_handle)
            await _cancelled_call_ended(loop, waiter)
            raise
        finally:
            _call_free(call_handle)

    async def __aenter__(self: _AsyncClient) -> _AsyncClient:
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        self.close()

    async def aclose(self) -> None:
        """Closes the client (calls in flight raise :class:`CancelledError`)."""
        self.close()

    async def view_all(self, path: str, query: Query = None, *,
                       max_pages: int = 1000) -> AsyncIterator[Dict[str, Any]]:
        """As :meth:`Client.view_all`, as an async iterator: ``async for row in client.view_all(...)``."""
        with self._view_pager(path, query, max_pages) as pager:
            while True:
                rows = await self._await(NEXT_PAGE, (), NEXT_PAGE.kind, owner=pager)
                if rows is None:
                    return
                for row in rows:
                    yield row

    async def jsonapi_pages(self, type: ResourceType, query: Optional[JSONAPIQuery] = None, *, concurrency: int = 1,
                            max_pages: int = 0) -> AsyncIterator[Document]:
        """As :meth:`Client.jsonapi_pages`, as an async iterator."""
        with self._jsonapi_pager(type, query, concurrency, max_pages) as pager:
            while True:
                page = await self._await(NEXT_DOCUMENT, (), NEXT_DOCUMENT.kind, owner=pager)
                if page is None:
                    return
                yield page

    async def jsonapi_resource_types(self) -> Dict[str, str]:
        """As :meth:`Client.jsonapi_resource_types`, awaitable."""
        return (await self.jsonapi_entry_point()).resource_types  # type: ignore[attr-defined]

    async def jsonapi_iter(self, type: ResourceType, query: Optional[JSONAPIQuery] = None, *, concurrency: int = 1,
                           max_pages: int = 0) -> AsyncIterator[Resource]:
        """As :meth:`Client.jsonapi_iter`: ``async for node in client.jsonapi_iter("node--article")``."""
        async for page in self.jsonapi_pages(type, query, concurrency=concurrency, max_pages=max_pages):
            for resource in page.resources:
                yield resource

    @classmethod
    def mock(cls) -> AsyncMockClient:
        """An asyncio client backed by an in-memory Drupal (see :class:`MockClient`)."""
        from ._mock import AsyncMockClient
        return AsyncMockClient()


install(AsyncClient, "async")
