/* Connection reuse from C over real loopback HTTP, counted by the fake server (its "connections":
 * TCP connections that served a Drupal request since the reset): 32 async calls in flight keep 32
 * connections across batches (libcurl's default pool shrank as the window drained and churned
 * them), the pool size option, busy polling, HTTP/2 off, the proxy option, compression, and
 * options structs of every version. */
#include "check.h"

#define WINDOW 32
#define BATCHES 4

/* Every answer waits 50 ms, so the calls of a batch are surely in flight together. */
static const char *HOLD[] = {"X-Fake-Fault: delay;ms=50", NULL};

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done, ok;
} batch;

static void on_done(drupal_code code, drupal_response *response, void *userdata) {
    batch *b = userdata;
    pthread_mutex_lock(&b->lock);
    b->done++;
    b->ok += code == DRUPAL_OK && drupal_response_status(response) == 200;
    pthread_cond_broadcast(&b->cond);
    pthread_mutex_unlock(&b->lock);
}

/* Runs `batches` batches of `window` async GETs (all started, then all awaited). */
static void run_batches(drupal_client *c, int window, int batches) {
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    int i, n;
    o.headers = HOLD;
    for (n = 0; n < batches; n++) {
        batch b = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
        for (i = 0; i < window; i++) CHECK_CODE(drupal_request(NULL, c, "GET", "/node/1", &o, on_done, &b), DRUPAL_OK);
        pthread_mutex_lock(&b.lock);
        while (b.done < window) pthread_cond_wait(&b.cond, &b.lock);
        pthread_mutex_unlock(&b.lock);
        CHECK_INT(b.ok, window);
    }
}

/* The fake's connection count, asked by a client of its own (whose connection serves only
 * /__fake/ requests, which the count leaves out). */
static long fake_connections(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    json_t *stats = NULL;
    int64_t connections = -1;
    o.no_format = 1;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/__fake/stats", &o), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&stats, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_int(&connections, stats, "connections"), DRUPAL_OK);
    json_decref(stats);
    drupal_response_free(r);
    drupal_client_free(c);
    return (long)connections;
}

static void test_window_keeps_its_connections(void) {
    drupal_client *c = new_client();
    fake_reset();
    run_batches(c, WINDOW, BATCHES);
    CHECK_INT(fake_connections(), WINDOW);
    drupal_client_free(c);
}

static void test_smaller_pool(void) {
    drupal_client_options opts = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *c = NULL;
    opts.max_connections = 4;   /* 16 at once, but only 4 kept between batches */
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_OK);
    fake_reset();
    run_batches(c, 16, 3);
    CHECK(fake_connections() > 16);
    drupal_client_free(c);
}

static void get_five(drupal_client *c) {
    int i;
    for (i = 0; i < 5; i++) {
        drupal_response *r = NULL;
        CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_OK);
        drupal_response_free(r);
    }
}

static void test_busy_poll_and_http2_options(void) {
    drupal_client_options opts = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *slow[] = {"X-Fake-Fault: delay;ms=100", NULL};

    CHECK_INT(opts.busy_poll_us, 0);   /* off by default */
    opts.busy_poll_us = 50;
    opts.http2 = -1;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_OK);
    fake_reset();
    get_five(c);
    o.headers = slow;   /* answered after the busy poll gave up and the thread slept */
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_INT(fake_connections(), 1);
    drupal_client_free(c);

    opts.busy_poll_us = -1;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
    opts.busy_poll_us = 1000001;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
    opts.busy_poll_us = 0;
    opts.http2 = 2;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
    opts.http2 = 0;
    /* 0 (the default) and 1 verify, -1 does not: any other value is a mistake, not "don't". */
    opts.verify_tls = 2;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
    opts.verify_tls = 0;
    opts.max_connections = -1;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
    opts.max_connections = 10001;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
    opts.max_connections = 0;
    opts.min_file_rate = -1;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "minimum file rate") != NULL);
    opts.min_file_rate = 1073741825;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(c == NULL);
    opts.min_file_rate = 1073741824;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_OK);
    drupal_client_free(c);
}

/* Compressed answers are asked for and decoded by default (the fake's gzip fault compresses when
 * the request allows it); max_body_size counts the decoded bytes, so a bomb is too large; -1
 * asks for none, and an answer compressed anyway arrives as it was sent. */
static void test_compression_option(void) {
    drupal_client_options opts = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *gzip[] = {"X-Fake-Fault: gzip", NULL};
    const char *bomb[] = {"X-Fake-Fault: gzip;bomb=8000000", NULL};
    json_t *node = NULL;
    size_t length = 0;

    CHECK_INT(opts.compression, 0);
    opts.max_body_size = 1 << 20;
    opts.max_retries = -1;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_OK);
    o.headers = gzip;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_OK);
    CHECK_STR(drupal_response_header(r, "Content-Encoding"), "gzip");
    CHECK_CODE(drupal_response_json(&node, r), DRUPAL_OK);
    CHECK(json_is_array(json_object_get(node, "nid")));
    json_decref(node);
    drupal_response_free(r);
    o.headers = bomb;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_E_TOO_LARGE);
    drupal_response_free(r);
    drupal_client_free(c);

    opts.compression = -1;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_OK);
    o.headers = gzip;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_OK);
    CHECK(drupal_response_header(r, "Content-Encoding") == NULL);
    drupal_response_free(r);
    o.headers = bomb;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_OK);
    CHECK(drupal_response_body(r, &length) != NULL);
    CHECK(length > 0 && length < 100000);
    drupal_response_free(r);
    drupal_client_free(c);

    c = NULL;
    opts.compression = 1;
    CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(c == NULL);
}

/* The target the fake server was asked for last (absolute when it was asked as a proxy). */
static void check_last_target(const char *expected) {
    json_t *seen = NULL;
    CHECK_CODE(fake_control_at(base_url(), "GET", "/__fake/last-request", NULL, &seen), DRUPAL_OK);
    CHECK_STR(json_string_value(json_object_get(seen, "target")), expected);
    json_decref(seen);
}

/* The fake server stands in for the proxy (it answers a request in absolute form, as an origin
 * server must): a client of a site that does not resolve reaches it only through the proxy. */
static void test_proxy_option(void) {
    drupal_client_options opts = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    const char *bad[] = {"proxy.example:3128", "ftp://user:s3cret@proxy.example", "http://user:s3cret@", "http://a b",
                         NULL};
    int i;

    CHECK(opts.proxy == NULL);   /* the environment's, as curl */
    opts.proxy = base_url();
    CHECK_CODE(drupal_client_new(&c, "http://drupal.invalid", &opts), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_OK);
    CHECK_INT(drupal_response_status(r), 200);
    drupal_response_free(r);
    check_last_target("http://drupal.invalid/node/1?_format=json");
    drupal_client_free(c);

    opts.proxy = "";   /* none: drupal.invalid is then unreachable */
    opts.max_retries = -1;
    CHECK_CODE(drupal_client_new(&c, "http://drupal.invalid", &opts), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_E_NETWORK);
    drupal_response_free(r);
    drupal_client_free(c);

    for (i = 0; bad[i]; i++) {
        opts.proxy = bad[i];
        c = NULL;
        CHECK_CODE(drupal_client_new(&c, base_url(), &opts), DRUPAL_E_INVALID_ARGUMENT);
        CHECK(c == NULL);
        CHECK(strstr(drupal_last_error(), "s3cret") == NULL);
    }
}

/* A program built against an older header passes a smaller struct: the library reads only that
 * version's fields (here, a version 2 struct followed by garbage where version 3 fields would be). */
static void test_older_options_versions(void) {
    unsigned char *bytes = malloc(sizeof(drupal_client_options));
    drupal_client_options *opts = (drupal_client_options *)bytes;
    size_t v2_size = offsetof(drupal_client_options, max_connections);
    drupal_client *c = NULL;
    unsigned int version;

    for (version = 1; version <= DRUPAL_CLIENT_OPTIONS_VERSION; version++) {
        memset(bytes, 0xA5, sizeof(drupal_client_options));
        CHECK_CODE(drupal_client_options_init(opts, version), DRUPAL_OK);
        CHECK_INT(opts->version, version);
        if (version == 2) {
            /* init wrote no byte past a version 2 struct */
            CHECK_INT(bytes[v2_size], 0xA5);
            CHECK_INT(bytes[sizeof(drupal_client_options) - 1], 0xA5);
        }
        if (version == 3) CHECK_INT(bytes[offsetof(drupal_client_options, proxy)], 0xA5);
        /* garbage where a version 5 field would be: read, it would be refused */
        if (version == 4) CHECK_INT(bytes[offsetof(drupal_client_options, compression)], 0xA5);
        /* and where min_file_rate would be: a negative rate */
        if (version == 5) CHECK_INT(bytes[offsetof(drupal_client_options, min_file_rate)], 0xA5);
        CHECK_CODE(drupal_client_new(&c, base_url(), opts), DRUPAL_OK);
        get_five(c);
        drupal_client_free(c);
        c = NULL;
    }
    free(bytes);
}

int main(void) {
    double t0 = now_seconds();
    test_window_keeps_its_connections();
    test_smaller_pool();
    test_busy_poll_and_http2_options();
    test_proxy_option();
    test_compression_option();
    test_older_options_versions();
    fprintf(stderr, "test_connections: %.1f s\n", now_seconds() - t0);
    return check_summary();
}
