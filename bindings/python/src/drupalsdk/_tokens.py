"""OAuth settings and token providers as the C API takes them: a drupal_oauth_options struct, and
a C token provider calling a Python callable. The token state itself is the library's."""
from __future__ import annotations

import logging
from typing import Any, Callable, Optional

from . import _ffi, _interrupts
from ._convert import invalid, seconds, text
from ._errors import DrupalError

__all__ = ["oauth_options", "token_provider"]

log = logging.getLogger("drupalsdk")
_lib = _ffi.lib

_GRANTS = {"client_credentials": _ffi.DRUPAL_OAUTH_CLIENT_CREDENTIALS, "password": _ffi.DRUPAL_OAUTH_PASSWORD,
           "refresh_token": _ffi.DRUPAL_OAUTH_REFRESH_TOKEN,
           "authorization_code": _ffi.DRUPAL_OAUTH_AUTHORIZATION_CODE}
_REASONS = {1: "initial", 2: "expiring", 3: "rejected"}
_CODES = {"DRUPAL_E_INVALID_ARGUMENT": 1, "DRUPAL_E_NETWORK": 2, "DRUPAL_E_TIMEOUT": 3, "DRUPAL_E_HTTP": 4,
          "DRUPAL_E_DECODE": 5, "DRUPAL_E_CANCELLED": 6, "DRUPAL_E_UNIMPLEMENTED": 7, "DRUPAL_E_TOO_LARGE": 8,
          "DRUPAL_E_TLS": 9, "DRUPAL_E_NOT_FOUND": 10, "DRUPAL_E_NO_MEMORY": 11, "DRUPAL_E_STATE": 12,
          "DRUPAL_E_FILE": 14}


def _optional(value: Optional[str], what: str) -> Optional[bytes]:
    return None if value is None else text(value, what)


def oauth_options(client_id: str, client_secret: Optional[str], username: Optional[str], password: Optional[str],
                  refresh_token: Optional[str], grant: Optional[str], scope: Optional[str],
                  token_path: Optional[str], client_auth: str, refresh_margin: Optional[float],
                  code: Optional[str] = None, redirect_uri: Optional[str] = None,
                  code_verifier: Optional[str] = None) -> _ffi.OAuthOptions:
    """The drupal_oauth_options of Client.set_oauth (its strings live as long as the struct)."""
    if grant is None:
        grant = "password" if username is not None else "refresh_token" if refresh_token is not None \
            else "authorization_code" if code is not None else "client_credentials"
    if grant not in _GRANTS:
        raise invalid("grant must be one of %s" % ", ".join(sorted(_GRANTS)))
    if client_auth not in ("body", "basic"):
        raise invalid('client_auth must be "body" or "basic"')
    options = _ffi.OAuthOptions()
    options.version = _ffi.DRUPAL_OAUTH_OPTIONS_VERSION
    options.grant = _GRANTS[grant]
    options.client_id = text(client_id, "client_id")
    options.client_secret = _optional(client_secret, "client_secret")
    options.username = _optional(username, "username")
    options.password = _optional(password, "password")
    options.refresh_token = _optional(refresh_token, "refresh_token")
    options.scope = _optional(scope, "scope")
    options.token_path = _optional(token_path, "token_path")
    options.code = _optional(code, "code")
    options.redirect_uri = _optional(redirect_uri, "redirect_uri")
    options.code_verifier = _optional(code_verifier, "code_verifier")
    options.client_auth_basic = 1 if client_auth == "basic" else 0
    if refresh_margin is not None:
        # C reads 0 as the default and a negative margin as none (Python's 0).
        margin = seconds(refresh_margin, "refresh_margin")
        if margin < 0:
            raise invalid("refresh_margin cannot be negative")
        options.refresh_margin = margin if margin != 0 else -1.0
    return options


def token_provider(provider: Callable[[str], Any]) -> Any:
    """The C token provider calling ``provider(reason)`` (keep it alive while the library uses it)."""
    @_interrupts.callback
    def call(request: int, _userdata: Any) -> int:
        try:
            answer = provider(_REASONS.get(_lib.drupal_token_request_reason(request), "initial"))
            token, expires_in = (answer, 0.0) if isinstance(answer, (str, bytes)) else answer
            return _lib.drupal_token_request_set(request, text(token, "token"), float(expires_in or 0.0))
        except DrupalError as error:
            return _fail(request, _CODES.get(error.code, _ffi.DRUPAL_E_INTERNAL), error)
        except BaseException as error:
            if not _interrupts.keep(error):  # (Ctrl-C: the blocking call raises it)
                log.exception("drupalsdk: the token provider %r raised", provider)
            # Its type only: another library's message may quote a URL or a credential.
            return _fail(request, _ffi.DRUPAL_E_INTERNAL, "raised " + type(error).__name__)
    return _ffi.TOKEN_PROVIDER(call)


def _fail(request: int, code: int, reason: Any) -> int:
    """Fails the token request with `reason`: a DrupalError's message, or a text (the library
    makes it printable and caps it; a NUL would end the C string early, so it goes as U+FFFD)."""
    try:
        message = reason.message if isinstance(reason, DrupalError) else reason
        text = str(message).replace("\0", "\ufffd").encode("utf-8", "replace")
    except Exception:   # a message whose str() itself fails still fails the request
        text = b"raised an exception whose message cannot be read"
    return _lib.drupal_token_request_fail(request, code, text)
