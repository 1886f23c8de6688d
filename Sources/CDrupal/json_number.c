/* Numbers held in strings: Drupal sends IDs as strings in view rows and login bodies ("nid":"1")
 * and decimal fields as strings ("12.50"). Both parsers are strict and locale-independent. */
#include <string.h>
#include "json_internal.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int drupal__json_parse_int(const char *text, size_t length, int64_t *out) {
    size_t i = 0;
    int negative = 0;
    uint64_t magnitude = 0;
    if (text == NULL || length == 0) return 0;
    if (text[0] == '-') { negative = 1; i = 1; }
    if (i == length) return 0;
    /* INT64_MIN has one more unit of magnitude than INT64_MAX. */
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    for (; i < length; i++) {
        if (!is_digit(text[i])) return 0;
        unsigned digit = (unsigned)(text[i] - '0');
        if (magnitude > (limit - digit) / 10u) return 0;
        magnitude = magnitude * 10u + digit;
    }
    if (negative) *out = magnitude == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)magnitude;
    else *out = (int64_t)magnitude;
    return 1;
}

/* JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? ; sets *has_exponent. */
static int is_json_number(const char *s, size_t n, int *has_exponent) {
    size_t i = 0;
    *has_exponent = 0;
    if (i < n && s[i] == '-') i++;
    if (i < n && s[i] == '0') i++;
    else if (i < n && is_digit(s[i])) { while (i < n && is_digit(s[i])) i++; }
    else return 0;
    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || !is_digit(s[i])) return 0;
        while (i < n && is_digit(s[i])) i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        *has_exponent = 1;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= n || !is_digit(s[i])) return 0;
        while (i < n && is_digit(s[i])) i++;
    }
    return i == n;
}

int drupal__json_parse_double(const char *text, size_t length, double *out) {
    char buffer[80];
    int has_exponent;
    json_error_t error;
    if (text == NULL || length == 0 || length > 64) return 0;
    if (!is_json_number(text, length, &has_exponent)) return 0;
    /* Let Jansson convert (it copes with a comma-decimal C locale, strtod does not); the "e0"
     * suffix makes it a real even when it is too big for a json_int_t. */
    memcpy(buffer, text, length);
    size_t n = length;
    if (!has_exponent) { buffer[n++] = 'e'; buffer[n++] = '0'; }
    json_t *number = json_loadb(buffer, n, JSON_DECODE_ANY, &error);
    if (number == NULL) return 0;
    int ok = json_is_real(number);
    if (ok) *out = json_real_value(number);
    json_decref(number);
    return ok;
}
