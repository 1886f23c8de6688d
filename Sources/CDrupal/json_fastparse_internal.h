/* What the files of the fast JSON parser (json_fastparse.c, json_fastparse_string.c,
 * json_fastparse_number.c) share: the parser state, the helper macros and the functions one file
 * calls in another. Internal to Sources/CDrupal (not part of include/); every function is hidden. */
#ifndef DRUPAL_JSON_FASTPARSE_INTERNAL_H
#define DRUPAL_JSON_FASTPARSE_INTERNAL_H

#include <stddef.h>
#include "json_fastparse.h"

#if defined(__GNUC__) || defined(__clang__)
#define FP_LIKELY(x) __builtin_expect(!!(x), 1)
#define FP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define FP_INLINE static inline __attribute__((always_inline))
#define FP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FP_LIKELY(x) (x)
#define FP_UNLIKELY(x) (x)
#define FP_INLINE static inline
#define FP_PRINTF(f, a)
#endif

typedef unsigned char uchar;

enum { SLOT_KEY = 0, SLOT_VALUE = 1 };

typedef struct {
    const uchar *begin, *end;
    char *buf[2]; /* decoded strings with escapes: [SLOT_KEY] the pending key, [SLOT_VALUE] a value */
    size_t cap[2];
    drupal__json_fastparse_error *error;
    int failed;
} parser;

/* Records the first error (later calls are ignored): its position (at, clamped to the end of the
 * input) and a printf-style message. */
DRUPAL_INTERNAL void drupal__fastparse_fail(parser *ps, const uchar *at, const char *fmt, ...) FP_PRINTF(3, 4);

/* drupal__fastparse_fail with "out of memory", marking the error as out_of_memory. */
DRUPAL_INTERNAL void drupal__fastparse_fail_oom(parser *ps, const uchar *at);

/* drupal__fastparse_fail with "<what> near 'x'": the offending character, or the end of input. */
DRUPAL_INTERNAL void drupal__fastparse_fail_near(parser *ps, const uchar *at, const char *what);

/* The string whose opening quote is at p[-1] (json_fastparse_string.c). On success returns the
 * position after the closing quote and sets *out and *length: into the input when the string has
 * no escapes, else into the scratch buffer slot (valid until the next string parsed into that
 * slot). NULL after drupal__fastparse_fail(). */
DRUPAL_INTERNAL const uchar *drupal__fastparse_string(parser *ps, const uchar *p, int slot, const char **out,
                                                      size_t *length);

/* A JSON number at p (p[0] is '-' or a digit; json_fastparse_number.c). Sets *out to a
 * json_integer or json_real and returns the position after it, or NULL after
 * drupal__fastparse_fail(). */
DRUPAL_INTERNAL const uchar *drupal__fastparse_number(parser *ps, const uchar *p, json_t **out);

#endif
