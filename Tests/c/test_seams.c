/* Test seams and hooks from C: the unimplemented client, mock stubs (headers, query match, answer
 * sequences, failures), the requests a mock received, the mock's seeding calls, and the request
 * and log hooks of a live client against the fake server. */
#include "check.h"

static void test_unimplemented(void) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    waiter w;
    CHECK_CODE(drupal_unimplemented_client_new(&c), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_E_UNIMPLEMENTED);
    CHECK(strstr(drupal_response_error_message(r), "DrupalClient.get") != NULL);
    drupal_response_free(r);
    ASYNC(w, drupal_login(NULL, c, "a", "b", waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_E_UNIMPLEMENTED);
    waiter_clear(&w);
    CHECK_CODE(drupal_unimplemented_client_new(NULL), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(c);
}

static void test_stubs(void) {
    drupal_client *m = NULL;
    drupal_response *r = NULL;
    drupal_mock_answer answers[3] = {DRUPAL_MOCK_ANSWER_INIT, DRUPAL_MOCK_ANSWER_INIT, DRUPAL_MOCK_ANSWER_INIT};
    const char *moved[] = {"Location: /elsewhere", NULL};
    const char *query[] = {"title", "x", NULL};
    const char *with_query[] = {"title", "x", "page", "0", NULL};
    const char *rows = "[{\"nid\":\"42\"}]";
    char *json = NULL;

    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    /* A sequence: a lost connection (a GET retries it), then an answer that repeats. */
    answers[0].fail = DRUPAL_E_NETWORK;
    answers[1].status = 200;
    answers[1].body = "{\"nid\":[{\"value\":7}]}";
    answers[1].body_length = strlen(answers[1].body);
    CHECK_CODE(drupal_mock_stub_answers(m, "GET", "/node/7", NULL, answers, 2), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", "7"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", "7"), DRUPAL_OK);
    drupal_response_free(r);
    /* Headers, and a redirect that is not followed. */
    answers[2].status = 302;
    answers[2].headers = moved;
    CHECK_CODE(drupal_mock_stub_answers(m, "GET", "/moved", NULL, &answers[2], 1), DRUPAL_OK);
    CHECK_CODE(drupal_request_sync(&r, m, "GET", "/moved", NULL), DRUPAL_E_HTTP);
    CHECK_STR(drupal_response_header(r, "Location"), "/elsewhere");
    CHECK_INT(drupal_response_error_kind(r), DRUPAL_ERROR_KIND_REDIRECT);
    drupal_response_free(r);
    /* A timeout, and a query the request must carry. */
    answers[0].fail = DRUPAL_E_TIMEOUT;
    CHECK_CODE(drupal_mock_stub_answers(m, "GET", "/slow", NULL, answers, 1), DRUPAL_OK);
    CHECK_CODE(drupal_request_sync(&r, m, "GET", "/slow", NULL), DRUPAL_E_TIMEOUT);
    drupal_response_free(r);
    answers[1].body = rows;
    answers[1].body_length = strlen(rows);
    CHECK_CODE(drupal_mock_stub_answers(m, "GET", "/api/articles", query, &answers[1], 1), DRUPAL_OK);
    CHECK_CODE(drupal_view_sync(&r, m, "/api/articles", with_query), DRUPAL_OK);
    CHECK_STR(drupal_response_body(r, NULL), rows);
    drupal_response_free(r);
    CHECK_CODE(drupal_view_sync(&r, m, "/api/articles", NULL), DRUPAL_OK);
    CHECK_STR(drupal_response_body(r, NULL), "[]");
    drupal_response_free(r);
    /* Bad stubs. */
    answers[0].fail = DRUPAL_OK;
    answers[0].status = 700;
    CHECK_CODE(drupal_mock_stub_answers(m, "GET", "/x", NULL, answers, 1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_stub_answers(m, "GET", "/x", NULL, NULL, 1), DRUPAL_E_INVALID_ARGUMENT);

    /* What the site received: every request, with its URL. */
    CHECK_CODE(drupal_mock_requests_json(&json, m), DRUPAL_OK);
    CHECK(json != NULL && strstr(json, "http://drupal.mock/node/7?_format=json") != NULL);
    CHECK(json != NULL && strstr(json, "/moved") != NULL);
    drupal_free(json);
    CHECK_CODE(drupal_mock_clear_requests(m), DRUPAL_OK);
    CHECK_CODE(drupal_mock_requests_json(&json, m), DRUPAL_OK);
    CHECK_STR(json, "[]");
    drupal_free(json);
    drupal_client_free(m);
}

static void test_seeding(void) {
    drupal_client *m = NULL;
    drupal_response *r = NULL;
    char *id = NULL;
    const char *event = "{\"type\":[{\"target_id\":\"event\"}],\"title\":[{\"value\":\"Gig\"}]}";
    const char *odd = "{\"type\":[{\"target_id\":\"nonsense\"}],\"title\":[{\"value\":\"x\"}]}";

    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_bundle(m, "node", "event"), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_view(m, "/api/events", "node", "event", 1), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_entity(&id, m, "node", event), DRUPAL_OK);
    drupal_free(id);
    CHECK_CODE(drupal_view_sync(&r, m, "/api/events", NULL), DRUPAL_OK);
    CHECK(strstr(drupal_response_body(r, NULL), "Gig") != NULL);
    drupal_response_free(r);
    CHECK_CODE(drupal_mock_add_bearer_token(m, "tok-1", "2"), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_bearer_token(m, "tok-1"), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "user", "2"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_client_set_no_auth(m), DRUPAL_OK);
    CHECK_CODE(drupal_login_sync(&r, m, "admin", "admin"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_mock_invalidate_csrf_tokens(m), DRUPAL_OK);
    CHECK_CODE(drupal_entity_create_sync(&r, m, "node", event, strlen(event)), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_create_sync(&r, m, "node", odd, strlen(odd)), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_error_kind(r), DRUPAL_ERROR_KIND_VALIDATION);
    drupal_response_free(r);
    /* Seeding calls need a mock client. */
    drupal_client *live = new_client();
    CHECK_CODE(drupal_mock_add_bundle(live, "node", "x"), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(live);
    drupal_client_free(m);
}

/* ---- Hooks on a live client ---------------------------------------------------------------- */

typedef struct { pthread_mutex_t lock; int requests; char url[512]; char log[8192]; } hook_log;

static drupal_code on_request(drupal_request_edit *request, void *userdata) {
    hook_log *log = userdata;
    pthread_mutex_lock(&log->lock);
    log->requests++;
    snprintf(log->url, sizeof log->url, "%s", drupal_request_edit_url(request));
    pthread_mutex_unlock(&log->lock);
    if (drupal_request_edit_set_header(request, "Content-Length", "1") != DRUPAL_E_INVALID_ARGUMENT) {
        return DRUPAL_E_INTERNAL;
    }
    if (strcmp(drupal_request_edit_method(request), "DELETE") == 0) return DRUPAL_E_STATE;
    drupal_request_edit_remove_header(request, "X-Remove-Me");
    return drupal_request_edit_set_header(request, "X-Trace", "t-1");
}

static void on_log(const char *line, void *userdata) {
    hook_log *log = userdata;
    pthread_mutex_lock(&log->lock);
    strncat(log->log, line, sizeof log->log - strlen(log->log) - 2);
    strcat(log->log, "\n");
    pthread_mutex_unlock(&log->lock);
}

static void test_hooks(void) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *headers[] = {"X-Remove-Me: 1", "X-Api-Key: k-secret", NULL};
    const char *secret[] = {"X-Api-Key", NULL};
    hook_log log;
    char seen[8192], logged[8192], url[512];
    int requests;
    memset(&log, 0, sizeof log);
    pthread_mutex_init(&log.lock, NULL);

    options.request_hook = on_request;
    options.request_hook_userdata = &log;
    options.log_hook = on_log;
    options.log_hook_userdata = &log;
    options.secret_headers = secret;
    CHECK_CODE(drupal_client_new(&c, base_url(), &options), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_basic_auth(c, "admin", "admin"), DRUPAL_OK);
    o.headers = headers;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_OK);
    drupal_response_free(r);
    pthread_mutex_lock(&log.lock);   /* as the hooks (library threads) write it */
    requests = log.requests;
    snprintf(url, sizeof url, "%s", log.url);
    pthread_mutex_unlock(&log.lock);
    CHECK_INT(requests, 1);
    CHECK(strstr(url, "/node/1?_format=json") != NULL);
    CHECK_CODE(fake_control("/__fake/reset", NULL), DRUPAL_OK);  /* keeps nothing but answers */
    {   /* The fake saw the hook's header, not the removed one. */
        drupal_client *probe = new_client();
        drupal_request_options po = DRUPAL_REQUEST_OPTIONS_INIT;
        po.no_format = 1;
        CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/2", NULL), DRUPAL_OK);
        drupal_response_free(r);
        CHECK_CODE(drupal_request_sync(&r, probe, "GET", "/__fake/last-request", &po), DRUPAL_OK);
        snprintf(seen, sizeof seen, "%s", drupal_response_body(r, NULL));
        drupal_response_free(r);
        drupal_client_free(probe);
        CHECK(strstr(seen, "X-Trace") != NULL);
    }
    pthread_mutex_lock(&log.lock);
    snprintf(logged, sizeof logged, "%s", log.log);
    pthread_mutex_unlock(&log.lock);
    CHECK(strstr(logged, "> GET ") != NULL && strstr(logged, "HTTP 200") != NULL);
    CHECK(strstr(logged, "Authorization: <redacted>") != NULL);
    CHECK(strstr(logged, "X-Api-Key: <redacted>") != NULL);
    CHECK(strstr(logged, "k-secret") == NULL);
    /* A hook that refuses fails the call with its code. */
    CHECK_CODE(drupal_entity_delete_sync(&r, c, "node", "3"), DRUPAL_E_STATE);
    drupal_response_free(r);
    drupal_client_free(c);
    pthread_mutex_destroy(&log.lock);
}

/* A hook returning a code that is no drupal_code fails the call with DRUPAL_E_INTERNAL, as the
 * header says: a negative one trapped the process (SIGILL) in the conversion. */
static drupal_code negative_hook(drupal_request_edit *request, void *userdata) {
    (void)request;
    (void)userdata;
    return (drupal_code)-1;
}

static void test_a_hook_code_that_is_no_drupal_code(void) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    options.request_hook = negative_hook;
    CHECK_CODE(drupal_client_new(&c, base_url(), &options), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_E_INTERNAL);
    drupal_response_free(r);
    drupal_client_free(c);
}

int main(void) {
    fake_reset();
    test_a_hook_code_that_is_no_drupal_code();
    test_unimplemented();
    test_stubs();
    test_seeding();
    test_hooks();
    return check_summary();
}
