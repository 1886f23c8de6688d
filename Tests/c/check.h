/* Tiny assertion helpers shared by the C tests (header-only; each test is one program).
 * Every CHECK counts a pass or prints file:line and counts a failure; check_summary() prints
 * "N passed, M failed" as the program's last line, which Tests/c/run.sh sums up. */
#ifndef DRUPAL_TEST_CHECK_H
#define DRUPAL_TEST_CHECK_H

#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "drupalsdk.h"

#define CHECK_UNUSED __attribute__((unused)) /* not every test uses every helper */

static int check_passed, check_failed;
static pthread_mutex_t check_lock = PTHREAD_MUTEX_INITIALIZER; /* checks may run on library threads */

static CHECK_UNUSED void check_record(int ok, const char *file, int line, const char *what, const char *detail) {
    pthread_mutex_lock(&check_lock);
    if (ok) check_passed++;
    else {
        check_failed++;
        fprintf(stderr, "%s:%d: FAILED: %s%s%s\n", file, line, what, detail ? " -- " : "", detail ? detail : "");
    }
    pthread_mutex_unlock(&check_lock);
}

#define CHECK(cond) check_record((cond) != 0, __FILE__, __LINE__, #cond, NULL)

/* expr returns code; a failure code must also leave a non-empty last error of the same code. */
#define CHECK_CODE(expr, code)                                                                   \
    do {                                                                                         \
        drupal_code rc_ = (expr);                                                                \
        int ok_ = rc_ == (code) && (rc_ == DRUPAL_OK || (drupal_last_error_code() == rc_ &&      \
                                                         drupal_last_error()[0] != '\0'));       \
        char d_[512];                                                                            \
        snprintf(d_, sizeof d_, "got %s, expected %s (last error: %s)", drupal_code_name(rc_),   \
                 drupal_code_name(code), drupal_last_error());                                   \
        check_record(ok_, __FILE__, __LINE__, #expr, d_);                                        \
    } while (0)

#define CHECK_STR(actual, expected)                                                              \
    do {                                                                                         \
        const char *a_ = (actual), *e_ = (expected);                                             \
        char d_[512];                                                                            \
        snprintf(d_, sizeof d_, "\"%.200s\" != \"%.200s\"", a_ ? a_ : "(null)", e_ ? e_ : "(null)"); \
        check_record(a_ && e_ && strcmp(a_, e_) == 0, __FILE__, __LINE__, #actual, d_);         \
    } while (0)

#define CHECK_INT(actual, expected)                                                              \
    do {                                                                                         \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                          \
        char d_[128];                                                                            \
        snprintf(d_, sizeof d_, "%lld != %lld", a_, e_);                                         \
        check_record(a_ == e_, __FILE__, __LINE__, #actual " == " #expected, d_);                \
    } while (0)

/* A response's code and status, with its error message on mismatch. */
#define CHECK_RESPONSE(resp, code, status)                                                       \
    do {                                                                                         \
        const drupal_response *r_ = (resp);                                                      \
        char d_[512];                                                                            \
        snprintf(d_, sizeof d_, "got %s/%d, expected %s/%d (%s)",                                \
                 drupal_code_name(drupal_response_code(r_)), drupal_response_status(r_),         \
                 drupal_code_name(code), (int)(status), drupal_response_error_message(r_));      \
        check_record(r_ != NULL && drupal_response_code(r_) == (code) &&                         \
                     drupal_response_status(r_) == (status), __FILE__, __LINE__, #resp, d_);     \
    } while (0)

static CHECK_UNUSED int check_summary(void) {
    int passed, failed;
    pthread_mutex_lock(&check_lock);   /* as check_record writes them, maybe on a library thread */
    passed = check_passed;
    failed = check_failed;
    pthread_mutex_unlock(&check_lock);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

static CHECK_UNUSED double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static CHECK_UNUSED void sleep_ms(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/* The fake server's URL, given by run.sh. */
static CHECK_UNUSED const char *base_url(void) {
    const char *url = getenv("DRUPAL_BASE_URL");
    if (url == NULL || url[0] == '\0') {
        fprintf(stderr, "DRUPAL_BASE_URL is not set\n");
        exit(2);
    }
    return url;
}

/* The fake server in its extended-site mode (simple_oauth, French at /fr, decoupled_router),
 * given by run.sh. */
static CHECK_UNUSED const char *extended_url(void) {
    const char *url = getenv("DRUPAL_EXTENDED_URL");
    if (url == NULL || url[0] == '\0') {
        fprintf(stderr, "DRUPAL_EXTENDED_URL is not set\n");
        exit(2);
    }
    return url;
}

/* ---- Waiting for one async call (callback + userdata, pthread condvar) ---------------------- */

typedef struct waiter {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int calls;                 /* how many times the callback ran (must end up 1) */
    drupal_code code;
    drupal_response *response; /* retained in the callback; waiter_clear frees it */
} waiter;

static CHECK_UNUSED void waiter_init(waiter *w) {
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->calls = 0;
    w->code = DRUPAL_E_INTERNAL;
    w->response = NULL;
}

static CHECK_UNUSED void waiter_callback(drupal_code code, drupal_response *response, void *userdata) {
    waiter *w = userdata;
    pthread_mutex_lock(&w->lock);
    w->calls++;
    w->code = code;
    if (w->response == NULL) w->response = drupal_response_retain(response);
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

/* Waits up to seconds for the callback; returns its code, or -1 if it never came. */
static CHECK_UNUSED int waiter_wait(waiter *w, double seconds) {
    struct timespec deadline;
    int result;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += (time_t)seconds;
    deadline.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (deadline.tv_nsec >= 1000000000L) { deadline.tv_sec++; deadline.tv_nsec -= 1000000000L; }
    pthread_mutex_lock(&w->lock);
    while (w->calls == 0) {
        if (pthread_cond_timedwait(&w->cond, &w->lock, &deadline) == ETIMEDOUT) break;
    }
    result = w->calls ? (int)w->code : -1;
    pthread_mutex_unlock(&w->lock);
    return result;
}

/* How many times the callback ran so far, read under the waiter's lock: the callback's thread
 * writes it, and a read without the lock is a data race for ThreadSanitizer (the library orders a
 * call's end before what the caller does next only through the Swift runtime, which TSan cannot
 * see). w->code and w->response may be read directly once waiter_wait has seen the call. */
static CHECK_UNUSED int waiter_calls(waiter *w) {
    int calls;
    pthread_mutex_lock(&w->lock);
    calls = w->calls;
    pthread_mutex_unlock(&w->lock);
    return calls;
}

static CHECK_UNUSED void waiter_clear(waiter *w) {
    drupal_response_free(w->response);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->cond);
}

/* Starts an async call into a fresh waiter, waits for it (30 s max) and checks it ran once. */
#define ASYNC(w, start_expr)                                                                     \
    do {                                                                                         \
        waiter_init(&(w));                                                                       \
        CHECK_CODE((start_expr), DRUPAL_OK);                                                     \
        CHECK(waiter_wait(&(w), 30) != -1);                                                      \
    } while (0)

/* ---- Fake server control --------------------------------------------------------------------- */

/* A /__fake/ control request to the server at url (optionally with a JSON body) through the
 * library itself; *answer (if not NULL) receives the JSON answer (a new reference, or NULL). */
static CHECK_UNUSED drupal_code fake_control_at(const char *url, const char *method, const char *path,
                                                const char *json, json_t **answer) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *headers[] = {"Content-Type: application/json", NULL};
    drupal_code code;
    if (answer) *answer = NULL;
    if (drupal_client_new(&c, url, NULL) != DRUPAL_OK) return DRUPAL_E_INTERNAL;
    o.no_format = 1;
    if (json) { o.body = json; o.body_length = strlen(json); o.headers = headers; }
    code = drupal_request_sync(&r, c, method, path, &o);
    if (code == DRUPAL_OK && answer && drupal_response_body(r, NULL)[0] != '\0') drupal_response_json(answer, r);
    drupal_response_free(r);
    drupal_client_free(c);
    return code;
}

/* POST a /__fake/ control endpoint (optionally with a JSON body) through the library itself. */
static CHECK_UNUSED drupal_code fake_control(const char *path, const char *json) {
    return fake_control_at(base_url(), "POST", path, json, NULL);
}

static CHECK_UNUSED void fake_reset(void) {
    if (fake_control("/__fake/reset", NULL) != DRUPAL_OK) {
        fprintf(stderr, "could not reset the fake server at %s\n", base_url());
        exit(2);
    }
}

/* A new client on the fake server, or exit. */
static CHECK_UNUSED drupal_client *new_client(void) {
    drupal_client *c = NULL;
    if (drupal_client_new(&c, base_url(), NULL) != DRUPAL_OK) {
        fprintf(stderr, "drupal_client_new: %s\n", drupal_last_error());
        exit(2);
    }
    return c;
}

#endif
