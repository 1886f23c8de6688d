"""simple_oauth's authorization code grant with PKCE (drupal_oauth_authorization): the request a
person approves in a browser, and the code its redirect brings back. The state, the verifier and
the reading of the redirect are the library's; this owns the handle and keeps the client."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import _ffi
from ._convert import text
from ._managed import Managed

if TYPE_CHECKING:
    from ._client_base import _ClientBase

__all__ = ["OAuthAuthorization"]

_lib = _ffi.lib


class OAuthAuthorization(Managed):
    """One authorization request (made by :meth:`Client.oauth_authorization`): open ``url`` (the
    site's /oauth/authorize with the client id, redirect URI, scope, a random state and the S256
    challenge of a random verifier) for the person, then give :meth:`finish` the URL the site
    redirected the browser to. ``close()`` (or ``with``) frees it; it holds no token."""

    def __init__(self, client: "_ClientBase", handle: int) -> None:
        self._client = client
        self._adopt(handle)
        self.url: str = _lib.drupal_oauth_authorization_url(handle).decode("utf-8")

    @staticmethod
    def _free_handle(handle: int) -> None:
        _lib.drupal_oauth_authorization_free(handle)

    def finish(self, redirected_to: str) -> None:
        """Reads the code of the URL the site redirected to and switches the client to OAuth with
        it (nothing is sent yet). Raises :class:`InvalidArgumentError` when that URL does not carry
        this request's state (another request's, or forged) or carries no code, and
        :class:`AuthenticationError` when it says the person or the site refused (its message
        gives the redirect's ``error`` and ``error_description``)."""
        handle = self._enter()
        try:
            self._client._state_call(lambda client: _lib.drupal_oauth_authorization_finish(
                handle, client, text(redirected_to, "redirected_to")))
        finally:
            self._exit()
