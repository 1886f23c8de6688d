"""Every operation of the binding, described once: its C functions, how its arguments convert, what
its answer becomes. ``Client`` (blocking and ``submit_*`` futures) and ``AsyncClient`` (awaitable)
get their methods from this table (:func:`install`), so a new operation is one entry here.

Each entry's ``arguments`` function is also the methods' signature and docstring.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple, Union

from . import _ffi
from ._calls import DrupalFuture
from ._convert import Body, HeadersArg, Id, Query, json_body, query_array, request_options, text
from ._transfers import Progress, Write, transfer_options
from ._response import KIND_ANSWER, KIND_BOOL, KIND_JSON, KIND_NONE, KIND_PAGE, KIND_RESPONSE, KIND_TEXT, Response

__all__ = ["Operation", "OPERATIONS", "NEXT_PAGE", "install"]

_lib = _ffi.lib
Entity = Dict[str, Any]
EntityBody = Union[Dict[str, Any], bytes, str]


class Call(NamedTuple):
    """What an ``arguments`` function gives when the answer's kind depends on the arguments."""
    args: Tuple[Any, ...]
    kind: int


class Operation(NamedTuple):
    name: str
    start: Any      # async C function: (call **, handle, inputs..., callback, userdata)
    wait: Any       # blocking C function: (response **, handle, inputs...)
    kind: int       # what a success becomes (_response.KIND_*)
    arguments: Callable[..., Any]  # Python arguments -> the C inputs (a tuple, or a Call)
    returns: Any    # the blocking/async result's annotation

    def prepare(self, *args: Any, **kwargs: Any) -> Tuple[Tuple[Any, ...], int]:
        prepared = self.arguments(*args, **kwargs)
        if isinstance(prepared, Call):
            return prepared.args, prepared.kind
        return prepared, self.kind


# ---- The operations' arguments (each docstring is the method's) ----------------------------------

def _login(name: str, password: str) -> Tuple[Any, ...]:
    """Logs in with a user name and password and switches to the session cookie.

    Returns:
        Drupal's answer: ``{"current_user": {"uid", "name", "roles"}, "csrf_token", "logout_token"}``.
    Raises:
        AuthenticationError: unknown user name or wrong password (Drupal's 400).
    """
    return text(name, "name"), text(password, "password")


def _logout() -> Tuple[Any, ...]:
    """Logs out and forgets the session. DrupalError (DRUPAL_E_STATE) if this client holds none
    (see ``has_session``)."""
    return ()


def _login_status() -> Tuple[Any, ...]:
    """Asks the site whether this client's session cookie is logged in (sent with the cookie
    alone: Drupal refuses Basic credentials on /user/login_status)."""
    return ()


def _csrf_refresh() -> Tuple[Any, ...]:
    """Fetches a new CSRF token now and returns it (the library also does this when needed)."""
    return ()


def _get(entity_type: str, id: Id) -> Tuple[Any, ...]:
    """GETs an entity: ``client.get("node", 1)`` -> Drupal's entity JSON as a dict."""
    return text(entity_type, "entity_type"), text(id, "id")


def _create(entity_type: str, body: EntityBody) -> Tuple[Any, ...]:
    """POSTs a new entity (body in Drupal's REST JSON, with its bundle field); returns the stored entity."""
    data = json_body(body)
    return text(entity_type, "entity_type"), data, len(data)


def _update(entity_type: str, id: Id, body: EntityBody) -> Tuple[Any, ...]:
    """PATCHes an entity with the fields in body (include the bundle field); returns the entity."""
    data = json_body(body)
    return text(entity_type, "entity_type"), text(id, "id"), data, len(data)


def _delete(entity_type: str, id: Id) -> Tuple[Any, ...]:
    """DELETEs an entity."""
    return text(entity_type, "entity_type"), text(id, "id")


def _upload_file(entity_type: str, bundle: str, field: str, filename: str, data: bytes) -> Tuple[Any, ...]:
    """Uploads a file to a file field; returns the file entity (reference its fid from the host entity)."""
    data = bytes(data)
    return (text(entity_type, "entity_type"), text(bundle, "bundle"), text(field, "field"),
            text(filename, "filename"), data, len(data))


def _upload_file_path(entity_type: str, bundle: str, field: str, path: str, filename: Optional[str] = None, *,
                      progress: Optional[Progress] = None) -> Tuple[Any, ...]:
    """Uploads the file at ``path`` to a file field, streamed as it is sent (never read whole).

    Args:
        filename: the name Drupal stores (default: the path's base name); quotes and control
            characters are refused (InvalidArgumentError), non-ASCII goes as UTF-8.
        progress: ``progress(sent, total)`` on a library thread as the bytes go; return False to
            cancel (:class:`CancelledError`).
    Returns:
        the file entity (reference its fid from the host entity).
    """
    return (text(entity_type, "entity_type"), text(bundle, "bundle"), text(field, "field"), text(str(path), "path"),
            None if filename is None else text(filename, "filename"), transfer_options(progress))


def _download_arguments(path: Any, write: Optional[Write], progress: Optional[Progress]) -> Tuple[Any, ...]:
    return None if path is None else text(str(path), "path"), transfer_options(progress, write)


def _download(url: str, path: Optional[str] = None, *, write: Optional[Write] = None,
              progress: Optional[Progress] = None) -> Tuple[Any, ...]:
    """Downloads a file's content (a public ``/sites/default/files/...`` or private ``/system/files/...``
    URL under the base URL, fetched with the client's credentials) to ``path`` (written to
    ``path + ".part"``, renamed once complete, removed on failure) or to ``write(chunk)`` (return
    False to stop), streamed, within ``max_body_size`` (:class:`TooLargeError`).

    Args:
        progress: ``progress(received, total)`` (total None when unknown); False cancels.
    Returns:
        a :class:`Response` with the answer's status and headers (its content stays empty).
    """
    return (text(url, "url"),) + _download_arguments(path, write, progress)


def _download_file(file_id: Id, path: Optional[str] = None, *, write: Optional[Write] = None,
                   progress: Optional[Progress] = None) -> Tuple[Any, ...]:
    """As :meth:`download`, for a file entity: its ``uri`` URL is read first (``/entity/file/<id>``)."""
    return (text(file_id, "file_id"),) + _download_arguments(path, write, progress)


def _view(path: str, query: Query = None) -> Tuple[Any, ...]:
    """GETs one page of a Views REST export: ``client.view("/api/articles", {"page": 1})`` -> rows."""
    return text(path, "path"), query_array(query)


def _request(method: str, path: str, *, query: Query = None, headers: HeadersArg = None, body: Body = None,
             format: bool = True, raise_for_status: bool = True) -> Call:
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
    return Call((text(method, "method"), text(path, "path"), request_options(query, headers, body, format)),
                KIND_RESPONSE if raise_for_status else KIND_ANSWER)


def _optional_text(value: Optional[str], what: str) -> Optional[bytes]:
    return None if value is None else text(value, what)


def _register(name: str, mail: str, password: Optional[str] = None,
              fields: Optional[Dict[str, Any]] = None) -> Tuple[Any, ...]:
    """Registers an account (anonymous; the site's user_registration REST resource).

    Args:
        password: None on sites that mail the user a link (they refuse one with a 422).
        fields: more fields in Drupal's REST JSON, ``{"timezone": [{"value": "Europe/Paris"}]}``.
    Returns:
        the new account as anonymous may see it (Drupal answers 200, not 201; no mail, no roles).
    Raises:
        ValidationError: name or mail taken (one violation per field), or a password the site refuses.
        AuthorizationError: the caller is logged in.
    """
    return (text(name, "name"), text(mail, "mail"), _optional_text(password, "password"),
            None if fields is None else json_body(fields))


def _reset_password(name: Optional[str] = None, mail: Optional[str] = None) -> Tuple[Any, ...]:
    """Asks for a password reset e-mail for the account with this name or e-mail address. Drupal
    answers the same whether or not the account exists (no account enumeration): returns None."""
    return _optional_text(name, "name"), _optional_text(mail, "mail")


def _resolve_path(path: str) -> Tuple[Any, ...]:
    """What a path or alias is, by decoupled_router: ``{"resolved", "entity": {"type", "bundle", "id",
    "uuid", "canonical"}, "label", "jsonapi": {"individual", "resourceName", ...}, ...}``.

    Raises:
        NotFoundError: "Unable to resolve path ..." (nothing matches).
    """
    return (text(path, "path"),)


def _oauth_authenticate() -> Tuple[Any, ...]:
    """Fetches an OAuth token now (after :meth:`set_oauth` or :meth:`set_token_provider`), so that bad
    credentials show at once; returns what was obtained, never the token:
    ``{"token_type": "Bearer", "has_refresh_token": True, "refresh_in": 270}``.

    Raises:
        AuthenticationError: the token endpoint refused (``oauth_error`` says why).
    """
    return ()


def _next_page() -> Tuple[Any, ...]:
    """The next page of a pager (internal: ``view_all`` drives it)."""
    return ()


def _login_status_wait(out: Any, handle: int) -> int:
    return _lib.drupal_login_status_sync(out, None, handle)


OPERATIONS: List[Operation] = [
    Operation("login", _lib.drupal_login, _lib.drupal_login_sync, KIND_JSON, _login, Dict[str, Any]),
    Operation("logout", _lib.drupal_logout, _lib.drupal_logout_sync, KIND_NONE, _logout, None),
    Operation("login_status", _lib.drupal_login_status, _login_status_wait, KIND_BOOL, _login_status, bool),
    Operation("csrf_refresh", _lib.drupal_csrf_refresh, _lib.drupal_csrf_refresh_sync, KIND_TEXT, _csrf_refresh,
              str),
    Operation("get", _lib.drupal_entity_get, _lib.drupal_entity_get_sync, KIND_JSON, _get, Entity),
    Operation("create", _lib.drupal_entity_create, _lib.drupal_entity_create_sync, KIND_JSON, _create, Entity),
    Operation("update", _lib.drupal_entity_update, _lib.drupal_entity_update_sync, KIND_JSON, _update, Entity),
    Operation("delete", _lib.drupal_entity_delete, _lib.drupal_entity_delete_sync, KIND_NONE, _delete, None),
    Operation("upload_file", _lib.drupal_file_upload, _lib.drupal_file_upload_sync, KIND_JSON, _upload_file,
              Entity),
    Operation("upload_file_path", _lib.drupal_file_upload_path, _lib.drupal_file_upload_path_sync, KIND_JSON,
              _upload_file_path, Entity),
    Operation("download", _lib.drupal_file_download, _lib.drupal_file_download_sync, KIND_RESPONSE, _download,
              Response),
    Operation("download_file", _lib.drupal_file_entity_download, _lib.drupal_file_entity_download_sync,
              KIND_RESPONSE, _download_file, Response),
    Operation("view", _lib.drupal_view, _lib.drupal_view_sync, KIND_JSON, _view, List[Dict[str, Any]]),
    Operation("request", _lib.drupal_request, _lib.drupal_request_sync, KIND_RESPONSE, _request, Response),
    Operation("register", _lib.drupal_user_register, _lib.drupal_user_register_sync, KIND_JSON, _register, Entity),
    Operation("reset_password", _lib.drupal_user_password_reset, _lib.drupal_user_password_reset_sync, KIND_NONE,
              _reset_password, None),
    Operation("resolve_path", _lib.drupal_path_resolve, _lib.drupal_path_resolve_sync, KIND_JSON, _resolve_path,
              Dict[str, Any]),
    Operation("oauth_authenticate", _lib.drupal_oauth_authenticate, _lib.drupal_oauth_authenticate_sync, KIND_JSON,
              _oauth_authenticate, Dict[str, Any]),
]

#: The pager's step; on the pager's handle, not the client's (see Client.view_all).
NEXT_PAGE = Operation("next_page", _lib.drupal_pager_next, _lib.drupal_pager_next_sync, KIND_PAGE, _next_page,
                      Optional[List[Dict[str, Any]]])


# ---- Making the methods ---------------------------------------------------------------------------

_LANGUAGE_DOC = """
``language="fr"`` runs this one call under that language's path prefix (``""``: the default
language), on this client's session; see :meth:`Client.in_language`."""


def _describe(method: Callable[..., Any], name: str, operation: Operation, returns: Any, doc: str) -> None:
    signature = inspect.signature(operation.arguments)
    self_parameter = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    language = inspect.Parameter("language", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Optional[str])
    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc.rstrip() + "\n" + _LANGUAGE_DOC
    method.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[self_parameter, *signature.parameters.values(), language], return_annotation=returns)


def _blocking(operation: Operation) -> Callable[..., Any]:
    def method(self: Any, *args: Any, language: Optional[str] = None, **kwargs: Any) -> Any:
        c_args, kind = operation.prepare(*args, **kwargs)
        return self._call_on(self._language_owner(language), operation, c_args, kind)
    _describe(method, operation.name, operation, operation.returns, operation.arguments.__doc__ or "")
    return method


def _submitting(operation: Operation) -> Callable[..., Any]:
    def method(self: Any, *args: Any, language: Optional[str] = None, **kwargs: Any) -> DrupalFuture:
        c_args, kind = operation.prepare(*args, **kwargs)
        return self._submit(operation, c_args, kind, self._language_owner(language))
    _describe(method, "submit_" + operation.name, operation, DrupalFuture,
              "As :meth:`%s`, returning a ``concurrent.futures.Future`` at once." % operation.name)
    return method


def _awaiting(operation: Operation) -> Callable[..., Any]:
    async def method(self: Any, *args: Any, language: Optional[str] = None, **kwargs: Any) -> Any:
        c_args, kind = operation.prepare(*args, **kwargs)
        return await self._await(operation, c_args, kind, self._language_owner(language))
    _describe(method, operation.name, operation, operation.returns,
              "As :meth:`Client.%s`, awaitable." % operation.name)
    return method


def install(cls: type, style: str) -> type:
    """Gives ``cls`` a method per operation: ``"blocking"`` (and ``submit_*``), or ``"async"``."""
    for operation in OPERATIONS:
        if style == "blocking":
            setattr(cls, operation.name, _blocking(operation))
            setattr(cls, "submit_" + operation.name, _submitting(operation))
        else:
            setattr(cls, operation.name, _awaiting(operation))
    return cls
