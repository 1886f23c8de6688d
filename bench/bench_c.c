/* Drivers for libdrupalsdk through its C API. Each mode prints RESULT lines (see common.h).
 *   bench_c seq-sync  BASE N WARM           drupal_entity_get_sync("node","1") in a loop; rps
 *   bench_c seq-async BASE N WARM           drupal_entity_get + callback + condvar, 1 in flight; rps
 *   bench_c conc      BASE N WARM INFLIGHT  drupal_entity_get, INFLIGHT calls kept in flight; rps
 *   bench_c conc-chain BASE N WARM INFLIGHT as conc, but each callback starts the next call itself
 *   bench_c batches   BASE N WARM INFLIGHT  INFLIGHT calls started, all awaited, repeated (window empties)
 * The network modes also print cpu_us (process CPU per request, every thread); options come
 * from BENCH_BUSY_POLL_US, BENCH_CA_FILE and BENCH_HTTP2 (see client_for).
 *   bench_c mock      N WARM                mock client FFI floor; per-call us (and C-only floors)
 *   bench_c memory    BASE N1 N2            RSS after N2 requests minus RSS after N1 (bytes)
 *   bench_c clients   BASE K                RSS per extra client handle (K clients)
 *   bench_c json      FILE ITER             view page: helpers vs Jansson alone; us per parse+read;
 *                                           also parse alone and the Jansson tree-building floor
 */
#include "common.h"
#include <pthread.h>
#include <drupalsdk.h>

/* ---- a counter with a condvar: "wait until in-flight < limit" ----------------------------- */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    long inflight, done, errors;
} gate;

static gate G = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 };

static void on_done(drupal_code code, drupal_response *response, void *userdata) {
    (void)userdata;
    int bad = code != DRUPAL_OK || drupal_response_status(response) != 200;
    if (bad) fprintf(stderr, "call failed: %s %d %s\n", drupal_code_name(code), drupal_response_status(response),
                     drupal_response_error_message(response));
    size_t len = 0;
    (void)drupal_response_body(response, &len);
    pthread_mutex_lock(&G.mu);
    G.inflight--;
    G.done++;
    G.errors += bad;
    pthread_mutex_unlock(&G.mu);
    pthread_cond_signal(&G.cv);   /* after unlocking: the waiter does not wake into a held mutex */
}

static void start_get(drupal_client *c) {
    pthread_mutex_lock(&G.mu);
    G.inflight++;
    pthread_mutex_unlock(&G.mu);
    if (drupal_entity_get(NULL, c, "node", "1", on_done, NULL) != DRUPAL_OK)
        DIE("drupal_entity_get: %s", drupal_last_error());
}

static void wait_below(long limit) {
    pthread_mutex_lock(&G.mu);
    while (G.inflight >= limit) pthread_cond_wait(&G.cv, &G.mu);
    pthread_mutex_unlock(&G.mu);
    if (G.errors) DIE("%ld calls failed", G.errors);
}

/* With BENCH_AUTH=oauth, fetches the token before the timed loop, on the engine the loop uses
 * (blocking or async), so its connection is the one the requests reuse. */
static void authenticate(drupal_client *c, int async) {
    const char *auth = getenv("BENCH_AUTH");
    if (!auth || strcmp(auth, "oauth")) return;
    if (!async) {
        drupal_response *r = NULL;
        if (drupal_oauth_authenticate_sync(&r, c) != DRUPAL_OK) DIE("drupal_oauth_authenticate_sync: %s", drupal_last_error());
        drupal_response_free(r);
        return;
    }
    pthread_mutex_lock(&G.mu);
    G.inflight++;
    pthread_mutex_unlock(&G.mu);
    if (drupal_oauth_authenticate(NULL, c, on_done, NULL) != DRUPAL_OK) DIE("drupal_oauth_authenticate: %s", drupal_last_error());
    wait_below(1);
}

/* Runs `count` GETs keeping `inflight` in flight; returns when all are done. */
static void run_inflight(drupal_client *c, long count, long inflight) {
    for (long i = 0; i < count; i++) {
        wait_below(inflight);
        start_get(c);
    }
    wait_below(1);
}

/* Chained: INFLIGHT calls are started, and each callback starts the next one until `remaining`
 * runs out; the caller only waits for the end. Shows the cost of the caller's wake-ups in conc. */
static long chain_remaining;

static void on_chain(drupal_code code, drupal_response *response, void *userdata) {
    drupal_client *c = userdata;
    int bad = code != DRUPAL_OK || drupal_response_status(response) != 200;
    if (bad) fprintf(stderr, "call failed: %s %d\n", drupal_code_name(code), drupal_response_status(response));
    pthread_mutex_lock(&G.mu);
    G.errors += bad;
    int more = chain_remaining > 0;
    if (more) chain_remaining--;
    else G.inflight--;
    int last = G.inflight == 0;
    pthread_mutex_unlock(&G.mu);
    /* Only the end of the run concerns the waiting thread: waking it per call would measure
     * this driver's thread ping-pong, not the library. */
    if (last) pthread_cond_signal(&G.cv);
    if (more && drupal_entity_get(NULL, c, "node", "1", on_chain, c) != DRUPAL_OK)
        DIE("drupal_entity_get: %s", drupal_last_error());
}

static void run_chain(drupal_client *c, long count, long inflight) {
    if (inflight > count) inflight = count;
    pthread_mutex_lock(&G.mu);
    chain_remaining = count - inflight;
    G.inflight = inflight;
    pthread_mutex_unlock(&G.mu);
    for (long i = 0; i < inflight; i++)
        if (drupal_entity_get(NULL, c, "node", "1", on_chain, c) != DRUPAL_OK)
            DIE("drupal_entity_get: %s", drupal_last_error());
    wait_below(1);
}

/* Runs `count` GETs in batches of `inflight`: all started, then all awaited, so the window empties
 * between batches (how a caller with a batch API uses the library; it showed connection churn). */
static void run_batches(drupal_client *c, long count, long inflight) {
    for (long done = 0; done < count; done += inflight) {
        long batch = count - done < inflight ? count - done : inflight;
        for (long i = 0; i < batch; i++) start_get(c);
        wait_below(1);
    }
}

/* BENCH_AUTH=basic: HTTP Basic on every request; BENCH_AUTH=oauth: an OAuth password grant (the
 * token fetched once from the server's /oauth/token, then a Bearer header and an expiry check per
 * request). Unset: no credentials. */
static void set_auth(drupal_client *c) {
    const char *auth = getenv("BENCH_AUTH");
    drupal_code code = DRUPAL_OK;
    if (!auth) return;
    if (!strcmp(auth, "basic")) {
        code = drupal_client_set_basic_auth(c, "admin", "admin");
    } else if (!strcmp(auth, "oauth")) {
        drupal_oauth_options o = DRUPAL_OAUTH_OPTIONS_INIT;
        o.grant = DRUPAL_OAUTH_PASSWORD;
        o.client_id = "bench";
        o.client_secret = "bench";
        o.username = "admin";
        o.password = "admin";
        code = drupal_client_set_oauth(c, &o);
    } else {
        DIE("BENCH_AUTH is basic or oauth, not %s", auth);
    }
    if (code != DRUPAL_OK) DIE("setting BENCH_AUTH=%s: %s", auth, drupal_last_error());
}

/* Options from the environment, set by the harness: BENCH_BUSY_POLL_US, BENCH_CA_FILE,
 * BENCH_HTTP2=0 (HTTP/1.1 only). With none set the client gets NULL options, so these drivers
 * also run against builds older than options version 3 (bench/ab.py). */
static drupal_client *client_for(const char *base) {
    drupal_client *c = NULL;
    const char *busy = getenv("BENCH_BUSY_POLL_US"), *ca = getenv("BENCH_CA_FILE"), *h2 = getenv("BENCH_HTTP2");
    drupal_client_options o = DRUPAL_CLIENT_OPTIONS_INIT;
    int custom = busy || ca || h2;
    if (busy) o.busy_poll_us = atoi(busy);
    if (ca) o.ca_bundle = ca;
    if (h2 && !strcmp(h2, "0")) o.http2 = -1;
    if (drupal_client_new(&c, base, custom ? &o : NULL) != DRUPAL_OK)
        DIE("drupal_client_new: %s", drupal_last_error());
    set_auth(c);
    return c;
}

static void get_sync(drupal_client *c) {
    drupal_response *r = NULL;
    drupal_code code = drupal_entity_get_sync(&r, c, "node", "1");
    if (code != DRUPAL_OK || drupal_response_status(r) != 200)
        DIE("drupal_entity_get_sync: %s (%s)", drupal_code_name(code), drupal_last_error());
    size_t len = 0;
    (void)drupal_response_body(r, &len);
    drupal_response_free(r);
}

static int mode_seq_sync(const char *base, long n, long warm) {
    drupal_client *c = client_for(base);
    authenticate(c, 0);
    for (long i = 0; i < warm; i++) get_sync(c);
    double t0 = now_s(), c0 = cpu_s();
    for (long i = 0; i < n; i++) get_sync(c);
    result("rps", n / (now_s() - t0));
    result("cpu_us", (cpu_s() - c0) * 1e6 / n);
    drupal_client_free(c);
    return 0;
}

/* `seq-async`, `conc`, `conc-chain` and `batches`: warm up, then time `n` calls kept `inflight` deep by `run`. */
static int mode_window(const char *base, long n, long warm, long inflight,
                       void (*run)(drupal_client *, long, long)) {
    drupal_client *c = client_for(base);
    authenticate(c, 1);
    run(c, warm, inflight);
    double t0 = now_s(), c0 = cpu_s();
    run(c, n, inflight);
    result("rps", n / (now_s() - t0));
    result("cpu_us", (cpu_s() - c0) * 1e6 / n);
    drupal_client_free(c);
    return 0;
}

/* ---- mock client: the FFI floor ---------------------------------------------------------- */
static void *pong_thread(void *arg) {
    /* C-only floor for a cross-thread hand-off: the other thread posts, we answer. */
    long n = (long)arg;
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&G.mu);
        while (G.inflight == 0) pthread_cond_wait(&G.cv, &G.mu);
        G.inflight = 0;
        G.done++;
        pthread_mutex_unlock(&G.mu);
        pthread_cond_broadcast(&G.cv);
    }
    return NULL;
}

static double handoff_floor_us(long n) {
    pthread_t t;
    G.inflight = 0;
    G.done = 0;
    double *lat = malloc(n * sizeof *lat);
    pthread_create(&t, NULL, pong_thread, (void *)n);
    for (long i = 0; i < n; i++) {
        double t0 = now_s();
        pthread_mutex_lock(&G.mu);
        G.inflight = 1;
        pthread_mutex_unlock(&G.mu);
        pthread_cond_broadcast(&G.cv);
        pthread_mutex_lock(&G.mu);
        while (G.inflight != 0) pthread_cond_wait(&G.cv, &G.mu);
        pthread_mutex_unlock(&G.mu);
        lat[i] = (now_s() - t0) * 1e6;
    }
    pthread_join(t, NULL);
    double m = median(lat, n);
    free(lat);
    return m;
}

static int mode_mock(long n, long warm) {
    drupal_client *c = NULL;
    if (drupal_mock_client_new(&c) != DRUPAL_OK) DIE("drupal_mock_client_new: %s", drupal_last_error());
    const char *body = "{\"nid\":[{\"value\":1}],\"title\":[{\"value\":\"Article 1\"}]}";
    if (drupal_mock_stub(c, "GET", "/node/1", 200, "application/json", body, strlen(body)) != DRUPAL_OK)
        DIE("drupal_mock_stub: %s", drupal_last_error());
    run_inflight(c, warm, 1);
    /* 1: one call at a time, each timed from the call to the callback's wake-up (median). */
    double *lat = malloc(n * sizeof *lat);
    for (long i = 0; i < n; i++) {
        double t0 = now_s();
        start_get(c);
        wait_below(1);
        lat[i] = (now_s() - t0) * 1e6;
    }
    result("mock_roundtrip_us", median(lat, n));
    /* 2: the amortised cost per call when calls are issued back to back (median of batches). */
    long batch = 200, batches = n / batch > 5 ? n / batch : 5;
    double *per = malloc(batches * sizeof *per);
    for (long b = 0; b < batches; b++) {
        double t0 = now_s();
        run_inflight(c, batch, batch);
        per[b] = (now_s() - t0) * 1e6 / batch;
    }
    result("mock_pipelined_us", median(per, batches));
    /* 3: the same, sync. */
    for (long i = 0; i < n; i++) {
        double t0 = now_s();
        get_sync(c);
        lat[i] = (now_s() - t0) * 1e6;
    }
    result("mock_sync_us", median(lat, n));
    drupal_client_free(c);
    /* The floor of any cross-thread callback design: a C-only condvar ping-pong. */
    result("handoff_floor_us", handoff_floor_us(n));
    free(lat);
    free(per);
    return 0;
}

/* ---- memory ------------------------------------------------------------------------------ */
static int mode_memory(const char *base, long n1, long n2) {
    drupal_client *c = client_for(base);
    run_inflight(c, n1, 32);
    long r1 = rss_bytes();
    run_inflight(c, n2 - n1, 32);
    long r2 = rss_bytes();
    result("rss_after_n1", r1);
    result("rss_after_n2", r2);
    result("rss_growth", r2 - r1);
    drupal_client_free(c);
    return 0;
}

static int mode_clients(const char *base, long k) {
    drupal_client *first = client_for(base);
    get_sync(first);
    long r0 = rss_bytes();
    drupal_client **cs = calloc(k, sizeof *cs);
    for (long i = 0; i < k; i++) cs[i] = client_for(base);
    long r1 = rss_bytes();
    result("rss_per_client", (double)(r1 - r0) / k);
    /* The same clients after one request each (connection, buffers, easy handle). */
    for (long i = 0; i < k; i++) get_sync(cs[i]);
    long r2 = rss_bytes();
    result("rss_per_used_client", (double)(r2 - r0) / k);
    for (long i = 0; i < k; i++) drupal_client_free(cs[i]);
    drupal_client_free(first);
    free(cs);
    return 0;
}

/* ---- JSON helpers ----------------------------------------------------------------------- */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) DIE("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc(*len + 1);
    if (fread(p, 1, *len, f) != *len) DIE("short read");
    fclose(f);
    return p;
}

static volatile long sink;

static void json_helpers(const char *text, size_t len) {
    json_t *doc = NULL, *rows = NULL;
    size_t count = 0;
    if (drupal_json_parse(&doc, text, len) != DRUPAL_OK) DIE("parse: %s", drupal_last_error());
    if (drupal_json_view_rows(&rows, doc) || drupal_json_view_count(&count, rows)) DIE("rows");
    for (size_t i = 0; i < count; i++) {
        json_t *row;
        int64_t nid;
        const char *title, *uuid;
        if (drupal_json_view_row(&row, rows, i) || drupal_json_field_int(&nid, row, "nid") ||
            drupal_json_view_column(&title, rows, i, "title") || drupal_json_view_column(&uuid, rows, i, "uuid"))
            DIE("row %zu: %s", i, drupal_last_error());
        sink += nid + title[0] + uuid[0];
    }
    json_decref(doc);
}

static void json_jansson(const char *text, size_t len) {
    json_error_t err;
    json_t *doc = json_loadb(text, len, 0, &err);
    if (!doc || !json_is_array(doc)) DIE("json_loadb: %s", err.text);
    size_t n = json_array_size(doc);
    for (size_t i = 0; i < n; i++) {
        json_t *row = json_array_get(doc, i);
        const char *nid = json_string_value(json_object_get(row, "nid"));
        const char *title = json_string_value(json_object_get(row, "title"));
        const char *uuid = json_string_value(json_object_get(row, "uuid"));
        if (!nid || !title || !uuid) DIE("row %zu", i);
        sink += strtoll(nid, NULL, 10) + title[0] + uuid[0];
    }
    json_decref(doc);
}

/* The floor for building a Jansson tree: the page pre-tokenized into a tape (keys and strings
 * already decoded, numbers converted), replayed into json_t values with the same calls a parser
 * must make (json_object/json_array/json_stringn_nocheck/json_integer, json_object_setn_new_nocheck,
 * json_array_append_new), then json_decref. No lexing at all: what is left is Jansson's
 * allocations, key hashing and frees. */
enum { T_OBJECT, T_ARRAY, T_CLOSE, T_KEY, T_STRING, T_INTEGER, T_REAL, T_TRUE, T_FALSE, T_NULL };
typedef struct {
    int kind;
    size_t len;
    const char *str;
    json_int_t integer;
    double real;
} tape_op;
static tape_op *tape;
static size_t tape_len, tape_cap;

static void tape_push(int kind, const char *str, size_t len, json_int_t integer, double real) {
    if (tape_len == tape_cap) {
        tape_cap = tape_cap ? tape_cap * 2 : 1024;
        tape = realloc(tape, tape_cap * sizeof *tape);
        if (!tape) DIE("out of memory");
    }
    tape[tape_len++] = (tape_op){kind, len, str, integer, real};
}

/* Strings point into the parsed tree, which stays alive while the tape is used. */
static void tape_record(json_t *v) {
    const char *key;
    json_t *child;
    size_t i;
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        tape_push(T_OBJECT, NULL, 0, 0, 0);
        json_object_foreach(v, key, child) {
            tape_push(T_KEY, key, strlen(key), 0, 0);
            tape_record(child);
        }
        tape_push(T_CLOSE, NULL, 0, 0, 0);
        break;
    case JSON_ARRAY:
        tape_push(T_ARRAY, NULL, 0, 0, 0);
        json_array_foreach(v, i, child) tape_record(child);
        tape_push(T_CLOSE, NULL, 0, 0, 0);
        break;
    case JSON_STRING: tape_push(T_STRING, json_string_value(v), json_string_length(v), 0, 0); break;
    case JSON_INTEGER: tape_push(T_INTEGER, NULL, 0, json_integer_value(v), 0); break;
    case JSON_REAL: tape_push(T_REAL, NULL, 0, 0, json_real_value(v)); break;
    case JSON_TRUE: tape_push(T_TRUE, NULL, 0, 0, 0); break;
    case JSON_FALSE: tape_push(T_FALSE, NULL, 0, 0, 0); break;
    case JSON_NULL: tape_push(T_NULL, NULL, 0, 0, 0); break;
    }
}

static json_t *tape_build(void) {
    json_t *stack[64], *root = NULL;
    int depth = 0;
    const char *key = NULL;
    size_t key_len = 0;
    for (size_t i = 0; i < tape_len; i++) {
        const tape_op *op = &tape[i];
        json_t *v;
        switch (op->kind) {
        case T_KEY: key = op->str; key_len = op->len; continue;
        case T_CLOSE: depth--; continue;
        case T_OBJECT: v = json_object(); break;
        case T_ARRAY: v = json_array(); break;
        case T_STRING: v = json_stringn_nocheck(op->str, op->len); break;
        case T_INTEGER: v = json_integer(op->integer); break;
        case T_REAL: v = json_real(op->real); break;
        case T_TRUE: v = json_true(); break;
        case T_FALSE: v = json_false(); break;
        default: v = json_null(); break;
        }
        if (!v) DIE("out of memory");
        if (depth == 0) root = v;
        else if (json_is_array(stack[depth - 1])) json_array_append_new(stack[depth - 1], v);
        else json_object_setn_new_nocheck(stack[depth - 1], key, key_len, v);
        if (op->kind == T_OBJECT || op->kind == T_ARRAY) {
            if (depth == 64) DIE("tape too deep");
            stack[depth++] = v;
        }
    }
    return root;
}

static void json_tape_build(const char *text, size_t len) {
    (void)text, (void)len;
    json_decref(tape_build());
}

/* drupal_json_parse alone (no field reads). */
static void json_parse_only(const char *text, size_t len) {
    json_t *doc = NULL;
    if (drupal_json_parse(&doc, text, len) != DRUPAL_OK) DIE("parse: %s", drupal_last_error());
    json_decref(doc);
}

/* Jansson allocations per parse, through a counting allocator. */
static long alloc_count;
static void *counting_malloc(size_t size) { alloc_count++; return malloc(size); }

/* json_decref alone, and tape_build without the json_decref: the split of the floor. */
static void build_free_split(long iter, double *build_us, double *free_us) {
    double *tb = malloc(iter * sizeof *tb), *tf = malloc(iter * sizeof *tf);
    for (long i = 0; i < iter; i++) {
        double t0 = now_s();
        json_t *doc = tape_build();
        double t1 = now_s();
        json_decref(doc);
        double t2 = now_s();
        tb[i] = (t1 - t0) * 1e6;
        tf[i] = (t2 - t1) * 1e6;
    }
    *build_us = median(tb, iter);
    *free_us = median(tf, iter);
    free(tb);
    free(tf);
}

static double time_us(void (*fn)(const char *, size_t), const char *text, size_t len, long iter) {
    double *t = malloc(iter * sizeof *t);
    for (long i = 0; i < iter; i++) {
        double t0 = now_s();
        fn(text, len);
        t[i] = (now_s() - t0) * 1e6;
    }
    double m = median(t, iter);
    free(t);
    return m;
}

static int mode_json(const char *path, long iter) {
    size_t len;
    char *text = slurp(path, &len);
    for (int i = 0; i < 20; i++) { json_helpers(text, len); json_jansson(text, len); }
    result("helpers_us", time_us(json_helpers, text, len, iter));
    result("jansson_us", time_us(json_jansson, text, len, iter));
    /* Where the helpers' time goes: the parse alone, and the floor of any parser that returns a
     * Jansson tree (building it from a pre-tokenized tape, then freeing it). */
    result("parse_us", time_us(json_parse_only, text, len, iter));
    json_t *doc = NULL;
    if (drupal_json_parse(&doc, text, len) != DRUPAL_OK) DIE("parse: %s", drupal_last_error());
    tape_record(doc);
    for (int i = 0; i < 20; i++) json_tape_build(text, len);
    result("tree_floor_us", time_us(json_tape_build, text, len, iter));
    double build_us, free_us;
    build_free_split(iter, &build_us, &free_us);
    result("tree_floor_build_us", build_us);
    result("tree_floor_free_us", free_us);
    json_malloc_t old_malloc;
    json_free_t old_free;
    json_get_alloc_funcs(&old_malloc, &old_free);
    json_set_alloc_funcs(counting_malloc, free);
    json_parse_only(text, len);
    json_set_alloc_funcs(old_malloc, old_free);
    result("tree_allocs", alloc_count);
    result("tape_ops", tape_len);
    json_decref(doc);
    free(tape);
    free(text);
    return 0;
}

static const char *arg(int argc, char **argv, int i) {
    if (i >= argc) DIE("%s: missing argument %d", argv[1], i);
    return argv[i];
}

int main(int argc, char **argv) {
    if (argc < 2) DIE("usage: see the comment at the top of bench_c.c");
    const char *m = argv[1];
#define ARG(i) arg(argc, argv, i)
    if (!strcmp(m, "seq-sync")) return mode_seq_sync(ARG(2), atol(ARG(3)), atol(ARG(4)));
    if (!strcmp(m, "seq-async")) return mode_window(ARG(2), atol(ARG(3)), atol(ARG(4)), 1, run_inflight);
    if (!strcmp(m, "conc")) return mode_window(ARG(2), atol(ARG(3)), atol(ARG(4)), atol(ARG(5)), run_inflight);
    if (!strcmp(m, "conc-chain")) return mode_window(ARG(2), atol(ARG(3)), atol(ARG(4)), atol(ARG(5)), run_chain);
    if (!strcmp(m, "batches")) return mode_window(ARG(2), atol(ARG(3)), atol(ARG(4)), atol(ARG(5)), run_batches);
    if (!strcmp(m, "mock")) return mode_mock(atol(ARG(2)), atol(ARG(3)));
    if (!strcmp(m, "memory")) return mode_memory(ARG(2), atol(ARG(3)), atol(ARG(4)));
    if (!strcmp(m, "clients")) return mode_clients(ARG(2), atol(ARG(3)));
    if (!strcmp(m, "json")) return mode_json(ARG(2), atol(ARG(3)));
    DIE("unknown mode %s", m);
}
