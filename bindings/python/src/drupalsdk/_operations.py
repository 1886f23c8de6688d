"""Every operation of the binding, described once: its C functions, how its arguments convert, what
its answer becomes. ``Client`` (blocking and ``submit_*`` futures) and ``AsyncClient`` (awaitable)
get their methods from this table (:func:`install`), so a new operation is one entry here.

Each entry's ``arguments`` function is also the methods' signature and docstring; they live in
``_operation_args`` (core) and ``_jsonapi_operation_args`` (JSON:API), the entry's shape in
``_operation_types``.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List, Optional

from . import _ffi
from ._calls import DrupalFuture
from ._jsonapi_document import Document
from ._jsonapi_operation_args import (_jsonapi_add_relationship, _jsonapi_collection, _jsonapi_create,
                                      _jsonapi_delete, _jsonapi_entry_point, _jsonapi_follow, _jsonapi_get,
                                      _jsonapi_related, _jsonapi_relationship, _jsonapi_remove_relationship,
                                      _jsonapi_replace_relationship, _jsonapi_update, _jsonapi_upload,
                                      _jsonapi_upload_path, resource_type)
from ._operation_args import (_create, _csrf_refresh, _delete, _download, _download_file, _get, _login,
                              _login_status, _logout, _next_page, _oauth_authenticate, _register, _request,
                              _reset_password, _resolve_path, _update, _upload_file, _upload_file_path, _view)
from ._operation_types import Call, Entity, EntityBody, Operation, ResourceType, Target  # noqa: F401
from ._response import (KIND_BOOL, KIND_DOCUMENT, KIND_DOCUMENT_PAGE, KIND_JSON, KIND_NONE, KIND_PAGE, KIND_RESPONSE,
                        KIND_TEXT, Response)

__all__ = ["Operation", "OPERATIONS", "NEXT_PAGE", "NEXT_DOCUMENT", "install", "resource_type"]

_lib = _ffi.lib


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
    # cleandoc first: the arguments' docstring is indented as in its source, the paragraph added is not.
    method.__doc__ = inspect.cleandoc(doc) + "\n" + _LANGUAGE_DOC
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
            return self._call_on(owner, operation, prepared[0], prepared[1])
        return self._call_on(owner, operation, prepared, default_kind)
    _describe(method, operation.name, operation, operation.returns, operation.arguments.__doc__ or "")
    return method


def _submitting(operation: Operation) -> Callable[..., Any]:
    arguments, default_kind = operation.arguments, operation.kind

    def method(self: Any, *args: Any, language: Optional[str] = None, **kwargs: Any) -> DrupalFuture[Any]:
        prepared = arguments(*args, **kwargs)
        owner = None if language is None else self._language_owner(language)
        if prepared.__class__ is Call:
            return self._submit(operation, prepared[0], prepared[1], owner)
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
            return await self._await(operation, prepared[0], prepared[1], owner)
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
