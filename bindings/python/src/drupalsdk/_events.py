"""Client events for Python hooks: one C listener per client, one trampoline for all of them.

The library calls the trampoline on the thread that produced the event; it builds an
:class:`Event` and calls the client's hooks for that type. Nothing a hook raises reaches the
library: it is logged to the ``drupalsdk`` logger.
"""
from __future__ import annotations

import logging
import threading
from ctypes import byref, c_uint64
from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple

from . import _ffi, _interrupts
from ._calls import new_key

__all__ = ["Event", "Listener", "Hooks"]

log = logging.getLogger("drupalsdk")
_lib = _ffi.lib

_EVENT_TYPES = {
    "login": _ffi.DRUPAL_EVENT_LOGIN,
    "logout": _ffi.DRUPAL_EVENT_LOGOUT,
    "request_start": _ffi.DRUPAL_EVENT_REQUEST_START,
    "request_finish": _ffi.DRUPAL_EVENT_REQUEST_FINISH,
    "retry": _ffi.DRUPAL_EVENT_RETRY,
}
_EVENT_NAMES = {number: name for name, number in _EVENT_TYPES.items()}


class Event(NamedTuple):
    """One client event, as given to hooks registered with :meth:`Client.on`.

    ``type`` is ``"login"``, ``"logout"``, ``"request_start"``, ``"request_finish"`` or ``"retry"``.
    Unused fields are ``None``: ``method``/``path`` are set for requests, ``status`` (``0`` = no
    answer) and ``duration_ms`` for ``request_finish``; for ``retry``, ``status`` is the failed
    attempt's, ``duration_ms`` the delay before the retry and ``attempt`` its number (1, 2, ...);
    ``user_name``/``uid`` for ``login``. Secrets never appear in events.
    """
    type: str
    method: Optional[str] = None
    path: Optional[str] = None
    status: Optional[int] = None
    duration_ms: Optional[float] = None
    user_name: Optional[str] = None
    uid: Optional[str] = None
    attempt: Optional[int] = None


def _opt(value: Optional[bytes]) -> Optional[str]:
    return value.decode("utf-8", "replace") if value else None


#: listener key -> the hooks table of one client ({event type: (callable, ...)}).
_listeners: Dict[int, Dict[int, Tuple[Callable[[Event], Any], ...]]] = {}


@_interrupts.callback
def _on_event(event_pointer: Any, key: int) -> None:
    try:
        hooks = _listeners.get(key)
        if not hooks:
            return
        raw = event_pointer.contents
        callables = hooks.get(raw.type)
        if not callables:
            return
        kind = raw.type
        if kind == _ffi.DRUPAL_EVENT_REQUEST_FINISH:
            event = Event("request_finish", _opt(raw.method), _opt(raw.path), raw.status, raw.duration_ms)
        elif kind == _ffi.DRUPAL_EVENT_RETRY:
            event = Event("retry", _opt(raw.method), _opt(raw.path), raw.status, raw.duration_ms, attempt=raw.attempt)
        elif kind == _ffi.DRUPAL_EVENT_REQUEST_START:
            event = Event("request_start", _opt(raw.method), _opt(raw.path))
        elif kind == _ffi.DRUPAL_EVENT_LOGIN:
            event = Event("login", user_name=_opt(raw.user_name), uid=_opt(raw.uid))
        else:
            event = Event(_EVENT_NAMES.get(kind, str(kind)))
    except BaseException as error:
        if not _interrupts.keep(error):
            log.exception("drupalsdk: could not read an event")
        return
    for hook in callables:
        try:
            hook(event)
        except BaseException as error:  # hooks must never raise into the library thread
            if _interrupts.keep(error):  # Ctrl-C: the blocking call raises it at its next wake-up
                return
            log.exception("drupalsdk: %s hook %r raised", event.type, hook)


#: The single C event callback object, alive for the life of the process.
_EVENT_TRAMPOLINE = _ffi.EVENT_CALLBACK(_on_event)


class Listener:
    """A hook registered with :meth:`Client.on`. :meth:`remove` (or ``with``) unregisters it."""

    __slots__ = ("_client", "_type", "_hook", "__weakref__")

    def __init__(self, client: "Hooks", event_type: int, hook: Callable[[Event], Any]) -> None:
        self._client: Optional[Hooks] = client   # None once removed
        self._type = event_type
        self._hook = hook

    def remove(self) -> None:
        """Stops calling the hook. Idempotent."""
        client = self._client
        if client is not None:
            self._client = None
            client._remove_hook(self._type, self._hook)

    def __enter__(self) -> "Listener":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.remove()


class Hooks:
    """Event hooks of a client (``on``); the client class provides ``_enter``/``_exit``/``_closed``."""

    _enter: Callable[[], int]
    _exit: Callable[[], None]
    _closed: bool

    def _setup_hooks(self) -> None:
        self._hooks: Dict[int, Tuple[Callable[[Event], Any], ...]] = {}
        self._hooks_lock = threading.Lock()
        self._listener: Optional[Tuple[int, int]] = None  # (C listener id, registry key)

    def _drop_hooks(self) -> None:
        listener = self._listener
        if listener is not None:
            self._listener = None
            _listeners.pop(listener[1], None)

    def on(self, event: str, hook: Callable[[Event], Any]) -> Listener:
        """Calls ``hook(Event)`` for every ``event`` of this client.

        ``event`` is ``"login"``, ``"logout"``, ``"request_start"``, ``"request_finish"`` or
        ``"retry"``. Hooks run on the thread that produced the event (usually a library thread):
        keep them short and do not make blocking calls on this client from them. An exception
        raised by a hook is logged (logger ``drupalsdk``) and otherwise ignored.

        Returns:
            a :class:`Listener`; call its ``remove()`` to stop.
        """
        try:
            event_type = _EVENT_TYPES[event]
        except KeyError:
            raise ValueError("unknown event %r (use one of %s)" % (event, ", ".join(_EVENT_TYPES))) from None
        if not callable(hook):
            raise TypeError("hook must be callable")
        with self._hooks_lock:
            self._hooks[event_type] = self._hooks.get(event_type, ()) + (hook,)
            if self._listener is None:
                key = new_key()
                _listeners[key] = self._hooks
                listener_id = c_uint64()
                handle = self._enter()
                try:
                    _lib.drupal_client_add_listener(byref(listener_id), handle, _EVENT_TRAMPOLINE, key)
                except BaseException:
                    _listeners.pop(key, None)
                    self._hooks[event_type] = self._hooks[event_type][:-1]
                    raise
                finally:
                    self._exit()
                self._listener = (listener_id.value, key)
        return Listener(self, event_type, hook)

    def _remove_hook(self, event_type: int, hook: Callable[[Event], Any]) -> None:
        with self._hooks_lock:
            hooks = list(self._hooks.get(event_type, ()))
            if hook in hooks:
                hooks.remove(hook)
            if hooks:
                self._hooks[event_type] = tuple(hooks)
            else:
                self._hooks.pop(event_type, None)
            if not self._hooks and self._listener is not None and not self._closed:
                listener_id, key = self._listener
                self._listener = None
                handle = self._enter()
                try:
                    _lib.drupal_client_remove_listener(handle, listener_id)
                finally:
                    self._exit()
                    _listeners.pop(key, None)
