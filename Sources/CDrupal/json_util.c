/* Shared checks and message formatting for the JSON helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "json_internal.h"

int drupal__json_failf(int code, const char *fmt, ...) {
    char message[512];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    if (n < 0) message[0] = '\0';
    return drupal__fail(code, message);
}

int drupal__json_utf8_valid(const char *bytes, size_t length) {
    const unsigned char *s = (const unsigned char *)bytes;
    size_t i = 0;
    while (i < length) {
        unsigned char c = s[i];
        size_t extra;
        uint32_t cp;
        if (c < 0x80) { i++; continue; }
        else if (c >= 0xC2 && c <= 0xDF) { extra = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { extra = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { extra = 3; cp = c & 0x07; }
        else return 0; /* continuation byte, 0xC0/0xC1 overlong lead, or > 0xF4 */
        if (length - i <= extra) return 0;
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000)) return 0; /* overlong */
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += extra + 1;
    }
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
