"""JSON:API queries: the library's query builder (drupal_jsonapi_query) behind the method names
of drupal-jsonapi-params, so code written for that library carries over::

    query = (Query().add_group("or", "OR")
             .add_filter("title", "Article 1", member_of="or")
             .add_filter("uid.name", "editor", member_of="or")
             .add_include(["uid", "field_tags"]).add_sort("title", "DESC").add_page_limit(10))
    query.get_query_string()  # the string drupal-jsonapi-params gives for the same calls

Every method checks its input in the library (an unknown operator such as LIKE, a list on an
operator taking one value, page limit 0): InvalidArgumentError, with the query unchanged (also
by ``add_include`` and ``add_custom_param``, whose items are all checked before any is added).
"""
from __future__ import annotations

from ctypes import byref, c_void_p
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from . import _ffi
from ._convert import invalid, number_text, take_string, text
from ._managed import Managed, new_handle

__all__ = ["Query", "query_handle"]

_lib = _ffi.lib
FilterValue = Union[str, int, float, Sequence[Union[str, int, float]], None]


def _value(value: Any, what: str) -> bytes:
    if isinstance(value, bool):
        return b"1" if value else b"0"
    if isinstance(value, float):
        return number_text(value, what)
    return text(value, what)


class Query(Managed):
    """A JSON:API query (filters, groups, sort, paging, include, sparse fieldsets). Methods
    return the query, so calls chain. Calls copy the query when they start."""

    def __init__(self) -> None:
        new_handle()
        out = c_void_p()
        _ffi.check(_lib.drupal_jsonapi_query_new(byref(out)))
        self._adopt(out.value)  # type: ignore[arg-type]

    @staticmethod
    def _free_handle(handle: int) -> None:
        _lib.drupal_jsonapi_query_free(handle)

    def _change(self, function: Any, *args: Any) -> "Query":
        handle = self._enter()
        try:
            _ffi.check(function(handle, *args))
        finally:
            self._exit()
        return self

    def _change_all(self, changes: Sequence[Sequence[Any]]) -> "Query":
        """Makes several changes (function, *args), all or none: the library checks each one on
        its own, so each is first made on a scratch query, where a refusal changes nothing here."""
        if len(changes) > 1:
            with Query() as scratch:
                for change in changes:
                    scratch._change(*change)
        for change in changes:
            self._change(*change)
        return self

    def add_filter(self, path: str, value: FilterValue, operator: str = "=", member_of: Optional[str] = None,
                   key: Optional[str] = None) -> "Query":
        """A condition: ``("title", "Art", "STARTS_WITH")``; a list for IN, NOT IN, BETWEEN and
        NOT BETWEEN; None for IS NULL and IS NOT NULL. ``member_of`` joins a group; ``key``
        names the condition in the query. Values are percent-encoded: any text goes as given,
        tabs and line breaks too (a NUL is refused)."""
        member = None if member_of is None else text(member_of, "member_of")
        name = None if key is None else text(key, "key")
        if isinstance(value, (list, tuple)):
            values = [_value(item, "value") for item in value]
            return self._change(_lib.drupal_jsonapi_query_filter_values, text(path, "path"), text(operator, "operator"),
                                _ffi.string_array(values), member, name)
        return self._change(_lib.drupal_jsonapi_query_filter, text(path, "path"), text(operator, "operator"),
                            None if value is None else _value(value, "value"), member, name)

    def add_group(self, name: str, conjunction: str = "OR", member_of: Optional[str] = None) -> "Query":
        """A condition group ("AND" or "OR"); conditions and groups join it with ``member_of``."""
        return self._change(_lib.drupal_jsonapi_query_group, text(name, "name"), text(conjunction, "conjunction"),
                            None if member_of is None else text(member_of, "member_of"))

    def add_sort(self, path: str, direction: Optional[str] = None) -> "Query":
        """Sorts by a field or path; ``direction`` "ASC" (default) or "DESC"."""
        if direction is not None and str(direction).upper() not in ("ASC", "DESC"):
            raise invalid('the sort direction must be "ASC" or "DESC"')
        descending = direction is not None and str(direction).upper() == "DESC"
        return self._change(_lib.drupal_jsonapi_query_sort, text(path, "path"), 1 if descending else 0)

    def add_include(self, paths: Iterable[str]) -> "Query":
        """Relationship paths whose resources come back in ``included`` (``["uid", "field_tags"]``)."""
        if isinstance(paths, (str, bytes)):
            raise invalid("add_include takes a list of paths")
        return self._change_all([(_lib.drupal_jsonapi_query_include, text(path, "path")) for path in paths])

    def add_fields(self, resource_type: str, fields: Iterable[str]) -> "Query":
        """A sparse fieldset. A relationship left out cannot link a resource to what is included."""
        if isinstance(fields, (str, bytes)):
            raise invalid("add_fields takes a list of field names")
        names = [text(field, "field") for field in fields]
        if any(b"," in name for name in names):
            raise invalid("a field name cannot contain a comma")
        return self._change(_lib.drupal_jsonapi_query_fields, text(resource_type, "resource_type"), b",".join(names))

    def add_page_limit(self, limit: int) -> "Query":
        """page[limit] (Drupal caps it at 50 without an error)."""
        return self._change(_lib.drupal_jsonapi_query_page_limit, _size(limit, "limit"))

    def add_page_offset(self, offset: int) -> "Query":
        """page[offset]."""
        return self._change(_lib.drupal_jsonapi_query_page_offset, _size(offset, "offset"))

    def add_resource_version(self, version: str) -> "Query":
        """resourceVersion: "rel:latest-version", "rel:working-copy" or "id:<revision id>"."""
        return self._change(_lib.drupal_jsonapi_query_resource_version, text(version, "version"))

    def add_custom_param(self, params: Mapping[str, Any]) -> "Query":
        """Other query parameters, e.g. ``{"resourceVersion": "rel:latest-version"}``."""
        return self._change_all([
            (_lib.drupal_jsonapi_query_resource_version, text(value, "version")) if name == "resourceVersion"
            else (_lib.drupal_jsonapi_query_param, text(name, "name"), _value(value, "value"))
            for name, value in params.items()])

    def get_query_string(self) -> str:
        """The encoded query string, without "?"."""
        handle = self._enter()
        try:
            out = c_void_p()
            _ffi.check(_lib.drupal_jsonapi_query_string(byref(out), handle))
            return take_string(out.value)
        finally:
            self._exit()

    def __repr__(self) -> str:
        return "Query(%r)" % (self.get_query_string() if not self.closed else "<closed>")


def _size(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2 ** 63:
        raise invalid("%s must be an int from 0 to 2**63 - 1" % what)
    return value


def query_handle(query: Optional[Query]) -> Optional[int]:
    """The C handle of a query argument (None for none). The call copies the query at once."""
    if query is None:
        return None
    if not isinstance(query, Query):
        raise TypeError("query must be a drupalsdk.Query, not %s" % type(query).__name__)
    if query.closed:
        raise invalid("the query is closed")
    return query._handle
