/* drupal__json_fastparse: JSON text to a Jansson tree in one pass (see json_fastparse.h).
 *
 * Containers are attached to their parent as soon as they open, so the tree under construction
 * is always owned by the root: an error path only has to json_decref(root). The parse is
 * iterative (an explicit stack of open containers), so hostile nesting cannot overflow the C
 * stack; values deeper than JSON_PARSER_MAX_DEPTH are refused exactly where Jansson refuses them.
 * Every read is bounds-checked against the end of the buffer. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "json_fastparse.h"

#ifndef JSON_PARSER_MAX_DEPTH
#define JSON_PARSER_MAX_DEPTH 2048
#endif

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

/* 1 for bytes that may appear unescaped in a string run: not '"', '\\', control, or >= 0x80. */
static const uchar plain_byte[256] = {
#define R16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
    R16(0), R16(0),                                       /* 0x00-0x1f */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,       /* 0x20-0x2f: '"' */
    R16(1), R16(1),                                       /* 0x30-0x4f */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,       /* 0x50-0x5f: '\\' */
    R16(1), R16(1),                                       /* 0x60-0x7f */
    R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0),
#undef R16
};

/* Hex digit values; -1 for anything else. */
static const signed char hex_value[256] = {
#define N16 -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    N16, N16, N16,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,              /* 0x30 */
    -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,    /* 0x40 */
    N16,
    -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,    /* 0x60 */
    N16, N16, N16, N16, N16, N16, N16, N16, N16, /* 0x70-0xff */
#undef N16
};

static void fail(parser *ps, const uchar *at, const char *fmt, ...) FP_PRINTF(3, 4);

static void fail(parser *ps, const uchar *at, const char *fmt, ...) {
    va_list ap;
    if (ps->failed) return;
    ps->failed = 1;
    if (at > ps->end) at = ps->end;
    ps->error->position = (size_t)(at - ps->begin);
    va_start(ap, fmt);
    vsnprintf(ps->error->text, sizeof ps->error->text, fmt, ap);
    va_end(ap);
}

static void fail_oom(parser *ps, const uchar *at) {
    fail(ps, at, "out of memory");
    ps->error->out_of_memory = 1;
}

/* "near 'x'" for messages: the offending character, or the end of input. */
static void fail_near(parser *ps, const uchar *at, const char *what) {
    if (at >= ps->end) fail(ps, at, "%s near end of input", what);
    else if (*at >= 0x20 && *at < 0x7f) fail(ps, at, "%s near '%c'", what, *at);
    else fail(ps, at, "%s near byte 0x%02x", what, *at);
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

/* The first byte at or after p that ends a plain run ('"', '\\', control, non-ASCII), or end. */
FP_INLINE const uchar *scan_plain(const uchar *p, const uchar *end) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        /* Signed compare: bytes >= 0x80 are negative, so "< 0x20" also catches them. */
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                   _mm_cmplt_epi8(v, space));
        unsigned mask = (unsigned)_mm_movemask_epi8(hit);
        if (mask != 0) return p + __builtin_ctz(mask);
        p += 16;
    }
#else
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
        uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
        uint64_t hit = ((q - ones) & ~q) | ((b - ones) & ~b) | (x - ones * 0x20) | x;
        if (hit & highs) break; /* somewhere in these 8 bytes: the byte loop finds it */
        p += 8;
    }
#endif
    while (p < end && plain_byte[*p]) p++;
    return p;
}

/* Length of the well-formed UTF-8 sequence at p (p[0] >= 0x80), or 0: Jansson's rule (no
 * overlongs, no surrogates, nothing above U+10FFFF, no truncated sequence). */
FP_INLINE size_t utf8_sequence(const uchar *p, const uchar *end) {
    uchar c = p[0];
    size_t avail = (size_t)(end - p);
    if (c < 0xC2) return 0;
    if (c < 0xE0) return avail >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c < 0xF0) {
        if (avail < 3 || (p[2] & 0xC0) != 0x80) return 0;
        uchar lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return p[1] >= lo && p[1] <= hi ? 3 : 0;
    }
    if (c < 0xF5) {
        if (avail < 4 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
        uchar lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return p[1] >= lo && p[1] <= hi ? 4 : 0;
    }
    return 0;
}

/* Makes room for `need` bytes in the scratch buffer slot. 0 on success. */
static int grow(parser *ps, int slot, size_t need);

FP_INLINE int reserve(parser *ps, int slot, size_t need) {
    if (FP_LIKELY(need <= ps->cap[slot])) return 0;
    return grow(ps, slot, need);
}

static int grow(parser *ps, int slot, size_t need) {
    if (need <= ps->cap[slot]) return 0;
    size_t cap = ps->cap[slot] ? ps->cap[slot] : 256;
    while (cap < need) cap *= 2;
    char *grown = realloc(ps->buf[slot], cap);
    if (grown == NULL) return -1;
    ps->buf[slot] = grown;
    ps->cap[slot] = cap;
    return 0;
}

/* 4 hex digits at p (the caller checked they are in bounds); -1 if one is not a hex digit. */
FP_INLINE int32_t hex4(const uchar *p) {
    int32_t a = hex_value[p[0]], b = hex_value[p[1]], c = hex_value[p[2]], d = hex_value[p[3]];
    if ((a | b | c | d) < 0) return -1;
    return (a << 12) | (b << 8) | (c << 4) | d;
}

/* Decodes the escape at p (p[0] == '\\') into out (room for 4 bytes). Returns the bytes written
 * and advances *pp past the escape, or returns -1 after fail(). */
static int decode_escape(parser *ps, const uchar **pp, char *out) {
    const uchar *p = *pp, *end = ps->end;
    if (end - p < 2) { fail(ps, end, "premature end of input in a string"); return -1; }
    switch (p[1]) {
    case '"': *out = '"'; break;
    case '\\': *out = '\\'; break;
    case '/': *out = '/'; break;
    case 'b': *out = '\b'; break;
    case 'f': *out = '\f'; break;
    case 'n': *out = '\n'; break;
    case 'r': *out = '\r'; break;
    case 't': *out = '\t'; break;
    case 'u': {
        if (end - p < 6) { fail(ps, end, "premature end of input in a \\u escape"); return -1; }
        int32_t cp = hex4(p + 2);
        if (cp < 0) { fail(ps, p, "invalid \\u escape: 4 hex digits expected"); return -1; }
        p += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (end - p < 6 || p[0] != '\\' || p[1] != 'u') {
                if (end - p < 2 || (p[0] == '\\' && p[1] == 'u'))
                    fail(ps, end, "premature end of input in a \\u escape");
                else fail(ps, p - 6, "invalid Unicode '\\u%04X' (a lone high surrogate)", (unsigned)cp);
                return -1;
            }
            int32_t low = hex4(p + 2);
            if (low < 0) { fail(ps, p, "invalid \\u escape: 4 hex digits expected"); return -1; }
            if (low < 0xDC00 || low > 0xDFFF) {
                fail(ps, p - 6, "invalid Unicode '\\u%04X\\u%04X'", (unsigned)cp, (unsigned)low);
                return -1;
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            p += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail(ps, p - 6, "invalid Unicode '\\u%04X' (a lone low surrogate)", (unsigned)cp);
            return -1;
        } else if (cp == 0) {
            fail(ps, p - 6, "\\u0000 is not allowed in strings");
            return -1;
        }
        *pp = p;
        if (cp < 0x80) { out[0] = (char)cp; return 1; }
        if (cp < 0x800) {
            out[0] = (char)(0xC0 | (cp >> 6));
            out[1] = (char)(0x80 | (cp & 0x3F));
            return 2;
        }
        if (cp < 0x10000) {
            out[0] = (char)(0xE0 | (cp >> 12));
            out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[2] = (char)(0x80 | (cp & 0x3F));
            return 3;
        }
        out[0] = (char)(0xF0 | (cp >> 18));
        out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (char)(0x80 | (cp & 0x3F));
        return 4;
    }
    default:
        if (p[1] >= 0x20 && p[1] < 0x7f) fail(ps, p, "invalid escape '\\%c'", p[1]);
        else fail(ps, p, "invalid escape '\\' followed by byte 0x%02x", p[1]);
        return -1;
    }
    *pp = p + 2;
    return 1;
}

/* The byte a one-character escape stands for ("\n" -> '\n'); 0 for 'u' and invalid escapes. */
static const uchar simple_escape[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/* Room for the decoded bytes so far plus one 16-byte block and one escape (4 bytes). */
#define STRING_HEADROOM 32

/* The string whose opening quote is at p[-1]. On success returns the position after the closing
 * quote and sets *out and *length: into the input when the string has no escapes, else into the
 * scratch buffer slot (valid until the next string parsed into that slot). NULL after fail(). */
static const uchar *parse_string(parser *ps, const uchar *p, int slot, const char **out, size_t *length) {
    const uchar *end = ps->end, *run = p;
    /* Without escapes (most strings): scan, validating UTF-8, and point into the input. */
    for (;;) {
        p = scan_plain(p, end);
        if (FP_UNLIKELY(p >= end)) {
            fail(ps, end, "premature end of input in a string");
            return NULL;
        }
        uchar c = *p;
        if (FP_LIKELY(c == '"')) {
            *out = (const char *)run;
            *length = (size_t)(p - run);
            return p + 1;
        }
        if (c == '\\') break;
        if (c < 0x80) {
            fail(ps, p, "control character 0x%x in a string", c);
            return NULL;
        }
        size_t k = utf8_sequence(p, end);
        if (k == 0) {
            fail(ps, p, "invalid UTF-8: unable to decode byte 0x%02x", c);
            return NULL;
        }
        p += k;
    }
    /* With escapes: decode into the scratch buffer, copying plain runs a block at a time. */
    size_t n = (size_t)(p - run);
    if (reserve(ps, slot, n + STRING_HEADROOM)) { fail_oom(ps, p); return NULL; }
    char *dst = ps->buf[slot];
    memcpy(dst, run, n);
    for (;;) {
        if (FP_UNLIKELY(n + STRING_HEADROOM > ps->cap[slot])) {
            if (reserve(ps, slot, n + STRING_HEADROOM)) { fail_oom(ps, p); return NULL; }
            dst = ps->buf[slot];
        }
        if (FP_UNLIKELY(p >= end)) {
            fail(ps, end, "premature end of input in a string");
            return NULL;
        }
        uchar c = *p;
        if (c == '\\') {
            /* The common escapes inline; surrogates, "\u0000" and errors in decode_escape. */
            if (FP_LIKELY(end - p >= 6) && p[1] == 'u') {
                int32_t cp = hex4(p + 2);
                if (cp > 0 && cp < 0x800) {
                    if (cp < 0x80) dst[n++] = (char)cp;
                    else {
                        dst[n++] = (char)(0xC0 | (cp >> 6));
                        dst[n++] = (char)(0x80 | (cp & 0x3F));
                    }
                    p += 6;
                    continue;
                }
                if (cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF)) {
                    dst[n++] = (char)(0xE0 | (cp >> 12));
                    dst[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                    dst[n++] = (char)(0x80 | (cp & 0x3F));
                    p += 6;
                    continue;
                }
            } else if (end - p >= 2 && simple_escape[p[1]] != 0) {
                dst[n++] = (char)simple_escape[p[1]];
                p += 2;
                continue;
            }
            int k = decode_escape(ps, &p, dst + n);
            if (k < 0) return NULL;
            n += (size_t)k;
            continue;
        }
        if (c == '"') {
            *out = dst;
            *length = n;
            return p + 1;
        }
        if (c >= 0x80) {
            size_t k = utf8_sequence(p, end);
            if (k == 0) {
                fail(ps, p, "invalid UTF-8: unable to decode byte 0x%02x", c);
                return NULL;
            }
            memcpy(dst + n, p, k);
            n += k;
            p += k;
        } else if (c < 0x20) {
            fail(ps, p, "control character 0x%x in a string", c);
            return NULL;
        }
        /* A plain run: copy blocks blindly, then keep the part before the first special byte. */
#if defined(__SSE2__)
        {
            const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
            const __m128i space = _mm_set1_epi8(0x20);
            int stopped = 0;
            while (end - p >= 16) {
                if (FP_UNLIKELY(n + STRING_HEADROOM > ps->cap[slot])) {
                    if (reserve(ps, slot, n + STRING_HEADROOM)) { fail_oom(ps, p); return NULL; }
                    dst = ps->buf[slot];
                }
                __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
                _mm_storeu_si128((__m128i *)(void *)(dst + n), v);
                __m128i hit = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                    _mm_cmplt_epi8(v, space));
                unsigned mask = (unsigned)_mm_movemask_epi8(hit);
                if (mask != 0) {
                    unsigned k = (unsigned)__builtin_ctz(mask);
                    p += k;
                    n += k;
                    stopped = 1;
                    break;
                }
                p += 16;
                n += 16;
            }
            if (stopped) continue;
        }
#endif
        const uchar *stop = scan_plain(p, end);
        size_t r = (size_t)(stop - p);
        if (reserve(ps, slot, n + r + STRING_HEADROOM)) { fail_oom(ps, p); return NULL; }
        dst = ps->buf[slot];
        memcpy(dst + n, p, r);
        n += r;
        p = stop;
        if (FP_UNLIKELY(p >= end)) {
            fail(ps, end, "premature end of input in a string");
            return NULL;
        }
    }
}

/* A JSON number at p (p[0] is '-' or a digit). Sets *out to a json_integer or json_real and
 * returns the position after it, or NULL after fail(). */
static const uchar *parse_number(parser *ps, const uchar *p, json_t **out) {
    const uchar *start = p, *end = ps->end;
    int negative = 0;
    if (*p == '-') {
        negative = 1;
        p++;
    }
    if (p >= end || *p < '0' || *p > '9') {
        fail_near(ps, p, "invalid number: a digit expected after '-'");
        return NULL;
    }
    const uchar *digits = p;
    uint64_t magnitude = 0;
    if (*p == '0') {
        p++;
        if (p < end && *p >= '0' && *p <= '9') {
            fail(ps, start, "invalid number: leading zero");
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
                    fail(ps, start, negative ? "too big negative integer" : "too big integer");
                    return NULL;
                }
                magnitude = magnitude * 10u + d;
            }
        }
        json_int_t value = negative ? (magnitude == (uint64_t)INT64_MAX + 1u ? (json_int_t)INT64_MIN
                                                                             : -(json_int_t)magnitude)
                                    : (json_int_t)magnitude;
        *out = json_integer(value);
        if (*out == NULL) { fail_oom(ps, start); return NULL; }
        return p;
    }
    if (*p == '.') {
        p++;
        if (p >= end || *p < '0' || *p > '9') {
            fail_near(ps, p, "invalid number: a digit expected after '.'");
            return NULL;
        }
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (p >= end || *p < '0' || *p > '9') {
            fail_near(ps, p, "invalid number: a digit expected in the exponent");
            return NULL;
        }
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    /* strtod, as Jansson does, on a NUL-terminated copy with the locale's decimal point. */
    size_t length = (size_t)(p - start);
    char small[64], *text = small;
    if (length >= sizeof small) {
        text = malloc(length + 1);
        if (text == NULL) { fail_oom(ps, start); return NULL; }
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
        fail(ps, start, "real number overflow");
        return NULL;
    }
    *out = json_real(value);
    if (*out == NULL) { fail_oom(ps, start); return NULL; }
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
        fail(&ps, p, "maximum parsing depth reached (%d)", JSON_PARSER_MAX_DEPTH);
        goto error;
    }
    if (FP_UNLIKELY(p >= end)) {
        fail(&ps, end, depth == 0 ? "a value expected, found only whitespace"
                                  : "premature end of input, a value expected");
        goto error;
    }
    switch (*p) {
    case '"': {
        const char *s;
        size_t n;
        p = parse_string(&ps, p + 1, SLOT_VALUE, &s, &n);
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
        p = parse_number(&ps, p, &v);
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
        fail_near(&ps, p, "',' or ']' expected");
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
    fail_near(&ps, p, "',' or '}' expected");
    goto error;

object_key:
    if (p >= end || *p != '"') {
        fail_near(&ps, p, "a string (an object key) expected");
        goto error;
    }
    p = parse_string(&ps, p + 1, SLOT_KEY, &key, &key_length);
    if (p == NULL) goto error;
    p = skip_ws(p, end);
    if (p >= end || *p != ':') {
        fail_near(&ps, p, "':' expected");
        goto error;
    }
    p = skip_ws(p + 1, end);
    goto value;

bad_value:
    if (*p == ']' || *p == '}' || *p == ',' || *p == ':') fail_near(&ps, p, "a value expected");
    else if (*p >= 0x80) fail(&ps, p, "invalid token near byte 0x%02x", *p);
    else fail_near(&ps, p, "invalid token");
    goto error;

done:
    p = skip_ws(p, end);
    if (p != end) {
        fail_near(&ps, p, "end of file expected");
        goto error;
    }
    if (stack != inline_stack) free(stack);
    free(ps.buf[0]);
    free(ps.buf[1]);
    return root;

oom:
    fail_oom(&ps, p);
error:
    json_decref(v); /* NULL-safe; only set between making a scalar and attaching it */
    json_decref(root);
    if (stack != inline_stack) free(stack);
    free(ps.buf[0]);
    free(ps.buf[1]);
    locate(&ps);
    return NULL;
}
