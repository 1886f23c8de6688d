/* Raw libcurl baselines: the best a C program can do on libcurl alone.
 *   baseline_curl seq   URL N WARM            easy handle reused, keep-alive; prints rps, cpu_us
 *   baseline_curl multi URL N WARM INFLIGHT   one multi handle, INFLIGHT transfers kept running
 * Environment: BENCH_CA_FILE (a CA bundle for https), BENCH_HTTP2=1 (HTTP/2 over TLS with
 * CURLPIPE_MULTIPLEX and CURLOPT_PIPEWAIT: every transfer on one connection; otherwise HTTP/1.1).
 *
 * Every body is copied into a per-transfer buffer (the library copies bodies too), and each
 * transfer is configured with the libcurl features the library pays libcurl for on every request
 * (bench/PROFILES.md measured them one by one): a User-Agent in the header list, a header
 * callback that keeps the header lines, total and connect timeouts, an error buffer, a body size
 * limit, the http/https protocol list and an Accept-Encoding whose answers libcurl decodes.
 * Without them the baseline would be cheaper only because it asks libcurl for less. */
#include "common.h"
#include <curl/curl.h>

typedef struct { char *data; size_t len, cap; } buf;
typedef struct { buf body, headers; char error[CURL_ERROR_SIZE]; } transfer;

static struct curl_slist *user_agent;

static void append(buf *b, const char *p, size_t add) {
    if (b->len + add > b->cap) {
        b->cap = (b->len + add) * 2;
        b->data = realloc(b->data, b->cap);
        if (!b->data) DIE("out of memory");
    }
    memcpy(b->data + b->len, p, add);
    b->len += add;
}

static size_t on_body(char *p, size_t size, size_t n, void *ud) {
    append(&((transfer *)ud)->body, p, size * n);
    return size * n;
}

static size_t on_header(char *p, size_t size, size_t n, void *ud) {
    append(&((transfer *)ud)->headers, p, size * n);
    return size * n;
}

static int http2_wanted(void) {
    const char *v = getenv("BENCH_HTTP2");
    return v && !strcmp(v, "1");
}

static CURL *make_easy(const char *url, transfer *t) {
    CURL *e = curl_easy_init();
    const char *ca = getenv("BENCH_CA_FILE");
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, user_agent);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->error);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 60000L);
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)64 << 20);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
    if (ca) curl_easy_setopt(e, CURLOPT_CAINFO, ca);
    if (http2_wanted()) {
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
    } else {
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    }
    return e;
}

static void check(CURL *e, CURLcode rc) {
    long status = 0;
    if (rc != CURLE_OK) DIE("curl: %s", curl_easy_strerror(rc));
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) DIE("curl: status %ld", status);
}

static void reset(transfer *t) { t->body.len = t->headers.len = 0; }

static double run_seq(const char *url, long n, long warm) {
    transfer t = {0};
    CURL *e = make_easy(url, &t);
    double t0 = 0, c0 = 0;
    for (long i = 0; i < warm + n; i++) {
        if (i == warm) { t0 = now_s(); c0 = cpu_s(); }
        reset(&t);
        /* Every library call names its resource, so libcurl copies and parses a URL per
         * request there: the baseline does the same (~900 instructions, callgrind). */
        curl_easy_setopt(e, CURLOPT_URL, url);
        check(e, curl_easy_perform(e));
    }
    double dt = now_s() - t0;
    result("cpu_us", (cpu_s() - c0) * 1e6 / n);
    curl_easy_cleanup(e);
    free(t.body.data);
    free(t.headers.data);
    return n / dt;
}

static double run_multi(const char *url, long n, long warm, int inflight) {
    CURLM *m = curl_multi_init();
    curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, (long)inflight);
    /* The same pool size as the library's default (libcurl's own shrinks with the transfers). */
    curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, 64L);
    curl_multi_setopt(m, CURLMOPT_PIPELINING, http2_wanted() ? CURLPIPE_MULTIPLEX : CURLPIPE_NOTHING);
    transfer *ts = calloc(inflight, sizeof *ts);
    CURL **easy = calloc(inflight, sizeof *easy);
    long total = warm + n, started = 0, done = 0;
    double t0 = warm == 0 ? now_s() : 0, c0 = warm == 0 ? cpu_s() : 0;
    for (int i = 0; i < inflight && started < total; i++, started++) {
        easy[i] = make_easy(url, &ts[i]);
        curl_multi_add_handle(m, easy[i]);
    }
    int running = 1;
    while (done < total) {
        curl_multi_perform(m, &running);
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(m, &left))) {
            if (msg->msg != CURLMSG_DONE) continue;
            CURL *e = msg->easy_handle;
            check(e, msg->data.result);
            curl_multi_remove_handle(m, e);
            if (++done == warm) { t0 = now_s(); c0 = cpu_s(); }
            if (started < total) {
                transfer *t;
                curl_easy_getinfo(e, CURLINFO_PRIVATE, (char **)&t);
                reset(t);
                curl_easy_setopt(e, CURLOPT_URL, url);   /* as in run_seq */
                curl_multi_add_handle(m, e);
                started++;
            }
        }
        if (done < total) curl_multi_poll(m, NULL, 0, 1000, NULL);
    }
    double dt = now_s() - t0;
    result("cpu_us", (cpu_s() - c0) * 1e6 / n);
    for (int i = 0; i < inflight; i++) {
        if (easy[i]) curl_easy_cleanup(easy[i]);
        free(ts[i].body.data);
        free(ts[i].headers.data);
    }
    curl_multi_cleanup(m);
    free(ts); free(easy);
    return n / dt;
}

int main(int argc, char **argv) {
    if (argc < 5) DIE("usage: baseline_curl seq|multi URL N WARM [INFLIGHT]");
    curl_global_init(CURL_GLOBAL_ALL);
    user_agent = curl_slist_append(NULL, "User-Agent: drupalsdk-bench/1.0");
    /* In the list, as the library sends it: libcurl's own line is formatted anew per request. */
    user_agent = curl_slist_append(user_agent, "Accept-Encoding: deflate, gzip, br, zstd");
    const char *mode = argv[1], *url = argv[2];
    long n = atol(argv[3]), warm = atol(argv[4]);
    if (!strcmp(mode, "seq")) result("rps", run_seq(url, n, warm));
    else if (!strcmp(mode, "multi")) result("rps", run_multi(url, n, warm, argc > 5 ? atoi(argv[5]) : 32));
    else DIE("unknown mode %s", mode);
    curl_slist_free_all(user_agent);
    curl_global_cleanup();
    return 0;
}
