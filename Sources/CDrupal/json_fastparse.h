/* A single-pass JSON parser over a contiguous buffer that builds the same Jansson tree as
 * json_loadb(buffer, length, JSON_DECODE_ANY, &error): the same accept/reject decisions
 * (strict UTF-8, "\u0000" refused in strings and keys, integers as json_int_t with
 * "too big integer" on overflow, reals through strtod with "real number overflow", later
 * duplicate keys replacing earlier ones, at most JSON_PARSER_MAX_DEPTH nested values) but about
 * 10x faster, because it scans string runs in blocks instead of pulling one byte at a time
 * through Jansson's stream callback. Internal (hidden) like everything in cdrupal.h. */
#ifndef DRUPAL_JSON_FASTPARSE_H
#define DRUPAL_JSON_FASTPARSE_H

#include <stddef.h>
#include "cdrupal.h"

typedef struct {
    int line;          /* 1-based line of the offending byte */
    int column;        /* 1-based column (in UTF-8 characters) of the offending byte */
    size_t position;   /* byte offset of the offending byte (length at a premature end) */
    int out_of_memory; /* 1 if the parse failed because Jansson or malloc returned NULL */
    char text[160];    /* what went wrong, e.g. "',' or ']' expected near 'x'" */
} drupal__json_fastparse_error;

/* Parses buffer[0..length) (need not be NUL-terminated; never read past length; length at most
 * PTRDIFF_MAX, which drupal_json_parse checks). Returns a new reference, or NULL with *error
 * filled in (error may not be NULL). */
DRUPAL_INTERNAL json_t *drupal__json_fastparse(const char *buffer, size_t length,
                                               drupal__json_fastparse_error *error);

#endif
