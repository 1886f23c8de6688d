/* The string half of the fast JSON parser (see json_fastparse.h): drupal__fastparse_string scans
 * string runs a block at a time (SSE2 where available), validates UTF-8 with Jansson's rule,
 * and decodes escapes ("\n", "\u00e9", surrogate pairs) into the parser's scratch buffers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "json_fastparse_internal.h"

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
 * and advances *pp past the escape, or returns -1 after drupal__fastparse_fail(). */
static int decode_escape(parser *ps, const uchar **pp, char *out) {
    const uchar *p = *pp, *end = ps->end;
    if (end - p < 2) { drupal__fastparse_fail(ps, end, "premature end of input in a string"); return -1; }
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
        if (end - p < 6) { drupal__fastparse_fail(ps, end, "premature end of input in a \\u escape"); return -1; }
        int32_t cp = hex4(p + 2);
        if (cp < 0) { drupal__fastparse_fail(ps, p, "invalid \\u escape: 4 hex digits expected"); return -1; }
        p += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (end - p < 6 || p[0] != '\\' || p[1] != 'u') {
                if (end - p < 2 || (p[0] == '\\' && p[1] == 'u'))
                    drupal__fastparse_fail(ps, end, "premature end of input in a \\u escape");
                else drupal__fastparse_fail(ps, p - 6, "invalid Unicode '\\u%04X' (a lone high surrogate)",
                                            (unsigned)cp);
                return -1;
            }
            int32_t low = hex4(p + 2);
            if (low < 0) { drupal__fastparse_fail(ps, p, "invalid \\u escape: 4 hex digits expected"); return -1; }
            if (low < 0xDC00 || low > 0xDFFF) {
                drupal__fastparse_fail(ps, p - 6, "invalid Unicode '\\u%04X\\u%04X'", (unsigned)cp, (unsigned)low);
                return -1;
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            p += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            drupal__fastparse_fail(ps, p - 6, "invalid Unicode '\\u%04X' (a lone low surrogate)", (unsigned)cp);
            return -1;
        } else if (cp == 0) {
            drupal__fastparse_fail(ps, p - 6, "\\u0000 is not allowed in strings");
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
        if (p[1] >= 0x20 && p[1] < 0x7f) drupal__fastparse_fail(ps, p, "invalid escape '\\%c'", p[1]);
        else drupal__fastparse_fail(ps, p, "invalid escape '\\' followed by byte 0x%02x", p[1]);
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
 * scratch buffer slot (valid until the next string parsed into that slot). NULL after drupal__fastparse_fail(). */
const uchar *drupal__fastparse_string(parser *ps, const uchar *p, int slot, const char **out, size_t *length) {
    const uchar *end = ps->end, *run = p;
    /* Without escapes (most strings): scan, validating UTF-8, and point into the input. */
    for (;;) {
        p = scan_plain(p, end);
        if (FP_UNLIKELY(p >= end)) {
            drupal__fastparse_fail(ps, end, "premature end of input in a string");
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
            drupal__fastparse_fail(ps, p, "control character 0x%x in a string", c);
            return NULL;
        }
        size_t k = utf8_sequence(p, end);
        if (k == 0) {
            drupal__fastparse_fail(ps, p, "invalid UTF-8: unable to decode byte 0x%02x", c);
            return NULL;
        }
        p += k;
    }
    /* With escapes: decode into the scratch buffer, copying plain runs a block at a time. */
    size_t n = (size_t)(p - run);
    if (reserve(ps, slot, n + STRING_HEADROOM)) { drupal__fastparse_fail_oom(ps, p); return NULL; }
    char *dst = ps->buf[slot];
    memcpy(dst, run, n);
    for (;;) {
        if (FP_UNLIKELY(n + STRING_HEADROOM > ps->cap[slot])) {
            if (reserve(ps, slot, n + STRING_HEADROOM)) { drupal__fastparse_fail_oom(ps, p); return NULL; }
            dst = ps->buf[slot];
        }
        if (FP_UNLIKELY(p >= end)) {
            drupal__fastparse_fail(ps, end, "premature end of input in a string");
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
                drupal__fastparse_fail(ps, p, "invalid UTF-8: unable to decode byte 0x%02x", c);
                return NULL;
            }
            memcpy(dst + n, p, k);
            n += k;
            p += k;
        } else if (c < 0x20) {
            drupal__fastparse_fail(ps, p, "control character 0x%x in a string", c);
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
                    if (reserve(ps, slot, n + STRING_HEADROOM)) { drupal__fastparse_fail_oom(ps, p); return NULL; }
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
        if (reserve(ps, slot, n + r + STRING_HEADROOM)) { drupal__fastparse_fail_oom(ps, p); return NULL; }
        dst = ps->buf[slot];
        memcpy(dst + n, p, r);
        n += r;
        p = stop;
        if (FP_UNLIKELY(p >= end)) {
            drupal__fastparse_fail(ps, end, "premature end of input in a string");
            return NULL;
        }
    }
}

