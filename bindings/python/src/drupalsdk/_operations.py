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
from ._jsonapi_document import Document, Resource
from ._jsonapi_query import Query as JSONAPIQuery, query_handle
from ._response import (KIND_ANSWER, KIND_BOOL, KIND_DOCUMENT, KIND_DOCUMENT_PAGE, KIND_JSON, KIND_NONE, KIND_PAGE,
                        KIND_RESPONSE, KIND_TEXT, Response)

__all__ = ["Operation", "OPERATIONS", "NEXT_PAGE", "NEXT_DOCUMENT", "install", "resource_type"]

_lib = _ffi.lib
Entity = Dict[str, Any]
EntityBody = Union[Dict[str, Any], bytes, str]
ResourceType = Union[str, Tuple[str, str]]
#: What a relationship can point to: a Resource, a (type, id) pair, an identifier dict, a list of
#: these (to-many), or None (an empty to-one).
Target = Union[Resource, Tuple[str, str], Dict[str, Any], List[Any], None]


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


# ---- JSON:API ----------------------------------------------------------------------------------

def resource_type(value: ResourceType) -> bytes:
    """ "node--article", or ("node", "article")."""
    if isinstance(value, tuple) and len(value) == 2:
        return text("%s--%s" % value, "resource type")
    return text(value, "resource type")


def _identifier(target: Any) -> Any:
    if target is None:
        return None
    if isinstance(target, Resource):
        return {"type": target.type, "id": target.id}
    if isinstance(target, tuple) and len(target) == 2:
        return {"type": target[0], "id": target[1]}
    if isinstance(target, dict) and "type" in target and "id" in target:
        return {"type": target["type"], "id": target["id"]}
    raise TypeError("a relationship target is a Resource, a (type, id) pair or a {type, id} dict, not %s"
                    % type(target).__name__)


def _linkage(target: Target) -> Any:
    return [_identifier(item) for item in target] if isinstance(target, list) else _identifier(target)


def _resource_document(type: ResourceType, id: Optional[str], attributes: Optional[Dict[str, Any]],
                       relationships: Optional[Dict[str, Target]], document: Optional[Dict[str, Any]]) -> bytes:
    if document is not None:
        if attributes is not None or relationships is not None:
            raise TypeError("give a whole document or attributes/relationships, not both")
        return json_body(document)
    data: Dict[str, Any] = {"type": resource_type(type).decode()}
    if id is not None:
        data["id"] = text(id, "id").decode()
    if attributes:
        data["attributes"] = attributes
    if relationships:
        data["relationships"] = {name: {"data": _linkage(target)} for name, target in relationships.items()}
    return json_body({"data": data})


def _jsonapi_get(type: ResourceType, id: Id, query: Optional[JSONAPIQuery] = None) -> Tuple[Any, ...]:
    """GETs one JSON:API resource by UUID: ``client.jsonapi_get("node--article", uuid)`` -> a :class:`Document`
    (``.data`` is the :class:`Resource`). ``query`` may include, select fields or a resourceVersion."""
    return resource_type(type), text(id, "id"), query_handle(query)


def _jsonapi_collection(type: ResourceType, query: Optional[JSONAPIQuery] = None) -> Tuple[Any, ...]:
    """GETs one page of a JSON:API collection (filters, sort, paging, include, fields in ``query``);
    :meth:`jsonapi_iter` walks every page."""
    return resource_type(type), None, query_handle(query)


def _jsonapi_related(type: ResourceType, id: Id, field: str, query: Optional[JSONAPIQuery] = None) -> Tuple[Any, ...]:
    """GETs what a relationship points to (``/{id}/uid``): the related resource(s)."""
    return resource_type(type), text(id, "id"), text(field, "field"), query_handle(query)


def _jsonapi_relationship(type: ResourceType, id: Id, field: str) -> Tuple[Any, ...]:
    """GETs a relationship's identifiers (``/{id}/relationships/field_tags``)."""
    return resource_type(type), text(id, "id"), text(field, "field")


def _jsonapi_create(type: ResourceType, attributes: Optional[Dict[str, Any]] = None,
                    relationships: Optional[Dict[str, Target]] = None, *, id: Optional[str] = None,
                    document: Optional[Dict[str, Any]] = None) -> Tuple[Any, ...]:
    """POSTs a new JSON:API resource: ``jsonapi_create("node--article", {"title": "Hi"},
    {"field_tags": [tag]})`` (``id`` for a client-generated UUID, or a whole ``document``);
    returns the stored resource's :class:`Document`."""
    body = _resource_document(type, id, attributes, relationships, document)
    return resource_type(type), body, len(body)


def _jsonapi_update(type: ResourceType, id: Id, attributes: Optional[Dict[str, Any]] = None,
                    relationships: Optional[Dict[str, Target]] = None, *,
                    document: Optional[Dict[str, Any]] = None) -> Tuple[Any, ...]:
    """PATCHes the given attributes and relationships of a resource (the rest is kept);
    returns the whole resource's :class:`Document`."""
    body = _resource_document(type, id, attributes, relationships, document)
    return resource_type(type), text(id, "id"), body, len(body)


def _jsonapi_delete(type: ResourceType, id: Id) -> Tuple[Any, ...]:
    """DELETEs a JSON:API resource."""
    return resource_type(type), text(id, "id")


def _relationship_change(change: int) -> Callable[..., Tuple[Any, ...]]:
    def arguments(type: ResourceType, id: Id, field: str, targets: Target) -> Tuple[Any, ...]:
        body = json_body({"data": _linkage(targets)})
        return resource_type(type), text(id, "id"), text(field, "field"), change, body, len(body)
    return arguments


_jsonapi_add_relationship = _relationship_change(1)
_jsonapi_add_relationship.__doc__ = """Adds targets to a to-many relationship (POST); returns the whole list's
    :class:`Document`, or None (204)."""
_jsonapi_replace_relationship = _relationship_change(2)
_jsonapi_replace_relationship.__doc__ = """Makes a relationship exactly ``targets`` (PATCH; a list, one target, or
    None for an empty to-one); returns None (204) or the :class:`Document`."""
_jsonapi_remove_relationship = _relationship_change(3)
_jsonapi_remove_relationship.__doc__ = """Removes targets from a to-many relationship (DELETE); returns None (204)."""


def _jsonapi_upload(type: ResourceType, field: str, filename: str, data: bytes, *,
                    id: Optional[str] = None) -> Tuple[Any, ...]:
    """Uploads a file to a JSON:API file field: to ``/{field}`` (a temporary file to reference), or
    with ``id`` to ``/{id}/{field}`` (attached to that resource). Returns the file's :class:`Document`."""
    data = bytes(data)
    return (resource_type(type), None if id is None else text(id, "id"), text(field, "field"),
            text(filename, "filename"), data, len(data))


def _jsonapi_upload_path(type: ResourceType, field: str, path: str, *, id: Optional[str] = None,
                         filename: Optional[str] = None, progress: Optional[Progress] = None) -> Tuple[Any, ...]:
    """Uploads the file at ``path`` to a JSON:API file field, streamed as it is sent (never read
    whole): to ``/{field}`` (a temporary file to reference), or with ``id`` to ``/{id}/{field}``
    (attached to that resource).

    Args:
        filename: the name Drupal stores (default: the path's base name); quotes and control
            characters are refused (InvalidArgumentError).
        progress: ``progress(sent, total)`` on a library thread as the bytes go (total: the file's
            size); return False to cancel (:class:`CancelledError`).
    Returns:
        the file's :class:`Document`. A path that is not a readable regular file is
        InvalidArgumentError before anything is sent.
    """
    return (resource_type(type), None if id is None else text(id, "id"), text(field, "field"),
            text(str(path), "path"), None if filename is None else text(filename, "filename"),
            transfer_options(progress))


def _jsonapi_entry_point() -> Tuple[Any, ...]:
    """GETs ``/jsonapi``: links to every resource type; ``meta.links.me`` names the logged-in user."""
    return ()


def _jsonapi_follow(link: str) -> Tuple[Any, ...]:
    """GETs a link a document gave (``document.next``, a ``links.related``); it must be under the
    base URL."""
    return (text(link, "link"),)


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
    Operation("jsonapi_get", _lib.drupal_jsonapi_get, _lib.drupal_jsonapi_get_sync, KIND_DOCUMENT, _jsonapi_get,
              Document),
    Operation("jsonapi_collection", _lib.drupal_jsonapi_get, _lib.drupal_jsonapi_get_sync, KIND_DOCUMENT,
              _jsonapi_collection, Document),
    Operation("jsonapi_related", _lib.drupal_jsonapi_related, _lib.drupal_jsonapi_related_sync, KIND_DOCUMENT,
              _jsonapi_related, Document),
    Operation("jsonapi_relationship", _lib.drupal_jsonapi_relationship, _lib.drupal_jsonapi_relationship_sync,
              KIND_DOCUMENT, _jsonapi_relationship, Document),
    Operation("jsonapi_create", _lib.drupal_jsonapi_create, _lib.drupal_jsonapi_create_sync, KIND_DOCUMENT,
              _jsonapi_create, Document),
    Operation("jsonapi_update", _lib.drupal_jsonapi_update, _lib.drupal_jsonapi_update_sync, KIND_DOCUMENT,
              _jsonapi_update, Document),
    Operation("jsonapi_delete", _lib.drupal_jsonapi_delete, _lib.drupal_jsonapi_delete_sync, KIND_NONE,
              _jsonapi_delete, None),
    Operation("jsonapi_add_relationship", _lib.drupal_jsonapi_relationship_change,
              _lib.drupal_jsonapi_relationship_change_sync, KIND_DOCUMENT, _jsonapi_add_relationship,
              Optional[Document]),
    Operation("jsonapi_replace_relationship", _lib.drupal_jsonapi_relationship_change,
              _lib.drupal_jsonapi_relationship_change_sync, KIND_DOCUMENT, _jsonapi_replace_relationship,
              Optional[Document]),
    Operation("jsonapi_remove_relationship", _lib.drupal_jsonapi_relationship_change,
              _lib.drupal_jsonapi_relationship_change_sync, KIND_DOCUMENT, _jsonapi_remove_relationship,
              Optional[Document]),
    Operation("jsonapi_upload", _lib.drupal_jsonapi_upload, _lib.drupal_jsonapi_upload_sync, KIND_DOCUMENT,
              _jsonapi_upload, Document),
    Operation("jsonapi_upload_path", _lib.drupal_jsonapi_upload_path, _lib.drupal_jsonapi_upload_path_sync,
              KIND_DOCUMENT, _jsonapi_upload_path, Document),
    Operation("jsonapi_entry_point", _lib.drupal_jsonapi_entry_point, _lib.drupal_jsonapi_entry_point_sync,
              KIND_DOCUMENT, _jsonapi_entry_point, Document),
    Operation("jsonapi_follow", _lib.drupal_jsonapi_follow, _lib.drupal_jsonapi_follow_sync, KIND_DOCUMENT,
              _jsonapi_follow, Document),
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
#: The same step on a JSON:API pager: each page's Document (see Client.jsonapi_iter).
NEXT_DOCUMENT = Operation("next_page", _lib.drupal_pager_next, _lib.drupal_pager_next_sync, KIND_DOCUMENT_PAGE,
                          _next_page, Optional[Document])


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


# The methods below read the operation's fields once, when they are made: a method call then costs
# one Python call less (prepare) and no attribute look-ups on the entry (they run per request).

def _blocking(operation: Operation) -> Callable[..., Any]:
    arguments, default_kind = operation.arguments, operation.kind

    def method(self: Any, *args: Any, language: Optional[str] = None, **kwargs: Any) -> Any:
        prepared = arguments(*args, **kwargs)
        owner = self if language is None else self._language_owner(language)
        if prepared.__class__ is Call:
            return self._call_on(owner, operation, prepared.args, prepared.kind)
        return self._call_on(owner, operation, prepared, default_kind)
    _describe(method, operation.name, operation, operation.returns, operation.arguments.__doc__ or "")
    return method


def _submitting(operation: Operation) -> Callable[..., Any]:
    arguments, default_kind = operation.arguments, operation.kind

    def method(self: Any, *args: Any, language: Optional[str] = None, **kwargs: Any) -> DrupalFuture:
        prepared = arguments(*args, **kwargs)
        owner = None if language is None else self._language_owner(language)
        if prepared.__class__ is Call:
            return self._submit(operation, prepared.args, prepared.kind, owner)
        return self._submit(operation, prepared, default_kind, owner)
    _describe(method, "submit_" + operation.name, operation, DrupalFuture,
              "As :meth:`%s`, returning a ``concurrent.futures.Future`` at once." % operation.name)
    return method


def _awaiting(operation: Operation) -> Callable[..., Any]:
    arguments, default_kind = operation.arguments, operation.kind

    async def method(self: Any, *args: Any, language: Optional[str] = None, **kwargs: Any) -> Any:
        prepared = arguments(*args, **kwargs)
        owner = None if language is None else self._language_owner(language)
        if prepared.__class__ is Call:
            return await self._await(operation, prepared.args, prepared.kind, owner)
        return await self._await(operation, prepared, default_kind, owner)
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
