/* libFuzzer target: the JSON parser entry points (drupal_json_parse and the fast parser behind it)
 * against Jansson's json_loadb(JSON_DECODE_ANY), the parser they promise to match.
 *
 * Asserts, for every input:
 *  - the fast parser accepts exactly what Jansson accepts, except the one documented difference
 *    (Jansson 2.14 swallows a NUL byte right after a number or literal; the fast parser refuses
 *    it: see jansson_swallowed_nul and Tests/c/json/test_json_fastparse.c);
 *  - where both accept, the trees are json_equal and dump to the same compact text (same key
 *    order, same integer/real types);
 *  - an accepted tree holds no string or key with a NUL byte ("\u0000" is refused, so every
 *    borrowed string is a whole C string) and every string is valid UTF-8;
 *  - an accepted tree survives a dump and re-parse unchanged;
 *  - a refusal has a message and a position inside the input, and its line and column are those
 *    of that position;
 *  - drupal_json_parse agrees with the fast parser: same decision, same tree, DRUPAL_E_DECODE with
 *    a message on refusal, *out left NULL.
 * ASan/UBSan/LSan (the build flags) catch reads past the input, UB and leaks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drupalsdk.h"
#include "json_fastparse.h"
#include "json_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A violated property: print why and abort, so libFuzzer saves the input as a crash. */
static void violated(const char *what, const char *detail) {
    fprintf(stderr, "fuzz_json_parse: property violated: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    abort();
}

#define REQUIRE(cond, what, detail) \
    do {                            \
        if (!(cond)) violated(what, detail); \
    } while (0)

/* The documented difference: Jansson's lexer loses a NUL that ends a number or literal. */
static int jansson_swallowed_nul(const char *text, size_t length, const drupal__json_fastparse_error *error) {
    size_t at = error->position;
    if (at == 0 || at >= length || text[at] != '\0') return 0;
    char before = text[at - 1];
    return (before >= '0' && before <= '9') || before == 'e' || before == 'l';
}

static char *dump(const json_t *value) { return json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY); }

/* Every string and key: no NUL, valid UTF-8. Depth is bounded by the parser's own limit. */
static void check_strings(const json_t *value) {
    const char *key;
    json_t *member;
    size_t index;
    switch (json_typeof(value)) {
    case JSON_STRING:
        REQUIRE(strlen(json_string_value(value)) == json_string_length(value), "a string holds a NUL", NULL);
        REQUIRE(drupal__json_utf8_valid(json_string_value(value), json_string_length(value)),
                "a string is not valid UTF-8", NULL);
        break;
    case JSON_OBJECT:
        json_object_foreach((json_t *)value, key, member) {
            REQUIRE(drupal__json_utf8_valid(key, strlen(key)), "a key is not valid UTF-8", NULL);
            check_strings(member);
        }
        break;
    case JSON_ARRAY:
        json_array_foreach(value, index, member) check_strings(member);
        break;
    default:
        break;
    }
}

/* Line and column of a byte offset as the parser documents them (columns in UTF-8 characters). */
static void expected_location(const char *text, size_t position, int *line, int *column) {
    size_t line_start = 0;
    *line = 1;
    for (size_t i = 0; i < position; i++)
        if (text[i] == '\n') { (*line)++; line_start = i + 1; }
    *column = 1;
    for (size_t i = line_start; i < position; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80) (*column)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data; /* libFuzzer's copy has exactly size bytes */
    json_error_t jerror;
    drupal__json_fastparse_error ferror;

    json_t *expected = json_loadb(text, size, JSON_DECODE_ANY, &jerror);
    json_t *actual = drupal__json_fastparse(text, size, &ferror);

    if (expected != NULL && actual == NULL && jansson_swallowed_nul(text, size, &ferror)) {
        json_decref(expected);
        expected = NULL;
    }
    if ((expected == NULL) != (actual == NULL))
        violated(expected ? "Jansson accepts, the fast parser refuses" : "the fast parser accepts, Jansson refuses",
                 expected ? ferror.text : jerror.text);

    if (actual != NULL) {
        char *a = dump(actual), *e = dump(expected);
        REQUIRE(a != NULL && e != NULL, "a parsed tree cannot be dumped", NULL);
        REQUIRE(json_equal(expected, actual), "trees differ (json_equal)", a);
        REQUIRE(strcmp(a, e) == 0, "trees differ (compact dump)", a);
        check_strings(actual);
        /* Dump and re-parse: the tree comes back equal. */
        drupal__json_fastparse_error again_error;
        json_t *again = drupal__json_fastparse(a, strlen(a), &again_error);
        REQUIRE(again != NULL, "the dump of an accepted tree is refused", again_error.text);
        REQUIRE(json_equal(again, actual), "the dump re-parses to another tree", a);
        json_decref(again);
        free(a);
        free(e);
    } else {
        int line, column;
        REQUIRE(!ferror.out_of_memory, "a refusal claims out of memory", ferror.text);
        REQUIRE(ferror.text[0] != '\0', "a refusal without a message", NULL);
        REQUIRE(ferror.position <= size, "a refusal positioned past the input", ferror.text);
        expected_location(text, ferror.position, &line, &column);
        REQUIRE(ferror.line == line && ferror.column == column, "a refusal's line/column is not its position",
                ferror.text);
    }

    /* The public entry point: the same decision and tree; a clean refusal. */
    json_t *parsed = (json_t *)&parsed; /* not NULL: the call must reset it */
    drupal_code rc = drupal_json_parse(&parsed, text, size);
    if (actual != NULL) {
        REQUIRE(rc == DRUPAL_OK && parsed != NULL, "drupal_json_parse refuses what the fast parser accepts",
                drupal_last_error());
        REQUIRE(json_equal(parsed, actual), "drupal_json_parse builds another tree", NULL);
        json_decref(parsed);
    } else {
        REQUIRE(rc == DRUPAL_E_DECODE, "drupal_json_parse's refusal is not DRUPAL_E_DECODE", drupal_last_error());
        REQUIRE(parsed == NULL, "drupal_json_parse leaves *out set on refusal", NULL);
        REQUIRE(drupal_last_error_code() == DRUPAL_E_DECODE && drupal_last_error()[0] != '\0',
                "drupal_json_parse's refusal without a message", NULL);
    }

    json_decref(expected);
    json_decref(actual);
    return 0;
}
