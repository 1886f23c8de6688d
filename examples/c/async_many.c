/*
 * async_many.c - 50 concurrent async GETs on one client, waiting for all with a counter.
 * Callbacks run on library threads, so the counter is guarded by a mutex and the main thread
 * sleeps on a condition variable until it reaches zero.
 *
 *   async_many [BASE_URL]   (or DRUPAL_BASE_URL; DRUPAL_CA_FILE=ca.pem for an HTTPS site with a private CA)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <drupalsdk.h>

enum { CALLS = 50 };

typedef struct progress {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int pending, ok, failed;
} progress;

static void on_done(drupal_code code, drupal_response *response, void *userdata) {
    progress *p = userdata;
    if (code != DRUPAL_OK)  /* response is borrowed: read it here, don't keep it */
        fprintf(stderr, "GET failed: %s %s\n", drupal_code_name(code), drupal_response_error_message(response));
    pthread_mutex_lock(&p->lock);
    if (code == DRUPAL_OK) p->ok++;
    else p->failed++;
    if (--p->pending == 0) pthread_cond_signal(&p->done);
    pthread_mutex_unlock(&p->lock);
}

int main(int argc, char **argv) {
    const char *base_url = argc > 1 ? argv[1] : getenv("DRUPAL_BASE_URL");
    progress p = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *client = NULL;
    int i;

    if (base_url == NULL) {
        fprintf(stderr, "usage: %s BASE_URL   (or set DRUPAL_BASE_URL)\n", argv[0]);
        return 2;
    }
    /* DRUPAL_CA_FILE: the CA certificates of an HTTPS site with a private CA (unset: the system's). */
    const char *ca_file = getenv("DRUPAL_CA_FILE");
    options.ca_bundle = ca_file && ca_file[0] ? ca_file : NULL;
    if (drupal_client_new(&client, base_url, &options) != DRUPAL_OK) {
        fprintf(stderr, "drupal_client_new: %s\n", drupal_last_error());
        return 1;
    }
    for (i = 0; i < CALLS; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", 1 + i % 5);  /* copied by the call: a stack buffer is fine */
        pthread_mutex_lock(&p.lock);
        p.pending++;  /* count before starting: the callback may run before drupal_entity_get returns */
        pthread_mutex_unlock(&p.lock);
        if (drupal_entity_get(NULL, client, "node", id, on_done, &p) != DRUPAL_OK) {
            fprintf(stderr, "could not start: %s\n", drupal_last_error());
            pthread_mutex_lock(&p.lock);
            p.pending--;  /* a call that did not start never calls back */
            p.failed++;
            pthread_mutex_unlock(&p.lock);
        }
    }
    pthread_mutex_lock(&p.lock);
    while (p.pending > 0) pthread_cond_wait(&p.done, &p.lock);
    pthread_mutex_unlock(&p.lock);

    printf("%d of %d GETs succeeded\n", p.ok, CALLS);
    drupal_client_free(client);
    return p.failed == 0 ? 0 : 1;
}
