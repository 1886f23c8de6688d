/* Differential tests of drupal__json_fastparse (Sources/CDrupal/json_fastparse.c) against
 * Jansson's json_loadb(JSON_DECODE_ANY): on every document both must make the same accept/reject
 * decision, build equal trees (json_equal, and the same compact dump, so the same key order and
 * the same integer/real types), and a refusal must come with a message and a position.
 * Every input is copied to a heap block of exactly its length, so ASan and valgrind catch any
 * read past the end. Linked into test_json_helpers (see run.sh); entry point test_fastparse. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drupalsdk.h"
#include "json_fastparse.h"

void test_fastparse(int *passed, int *failed);

/* Mutated inputs per run; build with -DFASTPARSE_MUTATIONS=300000 for a longer soak. */
#ifndef FASTPARSE_MUTATIONS
#define FASTPARSE_MUTATIONS 5000
#endif

static int *n_passed, *n_failed;
static int accepted_count, refused_count;

static void print_input(const char *text, size_t length) {
    fputs("  input: \"", stderr);
    for (size_t i = 0; i < length && i < 200; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') fputc(c, stderr);
        else fprintf(stderr, "\\x%02x", c);
    }
    fprintf(stderr, "%s\" (%zu bytes)\n", length > 200 ? "..." : "", length);
}

static char *dump(const json_t *value) {
    return json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* Jansson 2.14 quirk: a NUL byte right after a number or a literal is swallowed. Its lexer
 * "ungets" the byte that ends the token, and its stream takes a NUL in its one-character buffer
 * for "buffer empty", so it never reads that byte again: json_loadb accepts "1\0", "true\0" and
 * "[1\0,2]" (as 1, true and [1,2]). The fast parser refuses them (a NUL byte is not JSON); this
 * says whether a refusal is exactly that case: the error is at a NUL byte that follows the last
 * character of a number or literal. */
static int swallowed_nul_count;
static int jansson_swallowed_nul(const char *text, size_t length, const drupal__json_fastparse_error *error) {
    size_t at = error->position;
    if (at == 0 || at >= length || text[at] != '\0') return 0;
    char before = text[at - 1];
    return (before >= '0' && before <= '9') || before == 'e' || before == 'l'; /* true/false, null */
}

/* One differential comparison = one check. */
static void differ(const char *what, const char *text, size_t length) {
    char *copy = malloc(length ? length : 1);
    if (copy == NULL) abort();
    if (length) memcpy(copy, text, length);
    else copy[0] = '\0'; /* never read: length is 0 */
    json_error_t jerror;
    json_t *expected = json_loadb(copy, length, JSON_DECODE_ANY, &jerror);
    drupal__json_fastparse_error ferror;
    json_t *actual = drupal__json_fastparse(copy, length, &ferror);
    int ok = 1;
    if (expected != NULL && actual == NULL && jansson_swallowed_nul(copy, length, &ferror)) {
        /* The one deliberate difference (see jansson_swallowed_nul): the fast parser refuses. */
        json_decref(expected);
        expected = NULL;
        swallowed_nul_count++;
    }
    if ((expected == NULL) != (actual == NULL)) {
        ok = 0;
        fprintf(stderr, "%s: Jansson %s, fast parser %s\n", what,
                expected ? "accepts" : jerror.text, actual ? "accepts" : ferror.text);
    } else if (expected != NULL) {
        char *a = dump(actual), *e = dump(expected);
        if (!json_equal(expected, actual) || a == NULL || e == NULL || strcmp(a, e) != 0) {
            ok = 0;
            fprintf(stderr, "%s: trees differ:\n  Jansson: %.300s\n  fast:    %.300s\n", what,
                    e ? e : "(null)", a ? a : "(null)");
        }
        free(a);
        free(e);
        accepted_count++;
    } else {
        if (ferror.text[0] == '\0' || ferror.line < 1 || ferror.column < 1 || ferror.position > length ||
            ferror.out_of_memory) {
            ok = 0;
            fprintf(stderr, "%s: refusal without a message or position (line %d, column %d): %s\n", what,
                    ferror.line, ferror.column, ferror.text);
        }
        refused_count++;
    }
    if (ok) (*n_passed)++;
    else {
        (*n_failed)++;
        print_input(text, length);
    }
    json_decref(expected);
    json_decref(actual);
    free(copy);
}

#define DIFFER_LIT(lit) differ(lit, lit, sizeof(lit) - 1)

static void check(int cond, const char *what) {
    if (cond) (*n_passed)++;
    else {
        (*n_failed)++;
        fprintf(stderr, "test_json_fastparse: CHECK failed: %s\n", what);
    }
}

/* ---- hand-written edge cases --------------------------------------------------------------- */

static void edge_cases(void) {
    /* Top-level scalars and containers, whitespace. */
    DIFFER_LIT("{}");
    DIFFER_LIT("[]");
    DIFFER_LIT("1");
    DIFFER_LIT("\"x\"");
    DIFFER_LIT("true");
    DIFFER_LIT("false");
    DIFFER_LIT("null");
    DIFFER_LIT(" \t\r\n[ 1 , { \"a\" : [ ] , \"b\" :\n{ } } ]\r\n\t ");
    DIFFER_LIT("[1]\f");
    DIFFER_LIT("\f[1]");
    DIFFER_LIT("[1]\v");
    DIFFER_LIT("\xc2\xa0[1]");
    DIFFER_LIT("\xef\xbb\xbf[1]"); /* a BOM is not whitespace */
    DIFFER_LIT("");
    DIFFER_LIT(" ");
    DIFFER_LIT("\n\n\n");
    DIFFER_LIT("[");
    DIFFER_LIT("]");
    DIFFER_LIT("{");
    DIFFER_LIT("}");
    DIFFER_LIT(":");
    DIFFER_LIT(",");
    DIFFER_LIT("{\"a\"");
    DIFFER_LIT("{\"a\":");
    DIFFER_LIT("{\"a\":1");
    DIFFER_LIT("[\"a");
    DIFFER_LIT("[\"a\"");
    DIFFER_LIT("[1,");
    /* Trailing commas, missing commas and colons, garbage after the value. */
    DIFFER_LIT("[1,]");
    DIFFER_LIT("[1,,2]");
    DIFFER_LIT("[,1]");
    DIFFER_LIT("[,]");
    DIFFER_LIT("{,}");
    DIFFER_LIT("{\"a\":1,}");
    DIFFER_LIT("{\"a\" 1}");
    DIFFER_LIT("{\"a\":}");
    DIFFER_LIT("{\"a\"::1}");
    DIFFER_LIT("{1:2}");
    DIFFER_LIT("{a:2}");
    DIFFER_LIT("{'a':2}");
    DIFFER_LIT("{\"a\":1 \"b\":2}");
    DIFFER_LIT("[1 2]");
    DIFFER_LIT("[1}");
    DIFFER_LIT("{\"a\":1]");
    DIFFER_LIT("[1]x");
    DIFFER_LIT("[1] x");
    DIFFER_LIT("[1][2]");
    DIFFER_LIT("{} {}");
    DIFFER_LIT("1 2");
    DIFFER_LIT("\"a\" \"b\"");
    DIFFER_LIT("[1]\0");
    DIFFER_LIT("\0[1]");
    DIFFER_LIT("[\0]");
    /* NUL after a number or literal: Jansson swallows it (see jansson_swallowed_nul). */
    DIFFER_LIT("1\0");
    DIFFER_LIT("true\0");
    DIFFER_LIT("[1\0]");
    DIFFER_LIT("[1\0,2]");
    DIFFER_LIT("{\"a\":null\0}");
    DIFFER_LIT("[false\0\0]");
    DIFFER_LIT("[\"a\"\0]");
    /* Literals. */
    DIFFER_LIT("tru");
    DIFFER_LIT("truex");
    DIFFER_LIT("true1");
    DIFFER_LIT("nul");
    DIFFER_LIT("nulll");
    DIFFER_LIT("NULL");
    DIFFER_LIT("True");
    DIFFER_LIT("fals");
    DIFFER_LIT("[true,false,null]");
    DIFFER_LIT("[true false]");
    DIFFER_LIT("[nan]");
    DIFFER_LIT("NaN");
    DIFFER_LIT("Infinity");
    DIFFER_LIT("-Infinity");
    /* Numbers. */
    DIFFER_LIT("0");
    DIFFER_LIT("-0");
    DIFFER_LIT("-0.0");
    DIFFER_LIT("0.0");
    DIFFER_LIT("00");
    DIFFER_LIT("01");
    DIFFER_LIT("-01");
    DIFFER_LIT("-");
    DIFFER_LIT("--1");
    DIFFER_LIT("+1");
    DIFFER_LIT("1.");
    DIFFER_LIT(".5");
    DIFFER_LIT("1.e5");
    DIFFER_LIT("1e");
    DIFFER_LIT("1e+");
    DIFFER_LIT("1e-");
    DIFFER_LIT("1E5");
    DIFFER_LIT("1e5");
    DIFFER_LIT("1e+5");
    DIFFER_LIT("1e-5");
    DIFFER_LIT("1.5e3");
    DIFFER_LIT("-1.5E-3");
    DIFFER_LIT("1e400");
    DIFFER_LIT("-1e400");
    DIFFER_LIT("1e-400");
    DIFFER_LIT("-1e-400");
    DIFFER_LIT("1e308");
    DIFFER_LIT("1.7976931348623157e308");
    DIFFER_LIT("1.7976931348623159e308");
    DIFFER_LIT("2.2250738585072011e-308");
    DIFFER_LIT("4.9406564584124654e-324");
    DIFFER_LIT("0.1");
    DIFFER_LIT("0.30000000000000004");
    DIFFER_LIT("123456789012345678901234567890.5");
    DIFFER_LIT("123456789012345678901234567890e0");
    DIFFER_LIT("0.000000000000000000000000000000000000000000000000001");
    DIFFER_LIT("1x");
    DIFFER_LIT("0x10");
    DIFFER_LIT("[1.5,-2,3e2]");
    DIFFER_LIT("[-]");
    DIFFER_LIT("[1.]");
    DIFFER_LIT("[1e]");
    DIFFER_LIT("[01]");
    /* Integer limits (json_int_t is 64-bit): overflow is an error, never a real. */
    DIFFER_LIT("9223372036854775807");
    DIFFER_LIT("9223372036854775808");
    DIFFER_LIT("-9223372036854775808");
    DIFFER_LIT("-9223372036854775809");
    DIFFER_LIT("18446744073709551615");
    DIFFER_LIT("18446744073709551616");
    DIFFER_LIT("99999999999999999999");
    DIFFER_LIT("[99999999999999999999]");
    DIFFER_LIT("1000000000000000000");
    DIFFER_LIT("9999999999999999999");
    DIFFER_LIT("-9999999999999999999");
    DIFFER_LIT("1234567890123456789");
    DIFFER_LIT("-1234567890123456789");
    DIFFER_LIT("100000000000000000000000000000000000000000000000000000000000000000000000");
    DIFFER_LIT("00000000000000000000");
    /* Escapes. */
    DIFFER_LIT("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"");
    DIFFER_LIT("[\"\\\"\",\"\\\\\",\"\\/\",\"\\b\",\"\\f\",\"\\n\",\"\\r\",\"\\t\"]");
    DIFFER_LIT("\"\\u0041\\u00e9\\u00E9\\u20AC\\uFFFF\\u0001\\u007f\\u0080\\u07FF\\u0800\"");
    DIFFER_LIT("\"\\u003Cp\\u003EBody\\u003C\\/p\\u003E\"");
    DIFFER_LIT("\"\\uD83D\\uDE00\"");
    DIFFER_LIT("\"\\ud83d\\ude00 and \\uDBFF\\uDFFF and \\uD800\\uDC00\"");
    DIFFER_LIT("\"\\uD83D\"");
    DIFFER_LIT("\"\\uD83D x\"");
    DIFFER_LIT("\"\\uD83D\\\"");
    DIFFER_LIT("\"\\uD83D\\n\"");
    DIFFER_LIT("\"\\uD83D\\u0041\"");
    DIFFER_LIT("\"\\uD83D\\uD83D\"");
    DIFFER_LIT("\"\\uD83D\\uZZZZ\"");
    DIFFER_LIT("\"\\uD83D\\uDE0");
    DIFFER_LIT("\"\\uD83D\\u");
    DIFFER_LIT("\"\\uD83D\\");
    DIFFER_LIT("\"\\uDE00\"");
    DIFFER_LIT("\"\\uDE00\\uD83D\"");
    DIFFER_LIT("\"\\u12\"");
    DIFFER_LIT("\"\\u12");
    DIFFER_LIT("\"\\u12G4\"");
    DIFFER_LIT("\"\\u\"");
    DIFFER_LIT("\"\\U0041\"");
    DIFFER_LIT("\"\\u0000\"");
    DIFFER_LIT("\"a\\u0000b\"");
    DIFFER_LIT("{\"\\u0000\":1}");
    DIFFER_LIT("{\"a\\u0000\":1}");
    DIFFER_LIT("\"\\x41\"");
    DIFFER_LIT("\"\\'\"");
    DIFFER_LIT("\"\\a\"");
    DIFFER_LIT("\"\\0\"");
    DIFFER_LIT("\"\\");
    DIFFER_LIT("\"\\\\");
    DIFFER_LIT("\"\\\\\"");
    DIFFER_LIT("\"abc");
    DIFFER_LIT("\"");
    /* Raw control characters, DEL, and raw NUL. */
    DIFFER_LIT("\"a\tb\"");
    DIFFER_LIT("\"a\nb\"");
    DIFFER_LIT("\"a\x1f\"");
    DIFFER_LIT("\"a\x7f\"");
    DIFFER_LIT("\"a\0b\"");
    DIFFER_LIT("{\"a\0\":1}");
    /* UTF-8: valid, overlong, surrogates, out of range, truncated, stray continuation. */
    DIFFER_LIT("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf \xef\xbf\xbf \xed\x9f\xbf\"");
    DIFFER_LIT("{\"\xc3\xa9t\xc3\xa9\":\"\xe6\x97\xa5\xe6\x9c\xac\"}");
    DIFFER_LIT("\"\xc0\x80\"");
    DIFFER_LIT("\"\xc0\xaf\"");
    DIFFER_LIT("\"\xc1\xbf\"");
    DIFFER_LIT("\"\xe0\x80\x80\"");
    DIFFER_LIT("\"\xe0\x9f\xbf\"");
    DIFFER_LIT("\"\xe0\xa0\x80\"");
    DIFFER_LIT("\"\xf0\x80\x80\x80\"");
    DIFFER_LIT("\"\xf0\x8f\xbf\xbf\"");
    DIFFER_LIT("\"\xf0\x90\x80\x80\"");
    DIFFER_LIT("\"\xed\xa0\x80\"");
    DIFFER_LIT("\"\xed\xbf\xbf\"");
    DIFFER_LIT("\"\xed\xa0\xbd\xed\xb8\x80\"");
    DIFFER_LIT("\"\xf4\x90\x80\x80\"");
    DIFFER_LIT("\"\xf5\x80\x80\x80\"");
    DIFFER_LIT("\"\xf8\x88\x80\x80\x80\"");
    DIFFER_LIT("\"\xfe\"");
    DIFFER_LIT("\"\xff\"");
    DIFFER_LIT("\"\x80\"");
    DIFFER_LIT("\"\xbf\"");
    DIFFER_LIT("\"\xc3\"");
    DIFFER_LIT("\"\xc3");
    DIFFER_LIT("\"\xe2\x82\"");
    DIFFER_LIT("\"\xe2\x82");
    DIFFER_LIT("\"\xf0\x9f\x98\"");
    DIFFER_LIT("\"\xf0\x9f\x98");
    DIFFER_LIT("\"\xc3\x28\"");
    DIFFER_LIT("\"\xe2\x28\xa1\"");
    DIFFER_LIT("\"\xf0\x28\x8c\xbc\"");
    DIFFER_LIT("[\xc3\xa9]");
    DIFFER_LIT("\xe2\x82\xac");
    DIFFER_LIT("[1]\xff");
    DIFFER_LIT("[1]\xc3\xa9");
    /* Keys: empty, duplicates (the later value wins, in the earlier key's place), escaped. */
    DIFFER_LIT("{\"\":1}");
    DIFFER_LIT("{\"a\":1,\"a\":2}");
    DIFFER_LIT("{\"a\":1,\"b\":2,\"a\":3}");
    DIFFER_LIT("{\"a\":{\"b\":1},\"a\":[2]}");
    DIFFER_LIT("{\"a\":[1,{\"x\":2}],\"b\":3,\"a\":{\"y\":[4]}}");
    DIFFER_LIT("{\"\\u0061\":1,\"a\":2}");
    DIFFER_LIT("{\"a\\nb\":1,\"a\\\"b\":\"\\u00e9\"}");
    DIFFER_LIT("{\"k\\u00e9y\":{\"n\\u00e9sted\\t\":\"v\\u00e2lue\"}}");
    /* Drupal shapes. */
    DIFFER_LIT("{\"nid\":[{\"value\":1}],\"title\":[{\"value\":\"Hi\"}],\"path\":[{\"alias\":null,"
               "\"pid\":null,\"langcode\":\"en\"}],\"field_image\":[],\"price\":[{\"value\":\"12.50\"}]}");
    DIFFER_LIT("[{\"nid\":\"1\",\"title\":\"A\"},{\"nid\":\"2\",\"title\":\"B\"}]");
}

/* Long strings and keys (scratch buffer growth), escapes at every distance from the end. */
static void long_strings(void) {
    size_t cap = 400000;
    char *doc = malloc(cap);
    if (doc == NULL) abort();
    static const char *const pieces[] = {"\\u003C", "\\n", "\\/", "x", "\xc3\xa9", "\\uD83D\\uDE00",
                                         "\xf0\x9f\x98\x80", "abcdefghijklmnopqrstuvwxyz0123456789"};
    for (int variant = 0; variant < 8; variant++) {
        size_t n = 0;
        doc[n++] = '{';
        doc[n++] = '"';
        for (int i = 0; i < 300 * (variant + 1); i++) {
            const char *piece = pieces[(i * 7 + variant) % 8];
            size_t k = strlen(piece);
            memcpy(doc + n, piece, k);
            n += k;
        }
        memcpy(doc + n, "\":\"", 3);
        n += 3;
        for (int i = 0; i < 900 * (variant + 1); i++) {
            const char *piece = pieces[(i * 5 + variant) % 8];
            size_t k = strlen(piece);
            memcpy(doc + n, piece, k);
            n += k;
        }
        doc[n++] = '"';
        doc[n++] = '}';
        differ("long key and value", doc, n);
        differ("long key and value, truncated", doc, n - 2);
    }
    /* A plain string ending exactly at the end of the buffer, for every length up to 40 (the
     * block scanner's tail), with and without the closing quote and an escape before it. */
    for (size_t len = 0; len <= 40; len++) {
        size_t n = 0;
        doc[n++] = '"';
        for (size_t i = 0; i < len; i++) doc[n++] = (char)('a' + i % 26);
        differ("unterminated plain string", doc, n);
        doc[n++] = '"';
        differ("plain string", doc, n);
        doc[n - 1] = '\\';
        differ("string ending in a backslash", doc, n);
        doc[n - 1] = '\xc3';
        differ("string ending in a lead byte", doc, n);
        memcpy(doc + n - 1, "\\u00e9\"", 7);
        differ("string ending in an escape", doc, n + 6);
    }
    free(doc);
}

/* Nesting around the limit (Jansson's JSON_PARSER_MAX_DEPTH counts the innermost value too),
 * and far beyond it (the fast parser keeps its own stack, so this must not crash). */
static void nesting(void) {
    static const size_t depths[] = {1, 63, 64, 65, 2046, 2047, 2048, 2049, 2050, 100000};
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
        size_t depth = depths[d], n = 0;
        char *doc = malloc(depth * 8 + 16);
        if (doc == NULL) abort();
        /* [[[...1...]]] : depth arrays and a scalar inside. */
        n = 0;
        for (size_t i = 0; i < depth; i++) doc[n++] = '[';
        doc[n++] = '1';
        for (size_t i = 0; i < depth; i++) doc[n++] = ']';
        if (depth <= 2050) differ("nested arrays around a scalar", doc, n);
        else {
            drupal__json_fastparse_error error;
            json_t *v = drupal__json_fastparse(doc, n, &error);
            check(v == NULL && strstr(error.text, "depth") != NULL, "100000 nested arrays are refused");
            json_decref(v);
        }
        /* [[[...]]] : depth empty arrays. */
        n = 0;
        for (size_t i = 0; i < depth; i++) doc[n++] = '[';
        for (size_t i = 0; i < depth; i++) doc[n++] = ']';
        if (depth <= 2050) differ("nested empty arrays", doc, n);
        /* {"a":{"a":...{}...}} and unclosed. */
        n = 0;
        for (size_t i = 0; i < depth && depth <= 2050; i++) {
            memcpy(doc + n, "{\"a\":", 5);
            n += 5;
        }
        if (depth <= 2050) {
            memcpy(doc + n, "[]", 2);
            n += 2;
            for (size_t i = 0; i < depth; i++) doc[n++] = '}';
            differ("nested objects", doc, n);
            differ("nested objects, unclosed", doc, n - 1);
        }
        free(doc);
    }
}

/* ---- documents: the recorded transcripts ------------------------------------------------- */

static char *slurp(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *data = malloc(cap);
    for (;;) {
        if (n == cap) {
            char *grown = realloc(data, cap *= 2);
            if (grown == NULL) abort();
            data = grown;
        }
        size_t got = fread(data + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    *length = n;
    return data;
}

/* Appends the JSON documents of the corpus to docs (bodies of every recorded request and response,
 * JSON or not). Returns the transcripts file itself as a document too. */
typedef struct {
    char **text;
    size_t *length;
    size_t count, cap;
} corpus;

static void corpus_add(corpus *c, const char *text, size_t length) {
    if (c->count == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->text = realloc(c->text, c->cap * sizeof *c->text);
        c->length = realloc(c->length, c->cap * sizeof *c->length);
        if (c->text == NULL || c->length == NULL) abort();
    }
    c->text[c->count] = malloc(length ? length : 1);
    if (c->text[c->count] == NULL) abort();
    memcpy(c->text[c->count], text, length);
    c->length[c->count++] = length;
}

static void corpus_free(corpus *c) {
    for (size_t i = 0; i < c->count; i++) free(c->text[i]);
    free(c->text);
    free(c->length);
}

static const char SAMPLE[] =
    "{\"nid\":[{\"value\":1}],\"uuid\":[{\"value\":\"10aaceb6-96b1-45ea-b429-1d7147f58b35\"}],"
    "\"title\":[{\"value\":\"Caf\xc3\xa9 \\u00e9\\uD83D\\uDE00 \\\"q\\\" \\\\ \\/ \\b\\f\\n\\r\\t\"}],"
    "\"status\":[{\"value\":true}],\"sticky\":[{\"value\":false}],\"path\":[{\"alias\":null}],"
    "\"n\": [ -0, 12, -3.5e-2, 1E+3, 9223372036854775807, 0.5 ],\n \"e\" : { } , \"a\" : [ ] }";

static void transcripts(corpus *docs) {
    size_t length;
    char *file = slurp("Tests/fake_drupal/transcripts.json", &length);
    check(file != NULL, "Tests/fake_drupal/transcripts.json is readable");
    if (file == NULL) return;
    differ("transcripts.json", file, length);
    json_error_t error;
    json_t *all = json_loadb(file, length, 0, &error);
    check(json_is_array(all), "transcripts.json is an array");
    for (size_t i = 0; i < json_array_size(all); i++) {
        static const char *const sides[] = {"request", "response"};
        for (int s = 0; s < 2; s++) {
            json_t *body = json_object_get(json_object_get(json_array_get(all, i), sides[s]), "body");
            if (json_is_string(body) && json_string_length(body) > 0)
                corpus_add(docs, json_string_value(body), json_string_length(body));
        }
    }
    json_decref(all);
    free(file);
}

/* Every prefix of each document (truncated bodies). */
static void prefixes(const char *what, const char *text, size_t length) {
    for (size_t n = 0; n <= length; n++) differ(what, text, n);
}

/* ---- randomized mutations (deterministic) --------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static void mutations(const corpus *docs, int rounds) {
    static const char interesting[] = "\"\\{}[],:0123456789-+.eEu /bfnrtx \t\n\r";
    static const char *const snippets[] = {"\\u", "\\uD83D", "\\uDE00", "\\u0000", "\xc3\xa9", "\xed\xa0\x80",
                                           "\xc0\x80", "\xf4\x90\x80\x80", "true", "null", "1e400",
                                           "99999999999999999999", "-0", "[", "{\"k\":", "\"", "\\\"", "]",
                                           "}", ",", "\xe2\x82"};
    size_t cap = 0;
    char *buf = NULL;
    for (int r = 0; r < rounds; r++) {
        size_t which = rnd() % docs->count;
        size_t n = docs->length[which];
        if (n > 4096) n = 4096; /* keep valgrind quick; truncation is a mutation too */
        if (cap < n + 64 * 8) {
            cap = n + 64 * 8;
            buf = realloc(buf, cap);
            if (buf == NULL) abort();
        }
        memcpy(buf, docs->text[which], n);
        int edits = 1 + (int)(rnd() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = n ? rnd() % (n + 1) : 0;
            switch (rnd() % 6) {
            case 0: /* replace a byte with an interesting one */
                if (at < n) buf[at] = interesting[rnd() % (sizeof interesting - 1)];
                break;
            case 1: /* replace a byte with any byte */
                if (at < n) buf[at] = (char)(rnd() & 0xFF);
                break;
            case 2: /* delete a few bytes */
                if (at < n) {
                    size_t k = 1 + rnd() % 4;
                    if (k > n - at) k = n - at;
                    memmove(buf + at, buf + at + k, n - at - k);
                    n -= k;
                }
                break;
            case 3: { /* insert a snippet */
                const char *s = snippets[rnd() % (sizeof snippets / sizeof snippets[0])];
                size_t k = strlen(s);
                if (n + k <= cap) {
                    memmove(buf + at + k, buf + at, n - at);
                    memcpy(buf + at, s, k);
                    n += k;
                }
                break;
            }
            case 4: /* truncate */
                n = at;
                break;
            default: /* flip one bit */
                if (at < n) buf[at] ^= (char)(1u << (rnd() % 8));
                break;
            }
        }
        differ("mutation", buf, n);
    }
    free(buf);
}

/* ---- out of memory: every Jansson allocation failing in turn ------------------------------ */

static long alloc_budget = -1; /* allocations left before failing; -1: unlimited */
static void *failing_malloc(size_t size) {
    if (alloc_budget == 0) return NULL;
    if (alloc_budget > 0) alloc_budget--;
    return malloc(size);
}

static void out_of_memory(void) {
    json_malloc_t old_malloc;
    json_free_t old_free;
    json_get_alloc_funcs(&old_malloc, &old_free);
    json_set_alloc_funcs(failing_malloc, free);
    int all_ok = 1, succeeded = 0;
    for (long budget = 0; budget < 2000 && !succeeded; budget++) {
        drupal__json_fastparse_error error;
        alloc_budget = budget;
        json_t *v = drupal__json_fastparse(SAMPLE, sizeof SAMPLE - 1, &error);
        alloc_budget = -1;
        if (v != NULL) succeeded = 1;
        else if (!error.out_of_memory) all_ok = 0;
        json_decref(v);
    }
    json_set_alloc_funcs(old_malloc, old_free);
    check(succeeded, "the sample parses once allocations stop failing");
    check(all_ok, "every failed allocation is reported as out of memory (and leaks nothing)");
    /* Through the public API: DRUPAL_E_NO_MEMORY. */
    json_set_alloc_funcs(failing_malloc, free);
    json_t *v = NULL;
    alloc_budget = 3;
    drupal_code rc = drupal_json_parse(&v, SAMPLE, sizeof SAMPLE - 1);
    alloc_budget = -1;
    json_set_alloc_funcs(old_malloc, old_free);
    check(rc == DRUPAL_E_NO_MEMORY && v == NULL, "drupal_json_parse reports DRUPAL_E_NO_MEMORY");
}

/* ---- messages through drupal_json_parse --------------------------------------------------- */

static void messages(void) {
    json_t *v = NULL;
    const char *text = "{\n  \"a\": [1, 2,],\n}";
    check(drupal_json_parse(&v, text, strlen(text)) == DRUPAL_E_DECODE, "trailing comma is DRUPAL_E_DECODE");
    check(strstr(drupal_last_error(), "line 2, column 14") != NULL, "trailing comma: line 2, column 14");
    text = "[\"caf\xc3\xa9\", x]";
    check(drupal_json_parse(&v, text, strlen(text)) == DRUPAL_E_DECODE, "bad token is DRUPAL_E_DECODE");
    check(strstr(drupal_last_error(), "line 1, column 10") != NULL, "columns count characters, not bytes");
    text = "[1e400]";
    check(drupal_json_parse(&v, text, strlen(text)) == DRUPAL_E_DECODE, "1e400 is DRUPAL_E_DECODE");
    check(strstr(drupal_last_error(), "real number overflow") != NULL, "1e400: real number overflow");
    text = "[-99999999999999999999]";
    check(drupal_json_parse(&v, text, strlen(text)) == DRUPAL_E_DECODE, "-1e20 integer is DRUPAL_E_DECODE");
    check(strstr(drupal_last_error(), "too big negative integer") != NULL, "too big negative integer");
    text = "[\"\\u0000\"]";
    check(drupal_json_parse(&v, text, strlen(text)) == DRUPAL_E_DECODE, "\\u0000 is DRUPAL_E_DECODE");
    check(strstr(drupal_last_error(), "\\u0000") != NULL, "\\u0000 is named");
    text = "\"\xed\xa0\x80\"";
    check(drupal_json_parse(&v, text, strlen(text)) == DRUPAL_E_DECODE, "a UTF-8 surrogate is DRUPAL_E_DECODE");
    check(strstr(drupal_last_error(), "UTF-8") != NULL, "invalid UTF-8 is named");
    check(drupal_json_parse(&v, SAMPLE, sizeof SAMPLE - 1) == DRUPAL_OK && json_is_object(v), "sample parses");
    json_decref(v);
}

void test_fastparse(int *passed, int *failed) {
    n_passed = passed;
    n_failed = failed;
    int before = *passed + *failed;
    edge_cases();
    long_strings();
    nesting();
    corpus docs = {NULL, NULL, 0, 0};
    corpus_add(&docs, SAMPLE, sizeof SAMPLE - 1);
    transcripts(&docs);
    size_t json_docs = 0;
    for (size_t i = 0; i < docs.count; i++) {
        json_error_t error;
        json_t *v = json_loadb(docs.text[i], docs.length[i], JSON_DECODE_ANY, &error);
        json_docs += v != NULL;
        json_decref(v);
        differ("transcript body", docs.text[i], docs.length[i]);
    }
    check(json_docs >= 100, "the transcripts hold at least 100 JSON bodies");
    prefixes("prefix of the sample", SAMPLE, sizeof SAMPLE - 1);
    /* Every prefix of the biggest body (a JSON:API collection) and of the biggest view page. */
    size_t biggest = 0, biggest_view = 0;
    for (size_t i = 1; i < docs.count; i++) {
        if (docs.length[i] > docs.length[biggest]) biggest = i;
        if (docs.text[i][0] == '[' && docs.length[i] > docs.length[biggest_view]) biggest_view = i;
    }
    prefixes("prefix of the biggest body", docs.text[biggest], docs.length[biggest]);
    prefixes("prefix of the biggest view body", docs.text[biggest_view], docs.length[biggest_view]);
    mutations(&docs, FASTPARSE_MUTATIONS);
    corpus_free(&docs);
    out_of_memory();
    messages();
    check(swallowed_nul_count >= 5, "the NUL-after-token cases were seen");
    fprintf(stderr,
            "fast parser vs Jansson: %d checks, %d documents accepted by both, %d refused by both "
            "(%d of them accepted by Jansson only through its swallowed-NUL quirk)\n",
            *passed + *failed - before, accepted_count, refused_count, swallowed_nul_count);
}
