/* Entity CRUD (node, comment, taxonomy_term, user), the _json variants with builder bodies, file
 * upload, views, drupal_request, error mapping, headers, retained responses and the JSON helpers
 * on real responses; each async and _sync. Runs logged in as admin (cookie + CSRF). */
#include "check.h"

/* The id field of a stored entity ("nid", "cid", ...) as a string, "" on failure. */
static void id_of(char *out, size_t size, drupal_response *r, const char *id_field) {
    json_t *e = NULL;
    int64_t id = 0;
    out[0] = '\0';
    if (drupal_response_json(&e, r) == DRUPAL_OK && drupal_json_field_int(&id, e, id_field) == DRUPAL_OK)
        snprintf(out, size, "%lld", (long long)id);
    json_decref(e);
}

/* A string field of the entity in r, compared with expected. */
#define CHECK_FIELD(r, field, expected)                                                          \
    do {                                                                                         \
        json_t *e_ = NULL;                                                                       \
        const char *v_ = NULL;                                                                   \
        CHECK_CODE(drupal_response_json(&e_, (r)), DRUPAL_OK);                                   \
        CHECK_CODE(drupal_json_field_string(&v_, e_, (field)), DRUPAL_OK);                       \
        CHECK_STR(v_, (expected));                                                               \
        json_decref(e_);                                                                         \
    } while (0)

/* Full CRUD of one entity with the raw-string _sync calls, then the async calls. */
static void crud(drupal_client *c, const char *type, const char *id_field, const char *label_field,
                 const char *create_body, const char *update_body, const char *new_label) {
    drupal_response *r = NULL;
    char id[32];
    waiter w;

    CHECK_CODE(drupal_entity_create_sync(&r, c, type, create_body, strlen(create_body)), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    id_of(id, sizeof id, r, id_field);
    CHECK(id[0] != '\0');
    drupal_response_free(r);

    CHECK_CODE(drupal_entity_get_sync(&r, c, type, id), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    drupal_response_free(r);

    CHECK_CODE(drupal_entity_update_sync(&r, c, type, id, update_body, strlen(update_body)), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    CHECK_FIELD(r, label_field, new_label);
    drupal_response_free(r);

    CHECK_CODE(drupal_entity_delete_sync(&r, c, type, id), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 204);
    CHECK_INT(strlen(drupal_response_body(r, NULL)), 0);
    drupal_response_free(r);

    CHECK_CODE(drupal_entity_get_sync(&r, c, type, id), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 404);
    drupal_response_free(r);
    /* A failed _sync call's kind is the last error's too; a failure without one resets it. */
    CHECK_INT(drupal_last_error_kind(), DRUPAL_ERROR_KIND_NOT_FOUND);
    CHECK_CODE(drupal_entity_get_sync(&r, c, type, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_INT(drupal_last_error_kind(), DRUPAL_ERROR_KIND_OTHER);

    /* The same, async. */
    ASYNC(w, drupal_entity_create(NULL, c, type, create_body, strlen(create_body), waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 201);
    id_of(id, sizeof id, w.response, id_field);
    waiter_clear(&w);
    ASYNC(w, drupal_entity_get(NULL, c, type, id, waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    waiter_clear(&w);
    ASYNC(w, drupal_entity_update(NULL, c, type, id, update_body, strlen(update_body), waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    CHECK_FIELD(w.response, label_field, new_label);
    waiter_clear(&w);
    ASYNC(w, drupal_entity_delete(NULL, c, type, id, waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 204);
    waiter_clear(&w);
    ASYNC(w, drupal_entity_get(NULL, c, type, id, waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_E_HTTP);
    CHECK_RESPONSE(w.response, DRUPAL_E_HTTP, 404);
    waiter_clear(&w);
}

static void test_crud_raw(drupal_client *c) {
    crud(c, "node", "nid", "title",
         "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"Raw node\"}],"
         "\"body\":[{\"value\":\"<p>x</p>\",\"format\":\"basic_html\"}]}",
         "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"Raw node 2\"}]}", "Raw node 2");
    crud(c, "comment", "cid", "subject",
         "{\"entity_id\":[{\"target_id\":1}],\"entity_type\":[{\"value\":\"node\"}],"
         "\"comment_type\":[{\"target_id\":\"comment\"}],\"field_name\":[{\"value\":\"comment\"}],"
         "\"subject\":[{\"value\":\"First\"}],"
         "\"comment_body\":[{\"value\":\"<p>Nice</p>\",\"format\":\"basic_html\"}]}",
         "{\"comment_type\":[{\"target_id\":\"comment\"}],\"subject\":[{\"value\":\"Edited\"}]}", "Edited");
    crud(c, "taxonomy_term", "tid", "name",
         "{\"vid\":[{\"target_id\":\"tags\"}],\"name\":[{\"value\":\"gamma\"}]}",
         "{\"vid\":[{\"target_id\":\"tags\"}],\"name\":[{\"value\":\"delta\"}]}", "delta");
    crud(c, "user", "uid", "name",
         "{\"name\":[{\"value\":\"carol\"}],\"mail\":[{\"value\":\"carol@example.com\"}],"
         "\"pass\":[{\"value\":\"pw\"}],\"status\":[{\"value\":true}]}",
         "{\"name\":[{\"value\":\"carol2\"}]}", "carol2");
}

/* The _json variants with bodies made by the builders. */
static void test_crud_json(drupal_client *c) {
    json_t *node = NULL, *patch = NULL, *term = NULL, *user = NULL, *stored = NULL;
    drupal_response *r = NULL;
    char nid[32], tid[32], uid[32];
    const char *s = NULL;
    int64_t n = 0;
    size_t count = 9;
    int b = -1;
    waiter w;

    CHECK_CODE(drupal_json_entity_new(&term, "taxonomy_term", "tags"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_string(term, "name", "built term"), DRUPAL_OK);
    CHECK_CODE(drupal_entity_create_json_sync(&r, c, "taxonomy_term", term), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    id_of(tid, sizeof tid, r, "tid");
    drupal_response_free(r);

    CHECK_CODE(drupal_json_entity_new(&node, "node", "article"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_string(node, "title", "Built node"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_text(node, "body", "<p>Built</p>", "basic_html", "sum"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_bool(node, "status", 0), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_append_new(node, "field_tags", json_pack("{s:I}", "target_id", (json_int_t)atoi(tid))),
               DRUPAL_OK);
    CHECK_CODE(drupal_json_field_append_new(node, "field_tags", json_pack("{s:i}", "target_id", 1)), DRUPAL_OK);
    ASYNC(w, drupal_entity_create_json(NULL, c, "node", node, waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 201);
    CHECK(drupal_response_header(w.response, "Location") != NULL);
    id_of(nid, sizeof nid, w.response, "nid");
    waiter_clear(&w);

    /* Read back, through every field reader. */
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", nid), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&stored, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_string(&s, stored, "title"), DRUPAL_OK);
    CHECK_STR(s, "Built node");
    CHECK_CODE(drupal_json_field_property(&s, stored, "body", 0, "format"), DRUPAL_OK);
    CHECK_STR(s, "basic_html");
    CHECK_CODE(drupal_json_field_property(&s, stored, "body", 0, "summary"), DRUPAL_OK);
    CHECK_STR(s, "sum");
    CHECK_CODE(drupal_json_field_bool(&b, stored, "status"), DRUPAL_OK);
    CHECK_INT(b, 0);
    CHECK_CODE(drupal_json_field_int(&n, stored, "nid"), DRUPAL_OK);
    CHECK_INT(n, atoi(nid));
    CHECK_CODE(drupal_json_field_target_id(&n, stored, "uid", 0), DRUPAL_OK);
    CHECK_INT(n, 1);
    CHECK_CODE(drupal_json_field_target_id(&n, stored, "field_tags", 0), DRUPAL_OK);
    CHECK_INT(n, atoi(tid));
    CHECK_CODE(drupal_json_field_target_id(&n, stored, "field_tags", 1), DRUPAL_OK);
    CHECK_INT(n, 1);
    CHECK_CODE(drupal_json_field_target_id(&n, stored, "field_tags", 2), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_field_target_id_string(&s, stored, "type", 0), DRUPAL_OK);
    CHECK_STR(s, "article");
    CHECK_CODE(drupal_json_field_count(&count, stored, "field_tags"), DRUPAL_OK);
    CHECK_INT(count, 2);
    CHECK_CODE(drupal_json_field_count(&count, stored, "field_image"), DRUPAL_OK);
    CHECK_INT(count, 0);
    CHECK_CODE(drupal_json_field_string(&s, stored, "no_such_field"), DRUPAL_E_NOT_FOUND);
    json_decref(stored);
    drupal_response_free(r);

    /* PATCH with the bundle field and a new title, sync then async. */
    CHECK_CODE(drupal_json_entity_new(&patch, "node", "article"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_string(patch, "title", "Built node, renamed"), DRUPAL_OK);
    CHECK_CODE(drupal_entity_update_json_sync(&r, c, "node", nid, patch), DRUPAL_OK);
    CHECK_FIELD(r, "title", "Built node, renamed");
    drupal_response_free(r);
    CHECK_CODE(drupal_json_field_set_string(patch, "title", "Async rename"), DRUPAL_OK);
    ASYNC(w, drupal_entity_update_json(NULL, c, "node", nid, patch, waiter_callback, &w));
    CHECK_FIELD(w.response, "title", "Async rename");
    waiter_clear(&w);

    /* A user from the builders (no bundle). */
    CHECK_CODE(drupal_json_entity_new(&user, "user", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_string(user, "name", "dave"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_string(user, "mail", "dave@example.com"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_string(user, "pass", "davepw"), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_set_bool(user, "status", 1), DRUPAL_OK);
    CHECK_CODE(drupal_entity_create_json_sync(&r, c, "user", user), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    id_of(uid, sizeof uid, r, "uid");
    drupal_response_free(r);
    { /* the new user can log in */
        drupal_client *d = new_client();
        CHECK_CODE(drupal_login_sync(&r, d, "dave", "davepw"), DRUPAL_OK);
        drupal_response_free(r);
        drupal_client_free(d);
    }

    CHECK_CODE(drupal_entity_delete_sync(&r, c, "node", nid), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_delete_sync(&r, c, "taxonomy_term", tid), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_delete_sync(&r, c, "user", uid), DRUPAL_OK);
    drupal_response_free(r);
    json_decref(node);
    json_decref(patch);
    json_decref(term);
    json_decref(user);
}

static const unsigned char PNG[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0x0d, 'I', 'H', 'D', 'R'};

static void test_file_upload(drupal_client *c) {
    drupal_response *r = NULL;
    json_t *file = NULL;
    const char *s = NULL;
    int64_t size = 0;
    waiter w;

    /* Only the base name is sent. */
    CHECK_CODE(drupal_file_upload_sync(&r, c, "node", "article", "field_image", "some/dir/pic.png", PNG, sizeof PNG),
               DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    CHECK_CODE(drupal_response_json(&file, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_string(&s, file, "filename"), DRUPAL_OK);
    CHECK_STR(s, "pic.png");
    CHECK_CODE(drupal_json_field_int(&size, file, "filesize"), DRUPAL_OK);
    CHECK_INT(size, sizeof PNG);
    json_decref(file);
    drupal_response_free(r);

    ASYNC(w, drupal_file_upload(NULL, c, "node", "article", "field_image", "b.png", PNG, sizeof PNG,
                                waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 201);
    waiter_clear(&w);

    CHECK_CODE(drupal_entity_get_sync(&r, c, "file", "1"), DRUPAL_OK);
    CHECK_FIELD(r, "filename", "pic.png");
    drupal_response_free(r);
}

/* ---- Views ---------------------------------------------------------------------------------- */

static void test_view(drupal_client *c) {
    drupal_response *r = NULL;
    json_t *body = NULL, *rows = NULL, *row = NULL;
    const char *title = NULL;
    const char *page1[] = {"page", "1", NULL};
    const char *page_end[] = {"page", "3", NULL};
    const char *filter[] = {"title", "article 4", NULL};
    char buf[64], small[4];
    size_t count = 0, len = 0;
    int64_t nid = 0;
    waiter w;

    CHECK_CODE(drupal_view_sync(&r, c, "/api/articles", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&body, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_view_rows(&rows, body), DRUPAL_OK);
    CHECK_CODE(drupal_json_view_count(&count, rows), DRUPAL_OK);
    CHECK_INT(count, 2);
    CHECK_CODE(drupal_json_view_column(&title, rows, 0, "title"), DRUPAL_OK);
    CHECK_STR(title, "Article 1");
    CHECK_CODE(drupal_json_view_row(&row, rows, 1), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_int(&nid, row, "nid"), DRUPAL_OK);
    CHECK_INT(nid, 2);
    CHECK_CODE(drupal_json_view_column_copy(buf, sizeof buf, &len, rows, 1, "title"), DRUPAL_OK);
    CHECK_STR(buf, "Article 2");
    CHECK_CODE(drupal_json_view_column_copy(small, sizeof small, &len, rows, 1, "title"), DRUPAL_E_TOO_LARGE);
    CHECK_INT(len, 9);
    CHECK_CODE(drupal_json_view_row(&row, rows, 2), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_json_view_column(&title, rows, 0, "no_column"), DRUPAL_E_NOT_FOUND);
    json_decref(body);
    drupal_response_free(r);

    CHECK_CODE(drupal_view_sync(&r, c, "/api/articles", page1), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&body, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_view_column(&title, body, 0, "title"), DRUPAL_OK);
    CHECK_STR(title, "Article 3");
    json_decref(body);
    drupal_response_free(r);

    ASYNC(w, drupal_view(NULL, c, "/api/articles", page_end, waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    CHECK_CODE(drupal_response_json(&body, w.response), DRUPAL_OK);
    CHECK_CODE(drupal_json_view_count(&count, body), DRUPAL_OK);
    CHECK_INT(count, 0);
    json_decref(body);
    waiter_clear(&w);

    /* Exposed filter (contains, case-insensitive). */
    ASYNC(w, drupal_view(NULL, c, "/api/articles", filter, waiter_callback, &w));
    CHECK_CODE(drupal_response_json(&body, w.response), DRUPAL_OK);
    CHECK_CODE(drupal_json_view_count(&count, body), DRUPAL_OK);
    CHECK_INT(count, 1);
    CHECK_CODE(drupal_json_view_column(&title, body, 0, "title"), DRUPAL_OK);
    CHECK_STR(title, "Article 4");
    json_decref(body);
    waiter_clear(&w);
}

/* ---- Arbitrary requests, errors, headers ---------------------------------------------------- */

static void test_request(drupal_client *c) {
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *fault503[] = {"X-Fake-Fault: status;code=503", NULL};
    const char *json_ct[] = {"Content-Type: application/json", NULL};
    const char *text_ct[] = {"Content-Type: text/plain", NULL};
    const char *query[] = {"page", "2", NULL};
    const char *body = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"via request\"}]}";
    const char *name = NULL, *value = NULL;
    size_t i, n, len = 0;
    int found = 0;
    waiter w;

    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", NULL), DRUPAL_OK);
    CHECK_FIELD(r, "title", "Article 1");
    /* Headers by name, any case, and by index. */
    CHECK(drupal_response_header(r, "Content-Type") != NULL);
    CHECK_STR(drupal_response_header(r, "content-type"), drupal_response_header(r, "CONTENT-TYPE"));
    CHECK(strstr(drupal_response_header(r, "content-TYPE"), "application/json") != NULL);
    CHECK(drupal_response_header(r, "X-No-Such-Header") == NULL);
    n = drupal_response_header_count(r);
    CHECK(n >= 2);
    for (i = 0; i < n; i++) {
        CHECK_CODE(drupal_response_header_at(&name, &value, r, i), DRUPAL_OK);
        if (name && value && strcmp(name, "Content-Type") == 0) found = strstr(value, "json") != NULL;
    }
    CHECK(found);
    CHECK_CODE(drupal_response_header_at(&name, &value, r, n), DRUPAL_E_NOT_FOUND);
    drupal_response_free(r);

    /* Query, body, headers, no_format. */
    o.query = query;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/api/articles", &o), DRUPAL_OK);
    CHECK_CODE(drupal_json_view_column(&value, NULL, 0, "title"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_response_body(r, &len), "Article 5") != NULL);
    drupal_response_free(r);

    o = (drupal_request_options)DRUPAL_REQUEST_OPTIONS_INIT;
    o.headers = json_ct;
    o.body = body;
    o.body_length = strlen(body);
    ASYNC(w, drupal_request(NULL, c, "POST", "/node", &o, waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 201);
    CHECK_FIELD(w.response, "title", "via request");
    waiter_clear(&w);

    o = (drupal_request_options)DRUPAL_REQUEST_OPTIONS_INIT;
    o.no_format = 1;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/session/token", &o), DRUPAL_OK);
    CHECK(drupal_response_body(r, &len)[0] != '{' && len > 10);
    drupal_response_free(r);

    /* Error mapping: 503 with Retry-After, plain-text 500, 415, 404, 401, 422. */
    o = (drupal_request_options)DRUPAL_REQUEST_OPTIONS_INIT;
    o.headers = fault503;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 503);
    CHECK_STR(drupal_response_header(r, "retry-after"), "1");
    drupal_response_free(r);

    o.headers = text_ct;
    o.body = "{}";
    o.body_length = 2;
    CHECK_CODE(drupal_request_sync(&r, c, "PATCH", "/node/1", &o), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 415);
    CHECK(strstr(drupal_response_error_message(r), "text/plain") != NULL);
    drupal_response_free(r);
}

static void test_errors(drupal_client *admin) {
    drupal_client *anon = new_client(), *editor = new_client();
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *fault500[] = {"X-Fake-Fault: status;code=500", NULL};
    const char *malformed[] = {"X-Fake-Fault: malformed", NULL};
    const char *no_title = "{\"type\":[{\"target_id\":\"article\"}]}";
    const char *bad_tag = "{\"type\":[{\"target_id\":\"article\"}],\"field_tags\":[{\"target_id\":999}]}";
    const char *path = NULL, *message = NULL;
    json_t *j = NULL;
    size_t len = 99;
    waiter w;

    CHECK_CODE(drupal_entity_get_sync(&r, anon, "user", "1"), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 401);
    CHECK_STR(drupal_response_error_message(r), "No authentication credentials provided.");
    drupal_response_free(r);

    CHECK_CODE(drupal_login_sync(&r, editor, "editor", "editor"), DRUPAL_OK);
    drupal_response_free(r);
    ASYNC(w, drupal_entity_delete(NULL, editor, "node", "1", waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_E_HTTP);
    CHECK_RESPONSE(w.response, DRUPAL_E_HTTP, 403);
    CHECK(strstr(drupal_response_error_message(w.response), "permission") != NULL);
    waiter_clear(&w);

    CHECK_CODE(drupal_entity_get_sync(&r, admin, "node", "424242"), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 404);
    CHECK(drupal_response_error_message(r)[0] != '\0');
    CHECK_INT(drupal_response_violation_count(r), 0);
    drupal_response_free(r);

    /* 422: violations by index. */
    CHECK_CODE(drupal_entity_create_sync(&r, admin, "node", no_title, strlen(no_title)), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 422);
    CHECK(strstr(drupal_response_error_message(r), "validation failed") != NULL);
    CHECK_INT(drupal_response_violation_count(r), 1);
    CHECK_CODE(drupal_response_violation_at(&path, &message, r, 0), DRUPAL_OK);
    CHECK_STR(path, "title");
    CHECK_STR(message, "This value should not be null.");
    CHECK_CODE(drupal_response_violation_at(&path, &message, r, 1), DRUPAL_E_NOT_FOUND);
    drupal_response_free(r);

    CHECK_CODE(drupal_entity_create_sync(&r, admin, "node", bad_tag, strlen(bad_tag)), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_status(r), 422);
    CHECK(drupal_response_violation_count(r) >= 2); /* no title, and the bad tag */
    drupal_response_free(r);

    /* Plain-text 500: the text is the message, and the body is not JSON. */
    o.headers = fault500;
    ASYNC(w, drupal_request(NULL, admin, "GET", "/node/1", &o, waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_E_HTTP);
    CHECK_RESPONSE(w.response, DRUPAL_E_HTTP, 500);
    CHECK_STR(drupal_response_error_message(w.response),
              "The website encountered an unexpected error. Try again later.");
    CHECK_CODE(drupal_response_json(&j, w.response), DRUPAL_E_DECODE);
    CHECK(j == NULL);
    waiter_clear(&w);

    /* Truncated JSON arrives as 200; parsing it says DECODE. */
    o.headers = malformed;
    CHECK_CODE(drupal_request_sync(&r, admin, "GET", "/node/1", &o), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&j, r), DRUPAL_E_DECODE);
    drupal_response_free(r);

    /* Success responses have an empty error message. */
    CHECK_CODE(drupal_entity_get_sync(&r, admin, "node", "1"), DRUPAL_OK);
    CHECK_STR(drupal_response_error_message(r), "");
    CHECK(drupal_response_body(r, &len) != NULL && len > 100);
    CHECK_INT(drupal_response_violation_count(r), 0);
    drupal_response_free(r);
    drupal_client_free(anon);
    drupal_client_free(editor);
}

/* A response retained in its callback outlives it. */
static drupal_response *kept;
static void keep_callback(drupal_code code, drupal_response *response, void *userdata) {
    (void)code;
    kept = drupal_response_retain(response);
    waiter_callback(code, response, userdata);
}

static void test_retain(drupal_client *c) {
    waiter w;
    drupal_response *again;
    ASYNC(w, drupal_entity_get(NULL, c, "node", "3", keep_callback, &w));
    waiter_clear(&w);               /* drops the waiter's own owner */
    CHECK(kept != NULL);
    CHECK_FIELD(kept, "title", "Article 3");
    again = drupal_response_retain(kept);
    CHECK(again == kept);
    drupal_response_free(again);
    CHECK_INT(drupal_response_status(kept), 200);
    drupal_response_free(kept);
}

/* Custom entity paths from the options (version 2), and options structs of version 1. */
static void test_entity_paths_option(void) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    const char *paths[] = {"article_node", "/node/{id}", "/node", NULL};
    const char *bad[] = {"thing", "/thing/1", "/thing", NULL};
    const char *short_list[] = {"thing", "/thing/{id}", NULL};
    /* A caller built against version 1 has a struct that ends before entity_paths. */
    struct { unsigned int version; double connect_timeout, timeout; const char *user_agent, *ca_bundle;
             int verify_tls; size_t max_body_size; const char *const *headers; int follow_redirects; } v1;

    options.entity_paths = paths;
    CHECK_CODE(drupal_client_new(&c, base_url(), &options), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "article_node", "1"), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    drupal_response_free(r);
    drupal_client_free(c);

    options.entity_paths = bad;
    c = (drupal_client *)&c;
    CHECK_CODE(drupal_client_new(&c, base_url(), &options), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(c == NULL);
    options.entity_paths = short_list;
    CHECK_CODE(drupal_client_new(&c, base_url(), &options), DRUPAL_E_INVALID_ARGUMENT);

    CHECK_CODE(drupal_client_options_init((drupal_client_options *)&v1, 1), DRUPAL_OK);
    CHECK_INT(v1.version, 1);
    CHECK_INT(v1.verify_tls, 0);
    v1.timeout = 30;
    CHECK_CODE(drupal_client_new(&c, base_url(), (const drupal_client_options *)&v1), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_OK);
    drupal_response_free(r);
    drupal_client_free(c);
}

int main(void) {
    drupal_client *c;
    drupal_response *r = NULL;
    fake_reset();
    c = new_client();
    if (drupal_login_sync(&r, c, "admin", "admin") != DRUPAL_OK) {
        fprintf(stderr, "login failed: %s\n", drupal_last_error());
        return 2;
    }
    drupal_response_free(r);
    test_crud_raw(c);
    test_crud_json(c);
    test_file_upload(c);
    test_view(c);
    test_request(c);
    test_errors(c);
    test_retain(c);
    drupal_client_free(c);
    test_entity_paths_option();
    return check_summary();
}
