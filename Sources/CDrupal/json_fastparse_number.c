/* The number half of the fast JSON parser (see json_fastparse.h): drupal__fastparse_number reads
 * a JSON number into a json_integer (refusing overflow as Jansson does) or, through strtod in
 * the C locale's decimal point, a json_real. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "json_fastparse_internal.h"

/* A JSON number at p (p[0] is '-' or a digit). Sets *out to a json_integer or json_real and
 * returns the position after it, or NULL after drupal__fastparse_fail(). */
const uchar *drupal__fastparse_number(parser *ps, const uchar *p, json_t **out) {
    const uchar *start = p, *end = ps->end;
    int negative = 0;
    if (*p == '-') {
        negative = 1;
        p++;
    }
    if (p >= end || *p < '0' || *p > '9') {
        drupal__fastparse_fail_near(ps, p, "invalid number: a digit expected after '-'");
        return NULL;
    }
    const uchar *digits = p;
    uint64_t magnitude = 0;
    if (*p == '0') {
        p++;
        if (p < end && *p >= '0' && *p <= '9') {
            drupal__fastparse_fail(ps, start, "invalid number: leading zero");
            return NULL;
        }
    } else {
        while (p < end && *p >= '0' && *p <= '9') {
            magnitude = magnitude * 10u + (uint64_t)(*p - '0'); /* wraps harmlessly; rechecked below */
            p++;
        }
    }
    if (p >= end || (*p != '.' && *p != 'e' && *p != 'E')) {
        size_t count = (size_t)(p - digits);
        const uint64_t limit = negative ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
        if (count >= 19) { /* could have overflowed: redo with checks */
            magnitude = 0;
            for (const uchar *q = digits; q < p; q++) {
                unsigned d = (unsigned)(*q - '0');
                if (magnitude > (limit - d) / 10u) {
                    drupal__fastparse_fail(ps, start, negative ? "too big negative integer" : "too big integer");
                    return NULL;
                }
                magnitude = magnitude * 10u + d;
            }
        }
        json_int_t value = negative ? (magnitude == (uint64_t)INT64_MAX + 1u ? (json_int_t)INT64_MIN
                                                                             : -(json_int_t)magnitude)
                                    : (json_int_t)magnitude;
        *out = json_integer(value);
        if (*out == NULL) { drupal__fastparse_fail_oom(ps, start); return NULL; }
        return p;
    }
    if (*p == '.') {
        p++;
        if (p >= end || *p < '0' || *p > '9') {
            drupal__fastparse_fail_near(ps, p, "invalid number: a digit expected after '.'");
            return NULL;
        }
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (p >= end || *p < '0' || *p > '9') {
            drupal__fastparse_fail_near(ps, p, "invalid number: a digit expected in the exponent");
            return NULL;
        }
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    /* strtod, as Jansson does, on a NUL-terminated copy with the locale's decimal point. */
    size_t length = (size_t)(p - start);
    char small[64], *text = small;
    if (length >= sizeof small) {
        text = malloc(length + 1);
        if (text == NULL) { drupal__fastparse_fail_oom(ps, start); return NULL; }
    }
    memcpy(text, start, length);
    text[length] = '\0';
    const char *point = localeconv()->decimal_point;
    if (point != NULL && point[0] != '.' && point[0] != '\0') {
        char *dot = memchr(text, '.', length);
        if (dot != NULL) *dot = point[0];
    }
    errno = 0;
    double value = strtod(text, NULL);
    int overflow = (value == HUGE_VAL || value == -HUGE_VAL) && errno == ERANGE;
    if (text != small) free(text);
    if (overflow) {
        drupal__fastparse_fail(ps, start, "real number overflow");
        return NULL;
    }
    *out = json_real(value);
    if (*out == NULL) { drupal__fastparse_fail_oom(ps, start); return NULL; }
    return p;
}
