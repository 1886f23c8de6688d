"""_ClientBase: what Client and AsyncClient share (the handle, configuration, authentication,
languages, pagers and starting a call), and the small handle owners it uses (_LanguageHandle,
_Pager)."""
from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from ctypes import byref, c_void_p, cast
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Type, TypeVar

from . import _ffi, _interrupts
from ._calls import keepalive, new_key, pending
from ._convert import (C_INT, C_UINT, MAX_SIZE, FilePath, HeadersArg, Query, c_int, header_array, nonzero,
                       not_text, pair, path_text, query_array, seconds, take_string, text)
from ._authorization import OAuthAuthorization
from ._tokens import oauth_options, token_provider
from ._events import Hooks
from ._hooks import LOG_HOOK, RequestEdit, request_hook
from ._jsonapi_query import Query as JSONAPIQuery, query_handle
from ._managed import Managed, new_handle, threads_start
from ._operations import Operation, ResourceType, resource_type
from ._queues import QUEUE_CALLBACK, settle_futures, ticket_free as _ticket_free

log = logging.getLogger("drupalsdk")

_lib = _ffi.lib
_last_error = _ffi.last_error
#: The class of the client at hand: in_language gives a MockClient a MockClient.
_Client = TypeVar("_Client", bound="_ClientBase")


class _ClientBase(Managed, Hooks):
    """Handle ownership, configuration, authentication, hooks: what Client and AsyncClient share."""

    base_url: str

    def __init__(self, base_url: str, *, timeout: Optional[float] = None, connect_timeout: Optional[float] = None,
                 verify: bool = True, ca_file: Optional[FilePath] = None, user_agent: Optional[str] = None,
                 headers: HeadersArg = None, max_body_size: Optional[int] = None,
                 follow_redirects: bool = False,
                 entity_paths: Optional[Mapping[str, Tuple[str, str]]] = None, retries: Optional[int] = None,
                 secret_headers: Iterable[str] = (),
                 on_request: Optional[Callable[[RequestEdit], Any]] = None,
                 max_connections: Optional[int] = None, busy_poll_us: int = 0, http2: bool = True,
                 proxy: Optional[str] = None, compression: bool = True,
                 min_file_rate: Optional[int] = None) -> None:
        """Creates a client for the site at ``base_url`` (``http(s)://host[/prefix]``). Sends nothing yet.

        Args:
            timeout: seconds for a whole request (default 60); for a file streamed up or down
                (``upload_file_path``, the downloads), seconds with no byte moving instead (or
                below ``min_file_rate``).
            connect_timeout: seconds to connect, TCP + TLS (default 10).
            verify: verify TLS certificates and host names (default True).
            ca_file: a PEM file of CA certificates to trust instead of the system's (str, bytes
                or os.PathLike, UTF-8 or not; one that cannot be read:
                :class:`InvalidArgumentError` at once).
            user_agent: the User-Agent header (default ``drupalsdk/<version>``).
            headers: extra headers for every request (a mapping, or ``(name, value)`` pairs).
            max_body_size: larger responses fail with :class:`TooLargeError` (default 64 MiB;
                headers over 256 KiB fail so too).
            follow_redirects: follow up to 5 redirects (default: a redirect raises
                :class:`RedirectError`, with its ``location``). Credentials and bodies never go to
                another origin; a ``Location`` with user info raises :class:`NetworkError`.
            entity_paths: REST paths of custom entity types (or moved core ones):
                ``{"event": ("/event/{id}", "/event/add")}``, canonical path with ``{id}`` and create
                path. Types without an entry use Drupal's core paths, else ``/entity/<type>/{id}``.
            retries: how often a failed request is tried again (default 2; 0 turns it off):
                idempotent methods after a connection failure or a 429/502/503/504, any method when
                the connection could not be made; backoff with jitter, Retry-After honoured, never
                past ``timeout``. Each retry is a ``"retry"`` event.
            secret_headers: a list of the names of your own headers that carry credentials
                (``["X-Api-Key"]``): like Authorization and Cookie, never sent to another origin
                on a redirect, and redacted in logs. One str is a TypeError.
            on_request: called with a :class:`RequestEdit` for every request just before it is
                sent (on the thread sending it), to read it or add, change or remove headers;
                what it raises fails the request.
            max_connections: idle connections kept open for reuse (default 64); keep it at least
                the number of requests you keep in flight, or connections are closed and opened
                again (a TLS handshake each on https).
            busy_poll_us: microseconds a blocking call keeps checking its socket before it sleeps
                (default 0, off): more sequential requests per second from a fast server, for up
                to that much CPU per wait.
            http2: HTTP/2 over https when the server offers it (default True): requests in flight
                share one connection. False: HTTP/1.1 only.
            proxy: the proxy of every request (default: the environment's, as curl reads it:
                ``https_proxy``, ``http_proxy``, ``no_proxy``; a client made while none of them
                is set uses no proxy, even if one is set later). ``""``: none, whatever the
                environment says. Else a URL, ``http://``, ``https://``, ``socks4://``,
                ``socks4a://``, ``socks5://`` or ``socks5h://``, with the proxy's credentials if it
                needs them (never logged or shown in errors); ``no_proxy`` still applies. An https
                proxy is verified as the site is (``verify``, ``ca_file``).
            compression: ask for compressed answers (``Accept-Encoding``: gzip, deflate, br)
                and decode them as they arrive (default True; a body whose compressed stream
                does not end exactly is a :class:`DecodeError`): a JSON:API page a web server
                compresses crosses the network in a fifth to a tenth of its bytes.
                ``max_body_size`` counts the decoded bytes; the ``Content-Encoding`` and
                ``Content-Length`` headers stay as sent. False: ask for none (an answer compressed
                anyway is handed over as it arrived).
            min_file_rate: for a file streamed up or down, the bytes per second it must average
                over ``timeout`` seconds, or it fails with :class:`DrupalTimeoutError` (default 1:
                only a stall fails, no byte moving). More also ends a server that trickles (at a
                byte a second, a 64 MiB download takes two years). At most 1 GiB a second.

        Requests and responses are logged to the ``drupalsdk`` logger at DEBUG, secrets redacted,
        when that level is enabled as the client is made.

        Raises:
            InvalidArgumentError: a malformed URL or option.
        """
        new_handle()
        options = _ffi.ClientOptions()
        _lib.drupal_client_options_init(byref(options), _ffi.DRUPAL_CLIENT_OPTIONS_VERSION)
        if timeout is not None:
            options.timeout = nonzero(seconds(timeout, "timeout"), "timeout")
        if connect_timeout is not None:
            options.connect_timeout = nonzero(seconds(connect_timeout, "connect_timeout"), "connect_timeout")
        options.verify_tls = 0 if verify else -1
        if ca_file is not None:
            options.ca_bundle = path_text(ca_file, "ca_file")
        if user_agent is not None:
            options.user_agent = text(user_agent, "user_agent")
        if max_body_size is not None:
            options.max_body_size = nonzero(c_int(max_body_size, "max_body_size", (0, MAX_SIZE)), "max_body_size")
        if retries is not None:   # C's 0 is the default and -1 none
            options.max_retries = c_int(retries, "retries", (0, C_INT[1])) or -1
        if max_connections is not None:
            options.max_connections = nonzero(c_int(max_connections, "max_connections"), "max_connections")
        options.busy_poll_us = c_int(busy_poll_us, "busy_poll_us")
        options.http2 = 0 if http2 else -1
        options.compression = 0 if compression else -1
        if min_file_rate is not None:
            options.min_file_rate = nonzero(c_int(min_file_rate, "min_file_rate"), "min_file_rate")
        if proxy is not None:
            options.proxy = text(proxy, "proxy")
        if secret_headers:
            names = not_text(secret_headers, "secret_headers", "a list of header names")
            options.secret_headers = _ffi.string_array([text(name, "secret header name") for name in names])
        header_lines = header_array(headers)
        if header_lines is not None:
            options.headers = header_lines
        options.follow_redirects = 1 if follow_redirects else 0
        if entity_paths:
            triples: List[bytes] = []
            for entity_type, paths in entity_paths.items():
                canonical, create = pair(paths, "entity_paths values", "(canonical path, create path) pairs")
                triples += [text(entity_type, "entity_paths type"), text(canonical, "entity_paths canonical path"),
                            text(create, "entity_paths create path")]
            options.entity_paths = _ffi.string_array(triples)
        # The C hooks live as long as the session (the library calls them until every handle on
        # it is freed): held by ``_session``, which every language view of this client shares.
        self._session: Dict[str, Any] = {}
        if on_request is not None:
            if not callable(on_request):
                raise TypeError("on_request must be callable")
            self._session["request_hook"] = request_hook(on_request)
            options.request_hook = cast(self._session["request_hook"], c_void_p)
        if log.isEnabledFor(logging.DEBUG):
            options.log_hook = cast(LOG_HOOK, c_void_p)
        out = c_void_p()
        _lib.drupal_client_new(byref(out), text(base_url, "base_url"), byref(options))
        self.base_url = base_url
        self._setup(out.value)  # type: ignore[arg-type]

    def _setup(self, handle: int) -> None:
        self._setup_hooks()
        self._languages: Dict[str, "_LanguageHandle"] = {}
        self._languages_lock = threading.Lock()
        self._adopt(handle)

    @classmethod
    def unimplemented(cls: Type[_Client]) -> _Client:
        """A client whose every call raises ``DrupalError`` with code ``DRUPAL_E_UNIMPLEMENTED``
        naming the operation: for tests of code that must not reach a site."""
        new_handle()
        client = cls.__new__(cls)
        out = c_void_p()
        _lib.drupal_unimplemented_client_new(byref(out))
        client.base_url = "unimplemented:"
        client._session = {}
        assert out.value is not None   # set when the call succeeds; its errcheck raised otherwise
        client._setup(out.value)
        return client

    @staticmethod
    def _free_handle(handle: int) -> None:
        _lib.drupal_client_free(handle)

    def _before_free(self, handle: int) -> None:
        with self._languages_lock:
            views, self._languages = list(self._languages.values()), {}
        for view in views:   # their calls in flight are cancelled too
            view.close()

    def _after_free(self) -> None:
        self._drop_hooks()
        settle_futures()   # the calls the free cancelled resolve before close() returns

    # ---- Authentication and the session, without a request -------------------------------------

    def _state_call(self, function: Callable[..., Any], *args: Any) -> Any:
        handle = self._enter()
        try:
            return function(handle, *args)
        finally:
            self._exit()

    def set_basic_auth(self, user: str, password: str) -> None:
        """Sends HTTP Basic credentials on every following request (Drupal's basic_auth)."""
        self._state_call(_lib.drupal_client_set_basic_auth, text(user, "user"), text(password, "password"))

    def set_bearer_token(self, token: str) -> None:
        """Sends ``Authorization: Bearer <token>`` on every following request."""
        self._state_call(_lib.drupal_client_set_bearer_token, text(token, "token"))

    def set_no_auth(self) -> None:
        """Stops sending Basic or Bearer credentials (a login session is kept until logout)."""
        self._state_call(_lib.drupal_client_set_no_auth)

    def set_oauth(self, client_id: str, client_secret: Optional[str] = None, *, username: Optional[str] = None,
                  password: Optional[str] = None, refresh_token: Optional[str] = None, grant: Optional[str] = None,
                  scope: Optional[str] = None, token_path: Optional[str] = None, client_auth: str = "body",
                  refresh_margin: Optional[float] = None, code: Optional[str] = None,
                  redirect_uri: Optional[str] = None, code_verifier: Optional[str] = None) -> None:
        """Switches to OAuth 2 (contrib simple_oauth): the library gets Bearer tokens from the site's
        token endpoint and keeps them fresh. Nothing is sent yet (see :meth:`oauth_authenticate`).

        The token is refreshed before it expires and once after a 401 that refuses it (the request
        is then retried once); concurrent calls wait for that one refresh. Drupal rotates the
        refresh token every time; ``client_credentials`` has none, so a new token is fetched; a
        password session whose refresh is refused logs in again once. A failed token request
        raises :class:`AuthenticationError` with ``oauth_error`` (``invalid_client``,
        ``invalid_grant``, ...), never retried in a loop. Tokens and secrets are never logged.

        Args:
            client_id: the consumer's client id; client_secret: its secret (None for a public one).
            username, password: for the password grant (simple_oauth_password_grant).
            refresh_token: start from a refresh token obtained elsewhere.
            grant: ``"client_credentials"``, ``"password"``, ``"refresh_token"`` or
                ``"authorization_code"``; by default the password grant when a username is given,
                the refresh_token grant when a refresh token is, the authorization_code grant when
                a code is, else client_credentials.
            code, redirect_uri, code_verifier: for the authorization_code grant, a code obtained
                elsewhere, the redirect URI it was asked with and its PKCE verifier (see
                :meth:`oauth_authorization`, which does all of this for you).
            scope: space-separated scopes (default: the consumer's).
            token_path: the token endpoint (default ``/oauth/token``).
            client_auth: ``"body"`` (form parameters, default) or ``"basic"`` (an HTTP Basic header).
            refresh_margin: seconds before expiry to refresh (default 30, at most half the token's
                lifetime; 0: only on expiry or after a 401).
        """
        options = oauth_options(client_id, client_secret, username, password, refresh_token, grant, scope,
                                token_path, client_auth, refresh_margin, code, redirect_uri, code_verifier)
        self._state_call(_lib.drupal_client_set_oauth, byref(options))

    def oauth_authorization(self, client_id: str, redirect_uri: str, client_secret: Optional[str] = None, *,
                            scope: Optional[str] = None, token_path: Optional[str] = None, client_auth: str = "body",
                            refresh_margin: Optional[float] = None) -> OAuthAuthorization:
        """Starts simple_oauth's authorization code grant with PKCE, for a program that acts for a
        person, who approves it in a browser::

            authorization = client.oauth_authorization("sdk-desktop", "http://127.0.0.1:8765/callback")
            webbrowser.open(authorization.url)
            # ... the site sends the browser to the redirect URI with ?code=...&state=...
            authorization.finish(redirected_to)   # this client is now on OAuth

        The client exchanges the code with its next request and keeps the session going with the
        refresh token Drupal gives with it; a code is exchanged once, so when that refresh token is
        refused the person must authorize again (:class:`AuthenticationError`). The state and the
        PKCE verifier are random and never logged. The other arguments are :meth:`set_oauth`'s,
        kept for the exchange.
        """
        options = oauth_options(client_id, client_secret, None, None, None, "authorization_code", scope,
                                token_path, client_auth, refresh_margin, None, redirect_uri, None)
        new_handle()
        out = c_void_p()
        self._state_call(lambda handle: _lib.drupal_oauth_authorization_new(byref(out), handle, byref(options)))
        assert out.value is not None   # set when the call succeeds; its errcheck raised otherwise
        return OAuthAuthorization(self, out.value)

    def oauth_refresh_token(self) -> Optional[str]:
        """The OAuth refresh token the client holds now, for a program that keeps it (a keyring)
        to start from next time (``set_oauth(client_id, refresh_token=...)``) rather than ask the
        person again; None before the first token, with a grant that gives none
        (client_credentials) and once the site refused it. Drupal rotates it on every refresh and
        revokes the one before, so read it after the calls (before the program ends). It is a
        secret: store it as one. Sends nothing."""
        out = c_void_p()
        self._state_call(lambda handle: _lib.drupal_client_oauth_refresh_token(byref(out), handle))
        return take_string(out.value) if out.value else None

    def set_token_provider(self, provider: Callable[[str], Any]) -> None:
        """Sends Bearer tokens from ``provider(reason)``, for sites that mint tokens some other way.

        ``reason`` is ``"initial"``, ``"expiring"`` (the held token expires within 30 s) or
        ``"rejected"`` (the site refused it, or :meth:`oauth_authenticate` was called). Return the
        token (a str), or ``(token, expires_in_seconds)`` (0 or less: unknown, so the token is replaced
        only after a 401; NaN or infinite: refused). It runs on a library thread, at most once
        at a time for this client, with the same refreshes and single flight as :meth:`set_oauth`;
        what it raises fails the waiting calls. A :class:`DrupalError` fails them with its code and
        its message: "the token provider failed: the vault is sealed" (shown as given, so keep
        secrets out of it; control characters escaped, cut at 1,024 bytes). Anything else fails
        them as ``DRUPAL_E_INTERNAL`` naming only its type ("the token provider raised
        RuntimeError"): a library's exception may quote a URL or a credential, so its message goes
        only to the ``drupalsdk`` logger, with the traceback.

        A call waiting for the token, the one that started the provider included, waits no longer
        than the client's ``timeout`` (then :class:`DrupalTimeoutError`) and stops at once when
        cancelled. The provider itself is not interrupted: it runs to its end, and the token it
        gives is kept for the calls still waiting and those after (it is not asked again for
        them). :meth:`close` waits for a provider still running.
        """
        if not callable(provider):
            raise TypeError("provider must be callable")
        c_provider = token_provider(provider)
        self._state_call(_lib.drupal_client_set_token_provider, c_provider, None)
        self._session["token_provider"] = c_provider   # called until the authentication changes

    @property
    def has_session(self) -> bool:
        """True while the client holds a login session (from :meth:`login`, not yet logged out or
        forgotten): what :meth:`logout` needs. Sends nothing."""
        return self._state_call(_lib.drupal_client_has_session) == 1

    def forget_session(self) -> None:
        """Drops the session cookie and tokens locally, without a request (the site keeps the
        session until it expires; :meth:`logout` ends it there). Basic/Bearer credentials stay."""
        self._state_call(_lib.drupal_client_forget_session)

    # ---- Languages ----------------------------------------------------------------------------

    def in_language(self: _Client, language: Optional[str], *, force: bool = False) -> _Client:
        """This client in a language: a client of the same class on the same session (one login,
        one CSRF and OAuth token, one cookie jar and pool for every language) whose calls go under
        the language's path prefix (``"fr"`` -> ``/fr/node/1``, ``/fr/jsonapi/...``; ``""`` is the
        default language, without a prefix).

        Reads of an entity with no translation in the language answer the original (no 404):
        compare its ``langcode`` (``node["langcode"][0]["value"]``, :attr:`Response.langcode`).
        Core REST's traps are refused with ``DRUPAL_E_STATE`` unless ``force``: an update of an
        entity that has no such translation (Drupal would change the ORIGINAL, and a ``langcode``
        in the body its language) and a delete (it deletes the whole entity, every translation).
        A create makes a new entity in the default language. Closing the view does not close this
        client; closing this client does not end the view's session.

        Every method also takes ``language=`` for one call (same rules, without ``force``).
        """
        out = c_void_p()
        code = text(language, "language") if language is not None else None
        self._state_call(lambda handle: _lib.drupal_client_with_language(byref(out), handle, code,
                                                                         1 if force else 0))
        view = type(self).__new__(type(self))
        view.base_url = self.base_url
        view._session = self._session
        view._setup(out.value)  # type: ignore[arg-type]
        return view

    def _language_owner(self, language: Any) -> Managed:
        """The handle a ``language=`` call runs on: this client's for None, else a cached view."""
        if language is None:
            return self
        key = text(language, "language").decode()
        with self._languages_lock:
            view = self._languages.get(key)
            if view is None or view.closed:
                out = c_void_p()
                self._state_call(lambda handle: _lib.drupal_client_with_language(byref(out), handle,
                                                                                 key.encode(), 0))
                view = self._languages[key] = _LanguageHandle(out.value)  # type: ignore[arg-type]
        return view

    # ---- Running operations ---------------------------------------------------------------------

    def _view_pager(self, path: str, query: Query, max_pages: int) -> "_Pager":
        max_pages = nonzero(c_int(max_pages, "max_pages", C_UINT), "max_pages")
        out = c_void_p()
        self._state_call(lambda handle: _lib.drupal_view_pager_new(byref(out), handle, text(path, "path"),
                                                                   query_array(query), max_pages))
        return _Pager(out.value)  # type: ignore[arg-type]

    def _jsonapi_pager(self, type: ResourceType, query: Optional[JSONAPIQuery], concurrency: int,
                       max_pages: int) -> "_Pager":
        concurrency = nonzero(c_int(concurrency, "concurrency", C_UINT), "concurrency")
        max_pages = c_int(max_pages, "max_pages", C_UINT)
        if concurrency > 1:  # pages in flight run on the library's shared threads
            threads_start()
        out = c_void_p()
        self._state_call(lambda handle: _lib.drupal_jsonapi_pager_new(byref(out), handle, resource_type(type),
                                                                      query_handle(query), concurrency, max_pages))
        return _Pager(out.value)  # type: ignore[arg-type]

    def _start(self, operation: Operation, args: Tuple[Any, ...], waiter: Any, queue: Any,
               owner: Optional[Managed] = None) -> Optional[int]:
        """Starts an operation's async C call on the handle of `owner` (this client unless given),
        ending into the completion queue `queue` (``_queues``), which resolves `waiter` (what
        that queue's kind of consumer expects); returns the call handle."""
        owner = self if owner is None else owner
        key = new_key()
        call = c_void_p()
        handle = owner._enter()
        try:
            threads_start()
            ticket = queue.ticket(key)
            pending[key] = waiter
            # Callbacks among the args are called until the call completes; the client too is
            # kept until then: one dropped with a future in flight (Client(url).submit_get(...))
            # was collected, which closed it and cancelled the call.
            keepalive[key] = (args, self, owner)
            try:
                code = operation.start(byref(call), handle, *args, QUEUE_CALLBACK, ticket)
                if code:
                    raise _last_error(code)
            except BaseException:
                pending.pop(key, None)
                keepalive.pop(key, None)
                _ticket_free(ticket)   # the call did not start: the ticket is still ours
                # A Ctrl-C in a callback the start ran here (on_request) refused the request:
                # the KeyboardInterrupt is what to raise, not the refusal (nor later, stale).
                if _interrupts.caught is not None and _interrupts.stopping():
                    _interrupts.reraise()
                raise
        finally:
            owner._exit()
        return call.value

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return "<%s %s (%s)>" % (type(self).__name__, getattr(self, "base_url", "?"), state)


class _LanguageHandle(Managed):
    """Owns the drupal_client of a ``language=`` call (a handle on the same session)."""

    def __init__(self, handle: int) -> None:
        self._adopt(handle)

    @staticmethod
    def _free_handle(handle: int) -> None:
        _lib.drupal_client_free(handle)


class _Pager(Managed):
    """Owns a drupal_pager: the library's paging loop, which view_all drives."""

    def __init__(self, handle: int) -> None:
        self._adopt(handle)

    @staticmethod
    def _free_handle(handle: int) -> None:
        _lib.drupal_pager_free(handle)
