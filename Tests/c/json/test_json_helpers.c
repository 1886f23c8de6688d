/* Tests of the Jansson JSON helpers (drupal_json_*) on bodies recorded from a real Drupal 10 site
 * (/work/shared/reference/drupal10-transcripts). Built straight from the Sources/CDrupal C files, without
 * the Swift library; see run.sh. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "drupalsdk.h"
#include "cdrupal.h" /* drupal__fail_n, the one way into drupal_last_error() */
#include "json_internal.h" /* drupal__json_failf */

static int passed, failed;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) passed++;                                                          \
        else {                                                                       \
            failed++;                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

/* expr must return code; on a mismatch prints both names and the last error. */
#define CHECK_CODE(expr, code)                                                                  \
    do {                                                                                        \
        drupal_code rc_ = (expr);                                                               \
        if (rc_ == (code) && (rc_ == DRUPAL_OK || drupal_last_error_code() == rc_)) passed++;   \
        else {                                                                                  \
            failed++;                                                                           \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s (last error: %s)\n", __FILE__,  \
                    __LINE__, #expr, drupal_code_name(rc_), drupal_code_name(code),             \
                    drupal_last_error());                                                       \
        }                                                                                       \
    } while (0)

#define CHECK_STR(actual, expected)                                                          \
    do {                                                                                     \
        const char *a_ = (actual), *e_ = (expected);                                         \
        if (a_ != NULL && e_ != NULL && strcmp(a_, e_) == 0) passed++;                       \
        else {                                                                               \
            failed++;                                                                        \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__,   \
                    #actual, a_ ? a_ : "(null)", e_ ? e_ : "(null)");                        \
        }                                                                                    \
    } while (0)

/* The last error message mentions text (e.g. the field name). */
#define CHECK_ERROR_MENTIONS(text) CHECK(strstr(drupal_last_error(), (text)) != NULL)

/* json serializes (compact, sorted keys) to exactly expected. */
#define CHECK_JSON(json, expected)                                                           \
    do {                                                                                     \
        char *d_ = json_dumps((json), JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);     \
        CHECK_STR(d_, (expected));                                                           \
        free(d_);                                                                            \
    } while (0)

/* 11-get-node-cookie.txt: GET /node/1?_format=json (whole body). */
static const char NODE_BODY[] =
    "{\"nid\":[{\"value\":1}],\"uuid\":[{\"value\":\"10aaceb6-96b1-45ea-b429-1d7147f58b35\"}],"
    "\"vid\":[{\"value\":1}],\"langcode\":[{\"value\":\"en\"}],\"type\":[{\"target_id\":\"artic"
    "le\",\"target_type\":\"node_type\",\"target_uuid\":\"b2a49855-200f-4eaa-b594-f5deb5166ae9"
    "\"}],\"revision_timestamp\":[{\"value\":\"2026-11-29T13:12:20+00:00\",\"format\":\"Y-m-d"
    "\\\\TH:i:sP\"}],\"revision_uid\":[{\"target_id\":1,\"target_type\":\"user\",\"target_uuid"
    "\":\"563d8bb5-a801-427d-8ab2-6b4adfe54cec\",\"url\":\"\\/user\\/1\"}],\"revision_log\":[],"
    "\"status\":[{\"value\":true}],\"uid\":[{\"target_id\":1,\"target_type\":\"user\",\"target_"
    "uuid\":\"563d8bb5-a801-427d-8ab2-6b4adfe54cec\",\"url\":\"\\/user\\/1\"}],\"title\":[{\"va"
    "lue\":\"Article 1\"}],\"created\":[{\"value\":\"2026-11-29T13:12:20+00:00\",\"format\":\"Y"
    "-m-d\\\\TH:i:sP\"}],\"changed\":[{\"value\":\"2026-11-29T13:12:20+00:00\",\"format\":\"Y-m"
    "-d\\\\TH:i:sP\"}],\"promote\":[{\"value\":true}],\"sticky\":[{\"value\":false}],\"default_"
    "langcode\":[{\"value\":true}],\"revision_translation_affected\":[{\"value\":true}],\"path"
    "\":[{\"alias\":null,\"pid\":null,\"langcode\":\"en\"}],\"body\":[{\"value\":\"\\u003Cp\\u0"
    "03EBody of article 1\\u003C\\/p\\u003E\",\"format\":\"basic_html\",\"processed\":\"\\u003C"
    "p\\u003EBody of article 1\\u003C\\/p\\u003E\",\"summary\":\"\"}],\"comment\":[{\"status\":"
    "2,\"cid\":0,\"last_comment_timestamp\":1795957940,\"last_comment_name\":null,\"last_commen"
    "t_uid\":1,\"comment_count\":0}],\"field_image\":[],\"field_tags\":[{\"target_id\":2,\"targ"
    "et_type\":\"taxonomy_term\",\"target_uuid\":\"9ce80b74-ed2b-4f07-be5c-8eaa7a2ed7ab\",\"url"
    "\":\"\\/taxonomy\\/term\\/2\"}]}";

/* 33b-get-term.txt: GET /taxonomy/term/3?_format=json. */
static const char TERM_BODY[] =
    "{\"tid\":[{\"value\":3}],\"uuid\":[{\"value\":\"0cc1d06e-351a-46cc-8f14-a8d0b1a0252a\"}],"
    "\"revision_id\":[{\"value\":3}],\"langcode\":[{\"value\":\"en\"}],\"vid\":[{\"target_id\":"
    "\"tags\",\"target_type\":\"taxonomy_vocabulary\",\"target_uuid\":\"7aa73239-0069-4d38-af31"
    "-8edc7a28dc14\"}],\"revision_created\":[{\"value\":\"2026-11-29T13:15:09+00:00\",\"format"
    "\":\"Y-m-d\\\\TH:i:sP\"}],\"revision_user\":[],\"status\":[{\"value\":true}],\"name\":[{\""
    "value\":\"gamma\"}],\"description\":[{\"value\":null,\"format\":null,\"processed\":\"\"}],"
    "\"weight\":[{\"value\":0}],\"parent\":[{\"target_id\":null}],\"changed\":[{\"value\":\"202"
    "6-11-29T13:15:09+00:00\",\"format\":\"Y-m-d\\\\TH:i:sP\"}],\"default_langcode\":[{\"value"
    "\":true}],\"revision_translation_affected\":[{\"value\":true}],\"path\":[{\"alias\":null,"
    "\"pid\":null,\"langcode\":\"en\"}]}";

/* 01-login-ok.txt: POST /user/login?_format=json. */
static const char LOGIN_BODY[] =
    "{\"current_user\":{\"uid\":\"1\",\"roles\":[\"authenticated\",\"administrator\"],\"name\":"
    "\"admin\"},\"csrf_token\":\"MhF58dEJm90Jct06jgjBf7-zn97vi3BlhOVrBE-3wns\",\"logout_token\""
    ":\"wBtTkoNQRUsWl0aWpfteDs1HL_JIx1NR5210XVI0DEE\"}";

/* 40-view-api-articles.txt: GET /api/articles?_format=json (page 0). */
static const char VIEW_BODY[] =
    "[{\"nid\":\"1\",\"uuid\":\"10aaceb6-96b1-45ea-b429-1d7147f58b35\",\"title\":\"Article 1\","
    "\"created\":\"\\u003Ctime datetime=\\u00222026-11-29T13:12:20+00:00\\u0022\\u003E2026-11-2"
    "9T13:12:20+00:00\\u003C\\/time\\u003E\\n\",\"body\":\"\\u003Cp\\u003EBody of article 1\\u0"
    "03C\\/p\\u003E\"},{\"nid\":\"2\",\"uuid\":\"31a84c84-baf7-41f8-9479-5f8c8d398936\",\"title"
    "\":\"Article 2\",\"created\":\"\\u003Ctime datetime=\\u00222026-11-29T13:12:20+00:00\\u002"
    "2\\u003E2026-11-29T13:12:20+00:00\\u003C\\/time\\u003E\\n\",\"body\":\"\\u003Cp\\u003EBody"
    " of article 2\\u003C\\/p\\u003E\"}]";

/* An invalid UTF-8 name: a lone continuation byte. */
static const char BAD_UTF8[] = "ti\x80tle";

static json_t *parse_or_die(const char *text) {
    json_t *value = NULL;
    if (drupal_json_parse(&value, text, strlen(text)) != DRUPAL_OK) {
        fprintf(stderr, "cannot parse test fixture: %s\n", drupal_last_error());
        exit(2);
    }
    return value;
}

static void test_parse(void) {
    json_t *v = (json_t *)&v; /* a non-NULL sentinel: failures must reset it */

    v = NULL;
    CHECK_CODE(drupal_json_parse(&v, NODE_BODY, strlen(NODE_BODY)), DRUPAL_OK);
    CHECK(json_is_object(v));
    json_decref(v);

    v = NULL;
    CHECK_CODE(drupal_json_parse(&v, VIEW_BODY, strlen(VIEW_BODY)), DRUPAL_OK);
    CHECK(json_is_array(v) && json_array_size(v) == 2);
    json_decref(v);

    /* /user/login_status answers a bare 1. */
    CHECK_CODE(drupal_json_parse(&v, "1", 1), DRUPAL_OK);
    CHECK(json_is_integer(v) && json_integer_value(v) == 1);
    json_decref(v);

    /* Not NUL-terminated: only the first length bytes count. */
    static const char unterminated[3] = {'[', '7', ']'};
    CHECK_CODE(drupal_json_parse(&v, unterminated, sizeof unterminated), DRUPAL_OK);
    CHECK(json_is_array(v) && json_integer_value(json_array_get(v, 0)) == 7);
    json_decref(v);
    CHECK_CODE(drupal_json_parse(&v, "[1]garbage", 3), DRUPAL_OK);
    json_decref(v);

    /* Malformed JSON (23d-create-node-malformed-json sends this kind of body). */
    v = (json_t *)&v;
    CHECK_CODE(drupal_json_parse(&v, "{\"title\": [{\"value\": \"x\"}", 25), DRUPAL_E_DECODE);
    CHECK(v == NULL);
    CHECK_ERROR_MENTIONS("line 1");
    CHECK_ERROR_MENTIONS("column");
    const char *two_lines = "{\"a\": 1,\n \"b\": }";
    CHECK_CODE(drupal_json_parse(&v, two_lines, strlen(two_lines)), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("line 2");
    CHECK_CODE(drupal_json_parse(&v, "{} x", 4), DRUPAL_E_DECODE);
    const char *html = "The website encountered an unexpected error. Try again later.";
    CHECK_CODE(drupal_json_parse(&v, html, strlen(html)), DRUPAL_E_DECODE);
    CHECK(v == NULL);

    /* Invalid UTF-8 inside a string, and a NUL escape (refused so strings stay C strings). */
    CHECK_CODE(drupal_json_parse(&v, "[\"\xff\"]", 5), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_parse(&v, "[\"\xc0\xaf\"]", 6), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_parse(&v, "[\"a\\u0000b\"]", 12), DRUPAL_E_DECODE);
    /* Integer too big for json_int_t. */
    CHECK_CODE(drupal_json_parse(&v, "[99999999999999999999]", 22), DRUPAL_E_DECODE);

    /* Empty bodies. */
    v = (json_t *)&v;
    CHECK_CODE(drupal_json_parse(&v, "", 0), DRUPAL_E_DECODE);
    CHECK(v == NULL);
    CHECK_ERROR_MENTIONS("empty");
    CHECK_CODE(drupal_json_parse(&v, NULL, 0), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_parse(&v, "   ", 3), DRUPAL_E_DECODE);

    /* Bad arguments. */
    CHECK_CODE(drupal_json_parse(NULL, "{}", 2), DRUPAL_E_INVALID_ARGUMENT);
    v = (json_t *)&v;
    CHECK_CODE(drupal_json_parse(&v, NULL, 5), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(v == NULL);
}

/* A length no buffer can have (a negative value cast to size_t, or a wrong size) is refused
 * before any byte is read: the end pointer would wrap past the address space. */
static void test_parse_huge_length(void) {
    static const size_t lengths[] = {SIZE_MAX, (size_t)-2, (size_t)PTRDIFF_MAX + 1};
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        json_t *v = (json_t *)&v;
        CHECK_CODE(drupal_json_parse(&v, "{}", lengths[k]), DRUPAL_E_INVALID_ARGUMENT);
        CHECK(v == NULL);
        CHECK_ERROR_MENTIONS("larger than any buffer can be");
    }
}

static void test_field_readers_node(void) {
    json_t *node = parse_or_die(NODE_BODY);
    const char *s = NULL;
    int64_t i = -1;
    int b = -1;
    double d = -1;
    size_t n = 99;
    json_t *item = NULL;

    CHECK_CODE(drupal_json_field_string(&s, node, "title"), DRUPAL_OK);
    CHECK_STR(s, "Article 1");
    CHECK_CODE(drupal_json_field_string(&s, node, "uuid"), DRUPAL_OK);
    CHECK_STR(s, "10aaceb6-96b1-45ea-b429-1d7147f58b35");
    CHECK_CODE(drupal_json_field_string(&s, node, "created"), DRUPAL_OK);
    CHECK_STR(s, "2026-11-29T13:12:20+00:00");
    CHECK_CODE(drupal_json_field_int(&i, node, "nid"), DRUPAL_OK);
    CHECK(i == 1);
    CHECK_CODE(drupal_json_field_bool(&b, node, "status"), DRUPAL_OK);
    CHECK(b == 1);
    CHECK_CODE(drupal_json_field_bool(&b, node, "sticky"), DRUPAL_OK);
    CHECK(b == 0);
    CHECK_CODE(drupal_json_field_double(&d, node, "vid"), DRUPAL_OK);
    CHECK(d == 1.0);

    /* Formatted text and other item properties. */
    CHECK_CODE(drupal_json_field_property(&s, node, "body", 0, "format"), DRUPAL_OK);
    CHECK_STR(s, "basic_html");
    CHECK_CODE(drupal_json_field_property(&s, node, "body", 0, "value"), DRUPAL_OK);
    CHECK_STR(s, "<p>Body of article 1</p>");
    CHECK_CODE(drupal_json_field_property(&s, node, "body", 0, "summary"), DRUPAL_OK);
    CHECK_STR(s, "");
    CHECK_CODE(drupal_json_field_property(&s, node, "body", 0, "no_such"), DRUPAL_E_NOT_FOUND);
    CHECK(s == NULL);
    CHECK_ERROR_MENTIONS("body");
    CHECK_CODE(drupal_json_field_property(&s, node, "body", 1, "format"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_field_property(&s, node, "path", 0, "alias"), DRUPAL_E_NOT_FOUND);
    CHECK_ERROR_MENTIONS("null");
    CHECK_CODE(drupal_json_field_property(&s, node, "comment", 0, "status"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_property(&s, node, "field_tags", 0, "url"), DRUPAL_OK);
    CHECK_STR(s, "/taxonomy/term/2");

    json_t *p = NULL;
    CHECK_CODE(drupal_json_field_property_json(&p, node, "comment", 0, "comment_count"), DRUPAL_OK);
    CHECK(json_is_integer(p) && json_integer_value(p) == 0);
    CHECK_CODE(drupal_json_field_property_json(&p, node, "path", 0, "pid"), DRUPAL_OK);
    CHECK(json_is_null(p));
    CHECK_CODE(drupal_json_field_property_json(&p, node, "path", 0, "nope"), DRUPAL_E_NOT_FOUND);
    CHECK(p == NULL);
    CHECK_CODE(drupal_json_field_property_json(&p, node, "field_image", 0, "alt"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_field_property_json(NULL, node, "body", 0, "format"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_property_json(&p, node, "body", 0, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_property_json(&p, node, "body", 0, ""), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_property_json(&p, node, "body", 0, BAD_UTF8), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_property_json(&p, NULL, "body", 0, "format"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_property(NULL, node, "body", 0, "format"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_property(&s, node, NULL, 0, "format"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_property(&s, node, "title", 0, BAD_UTF8), DRUPAL_E_INVALID_ARGUMENT);

    /* References: content targets have integer IDs, config targets string IDs. */
    CHECK_CODE(drupal_json_field_target_id(&i, node, "uid", 0), DRUPAL_OK);
    CHECK(i == 1);
    CHECK_CODE(drupal_json_field_target_id(&i, node, "field_tags", 0), DRUPAL_OK);
    CHECK(i == 2);
    i = -1;
    CHECK_CODE(drupal_json_field_target_id(&i, node, "field_tags", 1), DRUPAL_E_NOT_FOUND);
    CHECK(i == 0);
    CHECK_ERROR_MENTIONS("field_tags");
    CHECK_CODE(drupal_json_field_target_id(&i, node, "field_image", 0), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_field_target_id_string(&s, node, "type", 0), DRUPAL_OK);
    CHECK_STR(s, "article");
    CHECK_CODE(drupal_json_field_target_id(&i, node, "type", 0), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("type");
    CHECK_CODE(drupal_json_field_target_id_string(&s, node, "uid", 0), DRUPAL_E_DECODE);
    CHECK(s == NULL);
    CHECK_CODE(drupal_json_field_target_id(&i, node, "title", 0), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_field_target_id(NULL, node, "uid", 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_target_id(&i, NULL, "uid", 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_target_id(&i, node, BAD_UTF8, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_target_id_string(NULL, node, "type", 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_target_id_string(&s, node, "", 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_target_id_string(&s, node, "type", 1), DRUPAL_E_NOT_FOUND);

    /* Counts and items. */
    CHECK_CODE(drupal_json_field_count(&n, node, "field_tags"), DRUPAL_OK);
    CHECK(n == 1);
    CHECK_CODE(drupal_json_field_count(&n, node, "field_image"), DRUPAL_OK);
    CHECK(n == 0);
    CHECK_CODE(drupal_json_field_count(&n, node, "revision_log"), DRUPAL_OK);
    CHECK(n == 0);
    n = 99;
    CHECK_CODE(drupal_json_field_count(&n, node, "field_missing"), DRUPAL_E_NOT_FOUND);
    CHECK(n == 0);
    CHECK_ERROR_MENTIONS("field_missing");
    CHECK_CODE(drupal_json_field_count(NULL, node, "title"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_count(&n, NULL, "title"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_count(&n, node, BAD_UTF8), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_item(&item, node, "field_tags", 0), DRUPAL_OK);
    CHECK(json_is_object(item));
    CHECK_STR(json_string_value(json_object_get(item, "target_type")), "taxonomy_term");
    CHECK(item->refcount == 1); /* borrowed: no reference was added */
    CHECK_CODE(drupal_json_field_item(&item, node, "field_image", 0), DRUPAL_E_NOT_FOUND);
    CHECK(item == NULL);
    CHECK_CODE(drupal_json_field_item(&item, node, "field_tags", (size_t)-1), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_field_item(NULL, node, "field_tags", 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_item(&item, node, NULL, 0), DRUPAL_E_INVALID_ARGUMENT);

    /* Wrong types name the field. */
    s = "sentinel";
    CHECK_CODE(drupal_json_field_string(&s, node, "nid"), DRUPAL_E_DECODE);
    CHECK(s == NULL);
    CHECK_ERROR_MENTIONS("\"nid\"");
    CHECK_CODE(drupal_json_field_int(&i, node, "title"), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("\"title\"");
    CHECK_CODE(drupal_json_field_bool(&b, node, "title"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_double(&d, node, "title"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_int(&i, node, "status"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_string(&s, node, "uid"), DRUPAL_E_NOT_FOUND); /* no "value" */
    CHECK_CODE(drupal_json_field_string(&s, node, "field_image"), DRUPAL_E_NOT_FOUND); /* [] */
    CHECK_CODE(drupal_json_field_string(&s, node, "nope"), DRUPAL_E_NOT_FOUND);
    CHECK_ERROR_MENTIONS("\"nope\"");

    /* Bad arguments for every first-value reader. */
    CHECK_CODE(drupal_json_field_string(NULL, node, "title"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_string(&s, NULL, "title"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_string(&s, node, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_string(&s, node, ""), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_string(&s, node, BAD_UTF8), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_int(NULL, node, "nid"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_int(&i, NULL, "nid"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_int(&i, node, BAD_UTF8), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_bool(NULL, node, "status"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_bool(&b, NULL, "status"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_bool(&b, node, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_double(NULL, node, "nid"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_double(&d, NULL, "nid"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_double(&d, node, ""), DRUPAL_E_INVALID_ARGUMENT);

    json_decref(node);
}

static void test_field_readers_non_objects(void) {
    json_t *rows = parse_or_die(VIEW_BODY);
    json_t *number = json_integer(5);
    const char *s;
    int64_t i;
    int b;
    double d;
    size_t n;
    json_t *item;
    json_t *inputs[2] = {rows, number};
    for (int k = 0; k < 2; k++) {
        CHECK_CODE(drupal_json_field_string(&s, inputs[k], "title"), DRUPAL_E_DECODE);
        CHECK_CODE(drupal_json_field_int(&i, inputs[k], "nid"), DRUPAL_E_DECODE);
        CHECK_CODE(drupal_json_field_bool(&b, inputs[k], "status"), DRUPAL_E_DECODE);
        CHECK_CODE(drupal_json_field_double(&d, inputs[k], "nid"), DRUPAL_E_DECODE);
        CHECK_CODE(drupal_json_field_count(&n, inputs[k], "nid"), DRUPAL_E_DECODE);
        CHECK_CODE(drupal_json_field_item(&item, inputs[k], "nid", 0), DRUPAL_E_DECODE);
        CHECK_CODE(drupal_json_field_property(&s, inputs[k], "body", 0, "format"), DRUPAL_E_DECODE);
        CHECK_CODE(drupal_json_field_target_id(&i, inputs[k], "uid", 0), DRUPAL_E_DECODE);
        CHECK_CODE(drupal_json_field_target_id_string(&s, inputs[k], "type", 0), DRUPAL_E_DECODE);
    }
    json_decref(number);
    json_decref(rows);
}

static void test_field_readers_term_login_flat(void) {
    json_t *term = parse_or_die(TERM_BODY);
    const char *s;
    int64_t i;
    int b;
    double d;
    size_t n;

    CHECK_CODE(drupal_json_field_string(&s, term, "name"), DRUPAL_OK);
    CHECK_STR(s, "gamma");
    CHECK_CODE(drupal_json_field_int(&i, term, "tid"), DRUPAL_OK);
    CHECK(i == 3);
    CHECK_CODE(drupal_json_field_int(&i, term, "weight"), DRUPAL_OK);
    CHECK(i == 0);
    CHECK_CODE(drupal_json_field_target_id_string(&s, term, "vid", 0), DRUPAL_OK);
    CHECK_STR(s, "tags");
    CHECK_CODE(drupal_json_field_string(&s, term, "description"), DRUPAL_E_NOT_FOUND); /* null */
    CHECK_ERROR_MENTIONS("description");
    CHECK_CODE(drupal_json_field_target_id(&i, term, "parent", 0), DRUPAL_E_NOT_FOUND); /* null */
    CHECK_CODE(drupal_json_field_count(&n, term, "revision_user"), DRUPAL_OK);
    CHECK(n == 0);
    json_decref(term);

    /* Login: current_user is a flat object with string IDs. */
    json_t *login = parse_or_die(LOGIN_BODY);
    json_t *user = json_object_get(login, "current_user");
    CHECK_CODE(drupal_json_field_int(&i, user, "uid"), DRUPAL_OK);
    CHECK(i == 1);
    CHECK_CODE(drupal_json_field_string(&s, user, "name"), DRUPAL_OK);
    CHECK_STR(s, "admin");
    CHECK_CODE(drupal_json_field_string(&s, user, "roles"), DRUPAL_OK); /* bare items */
    CHECK_STR(s, "authenticated");
    CHECK_CODE(drupal_json_field_string(&s, login, "csrf_token"), DRUPAL_OK);
    CHECK_STR(s, "MhF58dEJm90Jct06jgjBf7-zn97vi3BlhOVrBE-3wns");
    CHECK_CODE(drupal_json_field_int(&i, login, "current_user"), DRUPAL_E_NOT_FOUND); /* no value */
    CHECK_CODE(drupal_json_field_count(&n, login, "csrf_token"), DRUPAL_E_DECODE);
    json_decref(login);

    /* Shorthands Drupal accepts on input, numbers in strings, and edge values. */
    json_t *flat = parse_or_die(
        "{\"type\":\"article\",\"title\":[\"Hi\"],\"n\":\"-42\",\"max\":\"9223372036854775807\","
        "\"min\":\"-9223372036854775808\",\"over\":\"9223372036854775808\",\"plus\":\"+1\","
        "\"space\":\" 1\",\"empty\":\"\",\"hex\":\"0x10\",\"b1\":\"1\",\"b0\":[{\"value\":\"0\"}],"
        "\"bi\":[{\"value\":1}],\"b2\":\"2\",\"price\":[{\"value\":\"12.50\"}],\"exp\":\"1e3\","
        "\"big\":\"99999999999999999999\",\"inf\":\"1e999\",\"nan\":\"nan\",\"dot\":\".5\","
        "\"real\":[{\"value\":2.5}],\"nothing\":null,\"nested\":[[1]],\"tags\":[3,\"4\"],"
        "\"obj\":{\"value\":\"inside\"}}");
    CHECK_CODE(drupal_json_field_target_id_string(&s, flat, "type", 0), DRUPAL_OK);
    CHECK_STR(s, "article");
    CHECK_CODE(drupal_json_field_target_id_string(&s, flat, "type", 1), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_field_string(&s, flat, "title"), DRUPAL_OK);
    CHECK_STR(s, "Hi");
    CHECK_CODE(drupal_json_field_string(&s, flat, "obj"), DRUPAL_OK);
    CHECK_STR(s, "inside");
    CHECK_CODE(drupal_json_field_int(&i, flat, "n"), DRUPAL_OK);
    CHECK(i == -42);
    CHECK_CODE(drupal_json_field_int(&i, flat, "max"), DRUPAL_OK);
    CHECK(i == INT64_MAX);
    CHECK_CODE(drupal_json_field_int(&i, flat, "min"), DRUPAL_OK);
    CHECK(i == INT64_MIN);
    CHECK_CODE(drupal_json_field_int(&i, flat, "over"), DRUPAL_E_DECODE);
    CHECK(i == 0);
    CHECK_CODE(drupal_json_field_int(&i, flat, "plus"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_int(&i, flat, "space"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_int(&i, flat, "empty"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_int(&i, flat, "hex"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_int(&i, flat, "real"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_target_id(&i, flat, "tags", 0), DRUPAL_OK);
    CHECK(i == 3);
    CHECK_CODE(drupal_json_field_target_id(&i, flat, "tags", 1), DRUPAL_OK);
    CHECK(i == 4);
    CHECK_CODE(drupal_json_field_bool(&b, flat, "b1"), DRUPAL_OK);
    CHECK(b == 1);
    CHECK_CODE(drupal_json_field_bool(&b, flat, "b0"), DRUPAL_OK);
    CHECK(b == 0);
    CHECK_CODE(drupal_json_field_bool(&b, flat, "bi"), DRUPAL_OK);
    CHECK(b == 1);
    CHECK_CODE(drupal_json_field_bool(&b, flat, "b2"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_bool(&b, flat, "n"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_double(&d, flat, "price"), DRUPAL_OK);
    CHECK(d == 12.5);
    CHECK_CODE(drupal_json_field_double(&d, flat, "exp"), DRUPAL_OK);
    CHECK(d == 1000.0);
    CHECK_CODE(drupal_json_field_double(&d, flat, "big"), DRUPAL_OK);
    CHECK(d == 1e20);
    CHECK_CODE(drupal_json_field_double(&d, flat, "real"), DRUPAL_OK);
    CHECK(d == 2.5);
    CHECK_CODE(drupal_json_field_double(&d, flat, "n"), DRUPAL_OK);
    CHECK(d == -42.0);
    CHECK_CODE(drupal_json_field_double(&d, flat, "inf"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_double(&d, flat, "nan"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_double(&d, flat, "dot"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_double(&d, flat, "hex"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_double(&d, flat, "empty"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_string(&s, flat, "nothing"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_field_string(&s, flat, "nested"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_property(&s, flat, "title", 0, "value"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_field_count(&n, flat, "nothing"), DRUPAL_E_DECODE);

    /* A string with a NUL built by a caller cannot be handed out as a C string. */
    json_object_set_new(flat, "nul", json_stringn("a\0b", 3));
    CHECK_CODE(drupal_json_field_string(&s, flat, "nul"), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("NUL");
    json_decref(flat);
}

static void test_bundle_key_and_entity_new(void) {
    const char *key = NULL;
    static const char *const cases[][2] = {
        {"node", "type"},        {"taxonomy_term", "vid"},        {"comment", "comment_type"},
        {"media", "bundle"},     {"menu_link_content", "bundle"}, {"block_content", "type"},
        {"my_custom", "type"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        CHECK_CODE(drupal_json_bundle_key(&key, cases[k][0]), DRUPAL_OK);
        CHECK_STR(key, cases[k][1]);
    }
    key = "sentinel";
    CHECK_CODE(drupal_json_bundle_key(&key, "user"), DRUPAL_E_NOT_FOUND);
    CHECK(key == NULL);
    CHECK_CODE(drupal_json_bundle_key(&key, "file"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_bundle_key(NULL, "node"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_bundle_key(&key, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_bundle_key(&key, ""), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_bundle_key(&key, BAD_UTF8), DRUPAL_E_INVALID_ARGUMENT);

    static const char *const entities[][3] = {
        {"node", "article", "{\"type\":[{\"target_id\":\"article\"}]}"},
        {"taxonomy_term", "tags", "{\"vid\":[{\"target_id\":\"tags\"}]}"},
        {"comment", "comment", "{\"comment_type\":[{\"target_id\":\"comment\"}]}"},
        {"media", "image", "{\"bundle\":[{\"target_id\":\"image\"}]}"},
        {"menu_link_content", "menu_link_content", "{\"bundle\":[{\"target_id\":\"menu_link_content\"}]}"},
        {"block_content", "basic", "{\"type\":[{\"target_id\":\"basic\"}]}"},
        {"my_custom", "thing", "{\"type\":[{\"target_id\":\"thing\"}]}"},
        {"user", NULL, "{}"},
        {"user", "user", "{}"},
        {"file", NULL, "{}"},
    };
    for (size_t k = 0; k < sizeof entities / sizeof entities[0]; k++) {
        json_t *e = NULL;
        CHECK_CODE(drupal_json_entity_new(&e, entities[k][0], entities[k][1]), DRUPAL_OK);
        CHECK(e != NULL && e->refcount == 1);
        CHECK_JSON(e, entities[k][2]);
        json_decref(e);
    }
    json_t *e = (json_t *)&e;
    CHECK_CODE(drupal_json_entity_new(&e, "user", "editor"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(e == NULL);
    CHECK_CODE(drupal_json_entity_new(&e, "node", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_entity_new(&e, "node", ""), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_entity_new(&e, "node", "art\xc3"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_entity_new(&e, NULL, "article"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_entity_new(&e, "", "article"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_entity_new(&e, "no\xed\xa0\x80" "de", "article"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_entity_new(NULL, "node", "article"), DRUPAL_E_INVALID_ARGUMENT);
}

/* drupal_last_error() is the last *failing* call's: a call that succeeds leaves it alone, even
 * when it looked something up that failed on the way (a bundle-less type's bundle key). */
static void test_success_keeps_last_error(void) {
    json_t *e = NULL;
    const char *s = NULL;
    CHECK_CODE(drupal_json_field_string(&s, NULL, "earlier"), DRUPAL_E_INVALID_ARGUMENT);
    static const char *const entities[][2] = {{"user", NULL}, {"user", "user"}, {"file", NULL}, {"node", "page"}};
    for (size_t k = 0; k < sizeof entities / sizeof entities[0]; k++) {
        CHECK_CODE(drupal_json_entity_new(&e, entities[k][0], entities[k][1]), DRUPAL_OK);
        json_decref(e);
        CHECK(drupal_last_error_code() == DRUPAL_E_INVALID_ARGUMENT);
        CHECK_STR(drupal_last_error(), "reading field \"earlier\": entity is NULL");
    }
}

static void test_setters(void) {
    json_t *node = NULL;
    CHECK_CODE(drupal_json_entity_new(&node, "node", "article"), DRUPAL_OK);

    /* The minimal node POST body of drupal-http-api.md §5.4. */
    CHECK_CODE(drupal_json_field_set_string(node, "title", "Hello"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_text(node, "body", "<p>Hi</p>", "basic_html", NULL), DRUPAL_OK);
    CHECK_JSON(node, "{\"body\":[{\"format\":\"basic_html\",\"value\":\"<p>Hi</p>\"}],"
                     "\"title\":[{\"value\":\"Hello\"}],\"type\":[{\"target_id\":\"article\"}]}");

    /* Setting again replaces the field with one item; UTF-8 passes through. */
    CHECK_CODE(drupal_json_field_set_string(node, "title", "Gr\xc3\xbc\xc3\x9f" "e"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_text(node, "body", "<p>Long</p>", "full_html", "Short"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_int(node, "weight", -7), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_bool(node, "status", 0), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_bool(node, "promote", 42), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_double(node, "field_ratio", 1.5), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_target_id(node, "uid", 1), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_target_id_string(node, "field_vocab", "tags"), DRUPAL_OK);
    CHECK_JSON(node, "{\"body\":[{\"format\":\"full_html\",\"summary\":\"Short\",\"value\":\"<p>Long</p>\"}],"
                     "\"field_ratio\":[{\"value\":1.5}],\"field_vocab\":[{\"target_id\":\"tags\"}],"
                     "\"promote\":[{\"value\":true}],\"status\":[{\"value\":false}],"
                     "\"title\":[{\"value\":\"Gr\xc3\xbc\xc3\x9f" "e\"}],\"type\":[{\"target_id\":\"article\"}],"
                     "\"uid\":[{\"target_id\":1}],\"weight\":[{\"value\":-7}]}");

    /* What the setters write, the readers read back. */
    const char *s;
    int64_t i;
    int b;
    double d;
    CHECK_CODE(drupal_json_field_string(&s, node, "title"), DRUPAL_OK);
    CHECK_STR(s, "Gr\xc3\xbc\xc3\x9f" "e");
    CHECK_CODE(drupal_json_field_int(&i, node, "weight"), DRUPAL_OK);
    CHECK(i == -7);
    CHECK_CODE(drupal_json_field_bool(&b, node, "promote"), DRUPAL_OK);
    CHECK(b == 1);
    CHECK_CODE(drupal_json_field_double(&d, node, "field_ratio"), DRUPAL_OK);
    CHECK(d == 1.5);
    CHECK_CODE(drupal_json_field_property(&s, node, "body", 0, "summary"), DRUPAL_OK);
    CHECK_STR(s, "Short");

    /* Extremes of the integer setters. */
    json_t *e = json_object();
    CHECK_CODE(drupal_json_field_set_int(e, "a", INT64_MIN), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_target_id(e, "b", INT64_MAX), DRUPAL_OK);
    CHECK_JSON(e, "{\"a\":[{\"value\":-9223372036854775808}],\"b\":[{\"target_id\":9223372036854775807}]}");
    json_decref(e);

    /* Bad input leaves the entity unchanged. */
    char *before = json_dumps(node, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_CODE(drupal_json_field_set_string(node, "title", "bad \xff value"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_string(node, "title", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_string(node, NULL, "x"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_string(node, "", "x"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_string(node, BAD_UTF8, "x"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_string(NULL, "title", "x"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_int(NULL, "weight", 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_int(node, BAD_UTF8, 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_bool(NULL, "status", 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_bool(node, "", 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_double(node, "field_ratio", NAN), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_ERROR_MENTIONS("field_ratio");
    CHECK_CODE(drupal_json_field_set_double(node, "field_ratio", INFINITY), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_double(NULL, "field_ratio", 1.0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_text(node, "body", NULL, "basic_html", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_text(node, "body", "x", NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_text(node, "body", "x", "", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_text(node, "body", "x", "basic_html", "\xc3"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_text(node, "body", "\xe2\x82", "basic_html", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_text(NULL, "body", "x", "basic_html", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_target_id(node, NULL, 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_target_id(NULL, "uid", 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_target_id_string(node, "type", ""), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_target_id_string(node, "type", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_target_id_string(node, "type", "\xf5"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_target_id_string(NULL, "type", "page"), DRUPAL_E_INVALID_ARGUMENT);
    char *after = json_dumps(node, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_STR(after, before);
    free(before);
    free(after);

    /* A non-object entity is refused, not crashed on. */
    json_t *array = json_array();
    CHECK_CODE(drupal_json_field_set_string(array, "title", "x"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_int(array, "n", 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_text(array, "body", "x", "basic_html", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_target_id_string(array, "type", "page"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(json_array_size(array) == 0);
    json_decref(array);
    json_decref(node);
}

static void test_set_and_append(void) {
    json_t *node = NULL;
    CHECK_CODE(drupal_json_entity_new(&node, "node", "article"), DRUPAL_OK);

    /* append_new steals; appending to a missing field creates it. */
    CHECK_CODE(drupal_json_field_append_new(node, "field_tags", json_pack("{s:i}", "target_id", 1)), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_append_new(node, "field_tags", json_pack("{s:i}", "target_id", 2)), DRUPAL_OK);
    /* append does not steal: the caller keeps and drops its own reference. */
    json_t *tag = json_pack("{s:i}", "target_id", 3);
    CHECK_CODE(drupal_json_field_append(node, "field_tags", tag), DRUPAL_OK);
    CHECK(tag->refcount == 2);
    json_decref(tag);
    size_t n = 0;
    CHECK_CODE(drupal_json_field_count(&n, node, "field_tags"), DRUPAL_OK);
    CHECK(n == 3);
    int64_t id = 0;
    CHECK_CODE(drupal_json_field_target_id(&id, node, "field_tags", 2), DRUPAL_OK);
    CHECK(id == 3);

    /* set: an array is the item list as is, anything else becomes the only item. */
    json_t *items = json_pack("[{s:s},{s:s}]", "value", "a", "value", "b");
    CHECK_CODE(drupal_json_field_set(node, "field_keywords", items), DRUPAL_OK);
    CHECK(items->refcount == 2);
    CHECK(json_object_get(node, "field_keywords") == items);
    json_decref(items);
    json_t *item = json_pack("{s:s,s:s}", "uri", "https://example.com", "title", "Example");
    CHECK_CODE(drupal_json_field_set(node, "field_link", item), DRUPAL_OK);
    CHECK(item->refcount == 2);
    json_decref(item);
    CHECK_CODE(drupal_json_field_set_new(node, "field_image", json_array()), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_new(node, "field_scalar", json_string("bare")), DRUPAL_OK);
    CHECK_JSON(node, "{\"field_image\":[],\"field_keywords\":[{\"value\":\"a\"},{\"value\":\"b\"}],"
                     "\"field_link\":[{\"title\":\"Example\",\"uri\":\"https://example.com\"}],"
                     "\"field_scalar\":[\"bare\"],"
                     "\"field_tags\":[{\"target_id\":1},{\"target_id\":2},{\"target_id\":3}],"
                     "\"type\":[{\"target_id\":\"article\"}]}");

    /* Failures: the stealing variants still release their argument (ASan/valgrind check). */
    CHECK_CODE(drupal_json_field_set_new(NULL, "f", json_array()), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_new(node, BAD_UTF8, json_array()), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_new(node, "f", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_append_new(node, "", json_object()), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_append_new(NULL, "f", json_object()), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_append_new(node, "f", NULL), DRUPAL_E_INVALID_ARGUMENT);
    json_object_set_new(node, "flat", json_string("x"));
    CHECK_CODE(drupal_json_field_append_new(node, "flat", json_object()), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_ERROR_MENTIONS("flat");
    json_object_del(node, "flat");
    /* The non-stealing variants leave the caller's reference alone on failure. */
    json_t *keep = json_object();
    CHECK_CODE(drupal_json_field_set(NULL, "f", keep), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set(node, NULL, keep), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_append(node, BAD_UTF8, keep), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_append(json_object_get(node, "type"), "f", keep), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(keep->refcount == 1);
    json_decref(keep);
    CHECK_CODE(drupal_json_field_set(node, "f", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_append(node, "f", NULL), DRUPAL_E_INVALID_ARGUMENT);
    /* Cycles are refused; the entity keeps its reference either way. */
    CHECK_CODE(drupal_json_field_set(node, "self", node), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_set_new(node, "self", node), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_append(node, "self", node), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_field_append_new(node, "self", node), DRUPAL_E_INVALID_ARGUMENT);
    json_t *tags = json_object_get(node, "field_tags");
    CHECK_CODE(drupal_json_field_append(node, "field_tags", tags), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(node->refcount == 1 && tags->refcount == 1);
    CHECK(json_object_get(node, "self") == NULL && json_object_get(node, "f") == NULL);
    CHECK_CODE(drupal_json_field_count(&n, node, "field_tags"), DRUPAL_OK);
    CHECK(n == 3);
    json_decref(node);
}

static void test_view(void) {
    json_t *response = parse_or_die(VIEW_BODY);
    json_t *rows = NULL, *row = NULL;
    const char *s = NULL;
    size_t n = 99;
    int64_t nid = 0;

    CHECK_CODE(drupal_json_view_rows(&rows, response), DRUPAL_OK);
    CHECK(rows == response && response->refcount == 1);
    CHECK_CODE(drupal_json_view_count(&n, rows), DRUPAL_OK);
    CHECK(n == 2);
    CHECK_CODE(drupal_json_view_column(&s, rows, 0, "title"), DRUPAL_OK);
    CHECK_STR(s, "Article 1");
    CHECK_CODE(drupal_json_view_column(&s, rows, 1, "nid"), DRUPAL_OK);
    CHECK_STR(s, "2");
    CHECK_CODE(drupal_json_view_column(&s, rows, 1, "body"), DRUPAL_OK);
    CHECK_STR(s, "<p>Body of article 2</p>");
    CHECK_CODE(drupal_json_view_column(&s, rows, 0, "created"), DRUPAL_OK);
    CHECK(strncmp(s, "<time datetime=\"2026-11-29T13:12:20+00:00\">", 43) == 0);
    CHECK_CODE(drupal_json_view_row(&row, rows, 1), DRUPAL_OK);
    CHECK(json_is_object(row) && row->refcount == 1);
    CHECK_CODE(drupal_json_field_int(&nid, row, "nid"), DRUPAL_OK); /* "nid":"2" */
    CHECK(nid == 2);

    s = "sentinel";
    CHECK_CODE(drupal_json_view_column(&s, rows, 0, "sticky"), DRUPAL_E_NOT_FOUND);
    CHECK(s == NULL);
    CHECK_ERROR_MENTIONS("sticky");
    CHECK_CODE(drupal_json_view_column(&s, rows, 2, "title"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_view_column(&s, rows, 0, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_column(&s, rows, 0, ""), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_column(&s, rows, 0, BAD_UTF8), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_column(&s, NULL, 0, "title"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_column(NULL, rows, 0, "title"), DRUPAL_E_INVALID_ARGUMENT);
    row = (json_t *)&row;
    CHECK_CODE(drupal_json_view_row(&row, rows, 2), DRUPAL_E_NOT_FOUND);
    CHECK(row == NULL);
    CHECK_CODE(drupal_json_view_row(NULL, rows, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_row(&row, NULL, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_count(NULL, rows), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_count(&n, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_rows(NULL, response), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_rows(&rows, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(rows == NULL);

    /* Copy into a caller buffer, snprintf-style. */
    char buffer[16];
    size_t length = 0;
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, response, 0, "title"), DRUPAL_OK);
    CHECK_STR(buffer, "Article 1");
    CHECK(length == 9);
    CHECK_CODE(drupal_json_view_column_copy(buffer, 10, &length, response, 0, "title"), DRUPAL_OK);
    CHECK_STR(buffer, "Article 1");
    CHECK_CODE(drupal_json_view_column_copy(buffer, 9, &length, response, 0, "title"), DRUPAL_E_TOO_LARGE);
    CHECK_STR(buffer, "Article ");
    CHECK(length == 9);
    CHECK_CODE(drupal_json_view_column_copy(NULL, 0, &length, response, 0, "uuid"), DRUPAL_E_TOO_LARGE);
    CHECK(length == 36);
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, NULL, response, 1, "nid"), DRUPAL_OK);
    CHECK_STR(buffer, "2");
    CHECK_CODE(drupal_json_view_column_copy(NULL, 4, &length, response, 0, "nid"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, response, 0, "missing"),
               DRUPAL_E_NOT_FOUND);
    CHECK(length == 0 && buffer[0] == '\0');
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, response, 5, "nid"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, NULL, 0, "nid"),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, response, 0, BAD_UTF8),
               DRUPAL_E_INVALID_ARGUMENT);
    json_decref(response);

    /* Non-string cells: borrowed strings refuse them, the copy formats them as JSON text. */
    json_t *typed = parse_or_die("[{\"n\":5,\"f\":1.5,\"r\":2.0,\"t\":true,\"z\":null,\"o\":{},\"a\":[1]},7]");
    CHECK_CODE(drupal_json_view_column(&s, typed, 0, "n"), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("\"n\"");
    CHECK_CODE(drupal_json_view_column(&s, typed, 0, "z"), DRUPAL_E_NOT_FOUND);
    static const char *const formatted[][2] = {{"n", "5"}, {"f", "1.5"}, {"r", "2.0"}, {"t", "true"}};
    for (size_t k = 0; k < 4; k++) {
        CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, typed, 0, formatted[k][0]),
                   DRUPAL_OK);
        CHECK_STR(buffer, formatted[k][1]);
        CHECK(length == strlen(formatted[k][1]));
    }
    CHECK_CODE(drupal_json_view_column_copy(buffer, 3, &length, typed, 0, "t"), DRUPAL_E_TOO_LARGE);
    CHECK_STR(buffer, "tr");
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, typed, 0, "z"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, typed, 0, "o"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, typed, 0, "a"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_view_row(&row, typed, 1), DRUPAL_E_DECODE); /* 7 is not a row */
    CHECK_CODE(drupal_json_view_column(&s, typed, 1, "n"), DRUPAL_E_DECODE);
    json_decref(typed);

    /* A page past the end (40c) and a body that is not a view. */
    json_t *empty = parse_or_die("[]");
    CHECK_CODE(drupal_json_view_rows(&rows, empty), DRUPAL_OK);
    CHECK_CODE(drupal_json_view_count(&n, rows), DRUPAL_OK);
    CHECK(n == 0);
    CHECK_CODE(drupal_json_view_row(&row, rows, 0), DRUPAL_E_NOT_FOUND);
    json_decref(empty);
    json_t *node = parse_or_die(NODE_BODY);
    rows = (json_t *)&rows;
    CHECK_CODE(drupal_json_view_rows(&rows, node), DRUPAL_E_DECODE);
    CHECK(rows == NULL);
    CHECK_ERROR_MENTIONS("not an array");
    CHECK_CODE(drupal_json_view_count(&n, node), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_view_row(&row, node, 0), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_view_column(&s, node, 0, "nid"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_view_column_copy(buffer, sizeof buffer, &length, node, 0, "nid"), DRUPAL_E_DECODE);
    json_decref(node);
}

/* A json_t built by the caller may hold a NUL (json_stringn); drupal_json_parse never makes one.
 * Every reader that hands out a C string refuses it instead of returning the part before the NUL,
 * and a resource whose type or id has one is never taken for the resource named by its prefix. */
static void test_strings_with_nul(void) {
    const char *s = "sentinel", *type = "sentinel", *id = "sentinel";
    json_t *out = (json_t *)&out;

    json_t *resource = json_pack("{s:{s:o}, s:{s:{s:{s:o, s:s}}, s:{s:[{s:s, s:o}]}}}",
        "attributes", "title", json_stringn("ab\0cd", 5),
        "relationships", "uid", "data", "type", json_stringn("user\0x", 6), "id", "u1",
        "field_tags", "data", "type", "taxonomy_term--tags", "id", json_stringn("t1\0x", 4));
    CHECK_CODE(drupal_json_jsonapi_attribute_string(&s, resource, "title"), DRUPAL_E_DECODE);
    CHECK(s == NULL);
    CHECK_ERROR_MENTIONS("NUL");
    CHECK_CODE(drupal_json_jsonapi_relationship_id(&type, &id, resource, "uid", 0), DRUPAL_E_DECODE);
    CHECK(type == NULL && id == NULL);
    CHECK_ERROR_MENTIONS("NUL");
    CHECK_CODE(drupal_json_jsonapi_relationship_id(&type, &id, resource, "field_tags", 0), DRUPAL_E_DECODE);
    CHECK(type == NULL && id == NULL);

    /* "abc\0evil" and "node--article\0x" are not "abc" and "node--article": the real one wins. */
    json_t *document = json_pack("{s:[{s:s, s:o}, {s:o, s:s}, {s:s, s:s}], s:{s:{s:o}, s:o}}",
        "included", "type", "node--article", "id", json_stringn("abc\0evil", 8),
        "type", json_stringn("node--article\0x", 15), "id", "abc",
        "type", "node--article", "id", "abc",
        "links", "next", "href", json_stringn("https://x/\0evil", 15), "prev", json_stringn("a\0b", 3));
    json_t *real = json_array_get(json_object_get(document, "included"), 2);
    CHECK_CODE(drupal_json_jsonapi_included(&out, document, "node--article", "abc"), DRUPAL_OK);
    CHECK(out == real);
    json_array_remove(json_object_get(document, "included"), 2);
    out = (json_t *)&out;
    CHECK_CODE(drupal_json_jsonapi_included(&out, document, "node--article", "abc"), DRUPAL_E_NOT_FOUND);
    CHECK(out == NULL);
    s = "sentinel";
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "next"), DRUPAL_E_DECODE);
    CHECK(s == NULL);
    CHECK_ERROR_MENTIONS("NUL");
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "prev"), DRUPAL_E_DECODE);

    json_t *entry_point = json_pack("{s:{s:{s:{s:{s:o}}}}}", "meta", "links", "me", "meta", "id",
                                    json_stringn("u1\0x", 4));
    s = "sentinel";
    CHECK_CODE(drupal_json_jsonapi_me(&s, entry_point), DRUPAL_E_DECODE);
    CHECK(s == NULL);
    CHECK_ERROR_MENTIONS("NUL");

    /* The field and view readers, which refused it already. */
    json_t *rows = json_pack("[{s:o}]", "title", json_stringn("ab\0cd", 5));
    CHECK_CODE(drupal_json_view_column(&s, rows, 0, "title"), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("NUL");
    CHECK_CODE(drupal_json_field_target_id_string(&s, json_array_get(rows, 0), "title", 0), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("NUL");

    /* drupal_json_view_column_copy refuses it too, rather than copying "ab\0cd" with length 5. */
    char copy[16] = "sentinel";
    size_t copy_length = 99;
    CHECK_CODE(drupal_json_view_column_copy(copy, sizeof copy, &copy_length, rows, 0, "title"), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("contains a NUL character");
    CHECK(copy[0] == '\0' && copy_length == 0);
    copy_length = 99;
    CHECK_CODE(drupal_json_view_column_copy(NULL, 0, &copy_length, rows, 0, "title"), DRUPAL_E_DECODE);
    CHECK(copy_length == 0);

    json_decref(rows);
    json_decref(entry_point);
    json_decref(document);
    json_decref(resource);
}

/* 104b-collection-include-empty-image.txt, cut down: a to-one relationship, a to-one with data null
 * (no image) and a to-many; links as objects with an href. */
static const char JSONAPI_BODY[] =
    "{\"data\":[{\"type\":\"node--article\",\"id\":\"4fc16ad4-2d68-4e9b-9cf2-06755ee6bd6a\","
    "\"attributes\":{\"title\":\"Article 1\"},\"relationships\":{"
    "\"uid\":{\"data\":{\"type\":\"user--user\",\"id\":\"2771b730-dad3-4d31-85fa-ea6113704898\"}},"
    "\"field_image\":{\"data\":null},\"field_none\":{\"data\":[]},"
    "\"field_tags\":{\"data\":[{\"type\":\"taxonomy_term--tags\",\"id\":\"9c14a536-a281-4a63-a779-fb61c8aedaf0\"}]}}}],"
    "\"included\":[{\"type\":\"user--user\",\"id\":\"2771b730-dad3-4d31-85fa-ea6113704898\","
    "\"attributes\":{\"name\":\"admin\"}}],"
    "\"links\":{\"next\":{\"href\":\"http://127.0.0.1:8888/jsonapi/node/article?page%5Boffset%5D=1\"},"
    "\"prev\":null,\"last\":\"http://127.0.0.1:8888/last\"}}";

/* A member of the wrong shape is DRUPAL_E_DECODE, never "empty" or DRUPAL_E_NOT_FOUND: a caller's
 * walk (while link "next" is found) must not end silently on a broken answer. */
static void test_jsonapi_wrong_shapes(void) {
    const char *s = NULL, *type = NULL, *id = NULL;
    json_t *out = NULL, *resource = NULL;
    size_t n = 99;

    /* The real shapes read as before: data null and [] are empty, a missing link is not found. */
    json_t *document = parse_or_die(JSONAPI_BODY);
    CHECK_CODE(drupal_json_jsonapi_resource(&resource, document, 0), DRUPAL_OK);
    CHECK_CODE(drupal_json_jsonapi_relationship_count(&n, resource, "uid"), DRUPAL_OK);
    CHECK(n == 1);
    CHECK_CODE(drupal_json_jsonapi_relationship_count(&n, resource, "field_tags"), DRUPAL_OK);
    CHECK(n == 1);
    CHECK_CODE(drupal_json_jsonapi_relationship_count(&n, resource, "field_image"), DRUPAL_OK);
    CHECK(n == 0);
    CHECK_CODE(drupal_json_jsonapi_relationship_id(&type, &id, resource, "field_image", 0), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_jsonapi_relationship_count(&n, resource, "field_none"), DRUPAL_OK);
    CHECK(n == 0);
    CHECK_CODE(drupal_json_jsonapi_relationship_count(&n, resource, "nosuch"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_jsonapi_related(&out, document, resource, "uid", 0), DRUPAL_OK);
    CHECK_CODE(drupal_json_jsonapi_attribute_string(&s, out, "name"), DRUPAL_OK);
    CHECK_STR(s, "admin");
    CHECK_CODE(drupal_json_jsonapi_attribute(&out, resource, "nosuch"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "next"), DRUPAL_OK);
    CHECK_STR(s, "http://127.0.0.1:8888/jsonapi/node/article?page%5Boffset%5D=1");
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "last"), DRUPAL_OK);   /* a link may be a string */
    CHECK_STR(s, "http://127.0.0.1:8888/last");
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "prev"), DRUPAL_E_NOT_FOUND);   /* null: no link */
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "first"), DRUPAL_E_NOT_FOUND);

    /* Relationship data that is not an identifier, a list or null; a relationship that is not an object. */
    json_t *relationships = json_object_get(resource, "relationships");
    json_object_set_new(json_object_get(relationships, "uid"), "data", json_string("oops"));
    json_object_set_new(relationships, "field_tags", json_string("str"));
    n = 99;
    CHECK_CODE(drupal_json_jsonapi_relationship_count(&n, resource, "uid"), DRUPAL_E_DECODE);
    CHECK(n == 0);
    CHECK_ERROR_MENTIONS("uid");
    CHECK_CODE(drupal_json_jsonapi_relationship_id(&type, &id, resource, "uid", 0), DRUPAL_E_DECODE);
    CHECK(type == NULL && id == NULL);
    CHECK_CODE(drupal_json_jsonapi_related(&out, document, resource, "uid", 0), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_jsonapi_relationship_count(&n, resource, "field_tags"), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("field_tags");
    CHECK_CODE(drupal_json_jsonapi_relationship_id(&type, &id, resource, "field_tags", 0), DRUPAL_E_DECODE);
    json_object_set_new(resource, "relationships", json_array());
    CHECK_CODE(drupal_json_jsonapi_relationship_count(&n, resource, "uid"), DRUPAL_E_DECODE);

    /* attributes that are not an object; included that is not a list. */
    json_object_set_new(resource, "attributes", json_pack("[s]", "Article 1"));
    CHECK_CODE(drupal_json_jsonapi_attribute(&out, resource, "title"), DRUPAL_E_DECODE);
    CHECK_ERROR_MENTIONS("attributes");
    CHECK_CODE(drupal_json_jsonapi_attribute_string(&s, resource, "title"), DRUPAL_E_DECODE);
    json_object_set_new(document, "included", json_object());
    out = (json_t *)&out;
    CHECK_CODE(drupal_json_jsonapi_included(&out, document, "user--user", "2771b730-dad3-4d31-85fa-ea6113704898"),
               DRUPAL_E_DECODE);
    CHECK(out == NULL);
    CHECK_ERROR_MENTIONS("included");

    /* A link that is there but has no string href. */
    json_t *links = json_object_get(document, "links");
    json_object_set_new(links, "next", json_pack("{s:i}", "href", 5));
    json_object_set_new(links, "self", json_object());
    json_object_set_new(links, "last", json_integer(5));
    s = "sentinel";
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "next"), DRUPAL_E_DECODE);
    CHECK(s == NULL);
    CHECK_ERROR_MENTIONS("next");
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "self"), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "last"), DRUPAL_E_DECODE);
    json_object_set_new(document, "links", json_string("oops"));
    CHECK_CODE(drupal_json_jsonapi_link(&s, document, "next"), DRUPAL_E_DECODE);
    json_decref(document);
}

/* The entry point's meta of 173-entry-point-cookie.txt (logged in) and 173b (anonymous: no meta),
 * then wrong shapes of meta.links.me: DRUPAL_E_DECODE as for the other readers, never "anonymous". */
static void test_jsonapi_me_shapes(void) {
    const char *s = NULL;
    json_t *entry_point = parse_or_die("{\"data\":[],\"meta\":{\"links\":{\"me\":{\"meta\":"
        "{\"id\":\"2771b730-dad3-4d31-85fa-ea6113704898\"},\"href\":\"http://127.0.0.1:8888/jsonapi/user/user/"
        "2771b730-dad3-4d31-85fa-ea6113704898\"}}}}");
    CHECK_CODE(drupal_json_jsonapi_me(&s, entry_point), DRUPAL_OK);
    CHECK_STR(s, "2771b730-dad3-4d31-85fa-ea6113704898");
    json_decref(entry_point);
    entry_point = parse_or_die("{\"data\":[]}");
    CHECK_CODE(drupal_json_jsonapi_me(&s, entry_point), DRUPAL_E_NOT_FOUND);
    json_decref(entry_point);

    /* No one logged in: absent or null members. Any other shape is not JSON:API. */
    static const struct { const char *document; drupal_code code; } shapes[] = {
        {"{\"meta\":null}", DRUPAL_E_NOT_FOUND}, {"{\"meta\":{}}", DRUPAL_E_NOT_FOUND},
        {"{\"meta\":{\"links\":null}}", DRUPAL_E_NOT_FOUND}, {"{\"meta\":{\"links\":{}}}", DRUPAL_E_NOT_FOUND},
        {"{\"meta\":{\"links\":{\"me\":null}}}", DRUPAL_E_NOT_FOUND},
        {"{\"meta\":\"x\"}", DRUPAL_E_DECODE}, {"{\"meta\":{\"links\":[]}}", DRUPAL_E_DECODE},
        {"{\"meta\":{\"links\":{\"me\":\"u1\"}}}", DRUPAL_E_DECODE}, {"{\"meta\":{\"links\":{\"me\":5}}}", DRUPAL_E_DECODE},
        {"{\"meta\":{\"links\":{\"me\":{\"href\":\"x\"}}}}", DRUPAL_E_DECODE},
        {"{\"meta\":{\"links\":{\"me\":{\"meta\":[]}}}}", DRUPAL_E_DECODE},
        {"{\"meta\":{\"links\":{\"me\":{\"meta\":{\"id\":5}}}}}", DRUPAL_E_DECODE},
        {"{\"meta\":{\"links\":{\"me\":{\"meta\":{\"id\":null}}}}}", DRUPAL_E_DECODE},
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        entry_point = parse_or_die(shapes[k].document);
        s = "sentinel";
        CHECK_CODE(drupal_json_jsonapi_me(&s, entry_point), shapes[k].code);
        CHECK(s == NULL);
        if (drupal_last_error_code() != shapes[k].code) fprintf(stderr, "  (entry point %s)\n", shapes[k].document);
        json_decref(entry_point);
    }
}

/* An included item that is not an object is a broken answer (DRUPAL_E_DECODE), not skipped:
 * skipping it would read the resource it should have been as "not included". */
static void test_jsonapi_included_not_object(void) {
    json_t *out = NULL, *resource = NULL;
    json_t *document = parse_or_die(JSONAPI_BODY);
    CHECK_CODE(drupal_json_jsonapi_resource(&resource, document, 0), DRUPAL_OK);
    json_t *included = json_object_get(document, "included");
    json_array_insert_new(included, 0, json_string("oops"));
    out = (json_t *)&out;
    CHECK_CODE(drupal_json_jsonapi_included(&out, document, "user--user", "2771b730-dad3-4d31-85fa-ea6113704898"),
               DRUPAL_E_DECODE);
    CHECK(out == NULL);
    CHECK_ERROR_MENTIONS("included");
    CHECK_CODE(drupal_json_jsonapi_related(&out, document, resource, "uid", 0), DRUPAL_E_DECODE);
    /* After the match too: the whole list is checked, whichever item is asked for. */
    json_array_remove(included, 0);
    json_array_append_new(included, json_integer(5));
    CHECK_CODE(drupal_json_jsonapi_included(&out, document, "user--user", "2771b730-dad3-4d31-85fa-ea6113704898"),
               DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_jsonapi_included(&out, document, "user--user", "nosuch"), DRUPAL_E_DECODE);
    json_decref(document);
}

/* 1 if s is UTF-8 by its structure: each lead byte followed by as many continuation bytes as it
 * announces (enough to see a cut sequence or a stray byte; the library checks overlongs too). */
static int utf8_structured(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int extra = *p < 0x80 ? 0 : *p >= 0xC2 && *p <= 0xDF ? 1 : *p >= 0xE0 && *p <= 0xEF ? 2
                  : *p >= 0xF0 && *p <= 0xF4 ? 3 : -1;
        if (extra < 0) return 0;
        p++;
        for (int k = 0; k < extra; k++, p++)
            if ((*p & 0xC0) != 0x80) return 0;
    }
    return 1;
}

/* drupal_last_error() is UTF-8 whatever it was given: a long message is cut at a character
 * boundary and ends with "...", an invalid byte or a NUL becomes U+FFFD, and a name cut by the
 * "%.100s" of a message does not leave half a character behind. */
static void test_last_error_utf8(void) {
    enum { CAP = 2047 }; /* the documented maximum length */
    static char message[4096];
    const char *e;

    /* 1500 x "é" (3,000 bytes, as a long Drupal validation message in French). */
    for (size_t k = 0; k < 1500; k++) memcpy(message + 2 * k, "\xc3\xa9", 2);
    drupal__fail_n(DRUPAL_E_HTTP, message, 3000);
    e = drupal_last_error();
    CHECK(drupal_last_error_code() == DRUPAL_E_HTTP);
    CHECK(utf8_structured(e));
    CHECK(strlen(e) <= CAP);
    CHECK(strlen(e) >= CAP - 4 - 3); /* cut at the last whole character that leaves room for "..." */
    CHECK(strlen(e) >= 3 && strcmp(e + strlen(e) - 3, "...") == 0);
    CHECK(strncmp(e, message, strlen(e) - 3) == 0);

    /* The longest message that fits is kept whole; one byte more is cut and marked. */
    memset(message, 'x', CAP + 1);
    drupal__fail_n(DRUPAL_E_HTTP, message, CAP);
    CHECK(strlen(drupal_last_error()) == CAP && drupal_last_error()[CAP - 1] == 'x');
    drupal__fail_n(DRUPAL_E_HTTP, message, CAP + 1);
    e = drupal_last_error();
    CHECK(strlen(e) == CAP && strcmp(e + CAP - 3, "...") == 0 && e[CAP - 4] == 'x');

    /* Invalid bytes and NULs become U+FFFD; valid multi-byte characters pass. */
    drupal__fail_n(DRUPAL_E_DECODE, "a\xff" "b\0c\xc3\xa9\xed\xa0\x80" "d\xc3", 12);
    CHECK_STR(drupal_last_error(), "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                                   "d\xef\xbf\xbd");
    drupal__fail(DRUPAL_E_DECODE, "");
    CHECK_STR(drupal_last_error(), "");

    /* Names quoted as "%.100s" and "%.64s" cut inside "é". */
    char name[200];
    json_t *empty = json_object(), *out = NULL;
    const char *s = NULL;
    memset(name, 'a', 99);
    strcpy(name + 99, "\xc3\xa9");
    CHECK_CODE(drupal_json_field_string(&s, empty, name), DRUPAL_E_NOT_FOUND);
    CHECK(utf8_structured(drupal_last_error()));
    CHECK_ERROR_MENTIONS("aaaa");
    memset(name, 'b', 63);
    strcpy(name + 63, "\xc3\xa9");
    CHECK_CODE(drupal_json_jsonapi_included(&out, empty, "node--article", name), DRUPAL_E_NOT_FOUND);
    CHECK(utf8_structured(drupal_last_error()));
    CHECK_ERROR_MENTIONS("bbbb");
    json_decref(empty);
}

/* drupal__json_failf keeps a message as long as drupal_last_error() can hold, and one longer is
 * cut visibly, with the "..." drupal__fail_n adds, not silently at a smaller buffer of its own. */
static void test_failf_long_message(void) {
    enum { CAP = 2047 }; /* the documented maximum length */
    static char argument[3000];
    const char *e;

    memset(argument, 'y', 1000);
    argument[1000] = '\0';
    drupal__json_failf(DRUPAL_E_HTTP, "long: %s", argument);
    e = drupal_last_error();
    CHECK(drupal_last_error_code() == DRUPAL_E_HTTP);
    CHECK(strlen(e) == 1006 && strncmp(e, "long: ", 6) == 0 && e[1005] == 'y');

    memset(argument, 'y', sizeof argument - 1);
    argument[sizeof argument - 1] = '\0';
    drupal__json_failf(DRUPAL_E_HTTP, "long: %s", argument);
    e = drupal_last_error();
    CHECK(strlen(e) == CAP && strcmp(e + CAP - 3, "...") == 0 && e[CAP - 4] == 'y');

    /* Exactly the cap fits whole; one byte more is cut and marked. */
    argument[CAP - 6] = '\0';
    drupal__json_failf(DRUPAL_E_HTTP, "long: %s", argument);
    e = drupal_last_error();
    CHECK(strlen(e) == CAP && e[CAP - 1] == 'y');
    argument[CAP - 6] = 'y';
    argument[CAP - 5] = '\0';
    drupal__json_failf(DRUPAL_E_HTTP, "long: %s", argument);
    e = drupal_last_error();
    CHECK(strlen(e) == CAP && strcmp(e + CAP - 3, "...") == 0);

    /* Cut inside multi-byte characters: still whole characters, then "...". */
    for (size_t k = 0; k < 1400; k++) memcpy(argument + 2 * k, "\xc3\xa9", 2);
    argument[2800] = '\0';
    drupal__json_failf(DRUPAL_E_HTTP, "x%s", argument);
    e = drupal_last_error();
    CHECK(utf8_structured(e) && strlen(e) <= CAP && strcmp(e + strlen(e) - 3, "...") == 0);
}

/* test_json_fastparse.c: the fast parser against json_loadb. */
void test_fastparse(int *passed, int *failed);

int main(void) {
    test_parse();
    test_parse_huge_length();
    test_fastparse(&passed, &failed);
    test_field_readers_node();
    test_field_readers_non_objects();
    test_field_readers_term_login_flat();
    test_bundle_key_and_entity_new();
    test_success_keeps_last_error();
    test_setters();
    test_set_and_append();
    test_view();
    test_strings_with_nul();
    test_jsonapi_wrong_shapes();
    test_jsonapi_me_shapes();
    test_jsonapi_included_not_object();
    test_last_error_utf8();
    test_failf_long_message();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
