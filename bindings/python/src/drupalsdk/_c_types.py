"""The C API's constants (drupal_code values, option versions), structures and callback types.

Only _ffi imports this module (and re-exports every name): the rest of the package names these
through _ffi.
"""
from __future__ import annotations

import ctypes
from ctypes import CFUNCTYPE, POINTER, Structure, c_char_p, c_double, c_int, c_size_t, c_uint, c_void_p

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
DRUPAL_E_FILE = 14

DRUPAL_EVENT_LOGIN = 1
DRUPAL_EVENT_LOGOUT = 2
DRUPAL_EVENT_REQUEST_START = 3
DRUPAL_EVENT_REQUEST_FINISH = 4
DRUPAL_EVENT_RETRY = 5

DRUPAL_CLIENT_OPTIONS_VERSION = 6
DRUPAL_REQUEST_OPTIONS_VERSION = 1
DRUPAL_OAUTH_OPTIONS_VERSION = 2

DRUPAL_OAUTH_CLIENT_CREDENTIALS = 1
DRUPAL_OAUTH_PASSWORD = 2
DRUPAL_OAUTH_REFRESH_TOKEN = 3
DRUPAL_OAUTH_AUTHORIZATION_CODE = 4

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
        # Version 4:
        ("proxy", c_char_p),
        # Version 5:
        ("compression", c_int),
        # Version 6:
        ("min_file_rate", c_int),
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


class Completion(Structure):
    """drupal_completion: one outcome taken from a drupal_queue."""
    _fields_ = [
        ("tag", ctypes.c_uint64),
        ("code", c_int),
        ("response", c_void_p),
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
        # version 2
        ("code", c_char_p),
        ("redirect_uri", c_char_p),
        ("code_verifier", c_char_p),
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
