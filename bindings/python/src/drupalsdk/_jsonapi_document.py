"""JSON:API documents as Python objects: a :class:`Document` (the raw dict always at ``.raw``)
whose :class:`Resource` objects resolve their relationships to the ``included`` resources.

Resolution is lazy and builds no reference cycles: the document indexes ``included`` by (type,
id) the first time a relationship is resolved, and each resolved resource is a new small object
pointing at the same document. A member of the wrong shape (a resource that is not an object,
attributes that are a number) raises :class:`DecodeError` where it is read: the server's
answer is not JSON:API there. Note that a sparse fieldset (``add_fields``) can drop the very
relationship that links a resource to what ``include`` added: the included resources are then in
``document.included`` but no resource leads to them.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from ._errors import DecodeError

__all__ = ["Document", "Resource"]

Identifier = Tuple[str, str]


class _LinksAndMeta:
    """The `links` and `meta` members a document and a resource object both have."""
    __slots__ = ()
    raw: Dict[str, Any]

    @property
    def links(self) -> Dict[str, Any]:
        """The links ({} if none)."""
        return _object_member(self, "links")

    @property
    def meta(self) -> Dict[str, Any]:
        """The meta ({} if none)."""
        return _object_member(self, "meta")


class Document(_LinksAndMeta):
    """A JSON:API document: ``data`` (a resource, a list, or None), ``included``, ``links``,
    ``meta``. Iterating a document iterates its primary resources."""

    __slots__ = ("raw", "_index")

    def __init__(self, raw: Dict[str, Any]) -> None:
        if not isinstance(raw, dict):
            raise TypeError("a JSON:API document is a JSON object, not %s" % type(raw).__name__)
        self.raw = raw
        self._index: Optional[Dict[Any, Dict[str, Any]]] = None

    @property
    def data(self) -> Union["Resource", List["Resource"], None]:
        """The primary data: a :class:`Resource`, a list of them (collections), or None."""
        data = _primary(self.raw)
        if isinstance(data, list):
            return _resources(data, self, "data")
        return None if data is None else Resource(data, self)

    @property
    def resources(self) -> List["Resource"]:
        """The primary resources as a list, for collections and individual reads alike."""
        data = _primary(self.raw)
        if isinstance(data, list):
            return _resources(data, self, "data")
        return [] if data is None else [Resource(data, self)]

    @property
    def included(self) -> List["Resource"]:
        return _resources(_list_member(self.raw, "included"), self, "included")

    def link(self, name: str) -> Optional[str]:
        """The href of a top-level link ("next", "self"), or None when absent or null; DecodeError
        if it is neither a URL nor an object with a string href."""
        return _href(self.links.get(name), name)

    @property
    def resource_types(self) -> Dict[str, str]:
        """Of the entry point (``/jsonapi``): every resource type ("node--article") and its URL."""
        types = {name: _href(link, name) for name, link in self.links.items() if "--" in name}
        return {name: href for name, href in types.items() if href is not None}

    @property
    def next(self) -> Optional[str]:
        """The next page's URL, or None on the last page (Drupal gives no ``last`` and no count);
        DecodeError for a link of the wrong shape, which is not the last page."""
        return _href(self.links.get("next"), "next")

    def find(self, type: str, id: str) -> Optional["Resource"]:
        """The included resource with this type and id, or None."""
        found = self._lookup(type, id)
        return None if found is None else Resource(found, self)

    def _lookup(self, type: Any, id: Any) -> Optional[Dict[str, Any]]:
        found = self._by_id().get(id)
        if found is not None and found.get("type") == type:
            return found
        # Ids are UUIDs, so one id with two types is all but impossible: then search them all.
        for item in _list_member(self.raw, "included"):   # all objects: _by_id checked them
            if item.get("id") == id and item.get("type") == type:
                return item
        return None

    def _by_id(self) -> Dict[Any, Dict[str, Any]]:
        """``included`` indexed by id, built on the first lookup (first of an id wins)."""
        index = self._index
        if index is None:
            # An item that is not an object is the server's error, as in `included`: skipping it
            # would read the resource it should have been as "not included".
            included = _list_member(self.raw, "included")
            for position, item in enumerate(included):
                if item.__class__ is not dict:
                    raise _not_json_api("included[%d] is not a resource object" % position)
            index = self._index = {item.get("id"): item for item in reversed(included)}
        return index

    def __iter__(self) -> Iterator["Resource"]:
        return iter(self.resources)

    def __len__(self) -> int:
        data = _primary(self.raw)
        return len(data) if isinstance(data, list) else (0 if data is None else 1)

    def __repr__(self) -> str:
        return "<Document %d resource(s), %d included>" % (len(self), len(_list_member(self.raw, "included")))


class Resource(_LinksAndMeta):
    """One resource object. ``resource["title"]`` reads an attribute; ``resource.related("uid")``
    gives the included resource(s) a relationship points to."""

    __slots__ = ("raw", "document")

    def __init__(self, raw: Dict[str, Any], document: Optional[Document] = None) -> None:
        self.raw = raw
        self.document = document

    @property
    def type(self) -> str:
        return self.raw.get("type", "")

    @property
    def id(self) -> str:
        return self.raw.get("id", "")

    @property
    def attributes(self) -> Dict[str, Any]:
        """The attributes ({} if none)."""
        return _object_member(self, "attributes")

    @property
    def relationships(self) -> Dict[str, Any]:
        """The relationships as Drupal sent them ({} if none)."""
        return _object_member(self, "relationships")

    def __getitem__(self, name: str) -> Any:
        """An attribute (KeyError if the resource has none of that name)."""
        try:   # the common case costs no check: this runs for every attribute a caller reads
            return self.raw["attributes"][name]
        except (KeyError, TypeError):   # no such name, no attributes, or not an object (raises)
            return _object_member(self, "attributes")[name]

    def get(self, name: str, default: Any = None) -> Any:
        """An attribute, or ``default``."""
        attributes = self.raw.get("attributes")
        if attributes.__class__ is not dict:
            attributes = _object_member(self, "attributes")
        return attributes.get(name, default)

    def _linkage(self, field: str) -> Any:
        """A relationship's ``data`` as sent (None when the resource does not carry it). Its shape
        is checked where it is read: `related` runs for every relationship a caller reads."""
        relationships = self.raw.get("relationships")
        if relationships.__class__ is not dict:
            relationships = _object_member(self, "relationships")
        relationship = relationships.get(field)
        if relationship.__class__ is dict:
            return relationship.get("data")
        if relationship is None:
            return None
        raise _not_json_api("relationship %r is not an object" % field)

    def identifiers(self, field: str) -> List[Identifier]:
        """The (type, id) pairs of a relationship: one for a to-one, the list for a to-many,
        none for ``data: null`` or a relationship the resource does not carry. DecodeError when
        an identifier is not an object with a string type and id."""
        data = self._linkage(field)
        items = data if data.__class__ is list else ([] if data is None else [data])
        pairs = []
        for item in items:
            kind, id = (item.get("type"), item.get("id")) if item.__class__ is dict else (None, None)
            if type(kind) is not str or type(id) is not str:   # (type(): mypy narrows on it)
                raise _not_identifiers(field)
            pairs.append((kind, id))
        return pairs

    def related(self, field: str) -> Union["Resource", List["Resource"], None]:
        """What a relationship points to, from the document's ``included``: a :class:`Resource`
        (or None) for a to-one relationship, a list for a to-many one. Identifiers whose resource
        was not included (not asked for, or no access) are left out."""
        # The common case costs no check; an absent relationship or one of the wrong shape goes
        # through _linkage (which raises for the latter).
        try:
            data = self.raw["relationships"][field]["data"]
        except (KeyError, TypeError):
            data = self._linkage(field)
        document = self.document
        if document is None:
            return [] if data.__class__ is list else None
        # The common case inline (this runs for every relationship a caller reads): the id's
        # entry in the index, of the right type; anything else goes through _lookup.
        by_id = document._index
        if by_id is None:
            by_id = document._by_id()
        try:
            if data.__class__ is dict:
                found = by_id.get(data.get("id"))
                if found is None or found.get("type") != data.get("type"):
                    found = _lookup_identifier(document, data, field)
                return None if found is None else Resource(found, document)
            if data.__class__ is not list:
                if data is None:
                    return None
                raise _not_identifiers(field)
            related = []
            for item in data:
                found = by_id.get(item.get("id"))
                if found is None or found.get("type") != item.get("type"):
                    found = _lookup_identifier(document, item, field)
                if found is not None:
                    related.append(Resource(found, document))
        except (AttributeError, TypeError):   # an identifier that is not an object, an unhashable id
            raise _not_identifiers(field) from None
        return related

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Resource) and (other.type, other.id) == (self.type, self.id)

    def __hash__(self) -> int:
        return hash((self.type, self.id))

    def __repr__(self) -> str:
        return "<Resource %s %s>" % (self.type, self.id)


def _not_json_api(what: str) -> DecodeError:
    return DecodeError("the answer is not a JSON:API document: %s" % what, code="DRUPAL_E_DECODE")


def _not_identifiers(field: str) -> DecodeError:
    return _not_json_api("the data of relationship %r is not resource identifiers" % field)


def _lookup_identifier(document: Document, identifier: Dict[str, Any], field: str) -> Optional[Dict[str, Any]]:
    """The slow path of `related`: where an id of the wrong type (5, not "5") is caught, since it
    is never found in the index."""
    type, id = identifier.get("type"), identifier.get("id")
    if type.__class__ is not str or id.__class__ is not str:
        raise _not_identifiers(field)
    return document._lookup(type, id)


def _primary(raw: Dict[str, Any]) -> Any:
    """The primary data: a resource object, a list, or None (absent or null)."""
    data = raw.get("data")
    if data is None or isinstance(data, (dict, list)):
        return data
    raise _not_json_api("data is %s, not a resource, a list or null" % type(data).__name__)


def _object_member(holder: Any, name: str) -> Dict[str, Any]:
    """An object member ({} when absent or null)."""
    value = holder.raw.get(name)
    if value is None:
        return {}
    if value.__class__ is not dict:
        raise _not_json_api("%s is not an object" % name)
    return value


def _list_member(raw: Dict[str, Any], name: str) -> List[Any]:
    """A list member ([] when absent or null)."""
    value = raw.get(name)
    if value is None:
        return []
    if value.__class__ is not list:
        raise _not_json_api("%s is not a list" % name)
    return value


def _resources(items: List[Any], document: Document, name: str) -> List["Resource"]:
    resources = [Resource(item, document) for item in items if item.__class__ is dict]
    if len(resources) < len(items):
        index = next(index for index, item in enumerate(items) if item.__class__ is not dict)
        raise _not_json_api("%s[%d] is not a resource object" % (name, index))
    return resources


def _href(link: Any, name: str) -> Optional[str]:
    """A link's URL (None when absent or null): {"href": 5} must not read as "no next page"."""
    if link is None or isinstance(link, str):
        return link
    if isinstance(link, dict) and isinstance(link.get("href"), str):
        return link["href"]
    raise _not_json_api("link %r is not a URL or an object with a string href" % name)
