/* OAuth 2 from C against the fake's extended site: the password and client_credentials grants,
 * a forced expiry survived with one refresh (blocking, async, 16 threads), token errors in the
 * error model, refused Bearer tokens, token providers, bad input, secrets kept out of errors, and
 * the authorization code grant with PKCE (drupal_oauth_authorization_*). */
#include "check.h"
#include <math.h>

static const char *ARTICLE = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"oauth test\"}]}";

static void ext_reset(void) {
    if (fake_control_at(extended_url(), "POST", "/__fake/reset", NULL, NULL) != DRUPAL_OK) {
        fprintf(stderr, "could not reset the extended fake server at %s\n", extended_url());
        exit(2);
    }
}

static void ext_post(const char *path, const char *json) {
    CHECK_CODE(fake_control_at(extended_url(), "POST", path, json, NULL), DRUPAL_OK);
}

/* token_requests, or token_grants[grant] when grant is given, from /__fake/stats. */
static long long token_stat(const char *grant) {
    json_t *stats = NULL, *value;
    long long n = -1;
    if (fake_control_at(extended_url(), "GET", "/__fake/stats", NULL, &stats) != DRUPAL_OK || !stats) return -1;
    value = grant ? json_object_get(json_object_get(stats, "token_grants"), grant) : json_object_get(stats, "token_requests");
    n = value ? json_integer_value(value) : 0;
    json_decref(stats);
    return n;
}

static drupal_client *oauth_client(drupal_oauth_grant grant, const char *user, const char *secret) {
    drupal_client *c = NULL;
    drupal_oauth_options o = DRUPAL_OAUTH_OPTIONS_INIT;
    if (drupal_client_new(&c, extended_url(), NULL) != DRUPAL_OK) {
        fprintf(stderr, "drupal_client_new: %s\n", drupal_last_error());
        exit(2);
    }
    o.grant = grant;
    o.client_id = "sdk-client";
    o.client_secret = secret;
    o.username = user;
    o.password = user;
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_OK);
    return c;
}

static void check_title(drupal_client *c, const char *id, const char *title) {
    drupal_response *r = NULL;
    json_t *node = NULL;
    const char *value = NULL;
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", id), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    if (drupal_response_json(&node, r) == DRUPAL_OK) {
        CHECK_CODE(drupal_json_field_string(&value, node, "title"), DRUPAL_OK);
        CHECK_STR(value, title);
        json_decref(node);
    }
    drupal_response_free(r);
}

static void test_password_grant_survives_forced_expiry(void) {
    drupal_client *c;
    drupal_response *r = NULL;
    waiter w;
    ext_reset();
    c = oauth_client(DRUPAL_OAUTH_PASSWORD, "admin", "sdk-secret");
    check_title(c, "1", "Article 1");
    check_title(c, "2", "Article 2");
    CHECK_INT(token_stat(NULL), 1);

    ext_post("/__fake/oauth-expire", NULL);  /* the site now refuses the token: 401 */
    check_title(c, "1", "Article 1");        /* one refresh, one retry */
    CHECK_INT(token_stat("refresh_token"), 1);

    ext_post("/__fake/oauth-expire", NULL);
    ASYNC(w, drupal_entity_get(NULL, c, "node", "3", waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_OK);
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    waiter_clear(&w);
    CHECK_INT(token_stat("refresh_token"), 2);

    /* A write with the Bearer token needs no CSRF token. */
    ext_post("/__fake/oauth-expire", NULL);
    CHECK_CODE(drupal_entity_create_sync(&r, c, "node", ARTICLE, strlen(ARTICLE)), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    drupal_response_free(r);
    CHECK_INT(token_stat("refresh_token"), 3);
    CHECK_INT(token_stat("password"), 1);
    drupal_client_free(c);
}

static void test_client_credentials_and_authenticate(void) {
    drupal_client *c;
    drupal_response *r = NULL;
    const char *body;
    ext_reset();
    c = oauth_client(DRUPAL_OAUTH_CLIENT_CREDENTIALS, NULL, "sdk-secret");
    CHECK_CODE(drupal_oauth_authenticate_sync(&r, c), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    body = drupal_response_body(r, NULL);
    CHECK(strstr(body, "\"token_type\":\"Bearer\"") != NULL);
    CHECK(strstr(body, "\"has_refresh_token\":false") != NULL);
    CHECK(strstr(body, "access_token") == NULL && strstr(body, "eyJ") == NULL);
    drupal_response_free(r);
    check_title(c, "4", "Article 4");
    ext_post("/__fake/oauth-expire", NULL);
    check_title(c, "4", "Article 4");        /* no refresh token: a new client_credentials token */
    CHECK_INT(token_stat("client_credentials"), 2);
    CHECK_INT(token_stat("refresh_token"), 0);
    drupal_client_free(c);

    /* Not an OAuth client: nothing to authenticate. */
    c = new_client();
    r = (drupal_response *)&r;
    CHECK_CODE(drupal_oauth_authenticate_sync(&r, c), DRUPAL_E_STATE);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* ---- 16 threads, one refresh -------------------------------------------------------------- */

typedef struct {
    drupal_client *client;
    int failures;
} worker_arg;

static void *worker(void *p) {
    worker_arg *a = p;
    drupal_response *r = NULL;
    if (drupal_entity_get_sync(&r, a->client, "node", "1") != DRUPAL_OK || drupal_response_status(r) != 200) a->failures++;
    drupal_response_free(r);
    return NULL;
}

static void test_sixteen_threads_one_refresh(void) {
    enum { N = 16 };
    pthread_t threads[N];
    worker_arg args[N];
    drupal_client *c;
    waiter ws[N];
    long long before;
    int i, failures = 0;
    ext_reset();
    c = oauth_client(DRUPAL_OAUTH_PASSWORD, "editor", "sdk-secret");
    check_title(c, "1", "Article 1");

    /* Blocking calls on 16 threads, the token just expired: exactly one refresh. */
    ext_post("/__fake/oauth-expire", NULL);
    before = token_stat(NULL);
    for (i = 0; i < N; i++) {
        args[i].client = c;
        args[i].failures = 0;
        pthread_create(&threads[i], NULL, worker, &args[i]);
    }
    for (i = 0; i < N; i++) {
        pthread_join(threads[i], NULL);
        failures += args[i].failures;
    }
    CHECK_INT(failures, 0);
    CHECK_INT(token_stat(NULL) - before, 1);

    /* The same with 16 async calls in flight. */
    ext_post("/__fake/oauth-expire", NULL);
    before = token_stat(NULL);
    for (i = 0; i < N; i++) {
        waiter_init(&ws[i]);
        CHECK_CODE(drupal_entity_get(NULL, c, "node", "2", waiter_callback, &ws[i]), DRUPAL_OK);
    }
    for (i = 0; i < N; i++) {
        CHECK_INT(waiter_wait(&ws[i], 30), DRUPAL_OK);
        waiter_clear(&ws[i]);
    }
    CHECK_INT(token_stat(NULL) - before, 1);
    drupal_client_free(c);
}

/* ---- Errors ---------------------------------------------------------------------------------- */

static void test_token_errors(void) {
    drupal_client *c;
    drupal_response *r = NULL;
    drupal_oauth_options o = DRUPAL_OAUTH_OPTIONS_INIT;
    ext_reset();
    c = oauth_client(DRUPAL_OAUTH_CLIENT_CREDENTIALS, NULL, "wrong-secret");
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 401);
    CHECK_INT(drupal_response_error_kind(r), DRUPAL_ERROR_KIND_AUTHENTICATION);
    CHECK_STR(drupal_response_oauth_error(r, "error"), "invalid_client");
    CHECK_STR(drupal_response_oauth_error(r, "error_description"), "Client authentication failed");
    CHECK(drupal_response_oauth_error(r, "hint") == NULL);
    CHECK(drupal_response_oauth_error(r, "nope") == NULL);
    CHECK(drupal_response_oauth_error(r, NULL) == NULL);
    CHECK(strstr(drupal_response_error_message(r), "invalid_client") != NULL);
    CHECK(strstr(drupal_response_error_message(r), "wrong-secret") == NULL);
    CHECK(strstr(drupal_last_error(), "wrong-secret") == NULL);
    drupal_response_free(r);
    CHECK_INT(token_stat(NULL), 1);          /* tried once, never in a loop */
    drupal_client_free(c);

    c = oauth_client(DRUPAL_OAUTH_PASSWORD, "admin", "sdk-secret");
    o.grant = DRUPAL_OAUTH_PASSWORD;
    o.client_id = "sdk-client";
    o.client_secret = "sdk-secret";
    o.username = "admin";
    o.password = "not-the-password";
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_OK);
    CHECK_CODE(drupal_oauth_authenticate_sync(&r, c), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 400);
    CHECK_INT(drupal_response_error_kind(r), DRUPAL_ERROR_KIND_AUTHENTICATION);
    CHECK_STR(drupal_response_oauth_error(r, "error"), "invalid_grant");
    CHECK(strstr(drupal_response_error_message(r), "not-the-password") == NULL);
    drupal_response_free(r);

    o.grant = DRUPAL_OAUTH_REFRESH_TOKEN;
    o.refresh_token = "def50200notatoken";
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_E_HTTP);
    CHECK_STR(drupal_response_oauth_error(r, "error"), "invalid_grant");
    CHECK(strstr(drupal_response_error_message(r), "def50200notatoken") == NULL);
    drupal_response_free(r);

    o.grant = DRUPAL_OAUTH_CLIENT_CREDENTIALS;
    o.scope = "no_such_scope";
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_OK);
    CHECK_CODE(drupal_oauth_authenticate_sync(&r, c), DRUPAL_E_HTTP);
    CHECK_STR(drupal_response_oauth_error(r, "error"), "invalid_scope");
    CHECK_STR(drupal_response_oauth_error(r, "hint"), "Check the `no_such_scope` scope");
    drupal_response_free(r);
    drupal_client_free(c);
}

static void test_refused_bearer_token(void) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    ext_reset();
    CHECK_CODE(drupal_client_new(&c, extended_url(), NULL), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_bearer_token(c, "garbage"), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 401);
    CHECK_INT(drupal_response_error_kind(r), DRUPAL_ERROR_KIND_AUTHENTICATION);
    CHECK_STR(drupal_response_oauth_error(r, "error"), "access_denied");
    CHECK_STR(drupal_response_oauth_error(r, "realm"), "OAuth");
    CHECK_STR(drupal_response_oauth_error(r, "error_description"), "The JWT string must have two dots");
    CHECK(drupal_response_header(r, "WWW-Authenticate") != NULL);
    drupal_response_free(r);
    /* JSON:API answers with an HTML page, but the challenge says the same. */
    o.no_format = 1;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/jsonapi/node/article", &o), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 401);
    CHECK_STR(drupal_response_oauth_error(r, "error_description"), "The JWT string must have two dots");
    CHECK(strstr(drupal_response_error_message(r), "The JWT string must have two dots") != NULL);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* ---- Token providers --------------------------------------------------------------------------- */

typedef struct {
    pthread_mutex_t lock;
    int calls;
    drupal_token_reason reasons[8];
    drupal_code answer;
} provider_state;

static drupal_code provider(drupal_token_request *request, void *userdata) {
    provider_state *s = userdata;
    int call;
    drupal_code answer;
    pthread_mutex_lock(&s->lock);
    call = s->calls++;
    if (call < 8) s->reasons[call] = drupal_token_request_reason(request);
    answer = s->answer;
    pthread_mutex_unlock(&s->lock);
    if (answer != DRUPAL_OK) return answer;
    /* The first token is one the site does not know: refused, then asked again. */
    return drupal_token_request_set(request, call == 0 ? "stale.token.x" : "minted-elsewhere", 300);
}

/* The provider's state as the test reads it: under its lock, as the provider's thread writes it
 * (the library orders the two, through synchronisation TSan cannot see in the Swift runtime). */
typedef struct { int calls; drupal_token_reason reasons[8]; } provider_record;
static provider_record provider_seen(provider_state *s) {
    provider_record seen;
    pthread_mutex_lock(&s->lock);
    seen.calls = s->calls;
    memcpy(seen.reasons, s->reasons, sizeof seen.reasons);
    pthread_mutex_unlock(&s->lock);
    return seen;
}

static drupal_code bad_provider(drupal_token_request *request, void *userdata) {
    (void)userdata;
    CHECK_CODE(drupal_token_request_set(request, "has space", 10), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_token_request_set(request, NULL, 10), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_token_request_set(NULL, "x", 10), DRUPAL_E_INVALID_ARGUMENT);
    /* A lifetime that is no number of seconds is refused (0 or less means unknown). */
    CHECK_CODE(drupal_token_request_set(request, "x", NAN), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "lifetime") != NULL);
    CHECK_CODE(drupal_token_request_set(request, "x", INFINITY), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_token_request_set(request, "x", -INFINITY), DRUPAL_E_INVALID_ARGUMENT);
    {   /* A token too long to send is refused as such, not as one with spaces. */
        size_t length = 70000;
        char *long_token = malloc(length + 1);
        if (long_token) {
            memset(long_token, 'a', length);
            long_token[length] = 0;
            CHECK_CODE(drupal_token_request_set(request, long_token, 10), DRUPAL_E_INVALID_ARGUMENT);
            CHECK(strstr(drupal_last_error(), "limit") != NULL);
            CHECK(strstr(drupal_last_error(), "aaaa") == NULL);
            free(long_token);
        }
    }
    return DRUPAL_OK;  /* without a token set */
}

static void test_token_provider(void) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    provider_state s = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, DRUPAL_OK};
    ext_reset();
    ext_post("/__fake/bearer", "{\"token\": \"minted-elsewhere\", \"uid\": 2}");
    CHECK_CODE(drupal_client_new(&c, extended_url(), NULL), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_token_provider(c, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_client_set_token_provider(NULL, provider, &s), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_client_set_token_provider(c, provider, &s), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "2"), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    drupal_response_free(r);
    CHECK_INT(provider_seen(&s).calls, 2);
    CHECK_INT(provider_seen(&s).reasons[0], DRUPAL_TOKEN_INITIAL);
    CHECK_INT(provider_seen(&s).reasons[1], DRUPAL_TOKEN_REJECTED);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "2"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_INT(provider_seen(&s).calls, 2);

    /* A provider's failure fails the call with its code. */
    pthread_mutex_lock(&s.lock);
    s.answer = DRUPAL_E_NETWORK;
    pthread_mutex_unlock(&s.lock);
    CHECK_CODE(drupal_oauth_authenticate_sync(&r, c), DRUPAL_E_NETWORK);
    CHECK(strstr(drupal_response_error_message(r), "token provider") != NULL);
    drupal_response_free(r);

    CHECK_CODE(drupal_client_set_token_provider(c, bad_provider, NULL), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "2"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_response_error_message(r), "has space") == NULL);
    drupal_response_free(r);
    CHECK_INT(drupal_token_request_reason(NULL), 0);
    drupal_client_free(c);
}

/* Regression: a first drupal_oauth_authenticate() asked the provider with DRUPAL_TOKEN_INITIAL;
 * the header promises DRUPAL_TOKEN_REJECTED for it. */
static void test_authenticate_asks_with_rejected(void) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    provider_state s = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, DRUPAL_OK};
    ext_reset();
    CHECK_CODE(drupal_client_new(&c, extended_url(), NULL), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_token_provider(c, provider, &s), DRUPAL_OK);
    CHECK_CODE(drupal_oauth_authenticate_sync(&r, c), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_INT(provider_seen(&s).calls, 1);
    CHECK_INT(provider_seen(&s).reasons[0], DRUPAL_TOKEN_REJECTED);
    drupal_client_free(c);
}

/* A provider may call other clients, and async ones on its own; a _sync call on its own client
 * would wait for the token it is fetching: refused at once. */
typedef struct {
    drupal_client *client, *other;
    drupal_code own_sync, other_sync;
} reentrant_state;

static drupal_code reentrant_provider(drupal_token_request *request, void *userdata) {
    reentrant_state *s = userdata;
    drupal_response *r = NULL;
    drupal_code own, other;
    own = drupal_request_sync(&r, s->client, "GET", "/node/1", NULL);
    drupal_response_free(r);
    r = NULL;
    other = drupal_request_sync(&r, s->other, "GET", "/session/token", NULL);
    drupal_response_free(r);
    pthread_mutex_lock(&check_lock);   /* read by the test under it (see provider_seen) */
    s->own_sync = own;
    s->other_sync = other;
    pthread_mutex_unlock(&check_lock);
    return drupal_token_request_set(request, "minted-elsewhere", 300);
}

static void test_provider_calling_its_own_client(void) {
    drupal_response *r = NULL;
    reentrant_state s = {NULL, NULL, DRUPAL_E_INTERNAL, DRUPAL_E_INTERNAL};
    drupal_code own_sync, other_sync;
    double t0;
    ext_reset();
    ext_post("/__fake/bearer", "{\"token\": \"minted-elsewhere\", \"uid\": 2}");
    CHECK_CODE(drupal_client_new(&s.client, extended_url(), NULL), DRUPAL_OK);
    CHECK_CODE(drupal_client_new(&s.other, extended_url(), NULL), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_token_provider(s.client, reentrant_provider, &s), DRUPAL_OK);
    t0 = now_seconds();
    CHECK_CODE(drupal_entity_get_sync(&r, s.client, "user", "2"), DRUPAL_OK);
    CHECK(now_seconds() - t0 < 5.0);
    drupal_response_free(r);
    pthread_mutex_lock(&check_lock);
    own_sync = s.own_sync;
    other_sync = s.other_sync;
    pthread_mutex_unlock(&check_lock);
    CHECK_INT(own_sync, DRUPAL_E_STATE);
    CHECK_INT(other_sync, DRUPAL_OK);
    drupal_client_free(s.other);
    drupal_client_free(s.client);
}

/* ---- Waiting for a token: timeouts, cancellation, drupal_client_free ---------------------------- */

/* A provider that blocks for `seconds` (a vault that does not answer), then gives a token. */
typedef struct {
    pthread_mutex_t lock;
    double seconds;
    int runs, running;
} slow_state;

static drupal_code slow_provider(drupal_token_request *request, void *userdata) {
    slow_state *s = userdata;
    pthread_mutex_lock(&s->lock);
    s->runs++;
    s->running = 1;
    pthread_mutex_unlock(&s->lock);
    sleep_ms((long)(s->seconds * 1000));
    pthread_mutex_lock(&s->lock);
    s->running = 0;
    pthread_mutex_unlock(&s->lock);
    return drupal_token_request_set(request, "minted-elsewhere", 300);
}

static int slow_running(slow_state *s) {
    int running;
    pthread_mutex_lock(&s->lock);
    running = s->running;
    pthread_mutex_unlock(&s->lock);
    return running;
}

/* How many times the provider ran, read under its lock as slow_running (see provider_seen). */
static int slow_runs(slow_state *s) {
    int runs;
    pthread_mutex_lock(&s->lock);
    runs = s->runs;
    pthread_mutex_unlock(&s->lock);
    return runs;
}

static drupal_client *slow_client(slow_state *s, double timeout) {
    drupal_client *c = NULL;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    options.timeout = timeout;
    CHECK_CODE(drupal_client_new(&c, extended_url(), &options), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_token_provider(c, slow_provider, s), DRUPAL_OK);
    return c;
}

/* Regression: a call whose timeout is 1 s waited the 6 s of its provider. It gives up at its
 * timeout now, as a request does; drupal_client_free still waits for the provider to end. */
static void test_a_slow_provider_ends_with_the_timeout(void) {
    slow_state s = {PTHREAD_MUTEX_INITIALIZER, 6.0, 0, 0};
    drupal_response *r = NULL;
    drupal_client *c;
    double t0;
    ext_reset();
    ext_post("/__fake/bearer", "{\"token\": \"minted-elsewhere\", \"uid\": 2}");
    c = slow_client(&s, 1);
    t0 = now_seconds();
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "2"), DRUPAL_E_TIMEOUT);
    CHECK(now_seconds() - t0 < 4.0);
    CHECK(strstr(drupal_response_error_message(r), "timed out") != NULL);
    drupal_response_free(r);
    CHECK_INT(slow_running(&s), 1);
    drupal_client_free(c);
    CHECK_INT(slow_running(&s), 0);   /* s is about to go: the provider must be done with it */
    CHECK_INT(slow_runs(&s), 1);
}

/* Regression: the call running the provider could not be cancelled before the provider returned.
 * It ends at once now; the token the provider gives after all serves the next call. */
static void test_cancelling_the_call_that_runs_the_provider(void) {
    slow_state s = {PTHREAD_MUTEX_INITIALIZER, 3.0, 0, 0};
    drupal_response *r = NULL;
    drupal_call *call = NULL;
    drupal_client *c;
    waiter w;
    double t0;
    ext_reset();
    ext_post("/__fake/bearer", "{\"token\": \"minted-elsewhere\", \"uid\": 2}");
    c = slow_client(&s, 30);
    waiter_init(&w);
    t0 = now_seconds();
    CHECK_CODE(drupal_entity_get(&call, c, "user", "2", waiter_callback, &w), DRUPAL_OK);
    sleep_ms(300);
    CHECK_CODE(drupal_call_cancel(call), DRUPAL_OK);
    CHECK_INT(waiter_wait(&w, 30), DRUPAL_E_CANCELLED);
    CHECK(now_seconds() - t0 < 2.0);
    drupal_call_free(call);
    waiter_clear(&w);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "2"), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    drupal_response_free(r);
    CHECK_INT(slow_runs(&s), 1);
    drupal_client_free(c);

    /* Cancelled by drupal_client_free itself: it returns only once the provider has. */
    pthread_mutex_lock(&s.lock);
    s.runs = 0;
    pthread_mutex_unlock(&s.lock);
    c = slow_client(&s, 30);
    waiter_init(&w);
    CHECK_CODE(drupal_entity_get(NULL, c, "user", "2", waiter_callback, &w), DRUPAL_OK);
    sleep_ms(300);
    drupal_client_free(c);
    CHECK_INT(slow_running(&s), 0);
    CHECK_INT(waiter_wait(&w, 1), DRUPAL_E_CANCELLED);
    waiter_clear(&w);
    CHECK_INT(slow_runs(&s), 1);
}

/* ---- A provider's own message ------------------------------------------------------------------ */

static drupal_code vault_provider(drupal_token_request *request, void *userdata) {
    const char *message = userdata;
    return drupal_token_request_fail(request, DRUPAL_E_NETWORK, message);
}

static void check_provider_message(const char *given, const char *expected) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    const char *message;
    CHECK_CODE(drupal_client_new(&c, extended_url(), NULL), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_token_provider(c, vault_provider, (void *)given), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "2"), DRUPAL_E_NETWORK);
    message = drupal_response_error_message(r);
    if (expected) {
        CHECK(strstr(message, expected) != NULL);
        if (!strstr(message, expected)) fprintf(stderr, "  the message: %s\n", message);
    }
    CHECK(strchr(message, '\x1b') == NULL);
    CHECK(strlen(message) < 1200);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* Regression: a provider could say only a code; its reason never reached the call's error. */
static void test_a_providers_message_reaches_the_error(void) {
    static char long_message[5000];
    memset(long_message, 'v', sizeof long_message - 1);
    ext_reset();
    check_provider_message("the vault is sealed", "the token provider failed: the vault is sealed");
    check_provider_message("red \x1b[31m alert", "red \\u{1b}[31m alert");      /* control characters shown */
    check_provider_message("bad \xff byte", "bad \xef\xbf\xbd byte");          /* invalid UTF-8: U+FFFD */
    check_provider_message(long_message, "vvvv...");                           /* capped */
    CHECK_CODE(drupal_token_request_fail(NULL, DRUPAL_E_NETWORK, "x"), DRUPAL_E_INVALID_ARGUMENT);
}

/* A provider returning a code that is no drupal_code (a negative one) fails the call with
 * DRUPAL_E_INTERNAL, as the header says: it trapped the process (SIGILL) in the conversion. */
static drupal_code negative_provider(drupal_token_request *request, void *userdata) {
    if (userdata) return drupal_token_request_fail(request, (drupal_code)-1, "no such code");
    (void)request;
    return (drupal_code)-1;
}

static void test_a_provider_code_that_is_no_drupal_code(void) {
    int with_message;
    for (with_message = 0; with_message <= 1; with_message++) {
        drupal_client *c = NULL;
        drupal_response *r = NULL;
        CHECK_CODE(drupal_client_new(&c, extended_url(), NULL), DRUPAL_OK);
        CHECK_CODE(drupal_client_set_token_provider(c, negative_provider, with_message ? (void *)&c : NULL),
                   DRUPAL_OK);
        CHECK_CODE(drupal_entity_get_sync(&r, c, "user", "2"), DRUPAL_E_INTERNAL);
        drupal_response_free(r);
        drupal_client_free(c);
    }
}

static void test_bad_input(void) {
    drupal_client *c = new_client();
    drupal_oauth_options o = DRUPAL_OAUTH_OPTIONS_INIT;
    CHECK_CODE(drupal_client_set_oauth(NULL, &o), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_client_set_oauth(c, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);     /* no client id */
    o.client_id = "";
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);
    o.client_id = "sdk-client";
    o.version = 99;
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "99") != NULL);
    o.version = DRUPAL_OAUTH_OPTIONS_VERSION;
    o.grant = (drupal_oauth_grant)7;
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);
    o.grant = DRUPAL_OAUTH_PASSWORD;
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);     /* no username */
    o.username = "admin";
    o.password = "pa\r\nss-secret";
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "secret") == NULL);
    o.password = "\xff\xfe";
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);
    o.password = "admin";
    o.client_secret = "top\nsecret";
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "top") == NULL);
    o.client_secret = "sdk-secret";
    o.token_path = "/../oauth/token";
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);
    o.token_path = NULL;
    o.refresh_margin = 0.0 / 0.0;
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);
    o.refresh_margin = 1e300;   /* any length: the refresh comes at half the lifetime at the latest */
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_OK);
    o.refresh_margin = -1;
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_OK);
    CHECK(drupal_response_oauth_error(NULL, "error") == NULL);
    drupal_client_free(c);
}

static drupal_client *new_client_at(const char *url) {
    drupal_client *c = NULL;
    if (drupal_client_new(&c, url, NULL) != DRUPAL_OK) {
        fprintf(stderr, "drupal_client_new: %s\n", drupal_last_error());
        exit(2);
    }
    return c;
}

/* ---- The authorization code grant with PKCE ------------------------------------------------- */

static const char *REDIRECT_URI = "http://127.0.0.1:8765/callback";

/* What a browser with user's session is sent to by the authorize page (a copy to free). */
static char *approve(const char *url, const char *user) {
    drupal_client *browser = new_client_at(extended_url());
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *location;
    char *copy = NULL;
    size_t base = strlen(extended_url());
    CHECK_CODE(drupal_login_sync(&r, browser, user, user), DRUPAL_OK);
    drupal_response_free(r);
    r = NULL;
    o.no_format = 1;
    CHECK(strncmp(url, extended_url(), base) == 0);
    /* Redirects are not followed: the 302 is DRUPAL_E_HTTP with its Location. */
    CHECK_CODE(drupal_request_sync(&r, browser, "GET", url + base, &o), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_status(r), 302);
    location = drupal_response_header(r, "Location");
    CHECK(location != NULL);
    if (location) copy = strdup(location);
    drupal_response_free(r);
    drupal_client_free(browser);
    return copy;
}

static void test_authorization_code_grant(void) {
    drupal_client *app = new_client_at(extended_url()), *next = NULL;
    char *kept = NULL, *rotated = NULL, *none = (char *)1;
    drupal_oauth_authorization *a = NULL;
    drupal_oauth_options o = DRUPAL_OAUTH_OPTIONS_INIT;
    drupal_response *r = NULL;
    json_t *node = NULL;
    const char *url;
    char *redirected, forged[512];
    ext_reset();
    o.client_id = "sdk-desktop";
    o.redirect_uri = REDIRECT_URI;
    CHECK_CODE(drupal_oauth_authorization_new(&a, app, &o), DRUPAL_OK);
    url = drupal_oauth_authorization_url(a);
    CHECK(url != NULL && strstr(url, "/oauth/authorize?response_type=code&client_id=sdk-desktop&") != NULL);
    CHECK(url != NULL && strstr(url, "code_challenge_method=S256") != NULL);
    redirected = approve(url, "editor");
    CHECK(redirected != NULL && strncmp(redirected, REDIRECT_URI, strlen(REDIRECT_URI)) == 0);
    /* Another request's state, then the refusal of this one: nothing changes on the client. */
    snprintf(forged, sizeof forged, "%s?code=stolen&state=another", REDIRECT_URI);
    CHECK_CODE(drupal_oauth_authorization_finish(a, app, forged), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "state") != NULL);
    CHECK_INT(drupal_last_error_kind(), DRUPAL_ERROR_KIND_OTHER);
    if (redirected) {
        const char *state = strstr(redirected, "state=");
        snprintf(forged, sizeof forged, "%s?error=access_denied&error_description=The+user+denied&%s", REDIRECT_URI,
                 state ? state : "");
        CHECK_CODE(drupal_oauth_authorization_finish(a, app, forged), DRUPAL_E_HTTP);
        CHECK(strstr(drupal_last_error(), "access_denied: The user denied") != NULL);
        /* No response carries the refusal's kind: the last error does. */
        CHECK_INT(drupal_last_error_kind(), DRUPAL_ERROR_KIND_AUTHENTICATION);
        CHECK_CODE(drupal_oauth_authorization_finish(a, app, redirected), DRUPAL_OK);
    }
    drupal_oauth_authorization_free(a);
    /* The first request exchanges the code: the token acts for the editor (uid 2). */
    CHECK_CODE(drupal_request_sync(&r, app, "POST", "/node", &(drupal_request_options){
        DRUPAL_REQUEST_OPTIONS_VERSION, NULL, (const char *const[]){"Content-Type: application/json", NULL},
        ARTICLE, strlen(ARTICLE), 0}), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    if (drupal_response_json(&node, r) == DRUPAL_OK) {
        json_t *owner = json_object_get(json_array_get(json_object_get(node, "uid"), 0), "target_id");
        CHECK(json_is_integer(owner) && json_integer_value(owner) == 2);
        json_decref(node);
    }
    drupal_response_free(r);
    CHECK(token_stat("authorization_code") == 1);
    /* Then the refresh token keeps it going. */
    CHECK_CODE(drupal_client_oauth_refresh_token(&kept, app), DRUPAL_OK);
    CHECK(kept != NULL);
    ext_post("/__fake/oauth-expire", NULL);
    check_title(app, "1", "Article 1");
    CHECK(token_stat("refresh_token") == 1);
    CHECK(token_stat("authorization_code") == 1);
    /* The site rotated it; the program keeps the newest and starts its next run from it. */
    CHECK_CODE(drupal_client_oauth_refresh_token(&rotated, app), DRUPAL_OK);
    CHECK(rotated != NULL && kept != NULL && strcmp(rotated, kept) != 0);
    next = new_client_at(extended_url());
    o.grant = DRUPAL_OAUTH_REFRESH_TOKEN;
    o.refresh_token = rotated;
    CHECK_CODE(drupal_client_set_oauth(next, &o), DRUPAL_OK);
    CHECK_CODE(drupal_client_oauth_refresh_token(&none, next), DRUPAL_OK);
    CHECK(none == NULL);   /* no token yet */
    check_title(next, "1", "Article 1");
    CHECK_CODE(drupal_client_oauth_refresh_token(&none, next), DRUPAL_OK);
    CHECK(none != NULL && rotated != NULL && strcmp(none, rotated) != 0);
    drupal_free(none);
    drupal_free(kept);
    drupal_free(rotated);
    drupal_client_free(next);
    free(redirected);
    drupal_client_free(app);
}

static void test_authorization_bad_input(void) {
    drupal_client *c = new_client_at(extended_url()), *mock = NULL;
    drupal_oauth_authorization *a = (drupal_oauth_authorization *)1;
    drupal_oauth_options o = DRUPAL_OAUTH_OPTIONS_INIT;
    o.client_id = "sdk-desktop";
    CHECK_CODE(drupal_oauth_authorization_new(&a, c, &o), DRUPAL_E_INVALID_ARGUMENT);   /* no redirect_uri */
    CHECK(a == NULL);
    o.redirect_uri = "http://127.0.0.1:8765/callback\r\nX: y";
    CHECK_CODE(drupal_oauth_authorization_new(&a, c, &o), DRUPAL_E_INVALID_ARGUMENT);
    o.redirect_uri = REDIRECT_URI;
    o.version = 1;   /* a version 1 struct ends before redirect_uri: it is not read */
    CHECK_CODE(drupal_oauth_authorization_new(&a, c, &o), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "version 2") != NULL);
    o.version = DRUPAL_OAUTH_OPTIONS_VERSION;
    o.token_path = "/../token";
    CHECK_CODE(drupal_oauth_authorization_new(&a, c, &o), DRUPAL_E_INVALID_ARGUMENT);
    o.token_path = NULL;
    CHECK_CODE(drupal_oauth_authorization_new(NULL, c, &o), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_oauth_authorization_new(&a, NULL, &o), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_oauth_authorization_new(&a, c, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_mock_client_new(&mock), DRUPAL_OK);
    CHECK_CODE(drupal_oauth_authorization_new(&a, mock, &o), DRUPAL_E_STATE);
    CHECK_CODE(drupal_oauth_authorization_new(&a, c, &o), DRUPAL_OK);
    CHECK_CODE(drupal_oauth_authorization_finish(a, c, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_oauth_authorization_finish(a, NULL, REDIRECT_URI), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_oauth_authorization_finish(NULL, c, REDIRECT_URI), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_oauth_authorization_finish(a, c, REDIRECT_URI), DRUPAL_E_INVALID_ARGUMENT);   /* no state */
    CHECK(drupal_oauth_authorization_url(NULL) == NULL);
    drupal_oauth_authorization_free(a);
    drupal_oauth_authorization_free(NULL);
    /* The grant set directly: a code and its redirect URI are needed; a verifier must be RFC 7636's. */
    o.grant = DRUPAL_OAUTH_AUTHORIZATION_CODE;
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);   /* no code */
    o.code = "c0de";
    o.code_verifier = "too-short-secret";
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "too-short-secret") == NULL);
    o.code_verifier = NULL;
    CHECK_CODE(drupal_client_set_oauth(c, &o), DRUPAL_OK);
    /* The held refresh token: NULL arguments, and none held on a mock or before a token. */
    {
        char *token = (char *)1;
        CHECK_CODE(drupal_client_oauth_refresh_token(NULL, c), DRUPAL_E_INVALID_ARGUMENT);
        CHECK_CODE(drupal_client_oauth_refresh_token(&token, NULL), DRUPAL_E_INVALID_ARGUMENT);
        CHECK(token == NULL);
        token = (char *)1;
        CHECK_CODE(drupal_client_oauth_refresh_token(&token, mock), DRUPAL_OK);
        CHECK(token == NULL);
        CHECK_CODE(drupal_client_oauth_refresh_token(&token, c), DRUPAL_OK);
        CHECK(token == NULL);
    }
    drupal_client_free(mock);
    drupal_client_free(c);
}

int main(void) {
    test_password_grant_survives_forced_expiry();
    test_client_credentials_and_authenticate();
    test_sixteen_threads_one_refresh();
    test_token_errors();
    test_refused_bearer_token();
    test_token_provider();
    test_authenticate_asks_with_rejected();
    test_provider_calling_its_own_client();
    test_a_slow_provider_ends_with_the_timeout();
    test_cancelling_the_call_that_runs_the_provider();
    test_a_providers_message_reaches_the_error();
    test_a_provider_code_that_is_no_drupal_code();
    test_bad_input();
    test_authorization_code_grant();
    test_authorization_bad_input();
    return check_summary();
}
