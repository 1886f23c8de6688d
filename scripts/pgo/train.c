/*
 * train.c - the C half of the profile-guided build's training run (scripts/pgo/profile): a
 * Drupal client's everyday work against the bundled fake Drupal server, through the C API, on
 * an instrumented libdrupalsdk. Reads dominate, as they do on real sites: blocking GETs, async
 * GETs one at a time and 32 in flight, Views pages; then writes with a cookie session and its
 * CSRF token, Basic auth, JSON:API, a 404. The profile it leaves says which code is hot; the
 * optimized build lays that code out together and keeps the rest out of its way.
 *
 *   train BASE_URL
 *
 * Exits non-zero when a call that should succeed fails (the build then goes without a profile).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <drupalsdk.h>

static int failures;
static const char *const node_ids[] = {"1", "2", "3", "4", "5"};  /* the fake's seeded articles */

static void check(const char *what, drupal_code code, drupal_code expected) {
    if (code != expected) {
        fprintf(stderr, "train: %s: %s (%s)\n", what, drupal_code_name(code), drupal_last_error());
        failures++;
    }
}

/* One blocking call: its response is only freed (the library's work is what is trained). The
 * response goes by address: the call's argument is evaluated before *response is set. */
static void sync_call(const char *what, drupal_code code, drupal_response **response, drupal_code expected) {
    check(what, code, expected);
    drupal_response_free(*response);
    *response = NULL;
}

/* Async GETs that each start the next from their callback until `left` runs out. */
typedef struct chain {
    drupal_client *client;
    pthread_mutex_t lock;
    pthread_cond_t done;
    int left, running, failed;
} chain;

static void start_next(chain *c);

static void on_get(drupal_code code, drupal_response *response, void *userdata) {
    chain *c = userdata;
    (void)response;  /* borrowed: the library frees it after the callback */
    pthread_mutex_lock(&c->lock);
    if (code != DRUPAL_OK) c->failed++;
    c->running--;
    pthread_mutex_unlock(&c->lock);
    start_next(c);
}

static void start_next(chain *c) {
    pthread_mutex_lock(&c->lock);
    if (c->left == 0) {
        if (c->running == 0) pthread_cond_signal(&c->done);
        pthread_mutex_unlock(&c->lock);
        return;
    }
    int n = c->left--;
    c->running++;
    pthread_mutex_unlock(&c->lock);
    if (drupal_entity_get(NULL, c->client, "node", node_ids[n % 5], on_get, c) != DRUPAL_OK) {
        pthread_mutex_lock(&c->lock);
        c->failed++;
        c->running--;
        c->left = 0;
        if (c->running == 0) pthread_cond_signal(&c->done);
        pthread_mutex_unlock(&c->lock);
    }
}

static void async_gets(drupal_client *client, int total, int in_flight) {
    chain c = {client, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, total, 0, 0};
    for (int i = 0; i < in_flight; i++) start_next(&c);
    pthread_mutex_lock(&c.lock);
    while (c.left > 0 || c.running > 0) pthread_cond_wait(&c.done, &c.lock);
    pthread_mutex_unlock(&c.lock);
    if (c.failed) {
        fprintf(stderr, "train: %d of %d async GETs failed\n", c.failed, total);
        failures++;
    }
}

static void reads(drupal_client *client, int rounds) {
    static const char *const page1[] = {"page", "1", NULL};
    drupal_response *r = NULL;
    for (int i = 0; i < rounds; i++) {
        sync_call("GET node", drupal_entity_get_sync(&r, client, "node", node_ids[i % 5]), &r, DRUPAL_OK);
        if (i % 10 == 0) {
            sync_call("view", drupal_view_sync(&r, client, "/api/articles", page1), &r, DRUPAL_OK);
            sync_call("GET term", drupal_entity_get_sync(&r, client, "taxonomy_term", "1"), &r, DRUPAL_OK);
        }
    }
}

static void writes(drupal_client *client, int rounds) {
    static const char article[] =
        "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"Trained\"}]}";
    static const char patch[] =
        "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"Trained again\"}]}";
    for (int i = 0; i < rounds; i++) {
        drupal_response *r = NULL;
        drupal_code code = drupal_entity_create_sync(&r, client, "node", article, strlen(article));
        check("POST node", code, DRUPAL_OK);
        json_t *stored = NULL;
        int64_t nid = 0;
        if (code == DRUPAL_OK) code = drupal_response_json(&stored, r);
        if (code == DRUPAL_OK) code = drupal_json_field_int(&nid, stored, "nid");
        json_decref(stored);
        drupal_response_free(r);
        if (code != DRUPAL_OK) continue;
        char id[32];
        snprintf(id, sizeof id, "%lld", (long long)nid);
        sync_call("PATCH node", drupal_entity_update_sync(&r, client, "node", id, patch, strlen(patch)), &r,
                  DRUPAL_OK);
        sync_call("DELETE node", drupal_entity_delete_sync(&r, client, "node", id), &r, DRUPAL_OK);
        sync_call("GET deleted node", drupal_entity_get_sync(&r, client, "node", id), &r, DRUPAL_E_HTTP);
    }
}

static void pages(drupal_client *client) {
    drupal_pager *pager = NULL;
    check("pager", drupal_view_pager_new(&pager, client, "/api/articles", NULL, 0), DRUPAL_OK);
    for (;;) {
        drupal_response *r = NULL;
        drupal_code code = drupal_pager_next_sync(&r, pager);
        check("next page", code, DRUPAL_OK);
        if (code != DRUPAL_OK || r == NULL) break;
        drupal_response_free(r);
    }
    drupal_pager_free(pager);
}

static void jsonapi(drupal_client *client, int rounds) {
    drupal_jsonapi_query *query = NULL;
    check("query", drupal_jsonapi_query_new(&query), DRUPAL_OK);
    check("include", drupal_jsonapi_query_include(query, "uid"), DRUPAL_OK);
    check("limit", drupal_jsonapi_query_page_limit(query, 2), DRUPAL_OK);
    for (int i = 0; i < rounds; i++) {
        drupal_response *r = NULL;
        sync_call("JSON:API collection", drupal_jsonapi_get_sync(&r, client, "node--article", NULL, query), &r,
                  DRUPAL_OK);
    }
    drupal_jsonapi_query_free(query);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s BASE_URL\n", argv[0]);
        return 2;
    }
    drupal_client *client = NULL;
    drupal_response *r = NULL;
    check("client", drupal_client_new(&client, argv[1], NULL), DRUPAL_OK);
    if (client == NULL) return 1;

    reads(client, 1500);                      /* anonymous reads */
    async_gets(client, 500, 1);
    async_gets(client, 3000, 32);
    sync_call("login", drupal_login_sync(&r, client, "admin", "admin"), &r, DRUPAL_OK);
    reads(client, 300);                       /* reads with the session cookie */
    writes(client, 30);
    pages(client);
    jsonapi(client, 100);
    sync_call("404", drupal_entity_get_sync(&r, client, "node", "999999"), &r, DRUPAL_E_HTTP);
    sync_call("logout", drupal_logout_sync(&r, client), &r, DRUPAL_OK);
    check("Basic", drupal_client_set_basic_auth(client, "admin", "admin"), DRUPAL_OK);
    reads(client, 300);
    async_gets(client, 1000, 32);
    drupal_client_free(client);
    return failures == 0 ? 0 : 1;
}
