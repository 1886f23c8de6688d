"""The ``arguments`` functions of the JSON:API operations (resources, collections, relationships,
uploads) and ``resource_type``. Each docstring is the methods' docstring and each signature their
signature (see ``_operations``)."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

from ._convert import Content, FilePath, Id, content, json_body, path_text, text
from ._jsonapi_document import Document, Resource
from ._jsonapi_query import Query as JSONAPIQuery, query_handle
from ._operation_types import ResourceType, Target
from ._transfers import Progress, transfer_options


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
        # An identifier's meta is data of the reference itself: an image's alt and title.
        if "meta" in target:
            return {"type": target["type"], "id": target["id"], "meta": target["meta"]}
        return {"type": target["type"], "id": target["id"]}
    raise TypeError("a relationship target is a Resource, a (type, id) pair or a {type, id[, meta]} dict, not %s"
                    % type(target).__name__)


def _linkage(target: Target) -> Any:
    return [_identifier(item) for item in target] if isinstance(target, list) else _identifier(target)


def _resource_document(type: ResourceType, id: Optional[Id], attributes: Optional[Dict[str, Any]],
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


def _jsonapi_upload(type: ResourceType, field: str, filename: str, data: Content, *,
                    id: Optional[str] = None) -> Tuple[Any, ...]:
    """Uploads ``data`` (bytes, bytearray or memoryview) to a JSON:API file field: to ``/{field}`` (a
    temporary file to reference), or with ``id`` to ``/{id}/{field}`` (attached to that resource).
    Returns the file's :class:`Document`."""
    data = content(data)
    return (resource_type(type), None if id is None else text(id, "id"), text(field, "field"),
            text(filename, "filename"), data, len(data))


def _jsonapi_upload_path(type: ResourceType, field: str, path: FilePath, *, id: Optional[str] = None,
                         filename: Optional[str] = None, progress: Optional[Progress] = None) -> Tuple[Any, ...]:
    """Uploads the file at ``path`` (str, bytes or os.PathLike; UTF-8 or not) to a JSON:API file
    field, streamed as it is sent (never read whole): to ``/{field}`` (a temporary file to reference), or with ``id``
    to ``/{id}/{field}`` (attached to that resource).

    Args:
        filename: the name Drupal stores (default: the path's base name, which must then be
            UTF-8); quotes and control characters are refused (InvalidArgumentError).
        progress: ``progress(sent, total)`` on a library thread as the bytes go (total: the file's
            size); return False to cancel (:class:`CancelledError`). One that raises cancels
            too, its exception the CancelledError's ``__cause__``.
    Returns:
        the file's :class:`Document`. A path that is not a readable regular file is
        InvalidArgumentError before anything is sent.
    """
    return (resource_type(type), None if id is None else text(id, "id"), text(field, "field"),
            path_text(path), None if filename is None else text(filename, "filename"),
            transfer_options(progress))


def _jsonapi_entry_point() -> Tuple[Any, ...]:
    """GETs ``/jsonapi``: links to every resource type; ``meta.links.me`` names the logged-in user."""
    return ()


def _jsonapi_follow(link: str) -> Tuple[Any, ...]:
    """GETs a link a document gave (``document.next``, a ``links.related``); it must be under the
    base URL."""
    return (text(link, "link"),)
