"""The exception hierarchy, mapped from the C library's ``drupal_code`` and HTTP status.

::

    DrupalError
    ├── HTTPError                     (DRUPAL_E_HTTP: any status >= 400 not listed below)
    │   ├── RedirectError             (3xx not followed; .location)
    │   ├── AuthenticationError       (401; 400 from login: bad credentials)
    │   ├── AuthorizationError        (403)
    │   ├── NotFoundError             (404)
    │   └── ValidationError           (422; .violations)
    ├── InvalidArgumentError          (DRUPAL_E_INVALID_ARGUMENT; also a ValueError)
    ├── NetworkError                  (DRUPAL_E_NETWORK, DRUPAL_E_TLS; also a ConnectionError)
    │   └── TLSError                  (DRUPAL_E_TLS)
    ├── DrupalTimeoutError            (DRUPAL_E_TIMEOUT; also a builtins.TimeoutError)
    ├── CancelledError                (DRUPAL_E_CANCELLED; also a concurrent.futures.CancelledError)
    ├── TooLargeError                 (DRUPAL_E_TOO_LARGE)
    ├── FileError                     (DRUPAL_E_FILE: a local file failed while a file moved; also an OSError)
    └── DecodeError                   (DRUPAL_E_DECODE, and bodies that are not the JSON expected)

Any other code (DRUPAL_E_STATE, DRUPAL_E_INTERNAL, ...) raises ``DrupalError`` itself.
"""
from __future__ import annotations

import builtins
import os
import concurrent.futures
from typing import Dict, Iterator, List, Mapping, NamedTuple, Optional, Tuple

__all__ = [
    "DrupalError", "HTTPError", "RedirectError", "AuthenticationError", "AuthorizationError", "NotFoundError",
    "ValidationError", "InvalidArgumentError", "NetworkError", "TLSError", "DrupalTimeoutError",
    "CancelledError", "TooLargeError", "FileError", "DecodeError", "Headers", "ErrorObject", "OAuthError",
]


class Headers(Mapping[str, str]):
    """A read-only, case-insensitive mapping of response headers.

    ``headers["content-type"]`` and ``headers["Content-Type"]`` are the same entry. When a header
    came more than once (``Set-Cookie``, ``Link``), the mapping gives the first value;
    :meth:`get_all` (or :meth:`getlist`) gives every value in order, and :meth:`items_raw` every
    field in the order received.
    """

    __slots__ = ("_fields", "_index")

    def __init__(self, fields: "List[Tuple[str, str]] | None" = None) -> None:
        self._fields: List[Tuple[str, str]] = list(fields or ())
        index: dict = {}
        for name, value in self._fields:
            index.setdefault(name.lower(), (name, value))
        self._index = index

    def __getitem__(self, name: str) -> str:
        return self._index[name.lower()][1]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._index

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._index.values())

    def __len__(self) -> int:
        return len(self._index)

    def get_all(self, name: str) -> List[str]:
        """Every value of a header, in the order received (``[]`` if absent)."""
        key = name.lower()
        return [value for field, value in self._fields if field.lower() == key]

    def getlist(self, name: str) -> List[str]:
        """Every value of a header, in the order received (as :meth:`get_all`)."""
        return self.get_all(name)

    def items_raw(self) -> List[Tuple[str, str]]:
        """Every header field as received: ``[(name, value), ...]``."""
        return list(self._fields)

    def __repr__(self) -> str:
        return "Headers(%r)" % (self._fields,)


_EMPTY_HEADERS = Headers()


class ErrorObject(NamedTuple):
    """One entry of a JSON:API error document's ``errors``, as Drupal sent it.

    ``status`` is the string JSON:API sends (``"422"``); absent members are ``None``.
    ``members`` holds every string, number and boolean member by dotted path
    (``{"source.pointer": "/data/attributes/title", "links.via.href": "...", ...}``).
    """
    title: Optional[str]
    status: Optional[str]
    detail: Optional[str]
    code: Optional[str]
    pointer: Optional[str]
    members: Dict[str, str]


class OAuthError(NamedTuple):
    """What an OAuth 2 failure says: the token endpoint's error document (``error``,
    ``error_description``, ``hint``), or the ``WWW-Authenticate: Bearer`` challenge of a 401 that
    refused a token (``error`` "access_denied", ``error_description`` such as "Access token could
    not be verified", ``realm``). Absent members are ``None``."""
    error: str
    error_description: Optional[str]
    hint: Optional[str]
    realm: Optional[str]


class DrupalError(Exception):
    """Base class of every error the library reports.

    Attributes:
        code: the C library's code name, e.g. ``"DRUPAL_E_HTTP"`` or ``"DRUPAL_E_TIMEOUT"``.
        status: the HTTP status, or ``None`` when no answer arrived.
        message: a description for humans: Drupal's own message when it sent a non-empty one,
            else a summary (``"GET /node/7 answered HTTP 403 Forbidden with no message"``). Safe
            to print: a server's control characters are shown as escapes (line breaks and tabs
            kept) and its text is cut at 4,096 characters with a note (``drupal_message``,
            ``violations`` and ``jsonapi_errors`` keep all of it).
        drupal_message: Drupal's message exactly as sent, empty included (``{"message": ""}``
            gives ``""``; for JSON:API, the first error's ``detail``), or ``None`` when the answer
            carried none.
        jsonapi_errors: every entry of a JSON:API error document (:class:`ErrorObject` values).
        oauth_error: an :class:`OAuthError` for failed token requests (``invalid_client``,
            ``invalid_grant``, ...) and refused Bearer tokens, else ``None``.
        body: the response body (``b""`` when there was none).
        headers: the response headers (a case-insensitive :class:`Headers` mapping).
    """

    def __init__(self, message: str, *, code: str = "DRUPAL_E_INTERNAL", status: Optional[int] = None,
                 body: bytes = b"", headers: Optional[Headers] = None, drupal_message: Optional[str] = None,
                 jsonapi_errors: "List[ErrorObject] | None" = None,
                 oauth_error: Optional[OAuthError] = None) -> None:
        Exception.__init__(self, message)
        self.code = code
        self.status = status
        self.message = message
        self.drupal_message = drupal_message
        self.jsonapi_errors: List[ErrorObject] = list(jsonapi_errors or ())
        self.oauth_error = oauth_error
        self.body = body
        self.headers: Headers = headers if headers is not None else _EMPTY_HEADERS

    def __str__(self) -> str:
        if self.status:
            return "%s (HTTP %d): %s" % (self.code, self.status, self.message)
        return "%s: %s" % (self.code, self.message)

    def __repr__(self) -> str:
        return "%s(code=%r, status=%r, message=%r)" % (type(self).__name__, self.code, self.status, self.message)

    # OSError-derived subclasses (timeouts, network) must pickle and format like the others.
    def __reduce__(self):  # type: ignore[override]
        return (_rebuild, (type(self), self.message, self.code, self.status, self.body,
                           self.headers.items_raw(), getattr(self, "violations", None), self.drupal_message,
                           self.jsonapi_errors, self.oauth_error))


def _rebuild(cls, message, code, status, body, fields, violations, drupal_message=None,  # type: ignore[no-untyped-def]
             jsonapi_errors=None, oauth_error=None):
    error = cls.__new__(cls)
    DrupalError.__init__(error, message, code=code, status=status, body=body, headers=Headers(fields),
                         drupal_message=drupal_message, jsonapi_errors=jsonapi_errors, oauth_error=oauth_error)
    if violations is not None:
        error.violations = violations
    return error


class HTTPError(DrupalError):
    """The server answered with a status >= 400 (see :attr:`status`)."""


class RedirectError(HTTPError):
    """The server answered a redirect (3xx) that was not followed: nothing was done.

    Clients follow redirects only with ``follow_redirects=True`` (and never carry credentials or
    a request body to another origin). ``location`` is where the redirect pointed.
    """

    @property
    def location(self) -> Optional[str]:
        return self.headers.get("Location")


class AuthenticationError(HTTPError):
    """401: no or bad credentials; also login's 400 for an unknown user name or password, and a
    refused OAuth token request (``oauth_error`` says why)."""


class AuthorizationError(HTTPError):
    """403: the user is authenticated but may not do this (or the CSRF token was refused)."""


class NotFoundError(HTTPError):
    """404: no such entity, view or route."""


class ValidationError(HTTPError):
    """422: Drupal refused the entity.

    Attributes:
        violations: ``[(field_path, message), ...]``, e.g. ``[("title", "This value should not be null.")]``;
            for JSON:API, ``[(source_pointer, detail), ...]``. Empty when Drupal's message is not a
            violation list (e.g. "Unprocessable Entity: file validation failed.").
    """

    def __init__(self, message: str, *, violations: "List[Tuple[str, str]] | None" = None, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(message, **kwargs)
        self.violations: List[Tuple[str, str]] = list(violations or ())


class InvalidArgumentError(DrupalError, ValueError):
    """An argument was refused before anything was sent (unsafe path, header value with a control character, ...)."""


class NetworkError(DrupalError, ConnectionError):
    """Could not connect, the connection was reset, DNS failed, or TLS failed."""

    def __init__(self, message: str, **kwargs) -> None:  # type: ignore[no-untyped-def]
        DrupalError.__init__(self, message, **kwargs)


class TLSError(NetworkError):
    """TLS handshake or certificate verification failed."""


class DrupalTimeoutError(DrupalError, builtins.TimeoutError):
    """The connect or total timeout expired. Also a ``builtins.TimeoutError``."""

    def __init__(self, message: str, **kwargs) -> None:  # type: ignore[no-untyped-def]
        DrupalError.__init__(self, message, **kwargs)


class CancelledError(DrupalError, concurrent.futures.CancelledError):
    """The call was cancelled (``future.cancel()``, task cancellation, or ``Client.close()``)."""


class TooLargeError(DrupalError):
    """The response body (counted decoded) exceeded the client's ``max_body_size``, the response's
    headers exceeded 256 KiB, or a request's URL or headers exceeded their limit."""


class FileError(DrupalError, OSError):
    """A local file failed while a file moved: a download's file could not be made, written (disk
    full) or put in place, or an upload's file could not be read or changed while it was sent.
    Also an ``OSError``: ``errno`` is the system's error number (``errno.ENOSPC`` for a full disk)
    and ``strerror`` its text, or both ``None`` when the system gave none. A path refused before
    anything is sent is an :class:`InvalidArgumentError`."""

    def __init__(self, message: str, *, os_error: int = 0, **kwargs) -> None:  # type: ignore[no-untyped-def]
        DrupalError.__init__(self, message, **kwargs)
        self.errno = os_error or None
        self.strerror = os.strerror(os_error) if os_error else None


class DecodeError(DrupalError):
    """A body was not the JSON (or text) expected, or not what its Content-Encoding says; or a
    URL the server named for the client to fetch is not under the site."""


_BY_CODE = {
    1: InvalidArgumentError,
    2: NetworkError,
    3: DrupalTimeoutError,
    5: DecodeError,
    6: CancelledError,
    8: TooLargeError,
    9: TLSError,
    14: FileError,
}

#: The library's drupal_error_kind (what an HTTP failure means, decided by the library) -> class.
_BY_KIND = {
    1: AuthenticationError,
    2: AuthorizationError,
    3: NotFoundError,
    4: ValidationError,
    5: RedirectError,
}

DRUPAL_E_HTTP = 4


def error_class(code: int, kind: int = 0) -> type:
    """The exception class for a ``drupal_code`` and the library's error kind."""
    if code == DRUPAL_E_HTTP:
        return _BY_KIND.get(kind, HTTPError)
    return _BY_CODE.get(code, DrupalError)
