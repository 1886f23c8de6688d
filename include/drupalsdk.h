/*
 * drupalsdk.h - the C API of libdrupalsdk, a client for Drupal 10/11 sites.
 *
 * One header, C99. Link with `pkg-config --cflags --libs drupalsdk`.
 *
 * Conventions (they hold for every function below unless its doc says otherwise):
 *  - Every symbol starts with drupal_ / DRUPAL_.
 *  - Fallible functions return a drupal_code; DRUPAL_OK is 0. On failure the calling thread's
 *    last-error message (drupal_last_error()) says what went wrong. No function aborts the
 *    process on bad input: NULL handles and strings, invalid UTF-8 and malformed JSON are
 *    reported as DRUPAL_E_INVALID_ARGUMENT (or DRUPAL_E_DECODE for bodies).
 *  - Output parameters come first, then the handle, then inputs, then (callback, userdata).
 *  - Input strings are copied before a call returns; the caller keeps ownership of them.
 *  - Returned pointers are either borrowed (valid until a named event) or owned (released with
 *    a named drupal_*_free); each function says which. Every drupal_*_free(NULL) is a no-op.
 *  - Functions returning json_t* say whether the reference is new (json_decref it) or borrowed.
 *  - Client handles are thread-safe: any number of threads may use one client at once.
 *  - Async calls return at once and call their callback exactly once, on a library thread,
 *    whatever happens (success, HTTP error, network error, cancellation). Blocking *_sync
 *    calls must not be made from inside a callback (they return DRUPAL_E_STATE there).
 */
#ifndef DRUPALSDK_H
#define DRUPALSDK_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Version ================================================================================ */

#define DRUPAL_SDK_VERSION_MAJOR 0
#define DRUPAL_SDK_VERSION_MINOR 1
#define DRUPAL_SDK_VERSION_PATCH 0
/* One number for compile-time comparisons: 0xMMmmpp. */
#define DRUPAL_SDK_VERSION_NUM ((DRUPAL_SDK_VERSION_MAJOR << 16) | \
                                (DRUPAL_SDK_VERSION_MINOR << 8) | DRUPAL_SDK_VERSION_PATCH)

/**
 * The library's version as "MAJOR.MINOR.PATCH" (a static string; never free it).
 * Compare with DRUPAL_SDK_VERSION_* to detect a header/library mismatch at run time.
 */
const char *drupal_version(void);

/** The library's version as DRUPAL_SDK_VERSION_NUM would give it. */
unsigned int drupal_version_num(void);

/* ==== Errors ================================================================================= */

/** Result codes. New codes may be added at the end; treat unknown values as errors. */
typedef enum drupal_code {
    DRUPAL_OK = 0,
    DRUPAL_E_INVALID_ARGUMENT = 1, /* NULL, empty or malformed input; unsafe path; bad option */
    DRUPAL_E_NETWORK = 2,          /* could not connect, connection reset, DNS failure */
    DRUPAL_E_TIMEOUT = 3,          /* connect or total timeout expired */
    DRUPAL_E_HTTP = 4,             /* the server answered with a status >= 400 */
    DRUPAL_E_DECODE = 5,           /* a body was not the JSON (or text) expected */
    DRUPAL_E_CANCELLED = 6,        /* cancelled by drupal_call_cancel() or drupal_client_free() */
    DRUPAL_E_UNIMPLEMENTED = 7,    /* the operation has no implementation in this client */
    DRUPAL_E_TOO_LARGE = 8,        /* a response body exceeded the client's max body size */
    DRUPAL_E_TLS = 9,              /* TLS handshake or certificate verification failed */
    DRUPAL_E_NOT_FOUND = 10,       /* a lookup (header, JSON field, index) found nothing */
    DRUPAL_E_NO_MEMORY = 11,       /* an allocation failed */
    DRUPAL_E_STATE = 12,           /* not allowed now (e.g. a _sync call inside a callback) */
    DRUPAL_E_INTERNAL = 13         /* a bug in the library; please report it */
} drupal_code;

/** The code's name, e.g. "DRUPAL_E_TIMEOUT" (static string; "DRUPAL_E_UNKNOWN" if unknown). */
const char *drupal_code_name(drupal_code code);

/**
 * The message of the last failing call made on this thread, or "" if none failed yet.
 * Borrowed: valid until the next drupal_* call on this thread. Never NULL.
 */
const char *drupal_last_error(void);

/** The code of the last failing call made on this thread (DRUPAL_OK if none). */
drupal_code drupal_last_error_code(void);

/* @@JSON_SECTION@@ */

#ifdef __cplusplus
}
#endif

#endif /* DRUPALSDK_H */
