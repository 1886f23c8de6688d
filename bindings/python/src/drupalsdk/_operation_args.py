"""The ``arguments`` functions of the core operations (login, entities, files, views, requests,
accounts, OAuth): Python arguments to the C inputs. Each docstring is the methods' docstring and each
signature their signature (see ``_operations``)."""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ._convert import (Body, Content, FilePath, HeadersArg, Id, Query, content, json_body, path_text,
                       query_array, request_options, text)
from ._operation_types import Call, EntityBody
from ._response import KIND_ANSWER, KIND_RESPONSE, Response
from ._transfers import Progress, Write, transfer_options


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


def _upload_file(entity_type: str, bundle: str, field: str, filename: str, data: Content) -> Tuple[Any, ...]:
    """Uploads ``data`` (bytes, bytearray or memoryview) to a file field as a file named ``filename``;
    returns the file entity (reference its fid from the host entity)."""
    data = content(data)
    return (text(entity_type, "entity_type"), text(bundle, "bundle"), text(field, "field"),
            text(filename, "filename"), data, len(data))


def _upload_file_path(entity_type: str, bundle: str, field: str, path: FilePath, filename: Optional[str] = None, *,
                      progress: Optional[Progress] = None) -> Tuple[Any, ...]:
    """Uploads the file at ``path`` (str, bytes or os.PathLike: the file system's name, UTF-8 or
    not, as ``open()`` takes it) to a file field, streamed as it is sent (never read whole). The
    size sent is the file's when the call starts: a file that grows meanwhile is sent up to that
    size, one that shrinks raises :class:`FileError`.

    Args:
        filename: the name Drupal stores (default: the path's base name); quotes and control
            characters are refused (InvalidArgumentError), non-ASCII goes as UTF-8. A base name
            that is not UTF-8 (``b"caf\\xe9.png"``) is InvalidArgumentError: Drupal stores text,
            and the name's encoding is not known; give ``filename``.
        progress: ``progress(sent, total)`` on a library thread as the bytes go; return False to
            cancel (:class:`CancelledError`). One that raises cancels too, its exception the
            CancelledError's ``__cause__`` (a future then fails with it, not cancelled).
    Returns:
        the file entity (reference its fid from the host entity).
    """
    return (text(entity_type, "entity_type"), text(bundle, "bundle"), text(field, "field"), path_text(path),
            None if filename is None else text(filename, "filename"), transfer_options(progress))


def _download_arguments(path: Any, write: Optional[Write], progress: Optional[Progress]) -> Tuple[Any, ...]:
    return None if path is None else path_text(path), transfer_options(progress, write)


def _download(url: str, path: Optional[FilePath] = None, *, write: Optional[Write] = None,
              progress: Optional[Progress] = None) -> Tuple[Any, ...]:
    """Downloads a file's content (a public ``/sites/default/files/...`` or private ``/system/files/...``
    path under the base URL, or an absolute URL on the site's origin, which a base URL ending in a
    language prefix needs; fetched with the client's credentials) to ``path`` (str, bytes or
    os.PathLike, UTF-8 or not; written to a new ``<path>.<random>.part`` beside it, renamed once
    complete, removed on failure; its own failures raise :class:`FileError`; over an existing
    regular file, with that file's permission bits, as ``curl -o`` keeps them, never set-user-ID;
    a new file gets 0666 less the umask) or to ``write(chunk)`` (return False to stop), streamed,
    within ``max_body_size`` (:class:`TooLargeError`). The bytes are the file as stored: no compression is asked for and
    nothing is decoded, so a ``.gz`` file that a server labels ``Content-Encoding: gzip`` is saved
    as the ``.gz`` it is.

    Args:
        progress: ``progress(received, total)`` (total None when unknown); False cancels. A
            ``progress`` or ``write`` that raises cancels too, its exception the
            CancelledError's ``__cause__`` (a future then fails with it, not cancelled).
    Returns:
        a :class:`Response` with the answer's status and headers (its content stays empty).
    """
    return (text(url, "url"),) + _download_arguments(path, write, progress)


def _download_file(file_id: Id, path: Optional[FilePath] = None, *, write: Optional[Write] = None,
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
    return Call(((text(method, "method"), text(path, "path"), request_options(query, headers, body, format)),
                 KIND_RESPONSE if raise_for_status else KIND_ANSWER))


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
