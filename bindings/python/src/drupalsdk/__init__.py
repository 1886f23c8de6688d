"""drupalsdk: a client for Drupal 10/11 sites (core REST, JSON:API, Views REST exports, sessions, CSRF).

A thin binding over the C library ``libdrupalsdk`` (Swift core, libcurl transport)::

    import drupalsdk

    with drupalsdk.Client("https://example.com") as client:
        client.login("admin", "secret")
        node = client.get("node", 1)
        print(node["title"][0]["value"])

Blocking calls: :class:`Client`. Futures: ``Client.submit_*``. asyncio: :class:`AsyncClient`.
Tests without a server: :meth:`Client.mock`. Errors: :class:`DrupalError` and its subclasses.
"""
from ._ffi import API_VERSION, library_path, library_version
from ._errors import (AuthenticationError, AuthorizationError, CancelledError, DecodeError, DrupalError,
                      DrupalTimeoutError, ErrorObject, FileError, Headers, OAuthError, HTTPError, InvalidArgumentError,
                      NetworkError,
                      NotFoundError, RedirectError, TLSError, TooLargeError, ValidationError)
from ._managed import ClosedError
from ._response import Response
from ._calls import DrupalFuture
from ._client import AsyncClient, Client
from ._authorization import OAuthAuthorization
from ._hooks import RequestEdit
from ._events import Event, Listener
from ._mock import AsyncMockClient, MockClient, StubAnswer
from ._jsonapi_query import Query
from ._jsonapi_document import Document, Resource

def _version() -> str:
    """The installed package's version (setup.py reads it from include/drupalsdk.h), or, run
    from a source tree without installing, the library's."""
    import importlib.metadata
    try:
        return importlib.metadata.version("drupalsdk")
    except importlib.metadata.PackageNotFoundError:
        return library_version()


__version__ = _version()

__all__ = [
    "Client", "AsyncClient", "MockClient", "Query", "Document", "Resource", "AsyncMockClient", "StubAnswer", "RequestEdit", "Response", "Headers",
    "Event", "Listener", "OAuthAuthorization",
    "DrupalFuture", "DrupalError", "HTTPError", "RedirectError", "AuthenticationError", "AuthorizationError", "NotFoundError",
    "ValidationError", "InvalidArgumentError", "NetworkError", "TLSError", "DrupalTimeoutError",
    "CancelledError", "TooLargeError", "FileError", "DecodeError", "ErrorObject", "OAuthError", "ClosedError", "library_version",
    "library_path", "API_VERSION",
]
