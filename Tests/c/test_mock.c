/* The mock client: an in-memory Drupal with users, entities, views and stubs (no server). */
#include "check.h"

static void test_mock(void) {
    drupal_client *m = NULL, *live = NULL;
    drupal_response *r = NULL;
    char *uid = NULL, *nid = NULL;
    const char *roles[] = {"content_editor", NULL};
    const char *page1[] = {"page", "1", NULL};
    const char *article = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"Mock article\"}]}";
    const char *patch = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"Mock renamed\"}]}";
    json_t *body = NULL;
    const char *s = NULL;
    int logged_in = -1;
    size_t count = 0;
    char created[32];
    int64_t id = 0;
    waiter w;

    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_user(&uid, m, "frank", "frankpw", roles), DRUPAL_OK);
    CHECK(uid != NULL && uid[0] != '\0');
    CHECK_CODE(drupal_mock_add_user(NULL, m, "gina", "ginapw", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_entity(&nid, m, "node", article), DRUPAL_OK);
    CHECK(nid != NULL && nid[0] != '\0');

    /* Login as the added user, async, then the status. */
    ASYNC(w, drupal_login(NULL, m, "frank", "frankpw", waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&body, w.response), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_string(&s, json_object_get(body, "current_user"), "name"), DRUPAL_OK);
    CHECK_STR(s, "frank");
    CHECK_CODE(drupal_json_field_string(&s, json_object_get(body, "current_user"), "uid"), DRUPAL_OK);
    CHECK_STR(s, uid);
    json_decref(body);
    waiter_clear(&w);
    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, m), DRUPAL_OK);
    CHECK_INT(logged_in, 1);
    CHECK_CODE(drupal_logout_sync(&r, m), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_login_sync(&r, m, "frank", "wrong"), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_status(r), 400);
    drupal_response_free(r);

    CHECK_CODE(drupal_login_sync(&r, m, "admin", "admin"), DRUPAL_OK);
    drupal_response_free(r);

    /* The added entity, then CRUD. */
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", nid), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&body, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_string(&s, body, "title"), DRUPAL_OK);
    CHECK_STR(s, "Mock article");
    json_decref(body);
    drupal_response_free(r);

    CHECK_CODE(drupal_entity_create_sync(&r, m, "node", article, strlen(article)), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    CHECK_CODE(drupal_response_json(&body, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_int(&id, body, "nid"), DRUPAL_OK);
    snprintf(created, sizeof created, "%lld", (long long)id);
    json_decref(body);
    drupal_response_free(r);
    ASYNC(w, drupal_entity_update(NULL, m, "node", created, patch, strlen(patch), waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    waiter_clear(&w);
    CHECK_CODE(drupal_entity_delete_sync(&r, m, "node", created), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 204);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", created), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 404);
    drupal_response_free(r);

    /* The paged view. */
    CHECK_CODE(drupal_view_sync(&r, m, "/api/articles", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&body, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_view_count(&count, body), DRUPAL_OK);
    CHECK(count >= 1 && count <= 2);
    json_decref(body);
    drupal_response_free(r);
    CHECK_CODE(drupal_view_sync(&r, m, "/api/articles", page1), DRUPAL_OK);
    drupal_response_free(r);

    /* A stub overrides everything; a later one replaces it. */
    CHECK_CODE(drupal_mock_stub(m, "GET", "/node/1", 503, "text/plain", "down", 4), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", "1"), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 503);
    CHECK_STR(drupal_response_body(r, NULL), "down");
    drupal_response_free(r);
    CHECK_CODE(drupal_mock_stub(m, "GET", "/custom/thing", 200, "application/json", "{\"ok\":true}", 11), DRUPAL_OK);
    CHECK_CODE(drupal_request_sync(&r, m, "GET", "/custom/thing", NULL), DRUPAL_OK);
    CHECK_STR(drupal_response_body(r, NULL), "{\"ok\":true}");
    CHECK(strstr(drupal_response_header(r, "content-type"), "application/json") != NULL);
    drupal_response_free(r);

    /* Mock-only functions refuse a live client. */
    CHECK_CODE(drupal_client_new(&live, "http://127.0.0.1:1", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_user(NULL, live, "x", "y", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_entity(NULL, live, "node", article), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_stub(live, "GET", "/x", 200, "text/plain", "x", 1), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(live);

    drupal_free(uid);
    drupal_free(nid);
    drupal_client_free(m);
}

/* *call is set before the call starts, so a callback that runs before drupal_X returns finds its
 * call there. (Its thread wakes in microseconds, after drupal_X has returned nearly always: this
 * guards the order rather than catching it often.) Not under TSan: the library orders its store
 * before the callback through its dispatch queue, which TSan does not see. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

#ifndef UNDER_TSAN
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t ended;
    drupal_call *call;
    int done, call_missing;
} own_call;

static void note_own_call(drupal_code code, drupal_response *response, void *userdata) {
    own_call *c = userdata;
    (void)code;
    (void)response;
    pthread_mutex_lock(&c->lock);
    c->call_missing += c->call == NULL;
    c->done = 1;
    pthread_cond_signal(&c->ended);
    pthread_mutex_unlock(&c->lock);
}

static void test_call_set_before_the_callback(void) {
    drupal_client *m = NULL;
    own_call c;
    memset(&c, 0, sizeof c);
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.ended, NULL);
    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    for (int i = 0; i < 300; i++) {
        c.call = NULL;
        c.done = 0;
        CHECK_CODE(drupal_entity_get(&c.call, m, "node", "1", note_own_call, &c), DRUPAL_OK);
        pthread_mutex_lock(&c.lock);
        while (!c.done) pthread_cond_wait(&c.ended, &c.lock);
        pthread_mutex_unlock(&c.lock);
        drupal_call_free(c.call);
    }
    CHECK_INT(c.call_missing, 0);
    /* A call that does not start leaves *call NULL. */
    c.call = (drupal_call *)&c;
    CHECK_CODE(drupal_entity_get(&c.call, m, "node", "", note_own_call, &c), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(c.call == NULL);
    drupal_client_free(m);
    pthread_cond_destroy(&c.ended);
    pthread_mutex_destroy(&c.lock);
}
#else
static void test_call_set_before_the_callback(void) {}
#endif

/* simple_oauth on the mock: a consumer, its grants, the refresh after the tokens expire. */
static void test_mock_oauth(void) {
    drupal_client *m = NULL, *live = NULL;
    drupal_response *r = NULL;
    drupal_oauth_options o = DRUPAL_OAUTH_OPTIONS_INIT;
    const char *grants[] = {"client_credentials", "password", "refresh_token", NULL};
    const char *bad_grants[] = {"client_credentials", "implicit", NULL};
    const char *article = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"By token\"}]}";
    json_t *node = NULL;
    char *kept = NULL, *rotated = NULL;

    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_oauth_consumer(m, "app", "app-secret", grants, "2", NULL), DRUPAL_OK);
    o.client_id = "app";
    o.client_secret = "app-secret";
    o.grant = DRUPAL_OAUTH_CLIENT_CREDENTIALS;
    CHECK_CODE(drupal_client_set_oauth(m, &o), DRUPAL_OK);
    CHECK_CODE(drupal_entity_create_sync(&r, m, "node", article, strlen(article)), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    if (drupal_response_json(&node, r) == DRUPAL_OK) {
        json_t *owner = json_object_get(json_array_get(json_object_get(node, "uid"), 0), "target_id");
        CHECK(json_is_integer(owner) && json_integer_value(owner) == 2);   /* the consumer's user */
        json_decref(node);
    }
    drupal_response_free(r);

    /* The password grant, then a refresh once the tokens expire: the refresh token rotates. */
    o.grant = DRUPAL_OAUTH_PASSWORD;
    o.username = "admin";
    o.password = "admin";
    CHECK_CODE(drupal_client_set_oauth(m, &o), DRUPAL_OK);
    CHECK_CODE(drupal_oauth_authenticate_sync(&r, m), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_client_oauth_refresh_token(&kept, m), DRUPAL_OK);
    CHECK(kept != NULL && strncmp(kept, "def50200", 8) == 0);
    CHECK_CODE(drupal_mock_expire_oauth_tokens(m), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "user", "1"), DRUPAL_OK);   /* admin's own account */
    drupal_response_free(r);
    CHECK_CODE(drupal_client_oauth_refresh_token(&rotated, m), DRUPAL_OK);
    CHECK(rotated != NULL && kept != NULL && strcmp(rotated, kept) != 0);

    /* A wrong password is league's invalid_grant, an authentication failure. */
    o.password = "wrong";
    CHECK_CODE(drupal_client_set_oauth(m, &o), DRUPAL_OK);
    CHECK_CODE(drupal_oauth_authenticate_sync(&r, m), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_error_kind(r), DRUPAL_ERROR_KIND_AUTHENTICATION);
    CHECK_STR(drupal_response_oauth_error(r, "error"), "invalid_grant");
    drupal_response_free(r);

    /* Bad input, nothing added. */
    CHECK_CODE(drupal_mock_add_oauth_consumer(m, NULL, NULL, NULL, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_oauth_consumer(m, "", NULL, NULL, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_oauth_consumer(m, "x", NULL, bad_grants, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "grants[1]") != NULL);
    CHECK_CODE(drupal_mock_add_oauth_consumer(NULL, "x", NULL, NULL, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_expire_oauth_tokens(NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_client_new(&live, "http://127.0.0.1:1", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_oauth_consumer(live, "x", NULL, NULL, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_expire_oauth_tokens(live), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(live);
    drupal_free(kept);
    drupal_free(rotated);
    drupal_client_free(m);
}

/* Languages on the mock: French at /fr, node 1 translated; reads, the fallback, writes. */
static void test_mock_languages(void) {
    drupal_client *m = NULL, *fr = NULL, *live = NULL;
    drupal_response *r = NULL;
    char *nid = NULL, *other = NULL;
    const char *article = "{\"type\":\"article\",\"title\":\"Article\"}";
    const char *patch = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"Article FR 2\"}]}";

    CHECK_CODE(drupal_mock_client_new(&m), DRUPAL_OK);
    drupal_client_set_basic_auth(m, "admin", "admin");
    CHECK_CODE(drupal_mock_add_entity(&nid, m, "node", article), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_entity(&other, m, "node", article), DRUPAL_OK);
    /* Not a language yet: refused, nothing added. */
    CHECK_CODE(drupal_mock_add_translation(m, "node", nid, "fr", "{\"title\":\"Article FR\"}"),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_language(m, "fr", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_translation(m, "node", nid, "fr", "{\"title\":\"Article FR\"}"), DRUPAL_OK);

    CHECK_CODE(drupal_client_with_language(&fr, m, "fr", 0), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, fr, "node", nid), DRUPAL_OK);
    CHECK_STR(drupal_response_langcode(r), "fr");
    CHECK_STR(drupal_response_header(r, "Content-Language"), "fr");
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_get_sync(&r, fr, "node", other), DRUPAL_OK);   /* no translation: the original */
    CHECK_STR(drupal_response_langcode(r), "en");
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_update_sync(&r, fr, "node", nid, patch, strlen(patch)), DRUPAL_OK);
    CHECK_STR(drupal_response_langcode(r), "fr");
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_get_sync(&r, m, "node", nid), DRUPAL_OK);      /* the original is untouched */
    CHECK_STR(drupal_response_langcode(r), "en");
    CHECK(strstr(drupal_response_body(r, NULL), "\"Article\"") != NULL);
    drupal_response_free(r);

    /* Bad input. */
    CHECK_CODE(drupal_mock_add_language(m, "en", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_language(m, "f/r", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_language(m, "de", "d e"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_language(m, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_language(NULL, "de", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_translation(m, "node", "99", "fr", "{}"), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_mock_add_translation(m, "node", nid, "fr", "[1]"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_translation(m, "node", nid, "fr", "{"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_translation(m, NULL, nid, "fr", "{}"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_translation(m, "node", nid, "fr", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_client_new(&live, "http://127.0.0.1:1", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_mock_add_language(live, "de", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_add_translation(live, "node", "1", "fr", "{}"), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(live);
    drupal_client_free(fr);
    drupal_free(nid);
    drupal_free(other);
    drupal_client_free(m);
}

int main(void) {
    test_mock();
    test_mock_oauth();
    test_mock_languages();
    test_call_set_before_the_callback();
    return check_summary();
}
