/* Internal helpers shared by the json_*.c files (the Jansson half of the C API).
 * Hidden from the shared object like everything in cdrupal.h. */
#ifndef DRUPAL_JSON_INTERNAL_H
#define DRUPAL_JSON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "drupalsdk.h"
#include "cdrupal.h"

/* Caps names quoted in messages so a huge field name cannot crowd out the rest. */
#define DRUPAL_JSON_NAME_FMT "\"%.100s\""

#if defined(__GNUC__) || defined(__clang__)
#define DRUPAL_JSON_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DRUPAL_JSON_PRINTF(f, a)
#endif

/* drupal__fail with a printf-style message; returns code. A message too long for
 * drupal_last_error() is cut and marked "..." by drupal__fail_n, never cut silently here. */
DRUPAL_INTERNAL int drupal__json_failf(int code, const char *fmt, ...) DRUPAL_JSON_PRINTF(2, 3);

/* The length (1 to 4) of the well-formed UTF-8 character bytes starts with, or 0 if it does not
 * start with one (or length is 0). */
DRUPAL_INTERNAL size_t drupal__json_utf8_char_length(const char *bytes, size_t length);

/* 1 if bytes[0..length) are well-formed UTF-8 (no overlongs, surrogates or > U+10FFFF),
 * the same rule Jansson applies to the strings it stores. */
DRUPAL_INTERNAL int drupal__json_utf8_valid(const char *bytes, size_t length);

/* Checks a caller's name argument (field, property, column, entity type): non-NULL, non-empty,
 * valid UTF-8. what is "field", "property", ... for the message. Returns DRUPAL_OK or fails
 * with DRUPAL_E_INVALID_ARGUMENT. */
DRUPAL_INTERNAL int drupal__json_check_name(const char *what, const char *name);

/* Checks a caller's string value: non-NULL, valid UTF-8. */
DRUPAL_INTERNAL int drupal__json_check_text(const char *what, const char *value);

/* The C string of a JSON string that holds no NUL, else NULL (not a string, or one a caller built
 * with json_stringn around a NUL: strlen would end it early, and a prefix could pass for another
 * value). drupal_json_parse never makes such a string. Every reader that hands out a const char *
 * goes through this. */
DRUPAL_INTERNAL const char *drupal__json_c_string(const json_t *value);

/* "an object", "a string", ... for messages; "NULL" for NULL. */
DRUPAL_INTERNAL const char *drupal__json_type_name(const json_t *value);

/* Strict decimal integer ("-12", no spaces, no '+', no overflow). 1 on success. */
DRUPAL_INTERNAL int drupal__json_parse_int(const char *text, size_t length, int64_t *out);

/* A JSON-number string ("12.5", "-3", "1e3") to double, independent of the C locale.
 * 1 on success. */
DRUPAL_INTERNAL int drupal__json_parse_double(const char *text, size_t length, double *out);

#endif
