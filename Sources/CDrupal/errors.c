/* Per-thread last error and code names (drupal_last_error, drupal_code_name). */
#include <stdio.h>
#include <string.h>
#include "drupalsdk.h"
#include "cdrupal.h"

/* Long enough for Drupal's validation messages; longer ones are cut, never overflowed. */
#define LAST_ERROR_CAPACITY 2048

static _Thread_local char last_error[LAST_ERROR_CAPACITY];
static _Thread_local drupal_code last_code = DRUPAL_OK;

int drupal__fail_n(int code, const char *message, size_t length) {
    if (message == NULL) { message = ""; length = 0; }
    if (length >= LAST_ERROR_CAPACITY) length = LAST_ERROR_CAPACITY - 1;
    memcpy(last_error, message, length);
    last_error[length] = '\0';
    last_code = (drupal_code)code;
    return code;
}

int drupal__fail(int code, const char *message) {
    return drupal__fail_n(code, message, message ? strlen(message) : 0);
}

const char *drupal_last_error(void) { return last_error; }
drupal_code drupal_last_error_code(void) { return last_code; }

const char *drupal_code_name(drupal_code code) {
    switch (code) {
    case DRUPAL_OK: return "DRUPAL_OK";
    case DRUPAL_E_INVALID_ARGUMENT: return "DRUPAL_E_INVALID_ARGUMENT";
    case DRUPAL_E_NETWORK: return "DRUPAL_E_NETWORK";
    case DRUPAL_E_TIMEOUT: return "DRUPAL_E_TIMEOUT";
    case DRUPAL_E_HTTP: return "DRUPAL_E_HTTP";
    case DRUPAL_E_DECODE: return "DRUPAL_E_DECODE";
    case DRUPAL_E_CANCELLED: return "DRUPAL_E_CANCELLED";
    case DRUPAL_E_UNIMPLEMENTED: return "DRUPAL_E_UNIMPLEMENTED";
    case DRUPAL_E_TOO_LARGE: return "DRUPAL_E_TOO_LARGE";
    case DRUPAL_E_TLS: return "DRUPAL_E_TLS";
    case DRUPAL_E_NOT_FOUND: return "DRUPAL_E_NOT_FOUND";
    case DRUPAL_E_NO_MEMORY: return "DRUPAL_E_NO_MEMORY";
    case DRUPAL_E_STATE: return "DRUPAL_E_STATE";
    case DRUPAL_E_INTERNAL: return "DRUPAL_E_INTERNAL";
    }
    return "DRUPAL_E_UNKNOWN";
}
