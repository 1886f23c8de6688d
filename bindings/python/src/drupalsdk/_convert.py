"""Python values into what the C API takes: UTF-8 strings, NULL-terminated arrays, JSON bodies.

Refused here is only what cannot be converted (a NUL would cut a C string, ``None`` or an object
has no text); what the library checks (paths, headers, JSON) is left to it.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence as SequenceABC
from ctypes import byref, string_at
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from . import _ffi
from ._errors import InvalidArgumentError

Id = Union[str, int]
Query = Union[Mapping, Sequence[Tuple[str, Any]], None]
HeadersArg = Union[Mapping, Sequence[Tuple[str, str]], Sequence[str], None]
Body = Union[bytes, bytearray, memoryview, dict, list, str, None]
#: A file's content, as ``content`` takes it.
Content = Union[bytes, bytearray, memoryview]
FilePath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

_dumps = json.JSONEncoder(separators=(",", ":")).encode

#: The largest size a C size_t option may hold here (what the library accepts: Int.max).
MAX_SIZE = 2 ** 63 - 1
#: What a C int and an unsigned int hold.
C_INT = (-2 ** 31, 2 ** 31 - 1)
C_UINT = (0, 2 ** 32 - 1)


def invalid(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message, code="DRUPAL_E_INVALID_ARGUMENT")


def text(value: Any, what: str = "argument") -> bytes:
    """A str (or bytes, or int id) as UTF-8 bytes for a `const char *`. A NUL would end the C
    string early (an id "12\\x003" would become "12"): refused, as the C API refuses it. The
    value itself is never quoted in the error: it may be a password or a token."""
    if type(value) is str:
        try:
            data = value.encode()
        except UnicodeEncodeError as error:
            raise invalid("%s is not valid Unicode (%s at position %d)" % (what, error.reason, error.start)) from None
    elif isinstance(value, bytes):
        data = value
    elif isinstance(value, int) and not isinstance(value, bool):
        return number_text(value, what)
    elif isinstance(value, str):
        return text(str(value), what)
    else:
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    if 0 in data:  # (an int: `b"\x00" in data` raises and clears a TypeError inside CPython first)
        raise invalid("%s contains a NUL character" % what)
    return data


def number_text(value: Union[int, float], what: str) -> bytes:
    """An int or a finite float as its decimal text (InvalidArgumentError for nan, inf, or an int
    longer than Python writes: its ValueError would be about sys.set_int_max_str_digits)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise invalid("%s is not a finite number" % what)
        return repr(value).encode()
    try:
        return str(value).encode()
    except ValueError:
        raise invalid("%s is an int too long to send (over Python's int_max_str_digits)" % what) from None


def not_text(value: Any, what: str, wanted: str) -> Any:
    """``value``, refused when it is one str or bytes where several items are wanted: iterated,
    it would be its characters (``"X-Api-Key"`` as nine names, none of them the header)."""
    if isinstance(value, (str, bytes, bytearray)):
        raise TypeError("%s must be %s, not a single %s" % (what, wanted, type(value).__name__))
    return value


def path_text(path: Any, what: str = "path") -> bytes:
    """A file system path (str, bytes or os.PathLike) as the bytes the C API opens: what
    ``open()`` would use, not ``str(path)`` (a bytes path's repr), UTF-8 or not (a str from
    ``os.listdir`` carries such bytes as surrogate escapes). A NUL is refused."""
    try:
        return text(os.fsencode(path), what)
    except TypeError:
        raise TypeError("%s must be a str, bytes or os.PathLike, not %s" % (what, type(path).__name__)) from None


def pair(item: Any, what: str, shape: str = "(name, value) pairs") -> Tuple[Any, Any]:
    """A pair. A str is refused, not unpacked: ``"ab"`` would be ``("a", "b")``."""
    if isinstance(item, (str, bytes, bytearray)) or not isinstance(item, SequenceABC) or len(item) != 2:
        raise TypeError("%s must be %s, not %s" % (what, shape, type(item).__name__))
    return item[0], item[1]


def content(value: Any, what: str = "data") -> bytes:
    """A file's content: bytes, bytearray or memoryview. Anything else is refused: ``bytes(16)``
    would be sixteen NULs, and ``bytes(10**12)`` would allocate a terabyte first."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise TypeError("%s must be bytes, bytearray or memoryview, not %s" % (what, type(value).__name__))


def value_text(value: Any, what: str = "query value") -> bytes:
    """A query or header value: text, a number, or a bool as "1"/"0" (never Python's repr)."""
    if isinstance(value, (str, bytes)):
        return text(value, what)
    if isinstance(value, bool):
        return b"1" if value else b"0"
    if isinstance(value, (int, float)):
        return number_text(value, what)
    raise TypeError("%s must be a str, bytes, number or bool, not %s" % (what, type(value).__name__))


def json_body(body: Any) -> bytes:
    """An entity body: a dict/list (serialised) or JSON text already encoded."""
    if isinstance(body, (dict, list)):
        return _dumps(body).encode()
    if isinstance(body, bytes):
        return body
    if isinstance(body, (bytearray, memoryview)):
        return bytes(body)
    if isinstance(body, str):
        return text(body, "body")
    raise TypeError("body must be a dict, list, bytes or str, not %s" % type(body).__name__)


def query_array(query: Query):  # type: ignore[no-untyped-def]
    """A NULL-terminated name, value, ... array for the C API, or None. A list or tuple value
    repeats the name once per item (``{"id": [1, 2]}`` is ``id=1&id=2``)."""
    if not query:
        return None
    if isinstance(query, Mapping):
        items: Iterable[Tuple[Any, Any]] = query.items()
    else:
        items = [pair(item, "query items") for item in not_text(query, "query", "a mapping or (name, value) pairs")]
    flat: List[bytes] = []
    for name, value in items:
        name_bytes = text(name, "query name")
        for item in value if isinstance(value, (list, tuple)) else (value,):
            flat.append(name_bytes)
            flat.append(value_text(item, "query value of %s" % name_bytes.decode("utf-8", "replace")))
    return _ffi.string_array(flat)


def header_array(headers: HeadersArg):  # type: ignore[no-untyped-def]
    """NULL-terminated "Name: value" lines, or None. The library refuses control characters but a tab."""
    if not headers:
        return None
    items: Iterable[Any] = headers.items() if isinstance(headers, Mapping) else \
        not_text(headers, "headers", "a mapping, (name, value) pairs or 'Name: value' lines")
    lines: List[bytes] = []
    for item in items:
        if isinstance(item, (str, bytes)):
            lines.append(text(item, "header"))
        else:
            name, value = pair(item, "headers")
            name_bytes = text(name, "header name")
            lines.append(name_bytes + b": " + value_text(value, "header " + name_bytes.decode("utf-8", "replace")))
    return _ffi.string_array(lines)


def request_options(query: Query, headers: HeadersArg, body: Body, format: bool):  # type: ignore[no-untyped-def]
    """A drupal_request_options (by reference: ctypes keeps the struct alive with it), or None."""
    if not query and not headers and body is None and format:
        return None
    options = _ffi.RequestOptions(_ffi.DRUPAL_REQUEST_OPTIONS_VERSION)
    array = query_array(query)
    if array is not None:
        options.query = array
    array = header_array(headers)
    if array is not None:
        options.headers = array
    if body is not None:
        data = json_body(body)
        options.body = data
        options.body_length = len(data)
    options.no_format = 0 if format else 1
    return byref(options)


def take_string(pointer: Optional[int]) -> str:
    """An owned char * from the library, as str (freed with drupal_free)."""
    if not pointer:
        return ""
    try:
        return string_at(pointer).decode("utf-8", "replace")
    finally:
        _ffi.lib.drupal_free(pointer)


# Numbers: refused here is only what the C field cannot carry. The range an option allows is the
# library's to check, one rule (and one message) for every language.

def seconds(value: Any, what: str) -> float:
    """A number of seconds for a C double (bools are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("%s must be a number of seconds, not %s" % (what, type(value).__name__))
    try:
        return float(value)
    except OverflowError:   # an int too big for a double: still out of any range
        return math.inf if value > 0 else -math.inf


def c_int(value: Any, what: str, field: Tuple[int, int] = C_INT) -> int:
    """An int for a C field holding field[0]..field[1] (bools are not ints here)."""
    if not isinstance(value, int) or isinstance(value, bool) or not field[0] <= value <= field[1]:
        raise invalid("%s must be an int from %d to %d" % (what, field[0], field[1]))
    return value


def nonzero(number: Any, what: str) -> Any:
    """``number``, refused when 0: the C field reads 0 as "the default", which Python spells None
    (or leaves out)."""
    if number == 0:
        raise invalid("%s cannot be 0 (leave it out for the default)" % what)
    return number
