/* Shared checks and message formatting for the JSON helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "json_internal.h"

/* One byte more than the last error holds: a message too long for it reaches drupal__fail_n still
 * too long, so drupal__fail_n cuts it at a character boundary and marks it "...", rather than
 * vsnprintf cutting it silently here. */
#define FAILF_MESSAGE_CAPACITY (DRUPAL__LAST_ERROR_CAPACITY + 1)

int drupal__json_failf(int code, const char *fmt, ...) {
    char message[FAILF_MESSAGE_CAPACITY];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    if (n < 0) message[0] = '\0';
    return drupal__fail(code, message);
}

size_t drupal__json_utf8_char_length(const char *bytes, size_t length) {
    const unsigned char *s = (const unsigned char *)bytes;
    size_t extra;
    uint32_t cp;
    if (length == 0) return 0;
    if (s[0] < 0x80) return 1;
    else if (s[0] >= 0xC2 && s[0] <= 0xDF) { extra = 1; cp = s[0] & 0x1F; }
    else if (s[0] >= 0xE0 && s[0] <= 0xEF) { extra = 2; cp = s[0] & 0x0F; }
    else if (s[0] >= 0xF0 && s[0] <= 0xF4) { extra = 3; cp = s[0] & 0x07; }
    else return 0; /* continuation byte, 0xC0/0xC1 overlong lead, or > 0xF4 */
    if (length <= extra) return 0;
    for (size_t k = 1; k <= extra; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    if ((extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000)) return 0; /* overlong */
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return extra + 1;
}

int drupal__json_utf8_valid(const char *bytes, size_t length) {
    for (size_t i = 0, n; i < length; i += n)
        if ((n = drupal__json_utf8_char_length(bytes + i, length - i)) == 0) return 0;
    return 1;
}

int drupal__json_check_name(const char *what, const char *name) {
    if (name == NULL) return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "%s name is NULL", what);
    if (name[0] == '\0')
        return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "%s name is empty", what);
    if (!drupal__json_utf8_valid(name, strlen(name)))
        return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "%s name is not valid UTF-8", what);
    return DRUPAL_OK;
}

int drupal__json_check_text(const char *what, const char *value) {
    if (value == NULL) return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "%s is NULL", what);
    if (!drupal__json_utf8_valid(value, strlen(value)))
        return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "%s is not valid UTF-8", what);
    return DRUPAL_OK;
}

const char *drupal__json_c_string(const json_t *value) {
    const char *text = json_string_value(value);
    if (text == NULL || strlen(text) != json_string_length(value)) return NULL;
    return text;
}

const char *drupal__json_type_name(const json_t *value) {
    if (value == NULL) return "NULL";
    switch (json_typeof(value)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "an unknown JSON type";
}
