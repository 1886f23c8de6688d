/* Raw libcurl baselines: the best a C program can do on libcurl alone.
 *   baseline_curl seq   URL N WARM            easy handle reused, keep-alive; prints rps
 *   baseline_curl multi URL N WARM INFLIGHT   one multi handle, INFLIGHT transfers kept running
 * Every body is copied into a per-transfer buffer (the library copies bodies too). */
#include "common.h"
#include <curl/curl.h>

typedef struct { char *data; size_t len, cap; } buf;

static size_t on_body(char *p, size_t size, size_t n, void *ud) {
    buf *b = ud;
    size_t add = size * n;
    if (b->len + add > b->cap) {
        b->cap = (b->len + add) * 2;
        b->data = realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, p, add);
    b->len += add;
    return add;
}

static CURL *make_easy(const char *url, buf *b) {
    CURL *e = curl_easy_init();
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, b);
    curl_easy_setopt(e, CURLOPT_PRIVATE, b);
    return e;
}

static void check(CURL *e, CURLcode rc) {
    long status = 0;
    if (rc != CURLE_OK) DIE("curl: %s", curl_easy_strerror(rc));
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) DIE("curl: status %ld", status);
}

static double run_seq(const char *url, long n, long warm) {
    buf b = {0};
    CURL *e = make_easy(url, &b);
    double t0 = 0, c0 = 0;
    for (long i = 0; i < warm + n; i++) {
        if (i == warm) { t0 = now_s(); c0 = cpu_s(); }
        b.len = 0;
        check(e, curl_easy_perform(e));
    }
    double dt = now_s() - t0;
    result("cpu_us", (cpu_s() - c0) * 1e6 / n);
    curl_easy_cleanup(e);
    free(b.data);
    return n / dt;
}

static double run_multi(const char *url, long n, long warm, int inflight) {
    CURLM *m = curl_multi_init();
    curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, (long)inflight);
    buf *bufs = calloc(inflight, sizeof *bufs);
    CURL **easy = calloc(inflight, sizeof *easy);
    long total = warm + n, started = 0, done = 0;
    double t0 = warm == 0 ? now_s() : 0;
    for (int i = 0; i < inflight && started < total; i++, started++) {
        easy[i] = make_easy(url, &bufs[i]);
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
            if (++done == warm) t0 = now_s();
            if (started < total) {
                buf *b;
                curl_easy_getinfo(e, CURLINFO_PRIVATE, (char **)&b);
                b->len = 0;
                curl_multi_add_handle(m, e);
                started++;
            }
        }
        if (done < total) curl_multi_poll(m, NULL, 0, 1000, NULL);
    }
    double dt = now_s() - t0;
    for (int i = 0; i < inflight; i++) { if (easy[i]) curl_easy_cleanup(easy[i]); free(bufs[i].data); }
    curl_multi_cleanup(m);
    free(bufs); free(easy);
    return n / dt;
}

int main(int argc, char **argv) {
    if (argc < 5) DIE("usage: baseline_curl seq|multi URL N WARM [INFLIGHT]");
    curl_global_init(CURL_GLOBAL_ALL);
    const char *mode = argv[1], *url = argv[2];
    long n = atol(argv[3]), warm = atol(argv[4]);
    if (!strcmp(mode, "seq")) result("rps", run_seq(url, n, warm));
    else if (!strcmp(mode, "multi")) result("rps", run_multi(url, n, warm, argc > 5 ? atoi(argv[5]) : 32));
    else DIE("unknown mode %s", mode);
    curl_global_cleanup();
    return 0;
}
