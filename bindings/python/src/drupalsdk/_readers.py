"""Reading a C response into Python values: its body, headers, and the exception it stands for
(code, kind, status, Drupal's message, violations, JSON:API errors)."""
from __future__ import annotations

from ctypes import byref, c_char_p, c_size_t
from typing import List, Optional

from . import _errors, _ffi
from ._ffi import DRUPAL_OK, code_name, lib

__all__ = ["response_headers", "response_body", "response_error", "response_jsonapi_errors"]

_response_status = _ffi.response_status
_response_message = lib.drupal_response_error_message
_response_body = _ffi.response_body
_header_count = lib.drupal_response_header_count
_header_at = lib.drupal_response_header_at
_violation_count = lib.drupal_response_violation_count
_violation_at = lib.drupal_response_violation_at
_drupal_message = lib.drupal_response_drupal_message
_jsonapi_error_count = lib.drupal_response_jsonapi_error_count
_jsonapi_error_member_at = lib.drupal_response_jsonapi_error_member_at
_oauth_error = lib.drupal_response_oauth_error


def _text(value: "Optional[bytes]") -> str:
    return value.decode("utf-8", "replace") if value else ""


def response_jsonapi_errors(response: int) -> "List[_errors.ErrorObject]":
    """Every JSON:API error entry of a response, each with all its members."""
    entries = []
    name = c_char_p()
    value = c_char_p()
    for index in range(_jsonapi_error_count(response)):
        members = {}
        member = 0
        while _jsonapi_error_member_at(byref(name), byref(value), response, index, member) == DRUPAL_OK:
            members[_text(name.value)] = _text(value.value)
            member += 1
        entries.append(_errors.ErrorObject(members.get("title"), members.get("status"), members.get("detail"),
                                           members.get("code"), members.get("source.pointer"), members))
    return entries


def response_oauth_error(response: int) -> "Optional[_errors.OAuthError]":
    """The OAuth error of a response (token document or Bearer challenge), if any."""
    error = _oauth_error(response, b"error")
    if error is None:
        return None

    def member(name: bytes) -> Optional[str]:
        value = _oauth_error(response, name)
        return None if value is None else value.decode("utf-8", "replace")
    return _errors.OAuthError(error.decode("utf-8", "replace"), member(b"error_description"), member(b"hint"),
                              member(b"realm"))


def response_headers(response: int) -> _errors.Headers:
    """Every header field of a (borrowed or owned) response, as a Headers mapping."""
    fields = []
    name = c_char_p()
    value = c_char_p()
    for index in range(_header_count(response)):
        if _header_at(byref(name), byref(value), response, index) == DRUPAL_OK:
            fields.append((name.value.decode("latin-1"), value.value.decode("utf-8", "replace")))  # type: ignore[union-attr]
    return _errors.Headers(fields)


def response_body(response: int) -> bytes:
    length = c_size_t()
    pointer = _response_body(response, byref(length))
    return pointer[:length.value] if length.value else b""


_error_kind = lib.drupal_response_error_kind
_os_error = lib.drupal_response_os_error


def response_error(code: int, response: int, cause: Optional[BaseException] = None) -> _errors.DrupalError:
    """The exception for a failed call whose (borrowed or owned) response carries the details;
    `cause` (what a progress or write callable raised) becomes its ``__cause__``."""
    error = _response_error(code, response)
    if cause is not None:
        error.__cause__ = cause
    return error


def _response_error(code: int, response: int) -> _errors.DrupalError:
    status = _response_status(response)
    cls = _errors.error_class(code, _error_kind(response))
    message = _response_message(response).decode("utf-8", "replace")
    drupal_message = _drupal_message(response)
    kwargs = dict(code=code_name(code), status=status or None, body=response_body(response),
                  headers=response_headers(response),
                  drupal_message=None if drupal_message is None else drupal_message.decode("utf-8", "replace"),
                  jsonapi_errors=response_jsonapi_errors(response) if _jsonapi_error_count(response) else None,
                  oauth_error=response_oauth_error(response))
    if cls is _errors.ValidationError:
        path = c_char_p()
        text = c_char_p()
        violations = []
        for index in range(_violation_count(response)):
            if _violation_at(byref(path), byref(text), response, index) == DRUPAL_OK:
                violations.append((path.value.decode("utf-8", "replace"),  # type: ignore[union-attr]
                                   text.value.decode("utf-8", "replace")))  # type: ignore[union-attr]
        return _errors.ValidationError(message, violations=violations, **kwargs)
    if cls is _errors.FileError:
        return _errors.FileError(message, os_error=_os_error(response), **kwargs)
    return cls(message, **kwargs)
