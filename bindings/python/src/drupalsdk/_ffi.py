"""Every C declaration the binding uses, in one place: signatures and errors here, the library
lookup in _library, the constants, structures and callback types in _c_types (all re-exported).

Nothing outside these modules names a ctypes type of the C API; the rest of the package uses
_ffi only.
"""
from __future__ import annotations

import ctypes
from ctypes import POINTER, byref, c_char, c_char_p, c_double, c_int, c_size_t, c_uint, c_uint64, c_void_p
from typing import Any, Dict, List, NoReturn, Optional, Tuple

from . import _errors
from ._c_types import (CALLBACK, DRUPAL_CLIENT_OPTIONS_VERSION, DRUPAL_E_CANCELLED, DRUPAL_E_DECODE,
                       DRUPAL_E_HTTP, DRUPAL_E_INTERNAL, DRUPAL_E_INVALID_ARGUMENT, DRUPAL_E_NETWORK,
                       DRUPAL_E_NO_MEMORY, DRUPAL_E_NOT_FOUND, DRUPAL_E_STATE, DRUPAL_E_TIMEOUT, DRUPAL_E_TLS,
                       DRUPAL_E_TOO_LARGE, DRUPAL_E_UNIMPLEMENTED, DRUPAL_EVENT_LOGIN, DRUPAL_EVENT_LOGOUT,
                       DRUPAL_EVENT_REQUEST_FINISH, DRUPAL_EVENT_REQUEST_START, DRUPAL_EVENT_RETRY,
                       DRUPAL_MOCK_ANSWER_VERSION, DRUPAL_OAUTH_AUTHORIZATION_CODE, DRUPAL_OAUTH_CLIENT_CREDENTIALS,
                       DRUPAL_OAUTH_OPTIONS_VERSION,
                       DRUPAL_OAUTH_PASSWORD, DRUPAL_OAUTH_REFRESH_TOKEN, DRUPAL_OK, DRUPAL_REQUEST_OPTIONS_VERSION,
                       DRUPAL_TRANSFER_OPTIONS_VERSION, EVENT_CALLBACK, INTERRUPT_CALLBACK, LOG_HOOK, PROGRESS_CALLBACK,
                       REQUEST_HOOK, TOKEN_PROVIDER, WRITE_CALLBACK, ClientOptions, Completion, Event, MockAnswer,
                       OAuthOptions, RequestOptions, TransferOptions)
from ._library import API_VERSION, LIBRARY_ENV, _pylib, lib, library_path

# Handles travel as plain integers (c_void_p): drupal_client *, drupal_response *, drupal_call *.
_h = c_void_p
_s = c_char_p
_out = POINTER(c_void_p)
_code = c_int
_strv = POINTER(c_char_p)


def _declare(library: ctypes.CDLL, name: str, restype: Optional[type], *argtypes: type) -> None:
    function = getattr(library, name)
    function.restype = restype
    function.argtypes = list(argtypes)


_ASYNC_TAIL = (CALLBACK, c_void_p)

# Each row is (name, restype, *argtypes). Typed as tuples of Any: a str followed by any number of
# ctypes types has no spelling before Python 3.11 (Unpack), and mypy joins the rows' items into one.
_SIGNATURES: List[Tuple[Any, ...]] = [
    # version and errors
    ("drupal_version", c_char_p),
    ("drupal_version_num", c_uint),
    ("drupal_code_name", c_char_p, c_int),
    ("drupal_last_error", c_char_p),
    ("drupal_last_error_code", c_int),
    ("drupal_last_error_kind", c_int),
    ("drupal_free", None, c_void_p),
    ("drupal_set_interrupt_watch", _code, c_int, c_int, INTERRUPT_CALLBACK, c_void_p),
    # clients
    ("drupal_client_options_init", _code, POINTER(ClientOptions), c_uint),
    ("drupal_client_new", _code, _out, _s, POINTER(ClientOptions)),
    ("drupal_client_free", None, _h),
    ("drupal_client_set_basic_auth", _code, _h, _s, _s),
    ("drupal_client_set_bearer_token", _code, _h, _s),
    ("drupal_client_set_no_auth", _code, _h),
    ("drupal_client_set_oauth", _code, _h, POINTER(OAuthOptions)),
    ("drupal_client_with_language", _code, _out, _h, _s, c_uint),
    ("drupal_client_set_token_provider", _code, _h, TOKEN_PROVIDER, c_void_p),
    ("drupal_token_request_reason", c_int, _h),
    ("drupal_token_request_set", _code, _h, _s, c_double),
    ("drupal_token_request_fail", _code, _h, c_int, _s),
    ("drupal_oauth_authenticate", _code, _out, _h, *_ASYNC_TAIL),
    ("drupal_oauth_authenticate_sync", _code, _out, _h),
    ("drupal_oauth_authorization_new", _code, _out, _h, POINTER(OAuthOptions)),
    ("drupal_oauth_authorization_url", c_char_p, _h),
    ("drupal_oauth_authorization_finish", _code, _h, _h, _s),
    ("drupal_oauth_authorization_free", None, _h),
    ("drupal_client_has_session", c_int, _h),
    ("drupal_client_oauth_refresh_token", _code, _out, _h),
    ("drupal_client_forget_session", _code, _h),
    ("drupal_unimplemented_client_new", _code, _out),
    ("drupal_request_edit_method", c_char_p, _h),
    ("drupal_request_edit_url", c_char_p, _h),
    ("drupal_request_edit_header", c_char_p, _h, _s),
    ("drupal_request_edit_set_header", _code, _h, _s, _s),
    ("drupal_request_edit_remove_header", _code, _h, _s),
    # session
    ("drupal_login", _code, _out, _h, _s, _s, *_ASYNC_TAIL),
    ("drupal_login_sync", _code, _out, _h, _s, _s),
    ("drupal_logout", _code, _out, _h, *_ASYNC_TAIL),
    ("drupal_logout_sync", _code, _out, _h),
    ("drupal_login_status", _code, _out, _h, *_ASYNC_TAIL),
    ("drupal_login_status_sync", _code, _out, POINTER(c_int), _h),
    ("drupal_csrf_refresh", _code, _out, _h, *_ASYNC_TAIL),
    ("drupal_csrf_refresh_sync", _code, _out, _h),
    # entities
    ("drupal_entity_get", _code, _out, _h, _s, _s, *_ASYNC_TAIL),
    ("drupal_entity_get_sync", _code, _out, _h, _s, _s),
    ("drupal_entity_create", _code, _out, _h, _s, _s, c_size_t, *_ASYNC_TAIL),
    ("drupal_entity_create_sync", _code, _out, _h, _s, _s, c_size_t),
    ("drupal_entity_update", _code, _out, _h, _s, _s, _s, c_size_t, *_ASYNC_TAIL),
    ("drupal_entity_update_sync", _code, _out, _h, _s, _s, _s, c_size_t),
    ("drupal_entity_delete", _code, _out, _h, _s, _s, *_ASYNC_TAIL),
    ("drupal_entity_delete_sync", _code, _out, _h, _s, _s),
    ("drupal_file_upload", _code, _out, _h, _s, _s, _s, _s, c_char_p, c_size_t, *_ASYNC_TAIL),
    ("drupal_file_upload_sync", _code, _out, _h, _s, _s, _s, _s, c_char_p, c_size_t),
    # accounts and paths
    ("drupal_user_register", _code, _out, _h, _s, _s, _s, _s, *_ASYNC_TAIL),
    ("drupal_user_register_sync", _code, _out, _h, _s, _s, _s, _s),
    ("drupal_user_password_reset", _code, _out, _h, _s, _s, *_ASYNC_TAIL),
    ("drupal_user_password_reset_sync", _code, _out, _h, _s, _s),
    ("drupal_path_resolve", _code, _out, _h, _s, *_ASYNC_TAIL),
    ("drupal_path_resolve_sync", _code, _out, _h, _s),
    # streamed files
    ("drupal_file_upload_path", _code, _out, _h, _s, _s, _s, _s, _s, POINTER(TransferOptions), *_ASYNC_TAIL),
    ("drupal_file_upload_path_sync", _code, _out, _h, _s, _s, _s, _s, _s, POINTER(TransferOptions)),
    ("drupal_file_download", _code, _out, _h, _s, _s, POINTER(TransferOptions), *_ASYNC_TAIL),
    ("drupal_file_download_sync", _code, _out, _h, _s, _s, POINTER(TransferOptions)),
    ("drupal_file_entity_download", _code, _out, _h, _s, _s, POINTER(TransferOptions), *_ASYNC_TAIL),
    ("drupal_file_entity_download_sync", _code, _out, _h, _s, _s, POINTER(TransferOptions)),
    # views and requests
    ("drupal_view", _code, _out, _h, _s, _strv, *_ASYNC_TAIL),
    ("drupal_view_sync", _code, _out, _h, _s, _strv),
    ("drupal_view_pager_new", _code, _out, _h, _s, _strv, c_uint),
    ("drupal_pager_next", _code, _out, _h, *_ASYNC_TAIL),
    ("drupal_pager_next_sync", _code, _out, _h),
    ("drupal_pager_free", None, _h),
    # JSON:API
    ("drupal_jsonapi_query_new", _code, _out),
    ("drupal_jsonapi_query_free", None, _h),
    ("drupal_jsonapi_query_filter", _code, _h, _s, _s, _s, _s, _s),
    ("drupal_jsonapi_query_filter_values", _code, _h, _s, _s, _strv, _s, _s),
    ("drupal_jsonapi_query_group", _code, _h, _s, _s, _s),
    ("drupal_jsonapi_query_sort", _code, _h, _s, c_int),
    ("drupal_jsonapi_query_include", _code, _h, _s),
    ("drupal_jsonapi_query_fields", _code, _h, _s, _s),
    ("drupal_jsonapi_query_page_limit", _code, _h, c_size_t),
    ("drupal_jsonapi_query_page_offset", _code, _h, c_size_t),
    ("drupal_jsonapi_query_resource_version", _code, _h, _s),
    ("drupal_jsonapi_query_param", _code, _h, _s, _s),
    ("drupal_jsonapi_query_string", _code, _out, _h),
    ("drupal_jsonapi_get", _code, _out, _h, _s, _s, _h, *_ASYNC_TAIL),
    ("drupal_jsonapi_get_sync", _code, _out, _h, _s, _s, _h),
    ("drupal_jsonapi_related", _code, _out, _h, _s, _s, _s, _h, *_ASYNC_TAIL),
    ("drupal_jsonapi_related_sync", _code, _out, _h, _s, _s, _s, _h),
    ("drupal_jsonapi_relationship", _code, _out, _h, _s, _s, _s, *_ASYNC_TAIL),
    ("drupal_jsonapi_relationship_sync", _code, _out, _h, _s, _s, _s),
    ("drupal_jsonapi_create", _code, _out, _h, _s, c_char_p, c_size_t, *_ASYNC_TAIL),
    ("drupal_jsonapi_create_sync", _code, _out, _h, _s, c_char_p, c_size_t),
    ("drupal_jsonapi_update", _code, _out, _h, _s, _s, c_char_p, c_size_t, *_ASYNC_TAIL),
    ("drupal_jsonapi_update_sync", _code, _out, _h, _s, _s, c_char_p, c_size_t),
    ("drupal_jsonapi_delete", _code, _out, _h, _s, _s, *_ASYNC_TAIL),
    ("drupal_jsonapi_delete_sync", _code, _out, _h, _s, _s),
    ("drupal_jsonapi_relationship_change", _code, _out, _h, _s, _s, _s, c_int, c_char_p, c_size_t, *_ASYNC_TAIL),
    ("drupal_jsonapi_relationship_change_sync", _code, _out, _h, _s, _s, _s, c_int, c_char_p, c_size_t),
    ("drupal_jsonapi_upload", _code, _out, _h, _s, _s, _s, _s, c_char_p, c_size_t, *_ASYNC_TAIL),
    ("drupal_jsonapi_upload_sync", _code, _out, _h, _s, _s, _s, _s, c_char_p, c_size_t),
    ("drupal_jsonapi_upload_path", _code, _out, _h, _s, _s, _s, _s, _s, POINTER(TransferOptions), *_ASYNC_TAIL),
    ("drupal_jsonapi_upload_path_sync", _code, _out, _h, _s, _s, _s, _s, _s, POINTER(TransferOptions)),
    ("drupal_jsonapi_entry_point", _code, _out, _h, *_ASYNC_TAIL),
    ("drupal_jsonapi_entry_point_sync", _code, _out, _h),
    ("drupal_jsonapi_follow", _code, _out, _h, _s, *_ASYNC_TAIL),
    ("drupal_jsonapi_follow_sync", _code, _out, _h, _s),
    ("drupal_jsonapi_pager_new", _code, _out, _h, _s, _h, c_uint, c_uint),
    ("drupal_request", _code, _out, _h, _s, _s, POINTER(RequestOptions), *_ASYNC_TAIL),
    ("drupal_request_sync", _code, _out, _h, _s, _s, POINTER(RequestOptions)),
    # responses
    ("drupal_response_retain", c_void_p, _h),
    ("drupal_response_free", None, _h),
    ("drupal_response_code", _code, _h),
    ("drupal_response_status", c_int, _h),
    ("drupal_response_error_message", c_char_p, _h),
    ("drupal_response_error_kind", c_int, _h),
    ("drupal_response_logged_in", _code, POINTER(c_int), _h),
    ("drupal_response_drupal_message", c_char_p, _h),
    ("drupal_response_os_error", c_int, _h),
    ("drupal_response_oauth_error", c_char_p, _h, _s),
    ("drupal_response_langcode", c_char_p, _h),
    ("drupal_response_jsonapi_error_count", c_size_t, _h),
    ("drupal_response_jsonapi_error_member_at", _code, POINTER(c_char_p), POINTER(c_char_p), _h, c_size_t,
     c_size_t),
    # A char pointer, not c_void_p: slicing it makes the bytes in C (string_at is a Python call).
    ("drupal_response_body", POINTER(c_char), _h, POINTER(c_size_t)),
    ("drupal_response_header", c_char_p, _h, _s),
    ("drupal_response_header_count", c_size_t, _h),
    ("drupal_response_header_at", _code, POINTER(c_char_p), POINTER(c_char_p), _h, c_size_t),
    ("drupal_response_violation_count", c_size_t, _h),
    ("drupal_response_violation_at", _code, POINTER(c_char_p), POINTER(c_char_p), _h, c_size_t),
    # completion queues (drupal_queue_callback is used as a C function pointer, not called)
    ("drupal_queue_new", _code, _out),
    ("drupal_queue_fd", c_int, _h),
    ("drupal_queue_ticket", _code, _out, _h, c_uint64),
    ("drupal_queue_ticket_free", None, c_void_p),
    ("drupal_queue_pop", c_size_t, POINTER(Completion), _h, c_size_t),
    ("drupal_queue_free", None, _h),
    # events
    ("drupal_client_add_listener", _code, POINTER(c_uint64), _h, EVENT_CALLBACK, c_void_p),
    ("drupal_client_remove_listener", _code, _h, c_uint64),
    # mock
    ("drupal_mock_client_new", _code, _out),
    ("drupal_mock_add_user", _code, _out, _h, _s, _s, _strv),
    ("drupal_mock_add_entity", _code, _out, _h, _s, _s),
    ("drupal_mock_stub", _code, _h, _s, _s, c_int, _s, c_char_p, c_size_t),
    ("drupal_mock_stub_answers", _code, _h, _s, _s, _strv, POINTER(MockAnswer), c_size_t),
    ("drupal_mock_add_view", _code, _h, _s, _s, _s, c_uint),
    ("drupal_mock_add_bundle", _code, _h, _s, _s),
    ("drupal_mock_add_bearer_token", _code, _h, _s, _s),
    ("drupal_mock_add_oauth_consumer", _code, _h, _s, _s, _strv, _s, _strv),
    ("drupal_mock_expire_oauth_tokens", _code, _h),
    ("drupal_mock_add_language", _code, _h, _s, _s),
    ("drupal_mock_add_translation", _code, _h, _s, _s, _s, _s),
    ("drupal_mock_invalidate_csrf_tokens", _code, _h),
    ("drupal_mock_requests_json", _code, _out, _h),
    ("drupal_mock_clear_requests", _code, _h),
]

for _signature in _SIGNATURES:
    _declare(lib, *_signature)

# Calls that must be atomic with respect to the GIL (they never block): cancelling and freeing a
# call handle. Declared on a PyDLL view of the same library, which keeps the GIL held.
_declare(_pylib, "drupal_call_cancel", _code, _h)
_declare(_pylib, "drupal_call_free", None, _h)
call_cancel = _pylib.drupal_call_cancel
call_free = _pylib.drupal_call_free
# The accessors every call's answer goes through never block either: on the PyDLL view they skip
# releasing and taking back the GIL (a few hundred instructions each, three times per call).
for _signature in _SIGNATURES:
    if _signature[0] in ("drupal_response_free", "drupal_response_status", "drupal_response_body"):
        _declare(_pylib, *_signature)
response_free = _pylib.drupal_response_free
response_status = _pylib.drupal_response_status
response_body = _pylib.drupal_response_body

#: drupal_queue_callback as a drupal_callback argument: the C function itself, so an outcome is
#: queued on the library thread without entering Python (no GIL taken there).
_queue_callback_address = ctypes.cast(lib.drupal_queue_callback, c_void_p).value
assert _queue_callback_address is not None   # the address of a function the library exports
QUEUE_CALLBACK = CALLBACK(_queue_callback_address)

# ---- Errors --------------------------------------------------------------------------------------

_code_names: Dict[int, str] = {}


def code_name(code: int) -> str:
    """``drupal_code_name()``, cached."""
    name = _code_names.get(code)
    if name is None:
        name = _code_names[code] = lib.drupal_code_name(code).decode("ascii", "replace")
    return name


_last_error = lib.drupal_last_error


def last_error(code: int) -> _errors.DrupalError:
    """The exception for a call that failed *before starting*, from this thread's last error.

    Call it right after the failing C call, on the same thread (the message is per thread and
    is overwritten by the next drupal_* call).
    """
    message = _last_error().decode("utf-8", "replace")
    return _errors.error_class(code, lib.drupal_last_error_kind())(message, code=code_name(code))


def raise_last_error(code: int) -> NoReturn:
    raise last_error(code)


def check(code: int, function=None, arguments=None) -> int:  # type: ignore[no-untyped-def]
    """errcheck for functions returning a drupal_code: raise on anything but DRUPAL_OK."""
    if code:
        raise last_error(code)
    return code


for _name in ("drupal_client_options_init", "drupal_client_new", "drupal_client_set_basic_auth",
              "drupal_client_set_bearer_token", "drupal_client_set_no_auth", "drupal_client_forget_session",
              "drupal_client_set_oauth", "drupal_client_set_token_provider", "drupal_client_with_language",
              "drupal_oauth_authorization_new", "drupal_oauth_authorization_finish",
              "drupal_view_pager_new", "drupal_jsonapi_pager_new", "drupal_client_add_listener",
              "drupal_client_remove_listener", "drupal_mock_client_new", "drupal_mock_add_user",
              "drupal_mock_add_entity", "drupal_mock_stub", "drupal_mock_stub_answers", "drupal_mock_add_view",
              "drupal_mock_add_bundle", "drupal_mock_add_bearer_token", "drupal_mock_invalidate_csrf_tokens",
              "drupal_mock_add_oauth_consumer", "drupal_mock_expire_oauth_tokens", "drupal_client_oauth_refresh_token",
              "drupal_mock_add_language", "drupal_mock_add_translation",
              "drupal_mock_requests_json", "drupal_mock_clear_requests", "drupal_unimplemented_client_new"):
    getattr(lib, _name).errcheck = check

def string_array(items: "List[bytes]") -> "ctypes.Array[c_char_p]":
    """A NULL-terminated ``const char *const *`` holding items (keep the result alive)."""
    # The items initialise the first elements; the last one, not given, is zero: NULL.
    return (c_char_p * (len(items) + 1))(*items)


def library_version() -> str:
    return lib.drupal_version().decode("ascii")


def _check_version() -> None:
    version = library_version()
    try:
        major, minor = (int(part) for part in version.split(".")[:2])
    except ValueError:
        raise ImportError("drupalsdk: %s reports an unreadable version %r" % (library_path, version)) from None
    if API_VERSION != (-1, -1) and (major, minor) != API_VERSION:
        raise ImportError("drupalsdk: %s is version %s, but this binding was written for %d.%d.x; "
                          "rebuild the library (scripts/build-lib) or install the matching binding"
                          % (library_path, version, API_VERSION[0], API_VERSION[1]))


_check_version()
