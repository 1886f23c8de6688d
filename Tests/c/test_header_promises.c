/* Promises of include/drupalsdk.h that no other test checks: where a callback runs for a call
 * that fails at once, what a failed call leaves in *call and *out, accessors on NULL, reading a
 * login status answer, request hook accessors, event fields, the JSON:API calls' argument checks
 * and queries left unchanged by a refused setter, the last error's length. */
#include "check.h"
#include "bad_input.h"
#include <limits.h>
#include <stdint.h>
#include <unistd.h>

#define ARTICLE "node--article"

/* ---- Callbacks of calls that fail at once run on a library thread -------------------------- */

typedef struct where {
    waiter w;
    pthread_t caller;
    int on_caller;   /* 1 if the callback ran on the thread that started the call */
    int response_null;
} where;

static void where_callback(drupal_code code, drupal_response *response, void *userdata) {
    where *s = userdata;
    s->on_caller = pthread_equal(pthread_self(), s->caller);
    s->response_null = response == NULL;
    waiter_callback(code, response, &s->w);
}

#define ON_LIBRARY_THREAD(start, expected)                                                       \
    do {                                                                                         \
        where s_;                                                                                \
        s_.caller = pthread_self();                                                              \
        s_.on_caller = -1;                                                                       \
        ASYNC(s_.w, start);                                                                      \
        CHECK_INT(s_.w.code, expected);                                                          \
        CHECK_INT(waiter_calls(&s_.w), 1);                                                       \
        check_record(s_.on_caller == 0, __FILE__, __LINE__, "callback off the caller's thread: " #start, NULL); \
        check_record(!s_.response_null, __FILE__, __LINE__, "callback response not NULL: " #start, NULL); \
        waiter_clear(&s_.w);                                                                     \
    } while (0)

static void test_immediate_failures_call_back_on_a_library_thread(void) {
    drupal_client *live = new_client(), *mock = NULL, *unimpl = NULL;
    CHECK_CODE(drupal_mock_client_new(&mock), DRUPAL_OK);
    CHECK_CODE(drupal_unimplemented_client_new(&unimpl), DRUPAL_OK);
    /* No session: DRUPAL_E_STATE without a request. */
    ON_LIBRARY_THREAD(drupal_logout(NULL, live, where_callback, &s_), DRUPAL_E_STATE);
    ON_LIBRARY_THREAD(drupal_logout(NULL, mock, where_callback, &s_), DRUPAL_E_STATE);
    ON_LIBRARY_THREAD(drupal_entity_get(NULL, unimpl, "node", "1", where_callback, &s_), DRUPAL_E_UNIMPLEMENTED);
    ON_LIBRARY_THREAD(drupal_oauth_authenticate(NULL, live, where_callback, &s_), DRUPAL_E_STATE);
    ON_LIBRARY_THREAD(drupal_entity_get(NULL, mock, "node", "999", where_callback, &s_), DRUPAL_E_HTTP);
    drupal_client_free(unimpl);
    drupal_client_free(mock);
    drupal_client_free(live);
}

/* ---- drupal_response_logged_in and drupal_login_status_sync --------------------------------- */

static void test_logged_in_reader(void) {
    drupal_client *m = NULL;
    drupal_response *r = NULL;
    int logged_in = 7;
    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    BAD(drupal_response_logged_in(&logged_in, NULL));
    CHECK_CODE(drupal_login_status_sync(&r, &logged_in, m), DRUPAL_OK);
    BAD(drupal_response_logged_in(NULL, r));
    logged_in = 7;
    CHECK_CODE(drupal_response_logged_in(&logged_in, r), DRUPAL_OK);
    CHECK_INT(logged_in, 0);
    drupal_response_free(r);
    r = NULL;
    /* A failed answer is not a login status. */
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", "999"), DRUPAL_E_HTTP);
    BAD(drupal_response_logged_in(&logged_in, r));
    drupal_response_free(r);
    r = NULL;
    /* A successful answer of another body: DRUPAL_E_DECODE. */
    CHECK_CODE(drupal_mock_add_entity(NULL, m, "node", "{\"type\":[{\"target_id\":\"article\"}],"
                                      "\"title\":[{\"value\":\"x\"}]}"), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", "1"), DRUPAL_OK);
    CHECK_CODE(drupal_response_logged_in(&logged_in, r), DRUPAL_E_DECODE);
    drupal_response_free(r);
    r = NULL;
    /* Neither "1" nor "0" from the site: DRUPAL_E_DECODE, and logged_in 0. */
    CHECK_CODE(drupal_mock_stub(m, "GET", "/user/login_status", 200, "text/plain", "yes", 3), DRUPAL_OK);
    logged_in = 7;
    CHECK_CODE(drupal_login_status_sync(&r, &logged_in, m), DRUPAL_E_DECODE);
    CHECK(r != NULL);
    CHECK_INT(logged_in, 0);
    drupal_response_free(r);
    drupal_client_free(m);
}

/* ---- Accessors on NULL ---------------------------------------------------------------------- */

static void test_null_accessors(void) {
    CHECK_INT(drupal_response_error_kind(NULL), DRUPAL_ERROR_KIND_OTHER);
    CHECK_INT(drupal_response_jsonapi_error_count(NULL), 0);
    CHECK(drupal_response_jsonapi_error_member(NULL, 0, "title") == NULL);
    CHECK(drupal_request_edit_method(NULL) == NULL);
    CHECK(drupal_request_edit_url(NULL) == NULL);
    CHECK(drupal_request_edit_header(NULL, "Accept") == NULL);
    BAD(drupal_request_edit_set_header(NULL, "X-A", "b"));
    BAD(drupal_request_edit_remove_header(NULL, "X-A"));
    drupal_jsonapi_query_free(NULL);
    CHECK(1);  /* reached */
}

/* ---- Request hooks ----------------------------------------------------------------------------- */

typedef struct hook_state {
    int runs;
    drupal_code null_name, bad_name, crlf_value, framing, host, tab_value, remove_null;
    int header_null_is_null;
} hook_state;

/* The hook runs on a library thread: it fills a copy and stores it under check_lock, under which
 * the test reads it (the library orders the two through the Swift runtime, which TSan cannot see). */
static drupal_code probe_hook(drupal_request_edit *request, void *userdata) {
    hook_state *s = userdata, seen;
    int runs;
    pthread_mutex_lock(&check_lock);
    runs = s->runs++;
    pthread_mutex_unlock(&check_lock);
    if (runs > 0) return DRUPAL_OK;
    seen.null_name = drupal_request_edit_set_header(request, NULL, "x");
    seen.bad_name = drupal_request_edit_set_header(request, "Bad Name", "x");
    seen.crlf_value = drupal_request_edit_set_header(request, "X-A", "b\r\nX-Evil: 1");
    seen.framing = drupal_request_edit_set_header(request, "Transfer-Encoding", "chunked");
    seen.host = drupal_request_edit_set_header(request, "Host", "evil.example.com");
    seen.tab_value = drupal_request_edit_set_header(request, "X-Tab", "a\tb");
    seen.remove_null = drupal_request_edit_remove_header(request, NULL);
    seen.header_null_is_null = drupal_request_edit_header(request, NULL) == NULL;
    pthread_mutex_lock(&check_lock);
    seen.runs = s->runs;
    *s = seen;
    pthread_mutex_unlock(&check_lock);
    return DRUPAL_OK;
}

static void test_request_hook_edits(void) {
    drupal_client_options o = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    hook_state shared, s;
    memset(&shared, 0, sizeof shared);
    o.request_hook = probe_hook;
    o.request_hook_userdata = &shared;
    CHECK_CODE(drupal_client_new(&c, base_url(), &o), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_OK);
    pthread_mutex_lock(&check_lock);
    s = shared;
    pthread_mutex_unlock(&check_lock);
    CHECK_INT(s.null_name, DRUPAL_E_INVALID_ARGUMENT);
    CHECK_INT(s.bad_name, DRUPAL_E_INVALID_ARGUMENT);
    CHECK_INT(s.crlf_value, DRUPAL_E_INVALID_ARGUMENT);
    CHECK_INT(s.framing, DRUPAL_E_INVALID_ARGUMENT);
    CHECK_INT(s.host, DRUPAL_E_INVALID_ARGUMENT);
    CHECK_INT(s.tab_value, DRUPAL_OK);
    CHECK_INT(s.remove_null, DRUPAL_E_INVALID_ARGUMENT);
    CHECK(s.header_null_is_null);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* ---- Events: unused strings are "" ---------------------------------------------------------- */

typedef struct event_state {
    pthread_mutex_t lock;
    int events, null_strings;
} event_state;

static void on_event(const drupal_event *e, void *userdata) {
    event_state *s = userdata;
    pthread_mutex_lock(&s->lock);
    s->events++;
    if (!e->method || !e->path || !e->user_name || !e->uid) s->null_strings++;
    pthread_mutex_unlock(&s->lock);
}

static void test_event_strings_never_null(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    event_state s;
    uint64_t id = 0;
    int events, null_strings;
    memset(&s, 0, sizeof s);
    pthread_mutex_init(&s.lock, NULL);
    CHECK_CODE(drupal_client_add_listener(&id, c, on_event, &s), DRUPAL_OK);
    CHECK_CODE(drupal_login_sync(&r, c, "admin", "admin"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_logout_sync(&r, c), DRUPAL_OK);
    drupal_response_free(r);
    pthread_mutex_lock(&s.lock);   /* as the listener (a library thread) writes them */
    events = s.events;
    null_strings = s.null_strings;
    pthread_mutex_unlock(&s.lock);
    CHECK(events >= 6);  /* login, logout and their requests' start and finish */
    CHECK_INT(null_strings, 0);
    CHECK_CODE(drupal_client_remove_listener(c, id), DRUPAL_OK);
    CHECK_CODE(drupal_client_remove_listener(c, id), DRUPAL_E_NOT_FOUND);
    drupal_client_free(c);
    pthread_mutex_destroy(&s.lock);
}

/* ---- JSON:API calls: argument checks, *call and *out on failure ------------------------------ */

static void test_jsonapi_bad_input(drupal_client *c) {
    const char *doc = "{\"data\":{\"type\":\"node--article\",\"attributes\":{\"title\":\"x\"}}}";
    const char *ids = "{\"data\":[]}";
    json_t *j = json_object();
    drupal_call *call;
    drupal_response *out;
    drupal_transfer_options t = DRUPAL_TRANSFER_OPTIONS_INIT;

    BAD_ASYNC(drupal_jsonapi_get(&call, c, ARTICLE, NULL, NULL, NULL, NULL));
    BAD_ASYNC(drupal_jsonapi_get(&call, c, INVALID_UTF8, NULL, NULL, CB));
    BAD_ASYNC(drupal_jsonapi_related(&call, c, ARTICLE, "x", "uid", NULL, NULL, NULL));
    BAD_ASYNC(drupal_jsonapi_related(&call, c, ARTICLE, NULL, "uid", NULL, CB));
    BAD_ASYNC(drupal_jsonapi_relationship(&call, c, ARTICLE, "x", NULL, CB));
    BAD_ASYNC(drupal_jsonapi_relationship(&call, c, ARTICLE, "x", "uid", NULL, NULL));
    BAD_SYNC(drupal_jsonapi_relationship_sync(&out, c, ARTICLE, "x", INVALID_UTF8));
    BAD_ASYNC(drupal_jsonapi_create(&call, c, ARTICLE, doc, strlen(doc), NULL, NULL));
    BAD_ASYNC(drupal_jsonapi_create(&call, c, ARTICLE, "{", 1, CB));
    BAD_ASYNC(drupal_jsonapi_create(&call, NULL, ARTICLE, doc, strlen(doc), CB));
    BAD_ASYNC(drupal_jsonapi_create_json(&call, c, ARTICLE, NULL, CB));
    BAD_ASYNC(drupal_jsonapi_create_json(&call, c, ARTICLE, j, NULL, NULL));
    BAD_ASYNC(drupal_jsonapi_update(&call, c, ARTICLE, "x", "{", 1, CB));
    BAD_ASYNC(drupal_jsonapi_update(&call, c, ARTICLE, NULL, doc, strlen(doc), CB));
    BAD_ASYNC(drupal_jsonapi_update_json(&call, c, ARTICLE, "x", NULL, CB));
    BAD_ASYNC(drupal_jsonapi_update_json(&call, c, ARTICLE, "x", j, NULL, NULL));
    BAD_ASYNC(drupal_jsonapi_delete(&call, c, ARTICLE, NULL, CB));
    BAD_ASYNC(drupal_jsonapi_delete(&call, c, ARTICLE, "x", NULL, NULL));
    BAD_ASYNC(drupal_jsonapi_delete(&call, c, "node/article", "x", CB));
    BAD_SYNC(drupal_jsonapi_delete_sync(&out, c, ARTICLE, ".."));
    BAD_ASYNC(drupal_jsonapi_entry_point(&call, NULL, CB));
    BAD_ASYNC(drupal_jsonapi_entry_point(&call, c, NULL, NULL));
    BAD(drupal_jsonapi_entry_point_sync(NULL, c));
    BAD_ASYNC(drupal_jsonapi_follow(&call, c, "http://evil.example.com/jsonapi", CB));
    BAD_ASYNC(drupal_jsonapi_follow(&call, c, NULL, CB));
    /* A change that is none of the three. */
    BAD_ASYNC(drupal_jsonapi_relationship_change(&call, c, ARTICLE, "x", "field_tags", (drupal_relationship_change)0,
                                                 ids, strlen(ids), CB));
    BAD_ASYNC(drupal_jsonapi_relationship_change(&call, c, ARTICLE, "x", "field_tags", (drupal_relationship_change)4,
                                                 ids, strlen(ids), CB));
    BAD_SYNC(drupal_jsonapi_relationship_change_sync(&out, c, ARTICLE, "x", "field_tags",
                                                     (drupal_relationship_change)-1, ids, strlen(ids)));
    BAD_ASYNC(drupal_jsonapi_relationship_change(&call, c, ARTICLE, "x", "field_tags", DRUPAL_RELATIONSHIP_ADD,
                                                 "{", 1, CB));
    BAD_ASYNC(drupal_jsonapi_relationship_change(&call, c, ARTICLE, "x", "field_tags", DRUPAL_RELATIONSHIP_ADD,
                                                 NULL, 3, CB));
    BAD_ASYNC(drupal_jsonapi_relationship_change_json(&call, c, ARTICLE, "x", "field_tags",
                                                      DRUPAL_RELATIONSHIP_REMOVE, NULL, CB));
    BAD_ASYNC(drupal_jsonapi_relationship_change_json(&call, c, ARTICLE, "x", "field_tags",
                                                      (drupal_relationship_change)9, j, CB));
    /* Uploads. */
    BAD_ASYNC(drupal_jsonapi_upload(&call, c, ARTICLE, NULL, "field_image", "a.png", NULL, 3, CB));
    BAD_ASYNC(drupal_jsonapi_upload(&call, c, ARTICLE, NULL, "field_image", "a\".png", "abc", 3, CB));
    BAD_ASYNC(drupal_jsonapi_upload(&call, c, ARTICLE, NULL, "field_image", "a\n.png", "abc", 3, CB));
    BAD_ASYNC(drupal_jsonapi_upload(&call, c, ARTICLE, NULL, NULL, "a.png", "abc", 3, CB));
    BAD_ASYNC(drupal_jsonapi_upload(&call, c, ARTICLE, NULL, "field_image", "a.png", "abc", 3, NULL, NULL));
    BAD_ASYNC(drupal_jsonapi_upload_path(&call, c, ARTICLE, NULL, "field_image", "/nonexistent/file", NULL, NULL, CB));
    BAD_ASYNC(drupal_jsonapi_upload_path(&call, c, ARTICLE, NULL, "field_image", "/", NULL, NULL, CB));
    t.write = (drupal_write_callback)(void (*)(void))must_not_run;  /* write must be NULL for uploads */
    BAD_ASYNC(drupal_jsonapi_upload_path(&call, c, ARTICLE, NULL, "field_image", "/etc/hostname", NULL, &t, CB));
    t.write = NULL;
    t.version = 0;
    BAD_ASYNC(drupal_jsonapi_upload_path(&call, c, ARTICLE, NULL, "field_image", "/etc/hostname", NULL, &t, CB));
    json_decref(j);
}

/* ---- A refused query setter changes nothing -------------------------------------------------- */

static void test_query_unchanged_after_refusal(void) {
    drupal_jsonapi_query *q = NULL;
    char *before = NULL, *after = NULL;
    const char *three[] = {"1", "2", "3", NULL};
    const char *none[] = {NULL};
    CHECK_CODE(drupal_jsonapi_query_new(&q), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_group(q, "outer", "OR", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_group(q, "inner", "AND", "outer"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "title", "CONTAINS", "a", "inner", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_sort(q, "created", 1), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_page_limit(q, 5), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_string(&before, q), DRUPAL_OK);

    BAD(drupal_jsonapi_query_group(q, "outer", "AND", "inner"));   /* a cycle */
    BAD(drupal_jsonapi_query_group(q, "self", "AND", "self"));     /* its own member */
    BAD(drupal_jsonapi_query_filter_values(q, "nid", "BETWEEN", three, NULL, NULL));
    BAD(drupal_jsonapi_query_filter_values(q, "nid", "IN", none, NULL, NULL));
    BAD(drupal_jsonapi_query_filter_values(q, "nid", "=", three, NULL, NULL));
    BAD(drupal_jsonapi_query_filter(q, "title", "IS NULL", "x", NULL, NULL));
    BAD(drupal_jsonapi_query_filter(q, "", NULL, "x", NULL, NULL));
    BAD(drupal_jsonapi_query_sort(q, "", 0));
    BAD(drupal_jsonapi_query_sort(q, NULL, 0));
    BAD(drupal_jsonapi_query_include(q, ""));
    BAD(drupal_jsonapi_query_include(q, NULL));
    BAD(drupal_jsonapi_query_fields(q, ARTICLE, NULL));
    BAD(drupal_jsonapi_query_fields(q, NULL, "title"));
    BAD(drupal_jsonapi_query_page_limit(q, 0));
    BAD(drupal_jsonapi_query_resource_version(q, "id:"));
    BAD(drupal_jsonapi_query_resource_version(q, NULL));
    BAD(drupal_jsonapi_query_param(q, "page", "1"));
    BAD(drupal_jsonapi_query_param(q, "filter", "1"));
    BAD(drupal_jsonapi_query_param(q, "include", "uid"));
    BAD(drupal_jsonapi_query_param(q, "fields", "x"));
    BAD(drupal_jsonapi_query_param(q, "", "x"));
    BAD(drupal_jsonapi_query_param(q, "x", NULL));
    CHECK_CODE(drupal_jsonapi_query_string(&after, q), DRUPAL_OK);
    CHECK_STR(after, before);
    drupal_free(after);
    after = NULL;
    /* A limit or offset above PTRDIFF_MAX is refused, changing nothing; PTRDIFF_MAX is written
     * as given, never negative. */
    BAD(drupal_jsonapi_query_page_offset(q, (size_t)PTRDIFF_MAX + 1));
    BAD(drupal_jsonapi_query_page_offset(q, SIZE_MAX));
    BAD(drupal_jsonapi_query_page_limit(q, (size_t)PTRDIFF_MAX + 1));
    CHECK_CODE(drupal_jsonapi_query_string(&after, q), DRUPAL_OK);
    CHECK_STR(after, before);
    drupal_free(after);
    after = NULL;
    CHECK_CODE(drupal_jsonapi_query_page_offset(q, (size_t)PTRDIFF_MAX), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_string(&after, q), DRUPAL_OK);
    CHECK(after && strstr(after, "page%5Boffset%5D=9223372036854775807") != NULL);
    drupal_free(before);
    drupal_free(after);
    after = (char *)&after;
    BAD(drupal_jsonapi_query_string(&after, NULL));
    CHECK(after == NULL);
    drupal_jsonapi_query_free(q);
}

/* ---- drupal_last_error: at most 2,047 bytes, valid UTF-8 ------------------------------------ */

static int valid_utf8(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0) return 0;
        p++;
        while (n-- > 0) {
            if ((*p & 0xC0) != 0x80) return 0;
            p++;
        }
    }
    return 1;
}

static void test_last_error_bounds(drupal_client *c) {
    static char big[6001];
    size_t i;
    json_t *e = json_object();
    const char *s = NULL;
    drupal_response *r = NULL;
    /* 2,000 "é" after an ASCII byte: any cut at a byte count lands inside a character. */
    big[0] = 'a';
    for (i = 1; i + 2 < sizeof big; i += 2) { big[i] = (char)0xC3; big[i + 1] = (char)0xA9; }
    CHECK_CODE(drupal_json_field_string(&s, e, big), DRUPAL_E_NOT_FOUND);
    CHECK(strlen(drupal_last_error()) <= 2047);
    CHECK(valid_utf8(drupal_last_error()));
    /* A long unsafe path in a message. */
    memset(big, 'p', sizeof big - 1);
    big[0] = '/';
    big[3000] = '\x01';
    CHECK_CODE(drupal_request_sync(&r, c, "GET", big, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strlen(drupal_last_error()) <= 2047);
    CHECK(valid_utf8(drupal_last_error()));
    /* Invalid UTF-8 in a name: the message stays UTF-8. */
    CHECK_CODE(drupal_json_field_string(&s, e, "ab\xff\xfe" "cd"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(valid_utf8(drupal_last_error()));
    CHECK_CODE(drupal_entity_get_sync(&r, c, "no\xff" "de", "1"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(valid_utf8(drupal_last_error()));
    json_decref(e);
}

/* ---- Stealing setters steal on every failure (LeakSanitizer sees a leak otherwise) ------------ */

static void test_stealing_setters_on_failure(void) {
    json_t *e = json_object(), *arr = json_array();
    CHECK_CODE(json_object_set_new(e, "scalar", json_string("x")), 0);
    BAD(drupal_json_field_set_new(arr, "f", json_object()));           /* entity not an object */
    BAD(drupal_json_field_set_new(e, "", json_object()));
    BAD(drupal_json_field_set_new(e, "f\xff", json_object()));
    BAD(drupal_json_field_set_new(NULL, "f", json_object()));
    BAD(drupal_json_field_append_new(e, "scalar", json_object()));     /* field not an array */
    BAD(drupal_json_field_append_new(arr, "f", json_object()));
    BAD(drupal_json_field_append_new(e, NULL, json_object()));
    BAD(drupal_json_field_append_new(e, "f\xff", json_object()));
    json_decref(e);
    json_decref(arr);
}

/* ---- Language views: the session lives while any handle does --------------------------------- */

static void test_view_outlives_client(void) {
    drupal_client *c = new_client(), *view = NULL;
    drupal_response *r = NULL;
    CHECK_CODE(drupal_login_sync(&r, c, "admin", "admin"), DRUPAL_OK);
    drupal_response_free(r);
    r = NULL;
    CHECK_CODE(drupal_client_with_language(&view, c, NULL, 0), DRUPAL_OK);
    drupal_client_free(c);
    CHECK_INT(drupal_client_has_session(view), 1);
    CHECK_CODE(drupal_entity_get_sync(&r, view, "node", "1"), DRUPAL_OK);
    drupal_response_free(r);
    r = NULL;
    CHECK_CODE(drupal_logout_sync(&r, view), DRUPAL_OK);
    drupal_response_free(r);
    drupal_client_free(view);
}

/* ---- Cancelling: DRUPAL_OK after the call ended; a freed call handle still calls back -------- */

static void test_call_handles(drupal_client *c) {
    drupal_call *call = NULL;
    waiter w;
    ASYNC(w, drupal_entity_get(&call, c, "node", "1", waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    CHECK_CODE(drupal_call_cancel(call), DRUPAL_OK);
    CHECK_INT(waiter_calls(&w), 1);
    drupal_call_free(call);
    waiter_clear(&w);
    call = NULL;
    waiter_init(&w);
    CHECK_CODE(drupal_entity_get(&call, c, "node", "1", waiter_callback, &w), DRUPAL_OK);
    drupal_call_free(call);
    CHECK(waiter_wait(&w, 30) != -1);
    CHECK_INT(waiter_calls(&w), 1);
    CHECK(drupal_response_retain(w.response) == w.response);
    drupal_response_free(w.response);
    waiter_clear(&w);
}

/* ---- Pagers walked and freed from their callbacks; calls freed in theirs; mock interrupts --- */
typedef struct pager_state {
    waiter w;
    drupal_pager *pager;
    int pages;
    drupal_code chained;
    int free_in_callback;
} pager_state;

/* pages and chained are written under check_lock, and the test reads them under it: each page's
 * callback runs on a library thread, and the next page's callback may even end the walk before
 * this one has stored what drupal_pager_next returned. */
static void pager_callback(drupal_code code, drupal_response *response, void *userdata) {
    pager_state *s = userdata;
    drupal_code chained;
    if (code == DRUPAL_OK && response != NULL) {
        pthread_mutex_lock(&check_lock);
        s->pages++;
        pthread_mutex_unlock(&check_lock);
        if (s->free_in_callback) {
            drupal_pager_free(s->pager);   /* does not wait here */
            s->pager = NULL;
        } else {
            /* The next page, from this callback: walking a pager asynchronously. */
            chained = drupal_pager_next(NULL, s->pager, pager_callback, s);
            pthread_mutex_lock(&check_lock);
            s->chained = chained;
            pthread_mutex_unlock(&check_lock);
            if (chained == DRUPAL_OK) return;
        }
    }
    waiter_callback(code, response, &s->w);
}

static void test_pager_from_its_callback(void) {
    drupal_client *c = new_client();
    pager_state s, ahead;   /* not one reused: a callback may still be storing into the first */
    drupal_code chained;
    int pages;
    memset(&s, 0, sizeof s);
    CHECK_CODE(drupal_view_pager_new(&s.pager, c, "/api/articles", NULL, 0), DRUPAL_OK);
    ASYNC(s.w, drupal_pager_next(NULL, s.pager, pager_callback, &s));
    CHECK_INT(s.w.code, DRUPAL_OK);
    pthread_mutex_lock(&check_lock);
    chained = s.chained;
    pages = s.pages;
    pthread_mutex_unlock(&check_lock);
    CHECK_INT(chained, DRUPAL_OK);
    CHECK(pages >= 2);
    CHECK(s.w.response == NULL);   /* the end */
    waiter_clear(&s.w);
    drupal_pager_free(s.pager);
    /* A JSON:API pager fetching ahead, freed from its callback. */
    memset(&ahead, 0, sizeof ahead);
    ahead.free_in_callback = 1;
    CHECK_CODE(drupal_jsonapi_pager_new(&ahead.pager, c, ARTICLE, NULL, 4, 0), DRUPAL_OK);
    ASYNC(ahead.w, drupal_pager_next(NULL, ahead.pager, pager_callback, &ahead));
    CHECK_INT(ahead.w.code, DRUPAL_OK);
    CHECK(ahead.pager == NULL);
    waiter_clear(&ahead.w);
    drupal_client_free(c);
}

/* The handle a callback frees, handed to it under the slot's lock: the start writes *call on the
 * test's thread after the call has begun, and nothing visible to TSan orders that write before
 * the callback's read on a library thread (the header does not promise it either). */
typedef struct call_slot {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    drupal_call *call;   /* NULL until the start has returned it */
} call_slot;

static void free_call_callback(drupal_code code, drupal_response *response, void *userdata) {
    call_slot *slot = userdata;
    drupal_call *call;
    (void)code; (void)response;
    pthread_mutex_lock(&slot->lock);
    while (slot->call == NULL) pthread_cond_wait(&slot->cond, &slot->lock);
    call = slot->call;
    pthread_mutex_unlock(&slot->lock);
    drupal_call_cancel(call);
    drupal_call_free(call);
}

static void test_call_freed_in_its_callback(void) {
    enum { ROUNDS = 20 };
    drupal_client *c = new_client();
    call_slot slots[ROUNDS];   /* one each: a callback may touch its slot until its client is freed */
    int i;
    for (i = 0; i < ROUNDS; i++) {
        drupal_call *call = NULL;
        pthread_mutex_init(&slots[i].lock, NULL);
        pthread_cond_init(&slots[i].cond, NULL);
        slots[i].call = NULL;
        CHECK_CODE(drupal_entity_get(&call, c, "node", "1", free_call_callback, &slots[i]), DRUPAL_OK);
        pthread_mutex_lock(&slots[i].lock);
        slots[i].call = call;
        pthread_cond_signal(&slots[i].cond);
        pthread_mutex_unlock(&slots[i].lock);
        drupal_client_free(c);   /* waits for the callback */
        c = new_client();
    }
    drupal_client_free(c);
    for (i = 0; i < ROUNDS; i++) {
        pthread_mutex_destroy(&slots[i].lock);
        pthread_cond_destroy(&slots[i].cond);
    }
}

static int interrupt_now(void *userdata) { (*(int *)userdata)++; return 1; }

static void test_mock_ignores_interrupt_fd(void) {
    drupal_client *m = NULL;
    drupal_response *r = NULL;
    int fds[2], runs = 0;
    CHECK(pipe(fds) == 0);
    CHECK(write(fds[1], "x", 1) == 1);
    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    CHECK_CODE(drupal_set_interrupt_fd(fds[0], interrupt_now, &runs), DRUPAL_OK);
    CHECK_CODE(drupal_login_sync(&r, m, "admin", "admin"), DRUPAL_OK);
    CHECK_INT(runs, 0);
    CHECK_CODE(drupal_set_interrupt_fd(-1, NULL, NULL), DRUPAL_OK);
    drupal_response_free(r);
    drupal_client_free(m);
    close(fds[0]);
    close(fds[1]);
}

static void test_sync_logout_without_session_gives_a_response(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    CHECK_CODE(drupal_logout_sync(&r, c), DRUPAL_E_STATE);
    CHECK(r != NULL);
    CHECK_INT(drupal_response_code(r), DRUPAL_E_STATE);
    CHECK_INT(drupal_response_status(r), 0);
    drupal_response_free(r);
    r = NULL;
    CHECK_CODE(drupal_oauth_authenticate_sync(&r, c), DRUPAL_E_STATE);
    CHECK(r != NULL);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* ---- Server strings with NULs come out whole (U+FFFD); mock answers' bounds ------------------- */
static void test_server_strings(void) {
    drupal_client *m = NULL;
    drupal_response *r = NULL;
    const char *rest = "{\"message\":\"Unprocessable Entity: validation failed.\\ntitle: a\\u0000b\\n\"}";
    const char *api = "{\"errors\":[{\"title\":\"T\\u0000\",\"status\":\"422\",\"detail\":\"d\\u0000e\","
                      "\"source\":{\"pointer\":\"/data/attributes/ti\\u0000tle\"},\"meta\":{\"n\":5,\"b\":true}}]}";
    const char *lang = "{\"langcode\":[{\"value\":\"f\\u0000r\"}],\"type\":[{\"target_id\":\"article\"}]}";
    drupal_mock_answer a = DRUPAL_MOCK_ANSWER_INIT;
    const char *path = NULL, *message = NULL, *name = "x", *value = "x";
    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    CHECK_CODE(drupal_mock_stub(m, "GET", "/node/5", 422, "application/json", rest, strlen(rest)), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", "5"), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_violation_count(r), 1);
    CHECK_CODE(drupal_response_violation_at(&path, &message, r, 0), DRUPAL_OK);
    CHECK_STR(message, "a\xef\xbf\xbd" "b");
    CHECK(strstr(drupal_response_drupal_message(r), "a\xef\xbf\xbd" "b") != NULL);
    CHECK(valid_utf8(drupal_response_error_message(r)));
    CHECK_CODE(drupal_response_violation_at(&path, &message, r, 1), DRUPAL_E_NOT_FOUND);
    CHECK(path == NULL && message == NULL);
    CHECK(drupal_response_violation_at(NULL, NULL, r, 0) == DRUPAL_OK);
    CHECK_INT(drupal_response_error_kind(r), DRUPAL_ERROR_KIND_VALIDATION);
    drupal_response_free(r);
    r = NULL;
    CHECK_CODE(drupal_mock_stub(m, "GET", "/jsonapi/node/article/u1", 422, "application/vnd.api+json", api,
                                strlen(api)), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_get_sync(&r, m, ARTICLE, "u1", NULL), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_jsonapi_error_count(r), 1);
    CHECK_STR(drupal_response_jsonapi_error_member(r, 0, "detail"), "d\xef\xbf\xbd" "e");
    CHECK_STR(drupal_response_jsonapi_error_member(r, 0, "meta.n"), "5");
    CHECK_STR(drupal_response_jsonapi_error_member(r, 0, "meta.b"), "true");
    CHECK(drupal_response_jsonapi_error_member(r, SIZE_MAX, "detail") == NULL);
    CHECK(drupal_response_jsonapi_error_member(r, 1, "detail") == NULL);
    CHECK(drupal_response_jsonapi_error_member(r, 0, NULL) == NULL);
    CHECK_STR(drupal_response_drupal_message(r), "d\xef\xbf\xbd" "e");
    CHECK_CODE(drupal_response_violation_at(&path, &message, r, 0), DRUPAL_OK);
    CHECK_STR(path, "/data/attributes/ti\xef\xbf\xbdtle");
    CHECK_CODE(drupal_response_jsonapi_error_member_at(&name, &value, r, 0, 0), DRUPAL_OK);
    CHECK_STR(name, "detail");   /* sorted by name */
    CHECK_CODE(drupal_response_jsonapi_error_member_at(&name, &value, r, 0, 99), DRUPAL_E_NOT_FOUND);
    CHECK(name == NULL && value == NULL);
    drupal_response_free(r);
    r = NULL;
    CHECK_CODE(drupal_mock_stub(m, "GET", "/node/6", 200, "application/json", lang, strlen(lang)), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", "6"), DRUPAL_OK);
    CHECK_STR(drupal_response_langcode(r), "f\xef\xbf\xbdr");
    CHECK(drupal_response_drupal_message(r) == NULL);
    CHECK_STR(drupal_response_error_message(r), "");
    CHECK_INT(drupal_response_error_kind(r), DRUPAL_ERROR_KIND_OTHER);
    drupal_response_free(r);
    r = NULL;
    a.body = "{}";
    a.body_length = 2;
    a.status = 99;
    BAD(drupal_mock_stub_answers(m, "GET", "/node/9", NULL, &a, 1));
    a.status = 600;
    BAD(drupal_mock_stub_answers(m, "GET", "/node/9", NULL, &a, 1));
    a.status = 200;
    BAD(drupal_mock_stub_answers(m, "GET", "/node/9", NULL, &a, 0));
    a.fail = (drupal_code)-1;   /* no drupal_code: refused (it trapped the process) */
    BAD(drupal_mock_stub_answers(m, "GET", "/node/9", NULL, &a, 1));
    a.fail = DRUPAL_OK;
    {
        char *s = (char *)&s;
        BAD(drupal_mock_requests_json(&s, NULL));
        CHECK(s == NULL);
        BAD(drupal_mock_requests_json(NULL, m));
        BAD(drupal_mock_clear_requests(NULL));
    }
    drupal_client_free(m);
}

static void test_numbers_at_the_edges(void) {
    drupal_client_options o = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *c = (drupal_client *)&c;
    drupal_oauth_options oa = DRUPAL_OAUTH_OPTIONS_INIT;
    o.max_body_size = SIZE_MAX;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    CHECK(c == NULL);
    o.max_body_size = 0;
    o.timeout = 0.0 / 0.0;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.timeout = 1.0 / 0.0;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.timeout = 0;
    o.connect_timeout = -1.0 / 0.0;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.connect_timeout = 0;
    o.max_retries = -2;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.max_retries = 0;
    o.verify_tls = 2;
    BAD(drupal_client_new(&c, "http://example.com", &o));
    o.verify_tls = 0;
    CHECK_CODE(drupal_client_new(&c, "http://example.com", &o), DRUPAL_OK);
    oa.client_id = "x";
    oa.grant = (drupal_oauth_grant)0;
    BAD(drupal_client_set_oauth(c, &oa));
    oa.grant = (drupal_oauth_grant)4;
    BAD(drupal_client_set_oauth(c, &oa));
    oa.grant = DRUPAL_OAUTH_CLIENT_CREDENTIALS;
    oa.refresh_margin = 1.0 / 0.0;
    CHECK(drupal_client_set_oauth(c, &oa) != DRUPAL_E_INTERNAL);
    oa.refresh_margin = -1.0 / 0.0;
    CHECK(drupal_client_set_oauth(c, &oa) != DRUPAL_E_INTERNAL);
    oa.client_auth_basic = 2;
    CHECK(drupal_client_set_oauth(c, &oa) != DRUPAL_E_INTERNAL);
    drupal_client_free(c);
}

/* ---- Lifetimes: pagers, language views, a provider freeing its client ------------------------ */

static void test_pager_lifetimes(void) {
    drupal_client *c = new_client();
    drupal_pager *pager = NULL;
    drupal_call *call;
    waiter w;
    drupal_code rc;
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles", NULL, 0), DRUPAL_OK);
    call = (drupal_call *)&call;
    BAD(drupal_pager_next(&call, pager, NULL, NULL));
    CHECK(call == NULL);
    /* Freed with a fetch in flight: the fetch still completes, its callback runs once. */
    waiter_init(&w);
    CHECK_CODE(drupal_pager_next(NULL, pager, waiter_callback, &w), DRUPAL_OK);
    drupal_pager_free(pager);
    CHECK_INT(waiter_wait(&w, 30), DRUPAL_OK);
    CHECK(w.response != NULL);
    CHECK_INT(waiter_calls(&w), 1);
    waiter_clear(&w);
    /* Async after the client is freed: DRUPAL_E_STATE, and then no callback. */
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles", NULL, 0), DRUPAL_OK);
    drupal_client_free(c);
    waiter_init(&w);
    call = (drupal_call *)&call;
    rc = drupal_pager_next(&call, pager, waiter_callback, &w);
    if (rc == DRUPAL_OK) {
        CHECK_INT(waiter_wait(&w, 30), DRUPAL_E_STATE);
        drupal_call_free(call);
    } else {
        CHECK_INT(rc, DRUPAL_E_STATE);
        CHECK(call == NULL);
        sleep_ms(100);
        CHECK_INT(waiter_calls(&w), 0);
    }
    waiter_clear(&w);
    drupal_pager_free(pager);
}

static void test_freeing_a_view_cancels_only_its_calls(void) {
    drupal_client *c = new_client(), *view = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *delay[] = {"X-Fake-Fault: delay;ms=1500", NULL};
    waiter parent, child;
    o.headers = delay;
    CHECK_CODE(drupal_client_with_language(&view, c, NULL, 0), DRUPAL_OK);
    waiter_init(&parent);
    waiter_init(&child);
    CHECK_CODE(drupal_request(NULL, c, "GET", "/node/1", &o, waiter_callback, &parent), DRUPAL_OK);
    CHECK_CODE(drupal_request(NULL, view, "GET", "/node/1", &o, waiter_callback, &child), DRUPAL_OK);
    sleep_ms(200);
    drupal_client_free(view);
    CHECK_INT(waiter_wait(&child, 1), DRUPAL_E_CANCELLED);
    CHECK_INT(waiter_wait(&parent, 10), DRUPAL_OK);
    CHECK_INT(drupal_response_status(child.response), 0);
    CHECK_INT(drupal_response_error_kind(child.response), DRUPAL_ERROR_KIND_OTHER);
    CHECK(drupal_response_error_message(child.response)[0] != '\0');
    waiter_clear(&parent);
    waiter_clear(&child);
    drupal_client_free(c);
}

/* The parent freed from a callback of its language view: no wait, no deadlock. */
typedef struct parent_freer { waiter w; drupal_client *parent; double took; } parent_freer;
static void free_parent_callback(drupal_code code, drupal_response *response, void *userdata) {
    parent_freer *f = userdata;
    double t0 = now_seconds();
    drupal_client_free(f->parent);
    f->took = now_seconds() - t0;
    waiter_callback(code, response, &f->w);
}

static void test_free_parent_from_views_callback(void) {
    parent_freer f;
    drupal_client *view = NULL;
    memset(&f, 0, sizeof f);
    f.took = -1;
    f.parent = new_client();
    CHECK_CODE(drupal_client_with_language(&view, f.parent, NULL, 0), DRUPAL_OK);
    waiter_init(&f.w);
    CHECK_CODE(drupal_entity_get(NULL, view, "node", "1", free_parent_callback, &f), DRUPAL_OK);
    CHECK(waiter_wait(&f.w, 10) != -1);
    CHECK(f.took >= 0 && f.took < 2.0);
    waiter_clear(&f.w);
    drupal_client_free(view);
}

/* A token provider that frees its own client: the free does not wait for the provider. */
typedef struct provider_freer { drupal_client *client; double took; int runs; } provider_freer;
static drupal_code freeing_provider(drupal_token_request *request, void *userdata) {
    provider_freer *p = userdata;
    double t0 = now_seconds();
    double took;
    p->runs++;
    drupal_client_free(p->client);
    took = now_seconds() - t0;
    /* Under the lock: the freed call's callback may wake the test before this line runs. */
    pthread_mutex_lock(&check_lock);
    p->took = took;
    pthread_mutex_unlock(&check_lock);
    return drupal_token_request_fail(request, DRUPAL_E_STATE, "freed");
}

/* The provider's p->took once it has set it (-1 if it has not within 10 s). */
static double provider_took(provider_freer *p) {
    double took = -1;
    int i;
    for (i = 0; i < 1000 && took < 0; i++) {
        pthread_mutex_lock(&check_lock);
        took = p->took;
        pthread_mutex_unlock(&check_lock);
        if (took < 0) sleep_ms(10);
    }
    return took;
}

static void test_provider_frees_its_client(void) {
    provider_freer p;
    waiter w;
    memset(&p, 0, sizeof p);
    p.took = -1;
    CHECK_CODE(drupal_client_new(&p.client, extended_url(), NULL), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_token_provider(p.client, freeing_provider, &p), DRUPAL_OK);
    waiter_init(&w);
    CHECK_CODE(drupal_entity_get(NULL, p.client, "user", "1", waiter_callback, &w), DRUPAL_OK);
    CHECK(waiter_wait(&w, 10) != -1);
    CHECK_INT(waiter_calls(&w), 1);
    CHECK(w.code == DRUPAL_E_STATE || w.code == DRUPAL_E_CANCELLED);
    {
        double took = provider_took(&p);
        CHECK(took >= 0 && took < 2.0);
    }
    waiter_clear(&w);
}

int main(void) {
    drupal_client *c = new_client();
    fake_reset();
    test_immediate_failures_call_back_on_a_library_thread();
    test_logged_in_reader();
    test_null_accessors();
    test_request_hook_edits();
    test_event_strings_never_null();
    test_jsonapi_bad_input(c);
    test_query_unchanged_after_refusal();
    test_last_error_bounds(c);
    test_stealing_setters_on_failure();
    test_view_outlives_client();
    test_call_handles(c);
    test_pager_from_its_callback();
    test_call_freed_in_its_callback();
    test_mock_ignores_interrupt_fd();
    test_sync_logout_without_session_gives_a_response();
    test_server_strings();
    test_numbers_at_the_edges();
    test_pager_lifetimes();
    test_freeing_a_view_cancels_only_its_calls();
    test_free_parent_from_views_callback();
    test_provider_frees_its_client();
    drupal_client_free(c);
    sleep_ms(100);
    CHECK_INT(callbacks_run_count(), 0);
    return check_summary();
}
