"""Client, AsyncClient and the mock clients: the Pythonic surface over the C API.

The binding holds no Drupal protocol logic (paths, tokens, retries are the library's); it only
converts arguments, calls the C function and converts the answer.
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Mapping
from ctypes import byref, c_int, c_uint64, c_void_p, string_at
from typing import (Any, AsyncIterator, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence,
                    Tuple, Union)

from . import _ffi, _interrupts
from ._calls import TRAMPOLINE, AsyncCall, DrupalFuture, LoopDispatcher, new_key, pending
from ._errors import InvalidArgumentError
from ._managed import Managed
from ._response import (KIND_ANSWER, KIND_BOOL, KIND_JSON, KIND_NONE, KIND_PAGE, KIND_RESPONSE, KIND_TEXT, Response,
                        convert, returns_answer)

__all__ = ["Client", "AsyncClient", "MockClient", "AsyncMockClient", "Event", "Listener"]

log = logging.getLogger("drupalsdk")

_lib = _ffi.lib
_last_error = _ffi.last_error
_response_error = _ffi.response_error
_response_free = _lib.drupal_response_free
_call_cancel = _ffi.call_cancel
_call_free = _ffi.call_free
_dumps = json.JSONEncoder(separators=(",", ":")).encode

Id = Union[str, int]
Query = Union[Mapping, Sequence[Tuple[str, Any]], None]
HeadersArg = Union[Mapping, Sequence[Tuple[str, str]], Sequence[str], None]
Body = Union[bytes, bytearray, memoryview, dict, list, str, None]


class _Op(NamedTuple):
    start: Any  # async C function: (call **, client *, inputs..., callback, userdata)
    wait: Any   # blocking C function: (response **, client *, inputs...)
    kind: int
    login: bool = False


_LOGIN = _Op(_lib.drupal_login, _lib.drupal_login_sync, KIND_JSON, True)
_LOGOUT = _Op(_lib.drupal_logout, _lib.drupal_logout_sync, KIND_NONE)
_LOGIN_STATUS = _Op(_lib.drupal_login_status, None, KIND_BOOL)
_CSRF = _Op(_lib.drupal_csrf_refresh, _lib.drupal_csrf_refresh_sync, KIND_TEXT)
_GET = _Op(_lib.drupal_entity_get, _lib.drupal_entity_get_sync, KIND_JSON)
_CREATE = _Op(_lib.drupal_entity_create, _lib.drupal_entity_create_sync, KIND_JSON)
_UPDATE = _Op(_lib.drupal_entity_update, _lib.drupal_entity_update_sync, KIND_JSON)
_DELETE = _Op(_lib.drupal_entity_delete, _lib.drupal_entity_delete_sync, KIND_NONE)
_UPLOAD = _Op(_lib.drupal_file_upload, _lib.drupal_file_upload_sync, KIND_JSON)
_VIEW = _Op(_lib.drupal_view, _lib.drupal_view_sync, KIND_JSON)
_REQUEST = _Op(_lib.drupal_request, _lib.drupal_request_sync, KIND_RESPONSE)
_REQUEST_ANSWER = _Op(_lib.drupal_request, _lib.drupal_request_sync, KIND_ANSWER)
_PAGER_NEXT = _Op(_lib.drupal_pager_next, _lib.drupal_pager_next_sync, KIND_PAGE)
_login_status_sync = _lib.drupal_login_status_sync

_watch_interrupts = _interrupts.watch


def _reraise_interrupt(previous: int, response: Optional[int]) -> None:
    """Raises what a signal handler raised during a blocking call (KeyboardInterrupt), after
    freeing the call's response."""
    try:
        _interrupts.reraise(previous)
    except BaseException:
        if response:
            _response_free(response)
        raise


# ---- Argument conversion ---------------------------------------------------------------------------


def _invalid(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message, code="DRUPAL_E_INVALID_ARGUMENT")


def _text(value: Any, what: str = "argument") -> bytes:
    """A str (or bytes, or int id) as UTF-8 bytes for a `const char *`. A NUL would end the C
    string early (an id "12\\x003" would become "12"): refused, as the C API refuses it. The
    value itself is never quoted in the error: it may be a password or a token."""
    if type(value) is str:
        try:
            data = value.encode()
        except UnicodeEncodeError as error:
            raise _invalid("%s is not valid Unicode (%s at position %d)" % (what, error.reason, error.start)) from None
    elif isinstance(value, bytes):
        data = value
    elif isinstance(value, int) and not isinstance(value, bool):
        return str(value).encode()
    elif isinstance(value, str):
        return _text(str(value), what)
    else:
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    if b"\x00" in data:
        raise _invalid("%s contains a NUL character" % what)
    return data


def _value_text(value: Any, what: str = "query value") -> bytes:
    """A query or header value: text, a number, or a bool as "1"/"0" (never Python's repr)."""
    if isinstance(value, (str, bytes)):
        return _text(value, what)
    if isinstance(value, bool):
        return b"1" if value else b"0"
    if isinstance(value, (int, float)):
        if value != value or value in (float("inf"), float("-inf")):
            raise _invalid("%s is not a finite number" % what)
        return str(value).encode()
    raise TypeError("%s must be a str, bytes, number or bool, not %s" % (what, type(value).__name__))


def _json_body(body: Any) -> bytes:
    """An entity body: a dict/list (serialised) or JSON text already encoded."""
    if isinstance(body, (dict, list)):
        return _dumps(body).encode()
    if isinstance(body, bytes):
        return body
    if isinstance(body, (bytearray, memoryview)):
        return bytes(body)
    if isinstance(body, str):
        return _text(body, "body")
    raise TypeError("body must be a dict, list, bytes or str, not %s" % type(body).__name__)


def _pairs(query: Query) -> List[Tuple[Any, Any]]:
    if not query:
        return []
    if isinstance(query, Mapping):
        return list(query.items())
    return [tuple(pair) for pair in query]  # type: ignore[misc]


def _query_array(query: Query):  # type: ignore[no-untyped-def]
    """A NULL-terminated name, value, ... array for the C API, or None. A list or tuple value
    repeats the name once per item (``{"id": [1, 2]}`` is ``id=1&id=2``)."""
    if not query:
        return None
    items = query.items() if isinstance(query, Mapping) else query
    flat: List[bytes] = []
    for name, value in items:
        name_bytes = _text(name, "query name")
        for item in value if isinstance(value, (list, tuple)) else (value,):
            flat.append(name_bytes)
            flat.append(_value_text(item, "query value of %s" % name_bytes.decode("utf-8", "replace")))
    return _ffi.string_array(flat)


def _header_array(headers: HeadersArg):  # type: ignore[no-untyped-def]
    """NULL-terminated "Name: value" lines, or None. CR/LF is refused by the library."""
    if not headers:
        return None
    items: Iterable[Any] = headers.items() if isinstance(headers, Mapping) else headers
    lines: List[bytes] = []
    for item in items:
        if isinstance(item, (str, bytes)):
            lines.append(_text(item, "header"))
        else:
            name, value = item
            name_bytes = _text(name, "header name")
            lines.append(name_bytes + b": " + _value_text(value, "header " + name_bytes.decode("utf-8", "replace")))
    return _ffi.string_array(lines)


def _request_options(query: Query, headers: HeadersArg, body: Body, format: bool):  # type: ignore[no-untyped-def]
    if not query and not headers and body is None and format:
        return None
    options = _ffi.RequestOptions(_ffi.DRUPAL_REQUEST_OPTIONS_VERSION)
    array = _query_array(query)
    if array is not None:
        options.query = array
    array = _header_array(headers)
    if array is not None:
        options.headers = array
    if body is not None:
        data = _json_body(body)
        options.body = data
        options.body_length = len(data)
    options.no_format = 0 if format else 1
    return byref(options), options  # the struct must outlive the call: keep both


def _take_string(pointer: Optional[int]) -> str:
    """An owned char * from the library, as str (freed with drupal_free)."""
    if not pointer:
        return ""
    try:
        return string_at(pointer).decode("utf-8", "replace")
    finally:
        _lib.drupal_free(pointer)


# ---- Events ----------------------------------------------------------------------------------------

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
    except BaseException:
        log.exception("drupalsdk: could not read an event")
        return
    for hook in callables:
        try:
            hook(event)
        except BaseException:  # hooks must never raise into the library thread
            log.exception("drupalsdk: %s hook %r raised", event.type, hook)


#: The single C event callback object, alive for the life of the process.
_EVENT_TRAMPOLINE = _ffi.EVENT_CALLBACK(_on_event)


class Listener:
    """A hook registered with :meth:`Client.on`. :meth:`remove` (or ``with``) unregisters it."""

    __slots__ = ("_client", "_type", "_hook", "__weakref__")

    def __init__(self, client: "_ClientBase", event_type: int, hook: Callable[[Event], Any]) -> None:
        self._client = client
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


# ---- The shared base -------------------------------------------------------------------------------


class _ClientBase(Managed):
    """Handle ownership, configuration, authentication, hooks: what Client and AsyncClient share."""

    base_url: str

    def __init__(self, base_url: str, *, timeout: Optional[float] = None, connect_timeout: Optional[float] = None,
                 verify: bool = True, ca_file: Optional[str] = None, user_agent: Optional[str] = None,
                 headers: HeadersArg = None, max_body_size: Optional[int] = None,
                 follow_redirects: bool = False,
                 entity_paths: Optional[Mapping[str, Tuple[str, str]]] = None, retries: Optional[int] = None,
                 secret_headers: Iterable[str] = ()) -> None:
        """Creates a client for the site at ``base_url`` (``http(s)://host[/prefix]``). Sends nothing yet.

        Args:
            timeout: seconds for a whole request (default 60).
            connect_timeout: seconds to connect, TCP + TLS (default 10).
            verify: verify TLS certificates and host names (default True).
            ca_file: a PEM file of CA certificates to trust instead of the system's.
            user_agent: the User-Agent header (default ``drupalsdk/<version>``).
            headers: extra headers for every request (a mapping, or ``(name, value)`` pairs).
            max_body_size: larger responses fail with :class:`TooLargeError` (default 64 MiB).
            follow_redirects: follow up to 5 redirects (default: a redirect raises
                :class:`RedirectError`, with its ``location``). Credentials and bodies never go to
                another origin.
            entity_paths: REST paths of custom entity types (or moved core ones):
                ``{"event": ("/event/{id}", "/event/add")}``, canonical path with ``{id}`` and create
                path. Types without an entry use Drupal's core paths, else ``/entity/<type>/{id}``.
            retries: how often a failed request is tried again (default 2; 0 turns it off):
                idempotent methods after a connection failure or a 429/502/503/504, any method when
                the connection could not be made; backoff with jitter, Retry-After honoured, never
                past ``timeout``. Each retry is a ``"retry"`` event.
            secret_headers: names of your own headers that carry credentials (``"X-Api-Key"``):
                like Authorization and Cookie, never sent to another origin on a redirect.

        Raises:
            InvalidArgumentError: a malformed URL or option.
        """
        options = _ffi.ClientOptions()
        _lib.drupal_client_options_init(byref(options), _ffi.DRUPAL_CLIENT_OPTIONS_VERSION)
        if timeout is not None:
            options.timeout = _positive(timeout, "timeout")
        if connect_timeout is not None:
            options.connect_timeout = _positive(connect_timeout, "connect_timeout")
        options.verify_tls = 1 if verify else 0
        if ca_file is not None:
            options.ca_bundle = _text(str(ca_file), "ca_file")
        if user_agent is not None:
            options.user_agent = _text(user_agent, "user_agent")
        if max_body_size is not None:
            if not isinstance(max_body_size, int) or isinstance(max_body_size, bool) \
                    or not 0 < max_body_size <= _MAX_SIZE:
                raise _invalid("max_body_size must be an int from 1 to %d" % _MAX_SIZE)
            options.max_body_size = max_body_size
        if retries is not None:
            if not isinstance(retries, int) or isinstance(retries, bool) or not 0 <= retries <= 100:
                raise _invalid("retries must be an int from 0 to 100")
            options.max_retries = retries if retries else -1
        if secret_headers:
            options.secret_headers = _ffi.string_array([_text(name, "secret header name") for name in secret_headers])
        header_lines = _header_array(headers)
        if header_lines is not None:
            options.headers = header_lines
        options.follow_redirects = 1 if follow_redirects else 0
        if entity_paths:
            triples: List[bytes] = []
            for entity_type, (canonical, create) in entity_paths.items():
                triples += [_text(entity_type, "entity_paths type"), _text(canonical, "entity_paths canonical path"),
                            _text(create, "entity_paths create path")]
            options.entity_paths = _ffi.string_array(triples)
        out = c_void_p()
        _lib.drupal_client_new(byref(out), _text(base_url, "base_url"), byref(options))
        self.base_url = base_url
        self._setup(out.value)  # type: ignore[arg-type]

    def _setup(self, handle: int) -> None:
        self._hooks: Dict[int, Tuple[Callable[[Event], Any], ...]] = {}
        self._hooks_lock = threading.Lock()
        self._listener: Optional[Tuple[int, int]] = None  # (C listener id, registry key)
        self._adopt(handle)

    @staticmethod
    def _free_handle(handle: int) -> None:
        _lib.drupal_client_free(handle)

    def _after_free(self) -> None:
        listener = self._listener
        if listener is not None:
            self._listener = None
            _listeners.pop(listener[1], None)

    # ---- Authentication ---------------------------------------------------------------------

    def set_basic_auth(self, user: str, password: str) -> None:
        """Sends HTTP Basic credentials on every following request (Drupal's basic_auth)."""
        user_bytes, password_bytes = _text(user, "user"), _text(password, "password")
        handle = self._enter()
        try:
            _lib.drupal_client_set_basic_auth(handle, user_bytes, password_bytes)
        finally:
            self._exit()

    def set_bearer_token(self, token: str) -> None:
        """Sends ``Authorization: Bearer <token>`` on every following request."""
        token_bytes = _text(token, "token")
        handle = self._enter()
        try:
            _lib.drupal_client_set_bearer_token(handle, token_bytes)
        finally:
            self._exit()

    def set_no_auth(self) -> None:
        """Stops sending Basic or Bearer credentials (a login session is kept until logout)."""
        handle = self._enter()
        try:
            _lib.drupal_client_set_no_auth(handle)
        finally:
            self._exit()

    @property
    def has_session(self) -> bool:
        """True while the client holds a login session (from :meth:`login`, not yet logged out or
        forgotten): what :meth:`logout` needs. Sends nothing."""
        handle = self._enter()
        try:
            return _lib.drupal_client_has_session(handle) == 1
        finally:
            self._exit()

    def forget_session(self) -> None:
        """Drops the session cookie and tokens locally, without a request (the site keeps the
        session until it expires; :meth:`logout` ends it there). Basic/Bearer credentials stay."""
        handle = self._enter()
        try:
            _lib.drupal_client_forget_session(handle)
        finally:
            self._exit()

    def _view_pager(self, path: str, query: Query, max_pages: int) -> "_Pager":
        if not isinstance(max_pages, int) or isinstance(max_pages, bool) or not 0 < max_pages < 2 ** 32:
            raise InvalidArgumentError("max_pages must be an int from 1 to 2**32-1", code="DRUPAL_E_INVALID_ARGUMENT")
        path_bytes, query_array = _text(path, "path"), _query_array(query)
        out = c_void_p()
        handle = self._enter()
        try:
            _lib.drupal_view_pager_new(byref(out), handle, path_bytes, query_array, max_pages)
        finally:
            self._exit()
        return _Pager(out.value)  # type: ignore[arg-type]

    # ---- Event hooks --------------------------------------------------------------------------

    def on(self, event: str, hook: Callable[[Event], Any]) -> Listener:
        """Calls ``hook(Event)`` for every ``event`` of this client.

        ``event`` is ``"login"``, ``"logout"``, ``"request_start"`` or ``"request_finish"``. Hooks
        run on the thread that produced the event (usually a library thread): keep them short and
        do not make blocking calls on this client from them. An exception raised by a hook is
        logged (logger ``drupalsdk``) and otherwise ignored.

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

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return "<%s %s (%s)>" % (type(self).__name__, getattr(self, "base_url", "?"), state)

    def _start(self, op: _Op, args: Tuple[Any, ...], waiter: Any, owner: Optional[Managed] = None) -> Optional[int]:
        """Starts op's async C call on the handle of `owner` (this client unless given) with
        `waiter` registered for the trampoline (which the library calls exactly once if the start
        succeeds); returns the call handle."""
        owner = self if owner is None else owner
        key = new_key()
        call = c_void_p()
        handle = owner._enter()
        pending[key] = waiter
        try:
            code = op.start(byref(call), handle, *args, TRAMPOLINE, key)
            if code:
                raise _last_error(code)
        except BaseException:
            pending.pop(key, None)
            raise
        finally:
            owner._exit()
        return call.value


class _Pager(Managed):
    """Owns a drupal_pager: the library's paging loop, which Client.view_all drives."""

    def __init__(self, handle: int) -> None:
        self._adopt(handle)

    @staticmethod
    def _free_handle(handle: int) -> None:
        _lib.drupal_pager_free(handle)


#: The largest size a C size_t option may hold here (what the library accepts: Int.max).
_MAX_SIZE = 2 ** 63 - 1
#: The longest timeout libcurl takes (milliseconds in a 32-bit long).
_MAX_TIMEOUT = 2147483.0


def _positive(value: float, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("%s must be a number of seconds, not %s" % (what, type(value).__name__))
    number = float(value)
    if not 0 < number <= _MAX_TIMEOUT:
        raise _invalid("%s must be a number of seconds from more than 0 to %d" % (what, _MAX_TIMEOUT))
    return number


# ---- The blocking client ---------------------------------------------------------------------------


class Client(_ClientBase):
    """A connection to one Drupal site: its own cookies, CSRF token, auth mode and connection pool.

    Blocking methods wait on the calling thread (the GIL is released meanwhile, so other Python
    threads run); ``submit_*`` methods return a :class:`concurrent.futures.Future` at once. One
    client may be used from any number of threads. Close it with :meth:`close` or ``with``:
    calls still in flight are then cancelled (their futures resolve as cancelled).

    Errors raise :class:`DrupalError` subclasses (see :mod:`drupalsdk`).
    """

    # ---- Internal runners ---------------------------------------------------------------------

    def _call(self, op: _Op, *args: Any) -> Any:
        return self._call_on(self, op, *args)

    def _call_on(self, owner: Managed, op: _Op, *args: Any) -> Any:
        """Runs op's blocking C call on the handle of `owner` and converts its outcome."""
        out = c_void_p()
        handle = owner._enter()
        previous = _watch_interrupts()
        try:
            code = op.wait(byref(out), handle, *args)
        finally:
            owner._exit()
        response = out.value
        _reraise_interrupt(previous, response)
        if response is None:
            if code == 0:  # a call that ends with no response (a pager past its end)
                return convert(op.kind, None, True)
            raise _last_error(code)  # not started: the reason is this thread's last error
        if not returns_answer(op.kind, code):
            try:
                raise _response_error(code, response, op.login)
            finally:
                _response_free(response)
        if op.kind == KIND_RESPONSE or op.kind == KIND_ANSWER:
            return convert(op.kind, response, True, code)  # the Response owns it now
        try:
            return convert(op.kind, response, True)
        finally:
            _response_free(response)

    def _submit(self, op: _Op, *args: Any) -> DrupalFuture:
        future = DrupalFuture(op.kind, op.login)
        future._call = self._start(op, args, future)
        return future

    # ---- Session ------------------------------------------------------------------------------

    def login(self, name: str, password: str) -> Dict[str, Any]:
        """Logs in with a user name and password and switches to the session cookie.

        Returns:
            Drupal's answer: ``{"current_user": {"uid", "name", "roles"}, "csrf_token", "logout_token"}``.
        Raises:
            AuthenticationError: unknown user name or wrong password (Drupal's 400).
        """
        return self._call(_LOGIN, _text(name, "name"), _text(password, "password"))

    def logout(self) -> None:
        """Logs out and forgets the session. DrupalError (DRUPAL_E_STATE) if not logged in."""
        self._call(_LOGOUT)

    def login_status(self) -> bool:
        """Asks the site whether this client's session cookie is logged in (sent with the cookie
        alone: Drupal refuses Basic credentials on /user/login_status)."""
        out = c_void_p()
        value = c_int()
        handle = self._enter()
        previous = _watch_interrupts()
        try:
            code = _login_status_sync(byref(out), byref(value), handle)
        finally:
            self._exit()
        response = out.value
        _reraise_interrupt(previous, response)
        if response is None:
            raise _last_error(code)
        try:
            if code:
                raise _response_error(code, response)
        finally:
            _response_free(response)
        return value.value == 1

    def csrf_refresh(self) -> str:
        """Fetches a new CSRF token now and returns it (the library also does this when needed)."""
        return self._call(_CSRF)

    # ---- Entities -----------------------------------------------------------------------------

    def get(self, entity_type: str, id: Id) -> Dict[str, Any]:
        """GETs an entity: ``client.get("node", 1)`` -> Drupal's entity JSON as a dict."""
        return self._call(_GET, _text(entity_type, "entity_type"), _text(id, "id"))

    def create(self, entity_type: str, body: Union[Dict[str, Any], bytes, str]) -> Dict[str, Any]:
        """POSTs a new entity (body in Drupal's REST JSON, with its bundle field); returns the stored entity."""
        data = _json_body(body)
        return self._call(_CREATE, _text(entity_type, "entity_type"), data, len(data))

    def update(self, entity_type: str, id: Id, body: Union[Dict[str, Any], bytes, str]) -> Dict[str, Any]:
        """PATCHes an entity with the fields in body (include the bundle field); returns the entity."""
        data = _json_body(body)
        return self._call(_UPDATE, _text(entity_type, "entity_type"), _text(id, "id"), data, len(data))

    def delete(self, entity_type: str, id: Id) -> None:
        """DELETEs an entity."""
        self._call(_DELETE, _text(entity_type, "entity_type"), _text(id, "id"))

    def upload_file(self, entity_type: str, bundle: str, field: str, filename: str, data: bytes) -> Dict[str, Any]:
        """Uploads a file to a file field; returns the file entity (reference its fid from the host entity)."""
        data = bytes(data)
        return self._call(_UPLOAD, _text(entity_type, "entity_type"), _text(bundle, "bundle"),
                          _text(field, "field"), _text(filename, "filename"), data, len(data))

    # ---- Views and arbitrary requests ---------------------------------------------------------

    def view(self, path: str, query: Query = None) -> List[Dict[str, Any]]:
        """GETs one page of a Views REST export: ``client.view("/api/articles", {"page": 1})`` -> rows."""
        return self._call(_VIEW, _text(path, "path"), _query_array(query))

    def view_all(self, path: str, query: Query = None, *, max_pages: int = 1000) -> Iterator[Dict[str, Any]]:
        """Yields the rows of every page of a view: ``page`` = 0, 1, ... (from the query's own
        ``page`` if given), ending at an empty page, at a page that repeats the one before (a
        display without a full pager ignores ``page``), or after ``max_pages`` pages.
        """
        with self._view_pager(path, query, max_pages) as pager:
            while True:
                rows = self._call_on(pager, _PAGER_NEXT)
                if rows is None:
                    return
                yield from rows

    def request(self, method: str, path: str, *, query: Query = None, headers: HeadersArg = None,
                body: Body = None, format: bool = True, raise_for_status: bool = True) -> Response:
        """Sends any request to a path under the base URL, with the client's auth, cookies and CSRF handling.

        Args:
            method: ``"GET"``, ``"POST"``, ``"PATCH"``, ...
            path: e.g. ``"/node/1"`` or ``"/node?page=1"``, or an absolute URL under the base URL
                (a JSON:API ``links.next``); ``..``, ``//`` and URLs of other sites are refused.
            query: query parameters (a mapping or pairs), added after any in ``path``.
            headers: extra headers (a mapping, pairs, or ``"Name: value"`` lines).
            body: bytes as they are, or a dict/list sent as JSON.
            format: add ``?_format=json`` (False for JSON:API, ``/session/token``, files).
            raise_for_status: False returns answers with a status of 400 or more as a
                :class:`Response` too (its ``error`` is the exception, ``raise_for_status()`` raises it).
        Returns:
            a :class:`Response`.
        """
        options = _request_options(query, headers, body, format)
        return self._call(_REQUEST if raise_for_status else _REQUEST_ANSWER, _text(method, "method"),
                          _text(path, "path"), options[0] if options else None)

    # ---- Futures ------------------------------------------------------------------------------

    def submit(self, method: str, *args: Any, **kwargs: Any) -> DrupalFuture:
        """Starts ``method`` (``"get"``, ``"create"``, ...) without waiting: ``submit("get", "node", 1)``."""
        starter = getattr(self, "submit_" + method, None)
        if starter is None:
            raise ValueError("no asynchronous variant of %r" % method)
        return starter(*args, **kwargs)

    def submit_login(self, name: str, password: str) -> DrupalFuture:
        """As :meth:`login`, returning a Future."""
        return self._submit(_LOGIN, _text(name, "name"), _text(password, "password"))

    def submit_logout(self) -> DrupalFuture:
        """As :meth:`logout`, returning a Future."""
        return self._submit(_LOGOUT)

    def submit_login_status(self) -> DrupalFuture:
        """As :meth:`login_status`, returning a Future of bool."""
        return self._submit(_LOGIN_STATUS)

    def submit_csrf_refresh(self) -> DrupalFuture:
        """As :meth:`csrf_refresh`, returning a Future of str."""
        return self._submit(_CSRF)

    def submit_get(self, entity_type: str, id: Id) -> DrupalFuture:
        """As :meth:`get`, returning a Future of dict."""
        return self._submit(_GET, _text(entity_type, "entity_type"), _text(id, "id"))

    def submit_create(self, entity_type: str, body: Union[Dict[str, Any], bytes, str]) -> DrupalFuture:
        """As :meth:`create`, returning a Future of dict."""
        data = _json_body(body)
        return self._submit(_CREATE, _text(entity_type, "entity_type"), data, len(data))

    def submit_update(self, entity_type: str, id: Id, body: Union[Dict[str, Any], bytes, str]) -> DrupalFuture:
        """As :meth:`update`, returning a Future of dict."""
        data = _json_body(body)
        return self._submit(_UPDATE, _text(entity_type, "entity_type"), _text(id, "id"), data, len(data))

    def submit_delete(self, entity_type: str, id: Id) -> DrupalFuture:
        """As :meth:`delete`, returning a Future of None."""
        return self._submit(_DELETE, _text(entity_type, "entity_type"), _text(id, "id"))

    def submit_upload_file(self, entity_type: str, bundle: str, field: str, filename: str,
                           data: bytes) -> DrupalFuture:
        """As :meth:`upload_file`, returning a Future of dict."""
        data = bytes(data)
        return self._submit(_UPLOAD, _text(entity_type, "entity_type"), _text(bundle, "bundle"),
                            _text(field, "field"), _text(filename, "filename"), data, len(data))

    def submit_view(self, path: str, query: Query = None) -> DrupalFuture:
        """As :meth:`view`, returning a Future of list."""
        return self._submit(_VIEW, _text(path, "path"), _query_array(query))

    def submit_request(self, method: str, path: str, *, query: Query = None, headers: HeadersArg = None,
                       body: Body = None, format: bool = True, raise_for_status: bool = True) -> DrupalFuture:
        """As :meth:`request`, returning a Future of :class:`Response`."""
        options = _request_options(query, headers, body, format)
        return self._submit(_REQUEST if raise_for_status else _REQUEST_ANSWER, _text(method, "method"),
                            _text(path, "path"), options[0] if options else None)

    # ---- Factories ----------------------------------------------------------------------------

    @classmethod
    def mock(cls) -> "MockClient":
        """A client backed by an in-memory Drupal (see :class:`MockClient`)."""
        return MockClient()


# ---- The asyncio client ----------------------------------------------------------------------------


class AsyncClient(_ClientBase):
    """As :class:`Client`, with awaitable methods for asyncio.

    The library runs each call on its own threads and hands the result to the event loop
    (``loop.call_soon_threadsafe``, batched). Cancelling the awaiting task cancels the C call.
    Use ``async with AsyncClient(url) as client:`` or call :meth:`aclose`.
    """

    _dispatcher: Optional[LoopDispatcher] = None

    async def _await(self, op: _Op, *args: Any, owner: Optional[Managed] = None) -> Any:
        loop = asyncio.get_running_loop()
        dispatcher = self._dispatcher
        if dispatcher is None or dispatcher.loop is not loop:
            dispatcher = self._dispatcher = LoopDispatcher(loop)
        future = loop.create_future()
        call_handle = self._start(op, args, AsyncCall(dispatcher, future, op.kind, op.login), owner)
        try:
            return await future
        except asyncio.CancelledError:
            _call_cancel(call_handle)
            raise
        finally:
            _call_free(call_handle)

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        self.close()

    async def aclose(self) -> None:
        """Closes the client (calls in flight raise :class:`CancelledError`)."""
        self.close()

    async def login(self, name: str, password: str) -> Dict[str, Any]:
        """As :meth:`Client.login`."""
        return await self._await(_LOGIN, _text(name, "name"), _text(password, "password"))

    async def logout(self) -> None:
        """As :meth:`Client.logout`."""
        await self._await(_LOGOUT)

    async def login_status(self) -> bool:
        """As :meth:`Client.login_status`."""
        return await self._await(_LOGIN_STATUS)

    async def csrf_refresh(self) -> str:
        """As :meth:`Client.csrf_refresh`."""
        return await self._await(_CSRF)

    async def get(self, entity_type: str, id: Id) -> Dict[str, Any]:
        """As :meth:`Client.get`."""
        return await self._await(_GET, _text(entity_type, "entity_type"), _text(id, "id"))

    async def create(self, entity_type: str, body: Union[Dict[str, Any], bytes, str]) -> Dict[str, Any]:
        """As :meth:`Client.create`."""
        data = _json_body(body)
        return await self._await(_CREATE, _text(entity_type, "entity_type"), data, len(data))

    async def update(self, entity_type: str, id: Id, body: Union[Dict[str, Any], bytes, str]) -> Dict[str, Any]:
        """As :meth:`Client.update`."""
        data = _json_body(body)
        return await self._await(_UPDATE, _text(entity_type, "entity_type"), _text(id, "id"), data, len(data))

    async def delete(self, entity_type: str, id: Id) -> None:
        """As :meth:`Client.delete`."""
        await self._await(_DELETE, _text(entity_type, "entity_type"), _text(id, "id"))

    async def upload_file(self, entity_type: str, bundle: str, field: str, filename: str,
                          data: bytes) -> Dict[str, Any]:
        """As :meth:`Client.upload_file`."""
        data = bytes(data)
        return await self._await(_UPLOAD, _text(entity_type, "entity_type"), _text(bundle, "bundle"),
                                 _text(field, "field"), _text(filename, "filename"), data, len(data))

    async def view(self, path: str, query: Query = None) -> List[Dict[str, Any]]:
        """As :meth:`Client.view`."""
        return await self._await(_VIEW, _text(path, "path"), _query_array(query))

    async def view_all(self, path: str, query: Query = None, *,
                       max_pages: int = 1000) -> AsyncIterator[Dict[str, Any]]:
        """As :meth:`Client.view_all`, as an async iterator: ``async for row in client.view_all(...)``."""
        with self._view_pager(path, query, max_pages) as pager:
            while True:
                rows = await self._await(_PAGER_NEXT, owner=pager)
                if rows is None:
                    return
                for row in rows:
                    yield row

    async def request(self, method: str, path: str, *, query: Query = None, headers: HeadersArg = None,
                      body: Body = None, format: bool = True, raise_for_status: bool = True) -> Response:
        """As :meth:`Client.request`."""
        options = _request_options(query, headers, body, format)
        return await self._await(_REQUEST if raise_for_status else _REQUEST_ANSWER, _text(method, "method"),
                                 _text(path, "path"), options[0] if options else None)

    @classmethod
    def mock(cls) -> "AsyncMockClient":
        """An asyncio client backed by an in-memory Drupal (see :class:`MockClient`)."""
        return AsyncMockClient()


# ---- Mock clients ----------------------------------------------------------------------------------


class _MockSite:
    """What a mock client adds: seeding users and entities, and stubbing answers."""

    _enter: Callable[[], int]
    _exit: Callable[[], None]

    def _setup_mock(self) -> None:
        out = c_void_p()
        _lib.drupal_mock_client_new(byref(out))
        self.base_url = "mock:"
        self._setup(out.value)  # type: ignore[attr-defined]

    def add_user(self, name: str, password: str, roles: Iterable[str] = ()) -> str:
        """Adds a user to the mock site; returns its uid."""
        role_list = [_text(role, "role") for role in roles]
        roles_array = _ffi.string_array(role_list) if role_list else None
        out = c_void_p()
        handle = self._enter()
        try:
            _lib.drupal_mock_add_user(byref(out), handle, _text(name, "name"), _text(password, "password"),
                                      roles_array)
        finally:
            self._exit()
        return _take_string(out.value)

    def add_entity(self, entity_type: str, body: Union[Dict[str, Any], bytes, str]) -> str:
        """Stores an entity (Drupal's REST JSON, with its bundle field) as if created by admin; returns its id."""
        data = _json_body(body)
        out = c_void_p()
        handle = self._enter()
        try:
            _lib.drupal_mock_add_entity(byref(out), handle, _text(entity_type, "entity_type"), data)
        finally:
            self._exit()
        return _take_string(out.value)

    def stub(self, method: str, path: str, status: int, body: Body = b"",
             content_type: Optional[str] = "application/json") -> None:
        """Makes the mock site answer ``method path`` (query ignored) with this status and body."""
        data = b"" if body is None else _json_body(body)
        handle = self._enter()
        try:
            _lib.drupal_mock_stub(handle, _text(method, "method"), _text(path, "path"), int(status),
                                  None if content_type is None else _text(content_type, "content_type"),
                                  data, len(data))
        finally:
            self._exit()


class MockClient(_MockSite, Client):
    """A :class:`Client` over an in-memory Drupal with a real site's semantics: users admin/admin
    and editor/editor, article and page bundles, a tags vocabulary, a paged view at
    ``/api/articles``, ids, 404s, login and CSRF. Calls complete on library threads, as live ones.
    """

    def __init__(self) -> None:
        self._setup_mock()


class AsyncMockClient(_MockSite, AsyncClient):
    """An :class:`AsyncClient` over the in-memory Drupal of :class:`MockClient`."""

    def __init__(self) -> None:
        self._setup_mock()
