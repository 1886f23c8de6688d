"""Every C declaration the binding uses, in one place: library lookup, types, signatures, errors.

Nothing outside this module names a ctypes type of the C API. The library is found in this
order (the first that loads wins):

1. ``$DRUPALSDK_LIBRARY`` (a path). When set, it is the only place tried.
2. A copy inside the package: ``drupalsdk/lib/libdrupalsdk.so*``.
3. The checkout's ``build/lib/libdrupalsdk.so`` when running from the source tree.
4. The system: ``ctypes.util.find_library("drupalsdk")``, then ``libdrupalsdk.so.0``.

The library is never unloaded (the Swift runtime inside it must not be ``dlclose``d).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import glob
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, byref, c_char_p, c_double, c_int, c_size_t, c_uint,
                    c_uint64, c_void_p)
from typing import List, NoReturn, Optional, Tuple

from . import _errors, _loaderror

#: The C API version this binding was written for (major, minor): its own version's, which
#: setup.py reads from include/drupalsdk.h.
def _binding_version() -> Tuple[int, int]:
    import importlib.metadata
    try:
        major, minor = importlib.metadata.version("drupalsdk").split(".")[:2]
        return int(major), int(minor)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return (-1, -1)   # not installed (a source tree): any library version is taken


API_VERSION = _binding_version()

LIBRARY_ENV = "DRUPALSDK_LIBRARY"

# ---- drupal_code ---------------------------------------------------------------------------------

DRUPAL_OK = 0
DRUPAL_E_INVALID_ARGUMENT = 1
DRUPAL_E_NETWORK = 2
DRUPAL_E_TIMEOUT = 3
DRUPAL_E_HTTP = 4
DRUPAL_E_DECODE = 5
DRUPAL_E_CANCELLED = 6
DRUPAL_E_UNIMPLEMENTED = 7
DRUPAL_E_TOO_LARGE = 8
DRUPAL_E_TLS = 9
DRUPAL_E_NOT_FOUND = 10
DRUPAL_E_NO_MEMORY = 11
DRUPAL_E_STATE = 12
DRUPAL_E_INTERNAL = 13

DRUPAL_EVENT_LOGIN = 1
DRUPAL_EVENT_LOGOUT = 2
DRUPAL_EVENT_REQUEST_START = 3
DRUPAL_EVENT_REQUEST_FINISH = 4
DRUPAL_EVENT_RETRY = 5

DRUPAL_CLIENT_OPTIONS_VERSION = 3
DRUPAL_REQUEST_OPTIONS_VERSION = 1
DRUPAL_OAUTH_OPTIONS_VERSION = 1

DRUPAL_OAUTH_CLIENT_CREDENTIALS = 1
DRUPAL_OAUTH_PASSWORD = 2
DRUPAL_OAUTH_REFRESH_TOKEN = 3

# ---- Library lookup ------------------------------------------------------------------------------

_HERE = os.path.dirname(os.path.abspath(__file__))


def _checkout_library() -> Optional[str]:
    """build/lib/libdrupalsdk.so of the source tree this package sits in, if any."""
    directory = _HERE
    for _ in range(5):
        directory = os.path.dirname(directory)
        if os.path.exists(os.path.join(directory, "Package.swift")) and \
                os.path.exists(os.path.join(directory, "include", "drupalsdk.h")):
            return os.path.join(directory, "build", "lib", "libdrupalsdk.so")
    return None


def _load() -> Tuple[ctypes.CDLL, ctypes.PyDLL, str]:
    tried: List[str] = []

    def attempt(name: str, label: str):  # type: ignore[no-untyped-def]
        try:
            return ctypes.CDLL(name), ctypes.PyDLL(name), name
        except OSError as error:
            tried.append("%s: %s (%s)" % (label, name, error))
            return None

    explicit = os.environ.get(LIBRARY_ENV)
    if explicit:
        found = attempt(explicit, "$" + LIBRARY_ENV)
        if found:
            return found
        raise ImportError("drupalsdk: cannot load libdrupalsdk.\n  tried %s\n  (the package copy, the checkout's "
                          "build/lib and the system were not tried because %s is set)\n%s"
                          % (tried[0], LIBRARY_ENV, _loaderror.advice(tried)))
    tried.append("$%s: not set" % LIBRARY_ENV)

    bundled = sorted(glob.glob(os.path.join(_HERE, "lib", "libdrupalsdk.so*")))
    if not bundled:
        tried.append("package copy: no %s" % os.path.join(_HERE, "lib", "libdrupalsdk.so*"))
    for path in bundled:
        found = attempt(path, "package copy")
        if found:
            return found

    checkout = _checkout_library()
    if checkout is None:
        tried.append("checkout build: not running from a drupalsdk source tree")
    elif not os.path.exists(checkout):
        tried.append("checkout build: no %s" % checkout)
    else:
        found = attempt(checkout, "checkout build")
        if found:
            return found

    system = ctypes.util.find_library("drupalsdk")
    if system:
        found = attempt(system, "system (find_library)")
        if found:
            return found
    else:
        tried.append("system: ctypes.util.find_library('drupalsdk') found nothing")
    found = attempt("libdrupalsdk.so.0", "system (dynamic loader)")
    if found:
        return found
    raise ImportError("drupalsdk: cannot load libdrupalsdk. Looked in:\n  " + "\n  ".join(tried) + "\n"
                      + _loaderror.advice(tried))


lib, _pylib, library_path = _load()

# ---- Types ---------------------------------------------------------------------------------------


class ClientOptions(Structure):
    """drupal_client_options."""
    _fields_ = [
        ("version", c_uint),
        ("connect_timeout", c_double),
        ("timeout", c_double),
        ("user_agent", c_char_p),
        ("ca_bundle", c_char_p),
        ("verify_tls", c_int),
        ("max_body_size", c_size_t),
        ("headers", POINTER(c_char_p)),
        ("follow_redirects", c_int),
        ("entity_paths", POINTER(c_char_p)),
        ("max_retries", c_int),
        ("secret_headers", POINTER(c_char_p)),
        ("request_hook", c_void_p),
        ("request_hook_userdata", c_void_p),
        ("log_hook", c_void_p),
        ("log_hook_userdata", c_void_p),
        # Version 3:
        ("max_connections", c_int),
        ("busy_poll_us", c_int),
        ("http2", c_int),
    ]


class RequestOptions(Structure):
    """drupal_request_options."""
    _fields_ = [
        ("version", c_uint),
        ("query", POINTER(c_char_p)),
        ("headers", POINTER(c_char_p)),
        ("body", c_char_p),  # const void *; c_char_p so bytes can be assigned (length is explicit)
        ("body_length", c_size_t),
        ("no_format", c_int),
    ]


class Event(Structure):
    """drupal_event."""
    _fields_ = [
        ("type", c_int),
        ("method", c_char_p),
        ("path", c_char_p),
        ("status", c_int),
        ("duration_ms", c_double),
        ("user_name", c_char_p),
        ("uid", c_char_p),
        ("attempt", c_int),
    ]


#: void (*drupal_callback)(drupal_code, drupal_response *, void *userdata)
CALLBACK = CFUNCTYPE(None, c_int, c_void_p, c_void_p)
#: void (*drupal_event_callback)(const drupal_event *, void *userdata)
EVENT_CALLBACK = CFUNCTYPE(None, POINTER(Event), c_void_p)
#: int (*drupal_interrupt_callback)(void *userdata)
INTERRUPT_CALLBACK = CFUNCTYPE(c_int, c_void_p)
#: drupal_code (*drupal_request_hook)(drupal_request_edit *, void *userdata)
REQUEST_HOOK = CFUNCTYPE(c_int, c_void_p, c_void_p)
#: void (*drupal_log_hook)(const char *line, void *userdata)
LOG_HOOK = CFUNCTYPE(None, c_char_p, c_void_p)
#: drupal_code (*drupal_token_provider)(drupal_token_request *, void *userdata)
TOKEN_PROVIDER = CFUNCTYPE(c_int, c_void_p, c_void_p)
#: int (*drupal_progress_callback)(int64_t done, int64_t total, void *userdata)
PROGRESS_CALLBACK = CFUNCTYPE(c_int, ctypes.c_int64, ctypes.c_int64, c_void_p)
#: int (*drupal_write_callback)(const void *data, size_t length, void *userdata)
WRITE_CALLBACK = CFUNCTYPE(c_int, c_void_p, c_size_t, c_void_p)

DRUPAL_TRANSFER_OPTIONS_VERSION = 1


class TransferOptions(Structure):
    """drupal_transfer_options."""
    _fields_ = [
        ("version", c_uint),
        ("progress", PROGRESS_CALLBACK),
        ("progress_userdata", c_void_p),
        ("write", WRITE_CALLBACK),
        ("write_userdata", c_void_p),
    ]


class OAuthOptions(Structure):
    """drupal_oauth_options."""
    _fields_ = [
        ("version", c_uint),
        ("grant", c_int),
        ("client_id", c_char_p),
        ("client_secret", c_char_p),
        ("username", c_char_p),
        ("password", c_char_p),
        ("refresh_token", c_char_p),
        ("scope", c_char_p),
        ("token_path", c_char_p),
        ("client_auth_basic", c_int),
        ("refresh_margin", c_double),
    ]


class MockAnswer(Structure):
    """drupal_mock_answer."""
    _fields_ = [
        ("version", c_uint),
        ("status", c_int),
        ("headers", POINTER(c_char_p)),
        ("body", c_char_p),
        ("body_length", c_size_t),
        ("fail", c_int),
    ]


DRUPAL_MOCK_ANSWER_VERSION = 1

# Handles travel as plain integers (c_void_p): drupal_client *, drupal_response *, drupal_call *.
_h = c_void_p
_s = c_char_p
_out = POINTER(c_void_p)
_code = c_int
_strv = POINTER(c_char_p)


def _declare(library: ctypes.CDLL, name: str, restype, *argtypes) -> None:  # type: ignore[no-untyped-def]
    function = getattr(library, name)
    function.restype = restype
    function.argtypes = list(argtypes)


_ASYNC_TAIL = (CALLBACK, c_void_p)

_SIGNATURES = [
    # version and errors
    ("drupal_version", c_char_p),
    ("drupal_version_num", c_uint),
    ("drupal_code_name", c_char_p, c_int),
    ("drupal_last_error", c_char_p),
    ("drupal_last_error_code", c_int),
    ("drupal_free", None, c_void_p),
    ("drupal_set_interrupt_fd", _code, c_int, INTERRUPT_CALLBACK, c_void_p),
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
    ("drupal_oauth_authenticate", _code, _out, _h, *_ASYNC_TAIL),
    ("drupal_oauth_authenticate_sync", _code, _out, _h),
    ("drupal_client_has_session", c_int, _h),
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
    ("drupal_response_oauth_error", c_char_p, _h, _s),
    ("drupal_response_langcode", c_char_p, _h),
    ("drupal_response_jsonapi_error_count", c_size_t, _h),
    ("drupal_response_jsonapi_error_member_at", _code, POINTER(c_char_p), POINTER(c_char_p), _h, c_size_t,
     c_size_t),
    ("drupal_response_body", c_void_p, _h, POINTER(c_size_t)),
    ("drupal_response_header", c_char_p, _h, _s),
    ("drupal_response_header_count", c_size_t, _h),
    ("drupal_response_header_at", _code, POINTER(c_char_p), POINTER(c_char_p), _h, c_size_t),
    ("drupal_response_violation_count", c_size_t, _h),
    ("drupal_response_violation_at", _code, POINTER(c_char_p), POINTER(c_char_p), _h, c_size_t),
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

# ---- Errors --------------------------------------------------------------------------------------

_code_names = {}


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
    return _errors.error_class(code)(message, code=code_name(code))


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
              "drupal_view_pager_new", "drupal_jsonapi_pager_new", "drupal_client_add_listener",
              "drupal_client_remove_listener", "drupal_mock_client_new", "drupal_mock_add_user",
              "drupal_mock_add_entity", "drupal_mock_stub", "drupal_mock_stub_answers", "drupal_mock_add_view",
              "drupal_mock_add_bundle", "drupal_mock_add_bearer_token", "drupal_mock_invalidate_csrf_tokens",
              "drupal_mock_requests_json", "drupal_mock_clear_requests", "drupal_unimplemented_client_new"):
    getattr(lib, _name).errcheck = check

def string_array(items: "List[bytes]"):  # type: ignore[no-untyped-def]
    """A NULL-terminated ``const char *const *`` holding items (keep the result alive)."""
    array = (c_char_p * (len(items) + 1))()
    array[:len(items)] = items
    return array


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
