/* Per-thread last error and code names (drupal_last_error, drupal_code_name). */
#include <stdio.h>
#include <string.h>
#include "drupalsdk.h"
#include "cdrupal.h"
#include "json_internal.h" /* drupal__json_utf8_char_length */

static _Thread_local char last_error[DRUPAL__LAST_ERROR_CAPACITY];
static _Thread_local drupal_code last_code = DRUPAL_OK;
static _Thread_local drupal_error_kind last_kind = DRUPAL_ERROR_KIND_OTHER;

/* Every message passes here, so here it becomes what the header promises, UTF-8: an invalid byte
 * or a NUL (which would end the C string early) becomes U+FFFD, and a message too long for the
 * buffer is cut after a whole character, with "..." to show it was cut. */
int drupal__fail_n(int code, const char *message, size_t length) {
    static const char replacement[] = "\xEF\xBF\xBD", cut_mark[] = "...";
    const size_t limit = DRUPAL__LAST_ERROR_CAPACITY - 1, room_for_mark = limit - (sizeof cut_mark - 1);
    size_t n = 0, cut = 0;
    if (message == NULL) length = 0;
    for (size_t i = 0, used; i < length; i += used) {
        const char *unit = message + i;
        size_t unit_length = used = drupal__json_utf8_char_length(unit, length - i);
        if (used == 0 || *unit == '\0') {
            unit = replacement;
            unit_length = sizeof replacement - 1;
            used = 1;
        }
        if (n + unit_length > limit) {
            memcpy(last_error + cut, cut_mark, sizeof cut_mark - 1);
            n = cut + sizeof cut_mark - 1;
            break;
        }
        memcpy(last_error + n, unit, unit_length);
        n += unit_length;
        if (n <= room_for_mark) cut = n;
    }
    last_error[n] = '\0';
    last_code = (drupal_code)code;
    last_kind = DRUPAL_ERROR_KIND_OTHER;
    return code;
}

int drupal__fail_kind(int code, int kind, const char *message) {
    drupal__fail(code, message);
    last_kind = (drupal_error_kind)kind;
    return code;
}

int drupal__fail(int code, const char *message) {
    return drupal__fail_n(code, message, message ? strlen(message) : 0);
}

const char *drupal_last_error(void) { return last_error; }
drupal_code drupal_last_error_code(void) { return last_code; }
drupal_error_kind drupal_last_error_kind(void) { return last_kind; }

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
    case DRUPAL_E_FILE: return "DRUPAL_E_FILE";
    }
    return "DRUPAL_E_UNKNOWN";
}
