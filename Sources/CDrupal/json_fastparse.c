/* drupal__json_fastparse: JSON text to a Jansson tree in one pass (see json_fastparse.h).
 *
 * Containers are attached to their parent as soon as they open, so the tree under construction
 * is always owned by the root: an error path only has to json_decref(root). The parse is
 * iterative (an explicit stack of open containers), so hostile nesting cannot overflow the C
 * stack; values deeper than JSON_PARSER_MAX_DEPTH are refused exactly where Jansson refuses them.
 * Every read is bounds-checked against the end of the buffer. This file holds the tree building
 * and the error reporting; strings are read in json_fastparse_string.c, numbers in
 * json_fastparse_number.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_fastparse_internal.h"

#ifndef JSON_PARSER_MAX_DEPTH
#define JSON_PARSER_MAX_DEPTH 2048
#endif

void drupal__fastparse_fail(parser *ps, const uchar *at, const char *fmt, ...) {
    va_list ap;
    if (ps->failed) return;
    ps->failed = 1;
    if (at > ps->end) at = ps->end;
    ps->error->position = (size_t)(at - ps->begin);
    va_start(ap, fmt);
    vsnprintf(ps->error->text, sizeof ps->error->text, fmt, ap);
    va_end(ap);
}

void drupal__fastparse_fail_oom(parser *ps, const uchar *at) {
    drupal__fastparse_fail(ps, at, "out of memory");
    ps->error->out_of_memory = 1;
}

/* "near 'x'" for messages: the offending character, or the end of input. */
void drupal__fastparse_fail_near(parser *ps, const uchar *at, const char *what) {
    if (at >= ps->end) drupal__fastparse_fail(ps, at, "%s near end of input", what);
    else if (*at >= 0x20 && *at < 0x7f) drupal__fastparse_fail(ps, at, "%s near '%c'", what, *at);
    else drupal__fastparse_fail(ps, at, "%s near byte 0x%02x", what, *at);
}

/* Line and column of error->position, counted the way an editor does. */
static void locate(parser *ps) {
    const uchar *at = ps->begin + ps->error->position, *line_start = ps->begin;
    int line = 1, column = 1;
    for (const uchar *q = ps->begin; q < at; q++)
        if (*q == '\n') { line++; line_start = q + 1; }
    for (const uchar *q = line_start; q < at; q++)
        if ((*q & 0xC0) != 0x80) column++;
    ps->error->line = line;
    ps->error->column = column;
}

FP_INLINE const uchar *skip_ws(const uchar *p, const uchar *end) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
    return p;
}

/* Adds v (a new reference, consumed even on failure) to the innermost open container. */
FP_INLINE int attach(json_t *parent, const char *key, size_t key_length, json_t *v) {
    if (json_is_array(parent)) return json_array_append_new(parent, v);
    return json_object_setn_new_nocheck(parent, key, key_length, v);
}

json_t *drupal__json_fastparse(const char *buffer, size_t length, drupal__json_fastparse_error *error) {
    parser ps;
    json_t *inline_stack[64];
    json_t **stack = inline_stack; /* open containers, borrowed: the root owns them */
    size_t depth = 0, stack_cap = sizeof inline_stack / sizeof inline_stack[0];
    json_t *root = NULL, *v = NULL;
    const char *key = NULL;
    size_t key_length = 0;

    memset(error, 0, sizeof *error);
    memset(&ps, 0, sizeof ps);
    ps.begin = (const uchar *)buffer;
    ps.end = ps.begin + length;
    ps.error = error;
    if (buffer == NULL) {
        ps.begin = ps.end = (const uchar *)"";
    }
    const uchar *p = skip_ws(ps.begin, ps.end), *end = ps.end;

value:
    /* A value at depth + 1 (Jansson counts the top-level value as depth 1). */
    if (FP_UNLIKELY(depth >= JSON_PARSER_MAX_DEPTH)) {
        drupal__fastparse_fail(&ps, p, "maximum parsing depth reached (%d)", JSON_PARSER_MAX_DEPTH);
        goto error;
    }
    if (FP_UNLIKELY(p >= end)) {
        drupal__fastparse_fail(&ps, end, depth == 0 ? "a value expected, found only whitespace"
                                  : "premature end of input, a value expected");
        goto error;
    }
    switch (*p) {
    case '"': {
        const char *s;
        size_t n;
        p = drupal__fastparse_string(&ps, p + 1, SLOT_VALUE, &s, &n);
        if (p == NULL) goto error;
        v = json_stringn_nocheck(s, n);
        if (v == NULL) goto oom;
        break;
    }
    case '{':
    case '[': {
        int is_object = *p == '{';
        json_t *container = is_object ? json_object() : json_array();
        if (container == NULL) goto oom;
        if (depth == 0) root = container;
        else if (attach(stack[depth - 1], key, key_length, container)) goto oom;
        if (depth == stack_cap) {
            size_t cap = stack_cap * 2;
            json_t **grown = stack == inline_stack ? malloc(cap * sizeof *grown)
                                                   : realloc(stack, cap * sizeof *grown);
            if (grown == NULL) goto oom;
            if (stack == inline_stack) memcpy(grown, inline_stack, sizeof inline_stack);
            stack = grown;
            stack_cap = cap;
        }
        stack[depth++] = container;
        p = skip_ws(p + 1, end);
        if (p < end && *p == (is_object ? '}' : ']')) {
            p++;
            depth--;
            goto after_value;
        }
        if (is_object) goto object_key;
        goto value;
    }
    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        p = drupal__fastparse_number(&ps, p, &v);
        if (p == NULL) goto error;
        break;
    case 't':
        if (end - p < 4 || memcmp(p, "true", 4) != 0) goto bad_value;
        v = json_true();
        p += 4;
        break;
    case 'f':
        if (end - p < 5 || memcmp(p, "false", 5) != 0) goto bad_value;
        v = json_false();
        p += 5;
        break;
    case 'n':
        if (end - p < 4 || memcmp(p, "null", 4) != 0) goto bad_value;
        v = json_null();
        p += 4;
        break;
    default:
        goto bad_value;
    }
    /* A scalar: hand it to its container (or make it the root). */
    if (depth == 0) root = v;
    else {
        json_t *scalar = v;
        v = NULL;
        if (attach(stack[depth - 1], key, key_length, scalar)) goto oom;
    }
    v = NULL;

after_value:
    if (depth == 0) goto done;
    p = skip_ws(p, end);
    if (json_is_array(stack[depth - 1])) {
        if (p < end && *p == ',') {
            p = skip_ws(p + 1, end);
            goto value;
        }
        if (p < end && *p == ']') {
            p++;
            depth--;
            goto after_value;
        }
        drupal__fastparse_fail_near(&ps, p, "',' or ']' expected");
        goto error;
    }
    if (p < end && *p == ',') {
        p = skip_ws(p + 1, end);
        goto object_key;
    }
    if (p < end && *p == '}') {
        p++;
        depth--;
        goto after_value;
    }
    drupal__fastparse_fail_near(&ps, p, "',' or '}' expected");
    goto error;

object_key:
    if (p >= end || *p != '"') {
        drupal__fastparse_fail_near(&ps, p, "a string (an object key) expected");
        goto error;
    }
    p = drupal__fastparse_string(&ps, p + 1, SLOT_KEY, &key, &key_length);
    if (p == NULL) goto error;
    p = skip_ws(p, end);
    if (p >= end || *p != ':') {
        drupal__fastparse_fail_near(&ps, p, "':' expected");
        goto error;
    }
    p = skip_ws(p + 1, end);
    goto value;

bad_value:
    if (*p == ']' || *p == '}' || *p == ',' || *p == ':') drupal__fastparse_fail_near(&ps, p, "a value expected");
    else if (*p >= 0x80) drupal__fastparse_fail(&ps, p, "invalid token near byte 0x%02x", *p);
    else drupal__fastparse_fail_near(&ps, p, "invalid token");
    goto error;

done:
    p = skip_ws(p, end);
    if (p != end) {
        drupal__fastparse_fail_near(&ps, p, "end of file expected");
        goto error;
    }
    if (stack != inline_stack) free(stack);
    free(ps.buf[0]);
    free(ps.buf[1]);
    return root;

oom:
    drupal__fastparse_fail_oom(&ps, p);
error:
    json_decref(v); /* NULL-safe; only set between making a scalar and attaching it */
    json_decref(root);
    if (stack != inline_stack) free(stack);
    free(ps.buf[0]);
    free(ps.buf[1]);
    locate(&ps);
    return NULL;
}
