"""Turning a C response into Python values: the Response class and the per-kind converters."""
from __future__ import annotations

import json
import re
from ctypes import byref, c_int
from typing import Any, Callable, Optional, Tuple, cast

from . import _ffi, _readers
from ._errors import DecodeError, DrupalError, Headers
from ._jsonapi_document import Document

__all__ = ["Response"]

_free = _ffi.response_free
_logged_in = _ffi.lib.drupal_response_logged_in
_retain = _ffi.lib.drupal_response_retain
_status = _ffi.response_status
_langcode = _ffi.lib.drupal_response_langcode
_body = _readers.response_body
_UNREAD = object()
def _refuse_constant(name: str) -> Any:
    raise ValueError("%s is not JSON" % name)


# Strict JSON, as the C helpers read it: NaN and Infinity are refused. Decoded with the json
# module's C scanner directly: JSONDecoder.decode would add two Python calls per answer (decode,
# raw_decode), a measurable share of a call that costs ~90k instructions in all.
_decoder = json.JSONDecoder(parse_constant=_refuse_constant)
# JSONDecoder.__init__ sets scan_once (json.scanner.make_scanner(self)); typeshed does not declare it.
_scan: Callable[[str, int], Tuple[Any, int]] = _decoder.scan_once  # type: ignore[attr-defined]
# A pattern that matches the empty string matches at any position: never None.
_space = cast("Callable[[str, int], re.Match[str]]", re.compile(r"[ \t\n\r]*").match)
_WHITESPACE = (" ", "\t", "\n", "\r")


def _decode_json(text: str) -> Any:
    """What JSONDecoder.decode does, with the same errors."""
    start = _space(text, 0).end() if text[:1] in _WHITESPACE else 0
    try:
        value, end = _scan(text, start)
    except StopIteration as stop:
        raise json.JSONDecodeError("Expecting value", text, stop.value) from None
    if end != len(text) and _space(text, end).end() != len(text):
        raise json.JSONDecodeError("Extra data", text, _space(text, end).end())
    return value


def _loads(data: bytes) -> Any:
    """bytes -> value, strict; RecursionError (a body nested 100,000 deep) becomes ValueError."""
    try:
        return _decode_json(data.decode("utf-8"))
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None


class Response:
    """The answer to :meth:`Client.request`: status, headers, body.

    ``status`` and ``content`` are read when the call ends; ``headers`` and ``langcode`` are read
    from the C response the first time either is asked for (the C response is then released; it
    is also released by :meth:`close`, by leaving ``with response:``, or when the object is
    collected).
    """

    __slots__ = ("status", "content", "_handle", "_headers", "_error", "_langcode")

    def __init__(self, status: int, content: bytes, handle: Optional[int] = None,
                 headers: Optional[Headers] = None, error: Optional[DrupalError] = None) -> None:
        self.status: int = status
        self.content: bytes = content
        self._handle = handle
        self._headers = headers
        self._error = error
        self._langcode: Any = _UNREAD

    def _read_handle(self) -> None:
        handle = self._handle
        if self._headers is None:
            self._headers = _readers.response_headers(handle) if handle else Headers()
        if self._langcode is _UNREAD:
            value = _langcode(handle) if handle else None
            self._langcode = None if value is None else value.decode("utf-8", "replace")
        self.close()

    @property
    def headers(self) -> Headers:
        """The response headers, a case-insensitive read-only mapping."""
        if self._headers is None:
            self._read_handle()
        return self._headers  # type: ignore[return-value]

    @property
    def langcode(self) -> Optional[str]:
        """The langcode of the entity the answer carries (core REST's ``langcode`` field, JSON:API's
        ``data.attributes.langcode``), or None: a read in a language of an entity without that
        translation answers the original, in its own langcode."""
        if self._langcode is _UNREAD:
            self._read_handle()
        return self._langcode

    @property
    def text(self) -> str:
        """The body decoded as UTF-8 (invalid bytes replaced)."""
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        """The body parsed as JSON; :class:`DecodeError` if it is not JSON."""
        try:
            return _loads(self.content)
        except ValueError as error:
            raise DecodeError("the response body is not JSON: %s" % error, code="DRUPAL_E_DECODE",
                              status=self.status, body=self.content, headers=self.headers) from None

    @property
    def ok(self) -> bool:
        """True for a status below 400 (always, unless the request asked for error answers)."""
        return self.status < 400

    @property
    def error(self) -> Optional[DrupalError]:
        """For a status of 400 or more: the exception the request would have raised, else None."""
        return self._error

    def raise_for_status(self) -> None:
        """Raises :attr:`error` (e.g. :class:`NotFoundError` for a 404) if there is one."""
        if self._error is not None:
            raise self._error

    def close(self) -> None:
        """Releases the C response (headers not read by then are lost). Idempotent."""
        handle = self._handle
        if handle:
            self._handle = None
            _free(handle)

    def __enter__(self) -> "Response":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except BaseException:
            pass

    def __repr__(self) -> str:
        return "<Response [%d] %d bytes>" % (self.status, len(self.content))


# ---- Converters: (borrowed response, owned?) -> value. Run only for DRUPAL_OK. ---------------------

KIND_JSON = 0       # dict or list from the body
KIND_NONE = 1       # None (delete, logout)
KIND_BOOL = 2       # body "1" -> True
KIND_TEXT = 3       # body as str (csrf token)
KIND_RESPONSE = 4   # a Response (keeps the C response for lazy headers)
KIND_ANSWER = 5     # a Response for every answer, status >= 400 too (request(raise_for_status=False))
KIND_PAGE = 6       # a page's rows (list), or None once a pager has no more pages
KIND_DOCUMENT = 7   # a JSON:API Document (None for an empty body: 204)
KIND_DOCUMENT_PAGE = 8  # a JSON:API page's Document, or None once a pager has no more pages


def _decode_failure(response: int, body: bytes, error: Exception) -> DecodeError:
    return DecodeError("the response body is not JSON: %s" % error, code="DRUPAL_E_DECODE",
                       status=_status(response), body=body, headers=_readers.response_headers(response))


def _document(response: Optional[int]) -> Any:
    if response is None:
        return None
    body = _body(response)
    if not body:
        return None
    try:
        raw = _loads(body)
    except ValueError as error:
        raise _decode_failure(response, body, error) from None
    if not isinstance(raw, dict):
        raise _decode_failure(response, body, ValueError("a JSON:API document is a JSON object"))
    return Document(raw)


def returns_answer(kind: int, code: int) -> bool:
    """Whether a call of this kind that ended with `code` gives a value rather than raising."""
    return code == 0 or (kind == KIND_ANSWER and code == _ffi.DRUPAL_E_HTTP)


def convert(kind: int, response: Optional[int], owned: bool, code: int = 0) -> Any:
    """The value of a call for which ``returns_answer`` holds. Takes over an owned response only for
    KIND_RESPONSE and KIND_ANSWER."""
    if kind == KIND_PAGE:
        if response is None:
            return None
        kind = KIND_JSON
    if kind == KIND_DOCUMENT or kind == KIND_DOCUMENT_PAGE:
        return _document(response)
    # Only a pager's end has no response (DRUPAL_OK with NULL, the C API's one such case): the
    # pager kinds, answered above.
    assert response is not None
    if kind == KIND_JSON:
        body = _body(response)
        try:
            return _loads(body)
        except ValueError as failure:  # UnicodeDecodeError, JSONDecodeError, depth alike
            raise _decode_failure(response, body, failure) from None
    if kind == KIND_NONE:
        return None
    if kind == KIND_RESPONSE or kind == KIND_ANSWER:
        error = _readers.response_error(code, response) if code else None
        return Response(_status(response), _body(response), response if owned else _retain(response), error=error)
    if kind == KIND_BOOL:  # the library reads Drupal's login status answer
        value = c_int()
        code = _logged_in(byref(value), response)
        if code:
            raise _ffi.last_error(code)
        return value.value == 1
    return _body(response).decode("utf-8", "replace")
