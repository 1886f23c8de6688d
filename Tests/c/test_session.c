/* Session tests against the fake server: login (good/bad/missing), login status, logout, CSRF
 * refresh, both async and _sync; events; Basic and Bearer auth; CSRF refresh-and-retry; two
 * clients as two users. */
#include "check.h"

static const char *ARTICLE = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"session test\"}]}";

static void test_login_sync(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    json_t *body = NULL, *user;
    int logged_in = -1;
    int64_t uid = 0;

    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, c), DRUPAL_OK);
    CHECK_INT(logged_in, 0);

    /* Bad password: Drupal answers 400 with its message. */
    CHECK_CODE(drupal_login_sync(&r, c, "admin", "wrong"), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 400);
    CHECK_STR(drupal_response_error_message(r), "Sorry, unrecognized username or password.");
    drupal_response_free(r);
    /* Missing (empty) password and name reach Drupal and are refused the same way. */
    CHECK_CODE(drupal_login_sync(&r, c, "admin", ""), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 400);
    drupal_response_free(r);
    CHECK_CODE(drupal_login_sync(&r, c, "", "admin"), DRUPAL_E_HTTP);
    drupal_response_free(r);
    /* A NULL password is refused before anything is sent. */
    r = (drupal_response *)&r;
    CHECK_CODE(drupal_login_sync(&r, c, "admin", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);

    CHECK_CODE(drupal_login_sync(&r, c, "admin", "admin"), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    CHECK_CODE(drupal_response_json(&body, r), DRUPAL_OK);
    user = json_object_get(body, "current_user");
    CHECK_CODE(drupal_json_field_int(&uid, user, "uid"), DRUPAL_OK);
    CHECK_INT(uid, 1);
    CHECK(json_is_string(json_object_get(body, "csrf_token")));
    json_decref(body);
    drupal_response_free(r);

    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, c), DRUPAL_OK);
    CHECK_INT(logged_in, 1);

    CHECK_CODE(drupal_csrf_refresh_sync(&r, c), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    CHECK(strlen(drupal_response_body(r, NULL)) > 10);
    drupal_response_free(r);

    CHECK_CODE(drupal_logout_sync(&r, c), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 204);
    drupal_response_free(r);
    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, c), DRUPAL_OK);
    CHECK_INT(logged_in, 0);

    /* Logging out twice: the client knows it has no session. */
    r = NULL;
    CHECK_CODE(drupal_logout_sync(&r, c), DRUPAL_E_STATE);
    drupal_response_free(r);
    drupal_client_free(c);
}

static void test_login_async(void) {
    drupal_client *c = new_client();
    drupal_call *call = NULL;
    waiter w;
    json_t *body = NULL;

    ASYNC(w, drupal_login(&call, c, "editor", "nope", waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_E_HTTP);
    CHECK_RESPONSE(w.response, DRUPAL_E_HTTP, 400);
    CHECK(drupal_response_error_message(w.response)[0] != '\0');
    CHECK_INT(waiter_calls(&w), 1);
    waiter_clear(&w);
    drupal_call_free(call);

    ASYNC(w, drupal_login(NULL, c, "editor", "editor", waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&body, w.response), DRUPAL_OK);
    CHECK_STR(json_string_value(json_object_get(json_object_get(body, "current_user"), "name")), "editor");
    json_decref(body);
    waiter_clear(&w);

    ASYNC(w, drupal_login_status(NULL, c, waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    CHECK_STR(drupal_response_body(w.response, NULL), "1");
    waiter_clear(&w);

    ASYNC(w, drupal_csrf_refresh(NULL, c, waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    waiter_clear(&w);

    ASYNC(w, drupal_logout(NULL, c, waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    waiter_clear(&w);

    ASYNC(w, drupal_login_status(NULL, c, waiter_callback, &w));
    CHECK_STR(drupal_response_body(w.response, NULL), "0");
    waiter_clear(&w);

    /* Not logged in: the call starts, and its callback carries DRUPAL_E_STATE. */
    ASYNC(w, drupal_logout(NULL, c, waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_E_STATE);
    CHECK_INT(drupal_response_code(w.response), DRUPAL_E_STATE);
    CHECK(drupal_response_error_message(w.response)[0] != '\0');
    waiter_clear(&w);
    drupal_client_free(c);
}

/* ---- Events ---------------------------------------------------------------------------------- */

typedef struct event_record {
    int logins, logouts, starts, finishes;
    char login_user[64], login_uid[16];
    int last_status;
    double last_duration;
    char last_method[16], last_path[128];
    int leaked_secret;
} event_record;

typedef struct events {
    pthread_mutex_t lock;
    event_record now;
} events;

static void on_event(const drupal_event *e, void *userdata) {
    events *ev = userdata;
    event_record *rec = &ev->now;
    pthread_mutex_lock(&ev->lock);
    /* Every string is set ("" when unused); secrets never appear. */
    if (!e->method || !e->path || !e->user_name || !e->uid) rec->leaked_secret = 2;
    else if (strstr(e->path, "admin:") || strstr(e->path, "token=")) rec->leaked_secret = 1;
    switch (e->type) {
    case DRUPAL_EVENT_LOGIN:
        rec->logins++;
        snprintf(rec->login_user, sizeof rec->login_user, "%s", e->user_name);
        snprintf(rec->login_uid, sizeof rec->login_uid, "%s", e->uid);
        break;
    case DRUPAL_EVENT_LOGOUT: rec->logouts++; break;
    case DRUPAL_EVENT_RETRY: break;
    case DRUPAL_EVENT_REQUEST_START:
        rec->starts++;
        snprintf(rec->last_method, sizeof rec->last_method, "%s", e->method);
        snprintf(rec->last_path, sizeof rec->last_path, "%s", e->path);
        break;
    case DRUPAL_EVENT_REQUEST_FINISH:
        rec->finishes++;
        rec->last_status = e->status;
        rec->last_duration = e->duration_ms;
        break;
    }
    pthread_mutex_unlock(&ev->lock);
}

/* What the listener recorded so far, copied under its lock (the listener runs on a library
 * thread; the library orders it before the call's return only through the Swift runtime, which
 * ThreadSanitizer cannot see). */
static event_record events_seen(events *ev) {
    event_record seen;
    pthread_mutex_lock(&ev->lock);
    seen = ev->now;
    pthread_mutex_unlock(&ev->lock);
    return seen;
}

static void test_events(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    events ev;
    event_record seen;
    uint64_t id = 0, id2 = 0;
    int starts;

    memset(&ev, 0, sizeof ev);
    pthread_mutex_init(&ev.lock, NULL);
    CHECK_CODE(drupal_client_add_listener(&id, c, on_event, &ev), DRUPAL_OK);
    CHECK_CODE(drupal_client_add_listener(&id2, c, on_event, &ev), DRUPAL_OK);
    CHECK(id != id2);
    CHECK_CODE(drupal_client_remove_listener(c, id2), DRUPAL_OK);

    CHECK_CODE(drupal_login_sync(&r, c, "admin", "admin"), DRUPAL_OK);
    drupal_response_free(r);
    seen = events_seen(&ev);
    CHECK_INT(seen.logins, 1);
    CHECK_STR(seen.login_user, "admin");
    CHECK_STR(seen.login_uid, "1");

    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "2"), DRUPAL_OK);
    drupal_response_free(r);
    seen = events_seen(&ev);
    CHECK_STR(seen.last_method, "GET");
    CHECK(strstr(seen.last_path, "/node/2") != NULL);
    CHECK_INT(seen.last_status, 200);
    CHECK(seen.last_duration >= 0 && seen.last_duration < 10000);
    CHECK(seen.starts >= 2 && seen.starts == seen.finishes);

    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "999"), DRUPAL_E_HTTP);
    drupal_response_free(r);
    CHECK_INT(events_seen(&ev).last_status, 404);

    CHECK_CODE(drupal_logout_sync(&r, c), DRUPAL_OK);
    drupal_response_free(r);
    seen = events_seen(&ev);
    CHECK_INT(seen.logouts, 1);
    CHECK_INT(seen.leaked_secret, 0);

    /* Removed listeners hear nothing more; removing twice is NOT_FOUND. */
    CHECK_CODE(drupal_client_remove_listener(c, id), DRUPAL_OK);
    CHECK_CODE(drupal_client_remove_listener(c, id), DRUPAL_E_NOT_FOUND);
    starts = events_seen(&ev).starts;
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_INT(events_seen(&ev).starts, starts);
    drupal_client_free(c);
    pthread_mutex_destroy(&ev.lock);
}

/* ---- Basic and Bearer auth ------------------------------------------------------------------ */

static void test_basic_and_bearer(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    json_t *user = NULL;
    const char *name = NULL;

    /* Anonymous: user profiles need credentials (401). */
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "1"), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 401);
    drupal_response_free(r);

    CHECK_CODE(drupal_client_set_basic_auth(c, "admin", "admin"), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "1"), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    drupal_response_free(r);
    /* Basic auth needs no CSRF token for writes. */
    CHECK_CODE(drupal_entity_create_sync(&r, c, "node", ARTICLE, strlen(ARTICLE)), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    drupal_response_free(r);

    CHECK_CODE(drupal_client_set_no_auth(c), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "1"), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_status(r), 401);
    drupal_response_free(r);

    /* Bearer: the fake server maps the token to uid 2 (editor). */
    CHECK_CODE(fake_control("/__fake/bearer", "{\"token\":\"c-test-token\",\"uid\":2}"), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_bearer_token(c, "c-test-token"), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "2"), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&user, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_string(&name, user, "name"), DRUPAL_OK);
    CHECK_STR(name, "editor");
    json_decref(user);
    drupal_response_free(r);
    /* The editor may not edit the admin's node 1. */
    CHECK_CODE(drupal_entity_update_sync(&r, c, "node", "1", ARTICLE, strlen(ARTICLE)), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 403);
    drupal_response_free(r);

    /* An unknown token is anonymous. */
    CHECK_CODE(drupal_client_set_bearer_token(c, "unknown-token"), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "2"), DRUPAL_E_HTTP);
    CHECK(drupal_response_status(r) == 401 || drupal_response_status(r) == 403);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* ---- CSRF refresh-and-retry ----------------------------------------------------------------- */

static void test_csrf_retry(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    waiter w;

    CHECK_CODE(drupal_login_sync(&r, c, "admin", "admin"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_create_sync(&r, c, "node", ARTICLE, strlen(ARTICLE)), DRUPAL_OK);
    drupal_response_free(r);

    /* The server forgets every token: the next write gets 403, and the library fetches a new
     * token and retries once, so the caller sees success. */
    CHECK_CODE(fake_control("/__fake/invalidate-csrf", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_entity_create_sync(&r, c, "node", ARTICLE, strlen(ARTICLE)), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    drupal_response_free(r);

    CHECK_CODE(fake_control("/__fake/invalidate-csrf", NULL), DRUPAL_OK);
    ASYNC(w, drupal_entity_update(NULL, c, "node", "1", ARTICLE, strlen(ARTICLE), waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    waiter_clear(&w);

    /* The logout token comes only with a login (no endpoint renews it), so after the server
     * dropped every token Drupal refuses it with 403, as a real site would. */
    CHECK_CODE(drupal_logout_sync(&r, c), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_status(r), 403);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* ---- Two clients, two users ----------------------------------------------------------------- */

static int64_t create_and_get_owner(drupal_client *c) {
    drupal_response *r = NULL;
    json_t *node = NULL;
    int64_t uid = -1;
    if (drupal_entity_create_sync(&r, c, "node", ARTICLE, strlen(ARTICLE)) == DRUPAL_OK &&
        drupal_response_json(&node, r) == DRUPAL_OK)
        drupal_json_field_target_id(&uid, node, "uid", 0);
    json_decref(node);
    drupal_response_free(r);
    return uid;
}

static void test_two_clients(void) {
    drupal_client *a = new_client(), *b = new_client();
    drupal_response *r = NULL;
    int logged_in = -1;

    CHECK_CODE(drupal_login_sync(&r, a, "admin", "admin"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_login_sync(&r, b, "editor", "editor"), DRUPAL_OK);
    drupal_response_free(r);

    CHECK_INT(create_and_get_owner(a), 1);
    CHECK_INT(create_and_get_owner(b), 2);
    CHECK_INT(create_and_get_owner(a), 1);

    /* Only the admin may edit node 1. */
    CHECK_CODE(drupal_entity_update_sync(&r, b, "node", "1", ARTICLE, strlen(ARTICLE)), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_status(r), 403);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_update_sync(&r, a, "node", "1", ARTICLE, strlen(ARTICLE)), DRUPAL_OK);
    drupal_response_free(r);

    /* One logging out leaves the other's session alone. */
    CHECK_CODE(drupal_logout_sync(&r, a), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, a), DRUPAL_OK);
    CHECK_INT(logged_in, 0);
    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, b), DRUPAL_OK);
    CHECK_INT(logged_in, 1);
    CHECK_INT(create_and_get_owner(b), 2);
    drupal_client_free(a);
    drupal_client_free(b);
}

/* A cookie session with Basic set too: /session/token and /user/login_status go with the cookie
 * alone (Drupal refuses Basic there with 403), so stale-token recovery and login status work. */
static void test_cookie_and_basic(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    int logged_in = -1;

    CHECK_CODE(drupal_login_sync(&r, c, "editor", "editor"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_client_set_basic_auth(c, "editor", "editor"), DRUPAL_OK);
    CHECK_CODE(drupal_login_status_sync(&r, &logged_in, c), DRUPAL_OK);
    CHECK_INT(logged_in, 1);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    CHECK_STR(drupal_response_body(r, NULL), "1");
    drupal_response_free(r);

    CHECK_CODE(fake_control("/__fake/invalidate-csrf", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_entity_create_sync(&r, c, "node", ARTICLE, strlen(ARTICLE)), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    drupal_response_free(r);
    CHECK_CODE(drupal_csrf_refresh_sync(&r, c), DRUPAL_OK);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* Login status gives the response, so a failure keeps its status and message. */
static void test_login_status_response(void) {
    drupal_client *c = NULL;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    const char *fault[] = {"X-Fake-Fault: status;code=503", NULL};
    drupal_response *r = NULL;
    int logged_in = -1;
    waiter w;

    options.headers = fault;
    CHECK_CODE(drupal_client_new(&c, base_url(), &options), DRUPAL_OK);
    CHECK_CODE(drupal_login_status_sync(&r, &logged_in, c), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 503);
    CHECK_INT(logged_in, 0);
    drupal_response_free(r);
    ASYNC(w, drupal_login_status(NULL, c, waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_E_HTTP, 503);
    waiter_clear(&w);
    /* out may be NULL when only the answer is wanted. */
    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, c), DRUPAL_E_HTTP);
    drupal_client_free(c);
}

static void test_has_and_forget_session(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    int logged_in = -1;

    CHECK_INT(drupal_client_has_session(c), 0);
    CHECK_INT(drupal_client_has_session(NULL), 0);
    CHECK_CODE(drupal_client_forget_session(NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_login_sync(&r, c, "admin", "admin"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_INT(drupal_client_has_session(c), 1);
    CHECK_CODE(drupal_client_forget_session(c), DRUPAL_OK);
    CHECK_INT(drupal_client_has_session(c), 0);
    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, c), DRUPAL_OK);
    CHECK_INT(logged_in, 0);
    CHECK_CODE(drupal_logout_sync(&r, c), DRUPAL_E_STATE);
    drupal_response_free(r);
    drupal_client_free(c);
}

int main(void) {
    fake_reset();
    test_cookie_and_basic();
    test_login_status_response();
    test_has_and_forget_session();
    test_login_sync();
    test_login_async();
    test_events();
    test_basic_and_bearer();
    test_csrf_retry();
    test_two_clients();
    return check_summary();
}
