/* Bad input at every public function: NULL handles and strings, empty strings, invalid UTF-8,
 * NULL callbacks, malformed JSON bodies, unsafe paths, header injection, unknown options
 * versions, bad base URLs. Each must return the right code with a non-empty drupal_last_error(),
 * never crash, and an async call that fails validation must never call its callback. Also:
 * drupal_code_name for every code, *_free(NULL), versions, per-thread last error. */
#include "check.h"
#include "bad_input.h"

static void on_event(const drupal_event *e, void *userdata) { (void)e; (void)userdata; }

static const char *UNSAFE_PATHS[] = {
    "../etc/passwd", "/node/../user/1", "/a/..", "//evil.example.com/x", "/node//1",
    "/node/1\r\nX-Evil: 1", "/node/1\n", "/node/../..?x=1", "http://evil.example.com/x", "/no\xff\xfe",
    "/a\tb", NULL};

static void test_codes_versions_free(void) {
    static const char *names[] = {"DRUPAL_OK", "DRUPAL_E_INVALID_ARGUMENT", "DRUPAL_E_NETWORK", "DRUPAL_E_TIMEOUT",
                                  "DRUPAL_E_HTTP", "DRUPAL_E_DECODE", "DRUPAL_E_CANCELLED", "DRUPAL_E_UNIMPLEMENTED",
                                  "DRUPAL_E_TOO_LARGE", "DRUPAL_E_TLS", "DRUPAL_E_NOT_FOUND", "DRUPAL_E_NO_MEMORY",
                                  "DRUPAL_E_STATE", "DRUPAL_E_INTERNAL", "DRUPAL_E_FILE"};
    char expected[32];
    int i;
    for (i = 0; i <= DRUPAL_E_FILE; i++) CHECK_STR(drupal_code_name((drupal_code)i), names[i]);
    CHECK_STR(drupal_code_name((drupal_code)15), "DRUPAL_E_UNKNOWN");
    CHECK_STR(drupal_code_name((drupal_code)-1), "DRUPAL_E_UNKNOWN");
    CHECK_STR(drupal_code_name((drupal_code)1000000), "DRUPAL_E_UNKNOWN");

    snprintf(expected, sizeof expected, "%d.%d.%d", DRUPAL_SDK_VERSION_MAJOR, DRUPAL_SDK_VERSION_MINOR,
             DRUPAL_SDK_VERSION_PATCH);
    CHECK_STR(drupal_version(), expected);
    CHECK_INT(drupal_version_num(), DRUPAL_SDK_VERSION_NUM);

    drupal_client_free(NULL);
    drupal_call_free(NULL);
    drupal_response_free(NULL);
    drupal_free(NULL);
    CHECK(1);  /* reached: every _free(NULL) is a no-op */
}

/* A new thread starts with no last error; errors stay on their own thread. */
static void *fresh_thread(void *arg) {
    int *ok = arg;
    *ok = strcmp(drupal_last_error(), "") == 0 && drupal_last_error_code() == DRUPAL_OK;
    return NULL;
}

static void test_last_error_per_thread(void) {
    pthread_t t;
    int ok = 0;
    BAD(drupal_client_new(NULL, "http://x", NULL));
    CHECK(pthread_create(&t, NULL, fresh_thread, &ok) == 0);
    pthread_join(t, NULL);
    CHECK(ok);
    CHECK_INT(drupal_last_error_code(), DRUPAL_E_INVALID_ARGUMENT);
    /* A success does not clear it... a new failure replaces it. */
    CHECK(drupal_last_error()[0] != '\0');
    CHECK_CODE(drupal_json_bundle_key(NULL, "node"), DRUPAL_E_INVALID_ARGUMENT);
}

static void test_client_new(void) {
    static const char *bad_urls[] = {"", "example.com", "ftp://example.com", "http://", "https://",
                                     "http://example.com/?q=1", "http://example.com/#x", "http://user:pw@example.com",
                                     "http://exa mple.com", "http://example.com/\r\nX: y", "http://\xff\xfe.com",
                                     "javascript:alert(1)", "file:///etc/passwd", NULL};
    drupal_client_options o = DRUPAL_CLIENT_OPTIONS_INIT;
    const char *crlf_header[] = {"X-A: b\r\nX-Evil: 1", NULL};
    const char *lf_header[] = {"X-A: b\nX-Evil: 1", NULL};
    const char *no_colon[] = {"NoColonHere", NULL};
    const char *empty_name[] = {": value", NULL};
    const char *bad_utf8_header[] = {"X-A: \xff", NULL};
    const char *good_header[] = {"X-Test: ok", NULL};
    drupal_client *c = (drupal_client *)&c;
    int i;

    BAD(drupal_client_new(NULL, "http://example.com", NULL));
    BAD(drupal_client_new(&c, NULL, NULL));
    CHECK(c == NULL);
    for (i = 0; bad_urls[i]; i++) {
        c = (drupal_client *)&c;
        BAD(drupal_client_new(&c, bad_urls[i], NULL));
        CHECK(c == NULL);
        if (c != NULL && c != (drupal_client *)&c) {
            fprintf(stderr, "  accepted base URL: %s\n", bad_urls[i]);
            drupal_client_free(c);
        }
    }
    /* Good ones: a sub-directory or language prefix, https. */
    CHECK_CODE(drupal_client_new(&c, "https://example.com/en", NULL), DRUPAL_OK);
    drupal_client_free(c);
    CHECK_CODE(drupal_client_new(&c, "http://127.0.0.1:8080/sub/dir/", NULL), DRUPAL_OK);
    drupal_client_free(c);

    BAD(drupal_client_options_init(NULL, DRUPAL_CLIENT_OPTIONS_VERSION));
    BAD(drupal_client_options_init(&o, 99));
    BAD(drupal_client_options_init(&o, 0));
    CHECK_CODE(drupal_client_options_init(&o, DRUPAL_CLIENT_OPTIONS_VERSION), DRUPAL_OK);
    CHECK_INT(o.version, DRUPAL_CLIENT_OPTIONS_VERSION);
    CHECK_INT(o.verify_tls, 0);

    o.version = 99;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.version = 0;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.version = DRUPAL_CLIENT_OPTIONS_VERSION;
    o.headers = crlf_header;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.headers = lf_header;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.headers = no_colon;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.headers = empty_name;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.headers = bad_utf8_header;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.headers = good_header;
    o.user_agent = "agent\r\nX-Evil: 1";
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.user_agent = NULL;
    o.timeout = -1;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.timeout = 0;
    CHECK_CODE(drupal_client_new(&c, "http://example.com", &o), DRUPAL_OK);
    drupal_client_free(c);

    BAD(drupal_mock_client_new(NULL));
}

static void test_auth_and_listeners(drupal_client *c) {
    uint64_t id = 0;
    BAD(drupal_client_set_basic_auth(NULL, "a", "b"));
    BAD(drupal_client_set_basic_auth(c, NULL, "b"));
    BAD(drupal_client_set_basic_auth(c, "a", NULL));
    BAD(drupal_client_set_basic_auth(c, "", "b"));
    BAD(drupal_client_set_basic_auth(c, "a:b", "c"));
    BAD(drupal_client_set_basic_auth(c, "a\r\n", "b"));
    BAD(drupal_client_set_basic_auth(c, "a", "b\nc"));
    BAD(drupal_client_set_basic_auth(c, INVALID_UTF8, "b"));
    BAD(drupal_client_set_basic_auth(c, "a", INVALID_UTF8));
    BAD(drupal_client_set_bearer_token(NULL, "t"));
    BAD(drupal_client_set_bearer_token(c, NULL));
    BAD(drupal_client_set_bearer_token(c, ""));
    BAD(drupal_client_set_bearer_token(c, "a b"));
    BAD(drupal_client_set_bearer_token(c, "tok\r\nX-Evil: 1"));
    BAD(drupal_client_set_bearer_token(c, "tok\x01"));
    BAD(drupal_client_set_no_auth(NULL));
    CHECK_CODE(drupal_client_set_no_auth(c), DRUPAL_OK);

    BAD(drupal_client_add_listener(&id, NULL, on_event, NULL));
    BAD(drupal_client_add_listener(&id, c, NULL, NULL));
    BAD(drupal_client_remove_listener(NULL, 1));
    CHECK_CODE(drupal_client_remove_listener(c, 987654321), DRUPAL_E_NOT_FOUND);
    BAD(drupal_call_cancel(NULL));
}

static void test_session_calls(drupal_client *c) {
    drupal_call *call;
    drupal_response *out;
    int logged_in = 5;

    BAD_ASYNC(drupal_login(&call, NULL, "admin", "admin", CB));
    BAD_ASYNC(drupal_login(&call, c, NULL, "admin", CB));
    BAD_ASYNC(drupal_login(&call, c, "admin", NULL, CB));
    BAD_ASYNC(drupal_login(&call, c, INVALID_UTF8, "admin", CB));
    BAD_ASYNC(drupal_login(&call, c, "admin", INVALID_UTF8, CB));
    BAD_ASYNC(drupal_login(&call, c, "admin", "admin", NULL, NULL));
    BAD_SYNC(drupal_login_sync(&out, NULL, "admin", "admin"));
    BAD_SYNC(drupal_login_sync(&out, c, NULL, "admin"));
    BAD_SYNC(drupal_login_sync(&out, c, INVALID_UTF8, "admin"));
    BAD(drupal_login_sync(NULL, c, "admin", "admin"));

    BAD_ASYNC(drupal_logout(&call, NULL, CB));
    BAD_ASYNC(drupal_logout(&call, c, NULL, NULL));
    BAD_SYNC(drupal_logout_sync(&out, NULL));
    BAD(drupal_logout_sync(NULL, c));

    BAD_ASYNC(drupal_login_status(&call, NULL, CB));
    BAD_ASYNC(drupal_login_status(&call, c, NULL, NULL));
    BAD_SYNC(drupal_login_status_sync(&out, &logged_in, NULL));
    CHECK_INT(logged_in, 0);
    BAD(drupal_login_status_sync(NULL, NULL, c));

    BAD_ASYNC(drupal_csrf_refresh(&call, NULL, CB));
    BAD_ASYNC(drupal_csrf_refresh(&call, c, NULL, NULL));
    BAD_SYNC(drupal_csrf_refresh_sync(&out, NULL));
    BAD(drupal_csrf_refresh_sync(NULL, c));
}

static void test_entity_calls(drupal_client *c) {
    static const char *bad_types[] = {"", "no/de", "node?x=1", "../user", "no de", "node\r\n", NULL};
    static const char *bad_ids[] = {"", "..", ".", NULL};
    static const char *bad_bodies[] = {"", "{", "{\"title\":}", "not json", "{\"a\":\"\xff\"}", "[1,2", NULL};
    const char *ok = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"x\"}]}";
    json_t *body = json_pack("{s:[{s:s}]}", "type", "target_id", "article");
    drupal_call *call;
    drupal_response *out;
    int i;

    /* NULLs and bad types at every entity function. */
    for (i = -1; bad_types[i < 0 ? 0 : i]; i++) {
        const char *t = i < 0 ? NULL : bad_types[i];
        BAD_ASYNC(drupal_entity_get(&call, c, t, "1", CB));
        BAD_SYNC(drupal_entity_get_sync(&out, c, t, "1"));
        BAD_ASYNC(drupal_entity_create(&call, c, t, ok, strlen(ok), CB));
        BAD_SYNC(drupal_entity_create_sync(&out, c, t, ok, strlen(ok)));
        BAD_ASYNC(drupal_entity_update(&call, c, t, "1", ok, strlen(ok), CB));
        BAD_SYNC(drupal_entity_update_sync(&out, c, t, "1", ok, strlen(ok)));
        BAD_ASYNC(drupal_entity_delete(&call, c, t, "1", CB));
        BAD_SYNC(drupal_entity_delete_sync(&out, c, t, "1"));
        BAD_ASYNC(drupal_entity_create_json(&call, c, t, body, CB));
        BAD_SYNC(drupal_entity_create_json_sync(&out, c, t, body));
        BAD_ASYNC(drupal_entity_update_json(&call, c, t, "1", body, CB));
        BAD_SYNC(drupal_entity_update_json_sync(&out, c, t, "1", body));
    }
    BAD_ASYNC(drupal_entity_get(&call, c, INVALID_UTF8, "1", CB));
    for (i = -1; bad_ids[i < 0 ? 0 : i]; i++) {
        const char *id = i < 0 ? NULL : bad_ids[i];
        BAD_ASYNC(drupal_entity_get(&call, c, "node", id, CB));
        BAD_SYNC(drupal_entity_get_sync(&out, c, "node", id));
        BAD_ASYNC(drupal_entity_update(&call, c, "node", id, ok, strlen(ok), CB));
        BAD_SYNC(drupal_entity_update_sync(&out, c, "node", id, ok, strlen(ok)));
        BAD_ASYNC(drupal_entity_delete(&call, c, "node", id, CB));
        BAD_SYNC(drupal_entity_delete_sync(&out, c, "node", id));
        BAD_ASYNC(drupal_entity_update_json(&call, c, "node", id, body, CB));
        BAD_SYNC(drupal_entity_update_json_sync(&out, c, "node", id, body));
    }
    BAD_SYNC(drupal_entity_get_sync(&out, c, "node", INVALID_UTF8));

    /* Malformed JSON bodies are refused before anything is sent. */
    for (i = -1; bad_bodies[i < 0 ? 0 : i]; i++) {
        const char *b = i < 0 ? NULL : bad_bodies[i];
        size_t n = i < 0 ? 10 : strlen(b);
        BAD_ASYNC(drupal_entity_create(&call, c, "node", b, n, CB));
        BAD_SYNC(drupal_entity_create_sync(&out, c, "node", b, n));
        BAD_ASYNC(drupal_entity_update(&call, c, "node", "1", b, n, CB));
        BAD_SYNC(drupal_entity_update_sync(&out, c, "node", "1", b, n));
    }
    BAD_SYNC(drupal_entity_create_sync(&out, c, "node", "{} trailing", 11));
    BAD_SYNC(drupal_entity_create_sync(&out, c, "node", "{}\0{}", 5)); /* an embedded NUL */

    /* NULL client, body, callback, out. */
    BAD_ASYNC(drupal_entity_get(&call, NULL, "node", "1", CB));
    BAD_ASYNC(drupal_entity_get(&call, c, "node", "1", NULL, NULL));
    BAD_ASYNC(drupal_entity_create(&call, c, "node", ok, strlen(ok), NULL, NULL));
    BAD_ASYNC(drupal_entity_update(&call, NULL, "node", "1", ok, strlen(ok), CB));
    BAD_ASYNC(drupal_entity_delete(&call, c, "node", "1", NULL, NULL));
    BAD_ASYNC(drupal_entity_create_json(&call, c, "node", NULL, CB));
    BAD_ASYNC(drupal_entity_create_json(&call, c, "node", body, NULL, NULL));
    BAD_ASYNC(drupal_entity_update_json(&call, c, "node", "1", NULL, CB));
    BAD_ASYNC(drupal_entity_update_json(&call, NULL, "node", "1", body, CB));
    BAD_SYNC(drupal_entity_create_json_sync(&out, c, "node", NULL));
    BAD_SYNC(drupal_entity_update_json_sync(&out, c, "node", "1", NULL));
    BAD_SYNC(drupal_entity_delete_sync(&out, NULL, "node", "1"));
    BAD(drupal_entity_get_sync(NULL, c, "node", "1"));
    BAD(drupal_entity_create_sync(NULL, c, "node", ok, strlen(ok)));
    json_decref(body);

    /* File upload. */
    BAD_ASYNC(drupal_file_upload(&call, NULL, "node", "article", "field_image", "a.png", "x", 1, CB));
    BAD_ASYNC(drupal_file_upload(&call, c, NULL, "article", "field_image", "a.png", "x", 1, CB));
    BAD_ASYNC(drupal_file_upload(&call, c, "node", NULL, "field_image", "a.png", "x", 1, CB));
    BAD_ASYNC(drupal_file_upload(&call, c, "node", "article", NULL, "a.png", "x", 1, CB));
    BAD_ASYNC(drupal_file_upload(&call, c, "node", "article", "field_image", NULL, "x", 1, CB));
    BAD_ASYNC(drupal_file_upload(&call, c, "node", "article", "field_image", "", "x", 1, CB));
    BAD_ASYNC(drupal_file_upload(&call, c, "node", "article", "field_image", "a.png", NULL, 1, CB));
    BAD_ASYNC(drupal_file_upload(&call, c, "node", "article", "field_image", "a.png", "x", 1, NULL, NULL));
    BAD_SYNC(drupal_file_upload_sync(&out, c, "node", "article", "field_image", INVALID_UTF8, "x", 1));
    /* File names with CR/LF or '"' are refused up front (once they were refused only after the
     * call had started; fixed in db196dd). */
    BAD_ASYNC(drupal_file_upload(&call, c, "node", "article", "field_image", "a\r\n.png", "x", 1, CB));
    BAD_ASYNC(drupal_file_upload(&call, c, "node", "article", "field_image", "a\".png", "x", 1, CB));
    BAD_SYNC(drupal_file_upload_sync(&out, c, "node", "article", "field_image", "a\r\n.png", "x", 1));
    BAD(drupal_file_upload_sync(NULL, c, "node", "article", "field_image", "a.png", "x", 1));
}

static void test_view_and_request(drupal_client *c) {
    const char *odd_query[] = {"title", NULL};
    const char *bad_query[] = {"title", INVALID_UTF8, NULL};
    const char *crlf_headers[] = {"X-A: b\r\nX-Evil: 1", NULL};
    const char *lf_value[] = {"X-A: b\nc", NULL};
    const char *no_colon[] = {"NoColon", NULL};
    const char *space_name[] = {"X A: b", NULL};
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    drupal_call *call;
    drupal_response *out;
    int i;

    BAD_ASYNC(drupal_view(&call, NULL, "/api/articles", NULL, CB));
    BAD_ASYNC(drupal_view(&call, c, NULL, NULL, CB));
    BAD_ASYNC(drupal_view(&call, c, "", NULL, CB));
    BAD_ASYNC(drupal_view(&call, c, "/api/articles", NULL, NULL, NULL));
    BAD_ASYNC(drupal_view(&call, c, "/api/articles", odd_query, CB));
    BAD_ASYNC(drupal_view(&call, c, "/api/articles", bad_query, CB));
    BAD_SYNC(drupal_view_sync(&out, c, "/api/articles", odd_query));
    {
        const char *empty_name[] = {"", "x", NULL};
        BAD_SYNC(drupal_view_sync(&out, c, "/api/articles", empty_name));
    }
    BAD(drupal_view_sync(NULL, c, "/api/articles", NULL));

    for (i = 0; UNSAFE_PATHS[i]; i++) {
        BAD_ASYNC(drupal_view(&call, c, UNSAFE_PATHS[i], NULL, CB));
        BAD_SYNC(drupal_view_sync(&out, c, UNSAFE_PATHS[i], NULL));
        BAD_ASYNC(drupal_request(&call, c, "GET", UNSAFE_PATHS[i], NULL, CB));
        BAD_SYNC(drupal_request_sync(&out, c, "GET", UNSAFE_PATHS[i], NULL));
    }

    BAD_ASYNC(drupal_request(&call, NULL, "GET", "/node/1", NULL, CB));
    BAD_ASYNC(drupal_request(&call, c, NULL, "/node/1", NULL, CB));
    BAD_ASYNC(drupal_request(&call, c, "", "/node/1", NULL, CB));
    BAD_ASYNC(drupal_request(&call, c, "GE T", "/node/1", NULL, CB));
    BAD_ASYNC(drupal_request(&call, c, "GET\r\nX-Evil: 1", "/node/1", NULL, CB));
    BAD_ASYNC(drupal_request(&call, c, "GET", NULL, NULL, CB));
    BAD_ASYNC(drupal_request(&call, c, "GET", "", NULL, CB));
    BAD_ASYNC(drupal_request(&call, c, "GET", "/node/1", NULL, NULL, NULL));
    BAD(drupal_request_sync(NULL, c, "GET", "/node/1", NULL));

    o.version = 99;
    BAD_ASYNC(drupal_request(&call, c, "GET", "/node/1", &o, CB));
    o.version = 0;
    BAD_SYNC(drupal_request_sync(&out, c, "GET", "/node/1", &o));
    o.version = DRUPAL_REQUEST_OPTIONS_VERSION;
    o.headers = crlf_headers;
    BAD_ASYNC(drupal_request(&call, c, "GET", "/node/1", &o, CB));
    o.headers = lf_value;
    BAD_SYNC(drupal_request_sync(&out, c, "GET", "/node/1", &o));
    o.headers = no_colon;
    BAD_SYNC(drupal_request_sync(&out, c, "GET", "/node/1", &o));
    o.headers = space_name;
    BAD_SYNC(drupal_request_sync(&out, c, "GET", "/node/1", &o));
    o.headers = NULL;
    o.query = odd_query;
    BAD_SYNC(drupal_request_sync(&out, c, "GET", "/node/1", &o));
    o.query = NULL;
    o.body = NULL;
    o.body_length = 5;
    BAD_SYNC(drupal_request_sync(&out, c, "POST", "/node", &o));
}

static void test_responses(drupal_client *c) {
    drupal_response *r = NULL;
    const char *name = "x", *value = "x", *path = "x", *message = "x";
    json_t *j = (json_t *)&j;
    size_t len = 7;

    CHECK_INT(drupal_response_code(NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_INT(drupal_response_status(NULL), 0);
    CHECK_STR(drupal_response_error_message(NULL), "");
    CHECK_STR(drupal_response_body(NULL, &len), "");
    CHECK_INT(len, 0);
    CHECK(drupal_response_body(NULL, NULL) != NULL);
    CHECK(drupal_response_header(NULL, "Content-Type") == NULL);
    CHECK_INT(drupal_response_header_count(NULL), 0);
    BAD(drupal_response_header_at(&name, &value, NULL, 0));
    CHECK(name == NULL && value == NULL);
    CHECK_INT(drupal_response_violation_count(NULL), 0);
    BAD(drupal_response_violation_at(&path, &message, NULL, 0));
    CHECK(path == NULL && message == NULL);
    BAD(drupal_response_json(&j, NULL));
    CHECK(j == NULL);
    CHECK(drupal_response_retain(NULL) == NULL);

    /* NULL names and outputs on a real response. */
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_OK);
    CHECK(drupal_response_header(r, NULL) == NULL);
    CHECK(drupal_response_header(r, "") == NULL);
    BAD(drupal_response_json(NULL, r));
    CHECK_CODE(drupal_response_violation_at(&path, &message, r, 0), DRUPAL_E_NOT_FOUND);
    /* An index is a size_t: the message gives it as the caller passed it, never negative. */
    CHECK_CODE(drupal_response_header_at(&name, &value, r, SIZE_MAX), DRUPAL_E_NOT_FOUND);
    CHECK(strstr(drupal_last_error(), "index 18446744073709551615 ") != NULL);
    CHECK_CODE(drupal_response_jsonapi_error_member_at(&name, &value, r, SIZE_MAX, 0), DRUPAL_E_NOT_FOUND);
    CHECK(strstr(drupal_last_error(), "-1") == NULL);
    drupal_response_free(r);
}

static void test_mock_functions(void) {
    drupal_client *m = NULL;
    char *id = (char *)&id;
    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    BAD(drupal_mock_add_user(NULL, NULL, "u", "p", NULL));
    BAD(drupal_mock_add_user(NULL, m, NULL, "p", NULL));
    BAD(drupal_mock_add_user(NULL, m, "u", NULL, NULL));
    BAD(drupal_mock_add_user(NULL, m, "", "p", NULL));
    BAD(drupal_mock_add_user(&id, m, INVALID_UTF8, "p", NULL));
    CHECK(id == NULL);
    BAD(drupal_mock_add_entity(NULL, NULL, "node", "{}"));
    BAD(drupal_mock_add_entity(NULL, m, NULL, "{}"));
    BAD(drupal_mock_add_entity(NULL, m, "node", NULL));
    BAD(drupal_mock_add_entity(NULL, m, "", "{\"type\":[{\"target_id\":\"article\"}]}"));
    CHECK_CODE(drupal_mock_add_entity(NULL, m, "node", "{not json"), DRUPAL_E_INVALID_ARGUMENT);
    BAD(drupal_mock_stub(NULL, "GET", "/x", 200, "text/plain", "x", 1));
    BAD(drupal_mock_stub(m, NULL, "/x", 200, "text/plain", "x", 1));
    BAD(drupal_mock_stub(m, "GET", NULL, 200, "text/plain", "x", 1));
    BAD(drupal_mock_stub(m, "GET", "/x", 200, "text/plain", NULL, 1));
    BAD(drupal_mock_stub(m, "GET", "/x", 200, "text/plain\r\nX-Evil: 1", "x", 1));
    BAD(drupal_mock_stub(m, "GET", "/x", 42, "text/plain", "x", 1));
    BAD(drupal_mock_stub(m, "GET", "/../x", 200, "text/plain", "x", 1));
    drupal_client_free(m);
}

/* Every JSON helper refuses NULLs (the full JSON suite is Tests/c/json). */
static void test_json_nulls(void) {
    json_t *e = json_object(), *rows = json_array(), *out = NULL;
    const char *s = NULL;
    int64_t i64 = 0;
    size_t n = 0;
    int b = 0;
    double d = 0;
    char buf[8];
    BAD(drupal_json_parse(NULL, "{}", 2));
    BAD(drupal_json_parse(&out, NULL, 2));
    CHECK_CODE(drupal_json_parse(&out, "{", 1), DRUPAL_E_DECODE);
    CHECK_CODE(drupal_json_parse(&out, "\"\xff\"", 3), DRUPAL_E_DECODE);
    BAD(drupal_json_field_count(NULL, e, "f"));
    BAD(drupal_json_field_count(&n, NULL, "f"));
    BAD(drupal_json_field_item(&out, e, NULL, 0));
    BAD(drupal_json_field_property_json(&out, e, "f", 0, NULL));
    BAD(drupal_json_field_property(&s, e, "f", 0, ""));
    BAD(drupal_json_field_string(&s, e, INVALID_UTF8));
    BAD(drupal_json_field_int(&i64, NULL, "f"));
    BAD(drupal_json_field_bool(&b, e, NULL));
    BAD(drupal_json_field_double(&d, e, ""));
    BAD(drupal_json_field_target_id(NULL, e, "f", 0));
    BAD(drupal_json_field_target_id_string(&s, NULL, "f", 0));
    BAD(drupal_json_bundle_key(&s, NULL));
    BAD(drupal_json_entity_new(&out, "node", NULL));
    BAD(drupal_json_entity_new(NULL, "node", "article"));
    BAD(drupal_json_field_set_string(NULL, "f", "v"));
    BAD(drupal_json_field_set_string(e, "f", INVALID_UTF8));
    BAD(drupal_json_field_set_int(e, NULL, 1));
    BAD(drupal_json_field_set_bool(e, "", 1));
    BAD(drupal_json_field_set_double(e, "f", 0.0 / 0.0));
    BAD(drupal_json_field_set_text(e, "body", "v", NULL, NULL));
    BAD(drupal_json_field_set_target_id(rows, "f", 1));
    BAD(drupal_json_field_set_target_id_string(e, "vid", ""));
    BAD(drupal_json_field_set(e, "f", NULL));
    BAD(drupal_json_field_set(e, "f", e));
    BAD(drupal_json_field_set_new(e, NULL, json_array()));  /* stolen even on failure */
    BAD(drupal_json_field_append(e, "f", NULL));
    BAD(drupal_json_field_append_new(NULL, "f", json_object()));
    BAD(drupal_json_view_rows(NULL, rows));
    BAD(drupal_json_view_count(NULL, rows));
    BAD(drupal_json_view_row(&out, NULL, 0));
    BAD(drupal_json_view_column(&s, rows, 0, NULL));
    BAD(drupal_json_view_column_copy(NULL, 8, &n, rows, 0, "c"));
    CHECK_CODE(drupal_json_view_column_copy(buf, sizeof buf, &n, rows, 0, "c"), DRUPAL_E_NOT_FOUND);
    json_decref(e);
    json_decref(rows);
}

/* Issue 10 item 9: a 1 MiB path or query value is refused as invalid input whose message names
 * the limit (not "out of memory") and does not quote the value. */
static void test_huge_path_and_query(drupal_client *c) {
    size_t big = 1 << 20;
    char *path = malloc(big + 2), *value = malloc(big + 1);
    const char *query[] = {"title", value, NULL};
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    drupal_response *r = NULL;
    int round;
    if (path == NULL || value == NULL) exit(2);
    path[0] = '/';
    memset(path + 1, 'p', big);
    path[big + 1] = '\0';
    memset(value, 'q', big);
    value[big] = '\0';
    for (round = 0; round < 3; round++) {
        if (round == 0) CHECK_CODE(drupal_request_sync(&r, c, "GET", path, NULL), DRUPAL_E_TOO_LARGE);
        if (round == 1) CHECK_CODE(drupal_view_sync(&r, c, "/api/articles", query), DRUPAL_E_TOO_LARGE);
        if (round == 2) {
            o.query = query;
            CHECK_CODE(drupal_request_sync(&r, c, "GET", "/api/articles", &o), DRUPAL_E_TOO_LARGE);
        }
        check_record(strstr(drupal_last_error(), "memory") == NULL, __FILE__, __LINE__, "not out of memory",
                     drupal_last_error());
        check_record(strstr(drupal_last_error(), "65536") != NULL || strstr(drupal_last_error(), "limit") != NULL,
                     __FILE__, __LINE__, "the message names the limit", drupal_last_error());
        check_record(strstr(drupal_last_error(), "pppppppp") == NULL && strstr(drupal_last_error(), "qqqqqqqq") == NULL,
                     __FILE__, __LINE__, "the value is not echoed", NULL);
        CHECK(r == NULL);
        drupal_response_free(r);
        r = NULL;
    }
    free(path);
    free(value);
}

int main(void) {
    drupal_client *c = new_client();
    test_codes_versions_free();
    test_last_error_per_thread();
    test_client_new();
    test_auth_and_listeners(c);
    test_session_calls(c);
    test_entity_calls(c);
    test_view_and_request(c);
    test_huge_path_and_query(c);
    test_responses(c);
    test_mock_functions();
    test_json_nulls();
    drupal_client_free(c);  /* would wait for any call that wrongly started */
    sleep_ms(100);
    CHECK_INT(callbacks_run_count(), 0);
    return check_summary();
}
