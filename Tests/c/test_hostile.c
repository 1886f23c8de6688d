/* What hostile servers and careless callers found, from C: credentials, bodies and cookies never
 * cross origins (DRUPAL_OTHER_URL is a second fake server), no smuggled framing headers, no secret
 * quoted in an error, redirects and empty entities are not successes, protocol errors and limits
 * are named, huge lengths and options are refused, and idempotent requests are retried. */
#include "check.h"

static const char *ARTICLE = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"secret body\"}]}";

static const char *other_url(void) {
    const char *url = getenv("DRUPAL_OTHER_URL");
    if (url == NULL || url[0] == '\0') {
        fprintf(stderr, "DRUPAL_OTHER_URL is not set\n");
        exit(2);
    }
    return url;
}

/* method + path on a fake server's control API; *body (if not NULL) gets the answer's body. */
static drupal_code control(const char *site, const char *method, const char *path, const char *json,
                           char *body, size_t body_size) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *headers[] = {"Content-Type: application/json", NULL};
    drupal_code code;
    if (drupal_client_new(&c, site, NULL) != DRUPAL_OK) return DRUPAL_E_INTERNAL;
    o.no_format = 1;
    if (json) { o.body = json; o.body_length = strlen(json); o.headers = headers; }
    code = drupal_request_sync(&r, c, method, path, &o);
    if (body) snprintf(body, body_size, "%s", drupal_response_body(r, NULL));
    drupal_response_free(r);
    drupal_client_free(c);
    return code;
}

static int contains_ci(const char *haystack, const char *needle) {
    size_t n = strlen(needle);
    for (; *haystack; haystack++) {
        size_t i = 0;
        while (i < n && haystack[i] && (haystack[i] | 0x20) == (needle[i] | 0x20)) i++;
        if (i == n) return 1;
    }
    return 0;
}

/* Checks that the other origin's last request holds `expected` and none of `secrets` (both
 * case-insensitively). */
static void check_other_origin_saw(const char *expected, const char *const *secrets, int line) {
    char seen[8192], what[128];
    int i;
    CHECK_CODE(control(other_url(), "GET", "/__fake/last-request", NULL, seen, sizeof seen), DRUPAL_OK);
    check_record(contains_ci(seen, expected), __FILE__, line, "the redirect was followed to the other origin", seen);
    for (i = 0; secrets[i]; i++) {
        snprintf(what, sizeof what, "%s reached the other origin", secrets[i]);
        check_record(!contains_ci(seen, secrets[i]), __FILE__, line, what, seen);
    }
}

static drupal_client *redirecting_client(int login) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    const char *secret[] = {"X-Api-Key", NULL};
    options.follow_redirects = 1;
    options.secret_headers = secret;
    if (drupal_client_new(&c, base_url(), &options) != DRUPAL_OK) exit(2);
    if (login) {
        CHECK_CODE(drupal_login_sync(&r, c, "admin", "admin"), DRUPAL_OK);
        drupal_response_free(r);
    }
    return c;
}

static void redirect_once(int code, const char *to) {
    char json[512];
    snprintf(json, sizeof json, "{\"mode\":\"redirect\",\"to\":\"%s\",\"code\":%d,\"count\":1}", to, code);
    CHECK_CODE(control(base_url(), "POST", "/__fake/faults", json, NULL, 0), DRUPAL_OK);
}

static void test_credentials_stay_on_the_site(void) {
    drupal_client *c = redirecting_client(1);
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *headers[] = {"X-Api-Key: k-123", NULL};
    char to[256], seen[8192];
    const char *secrets[] = {"x-csrf-token", "cookie", "authorization", "x-api-key", "k-123", "secret body", NULL};

    snprintf(to, sizeof to, "%s/node/1?_format=json", other_url());
    redirect_once(302, to);
    o.headers = headers;
    o.body = ARTICLE;
    o.body_length = strlen(ARTICLE);
    CHECK_CODE(drupal_request_sync(&r, c, "POST", "/node", &o), DRUPAL_OK);  /* followed as a GET */
    drupal_response_free(r);
    check_other_origin_saw("\"GET\"", secrets, __LINE__);

    /* 307: the body would go there: not followed, nothing sent. */
    CHECK_CODE(control(other_url(), "POST", "/__fake/reset", NULL, NULL, 0), DRUPAL_OK);
    snprintf(to, sizeof to, "%s/node?_format=json", other_url());
    redirect_once(307, to);
    CHECK_CODE(drupal_entity_create_sync(&r, c, "node", ARTICLE, strlen(ARTICLE)), DRUPAL_E_NETWORK);
    CHECK_INT(drupal_response_status(r), 307);
    drupal_response_free(r);
    CHECK_CODE(control(other_url(), "GET", "/__fake/last-request", NULL, seen, sizeof seen), DRUPAL_OK);
    CHECK_STR(seen, "{}");
    drupal_client_free(c);
}

/* Regression: a redirect to "http://other?<U+0301>@site/x" was taken for the site (the origin was
 * parsed by Characters, and "?" + a combining mark is one), so the session and the client's
 * secret header went to the other origin, where libcurl connects. */
static void test_a_combining_mark_cannot_disguise_another_origin(void) {
    drupal_client *c = redirecting_client(1);
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *headers[] = {"X-Api-Key: k-123", NULL};
    const char *secrets[] = {"cookie", "authorization", "x-api-key", "k-123", NULL};
    char to[256];

    /* The fake writes headers as Latin-1: U+00CC U+0081 go out as the UTF-8 bytes of U+0301. */
    snprintf(to, sizeof to, "%s?\\u00cc\\u0081@%s/node/1", other_url(), base_url() + strlen("http://"));
    redirect_once(302, to);
    o.headers = headers;
    (void)drupal_request_sync(&r, c, "GET", "/node/2", &o);
    drupal_response_free(r);
    check_other_origin_saw("\"GET\"", secrets, __LINE__);
    drupal_client_free(c);
}

/* A header line's colon is found on the bytes: followed by a combining mark, it still ends the
 * name (it used to be skipped, and the line refused or split at a later colon). */
static void test_a_header_colon_before_a_combining_mark(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *headers[] = {"X-Note:\xcc\x81 a: b", NULL};
    char seen[8192];

    o.headers = headers;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(control(base_url(), "GET", "/__fake/last-request", NULL, seen, sizeof seen), DRUPAL_OK);
    check_record(strstr(seen, "[\"X-Note\", \"\\u00cc\\u0081 a: b\"]") != NULL, __FILE__, __LINE__,
                 "the header went out as X-Note with the rest as its value", seen);
    drupal_client_free(c);
}

static void test_cookies_of_another_origin_are_not_kept(void) {
    drupal_client *c = redirecting_client(1);
    drupal_response *r = NULL;
    char to[256], seen[8192];
    int logged_in = 0;
    CHECK_CODE(control(other_url(), "POST", "/__fake/faults",
                       "{\"mode\":\"setcookie\",\"raw\":[\"evil=1; Path=/\"],\"count\":1}", NULL, 0), DRUPAL_OK);
    snprintf(to, sizeof to, "%s/node/1?_format=json", other_url());
    redirect_once(302, to);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "2"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(control(base_url(), "GET", "/__fake/last-request", NULL, seen, sizeof seen), DRUPAL_OK);
    CHECK(strstr(seen, "evil=1") == NULL);
    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, c), DRUPAL_OK);
    CHECK_INT(logged_in, 1);
    drupal_client_free(c);
}

static void test_framing_headers_and_secrets(void) {
    drupal_client *c = new_client(), *bad = (drupal_client *)&bad;
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    const char *names[] = {"Content-Length: 5", "Transfer-Encoding: chunked", "Host: evil", "Connection: close",
                           "Upgrade: h2c", "TE: trailers", "Trailer: X", NULL};
    const char *no_colon[] = {"Authorization Bearer t0ps3cret", NULL};
    int i;
    for (i = 0; names[i]; i++) {
        const char *headers[] = {names[i], NULL};
        o.headers = headers;
        CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_E_INVALID_ARGUMENT);
        drupal_response_free(r);
        r = NULL;
    }
    /* An error about refused input names the parameter, never a value that may be a secret. */
    o.headers = no_colon;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "t0ps3cret") == NULL);
    CHECK_CODE(drupal_client_new(&bad, "https://example.com/?access_token=t0ps3cret", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "t0ps3cret") == NULL);
    CHECK_CODE(drupal_client_new(&bad, "ftp://u:t0ps3cret@example.com", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "t0ps3cret") == NULL);
    options.headers = names;
    CHECK_CODE(drupal_client_new(&bad, base_url(), &options), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(c);
}

static void test_not_successes(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *redirect[] = {"X-Fake-Fault: redirect;to=/node/2;code=302", NULL};
    const char *empty[] = {"X-Fake-Fault: status;code=200;body=", NULL};
    const char *garbage[] = {"X-Fake-Fault: garbage", NULL};
    const char *huge[] = {"X-Fake-Fault: huge_header;bytes=1048576", NULL};
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *faulty = NULL;

    o.headers = redirect;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_E_HTTP);
    CHECK_INT(drupal_response_status(r), 302);
    CHECK_STR(drupal_response_header(r, "Location"), "/node/2");
    drupal_response_free(r);

    options.headers = empty;
    CHECK_CODE(drupal_client_new(&faulty, base_url(), &options), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, faulty, "node", "1"), DRUPAL_E_DECODE);
    drupal_response_free(r);
    drupal_client_free(faulty);

    o.headers = garbage;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_E_NETWORK);
    drupal_response_free(r);
    o.headers = huge;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_E_TOO_LARGE);
    drupal_response_free(r);
    drupal_client_free(c);
}

static void test_huge_inputs(void) {
    drupal_client *c = new_client(), *bad = (drupal_client *)&bad;
    drupal_response *r = NULL;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    size_t big = 1 << 20;
    char *id = malloc(big + 1);
    memset(id, '9', big);
    id[big] = '\0';
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", id), DRUPAL_E_TOO_LARGE);
    CHECK(strstr(drupal_last_error(), "65536") != NULL);
    drupal_response_free(r);
    free(id);
    /* A size_t above the largest buffer, and options past what libcurl takes, are refused. */
    CHECK_CODE(drupal_entity_create_sync(&r, c, "node", ARTICLE, (size_t)-1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    options.max_body_size = (size_t)-1;
    CHECK_CODE(drupal_client_new(&bad, base_url(), &options), DRUPAL_E_INVALID_ARGUMENT);
    options.max_body_size = 0;
    options.timeout = 1e300;
    CHECK_CODE(drupal_client_new(&bad, base_url(), &options), DRUPAL_E_INVALID_ARGUMENT);
    options.timeout = 0;
    options.max_retries = -2;
    CHECK_CODE(drupal_client_new(&bad, base_url(), &options), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(c);
}

typedef struct { pthread_mutex_t lock; int retries; int last_attempt; int last_status; } retry_log;

/* The log as the test reads it: under its lock, as the listener's (library) thread writes it. */
typedef struct { int retries; int last_attempt; int last_status; } retry_record;
static retry_record retries_seen(retry_log *log) {
    retry_record seen;
    pthread_mutex_lock(&log->lock);
    seen.retries = log->retries;
    seen.last_attempt = log->last_attempt;
    seen.last_status = log->last_status;
    pthread_mutex_unlock(&log->lock);
    return seen;
}

static void on_retry(const drupal_event *event, void *userdata) {
    retry_log *log = userdata;
    if (event->type != DRUPAL_EVENT_RETRY) return;
    pthread_mutex_lock(&log->lock);
    log->retries++;
    log->last_attempt = event->attempt;
    log->last_status = event->status;
    pthread_mutex_unlock(&log->lock);
}

static void test_retries(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    retry_log log = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0};
    uint64_t id = 0;
    waiter w;
    CHECK_CODE(drupal_client_add_listener(&id, c, on_retry, &log), DRUPAL_OK);
    CHECK_CODE(control(base_url(), "POST", "/__fake/faults",
                       "{\"mode\":\"status\",\"code\":502,\"count\":2,\"path_prefix\":\"/node\"}", NULL, 0), DRUPAL_OK);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_INT(retries_seen(&log).retries, 2);
    CHECK_INT(retries_seen(&log).last_attempt, 2);
    CHECK_INT(retries_seen(&log).last_status, 502);
    /* The async, task-free path retries too. */
    CHECK_CODE(control(base_url(), "POST", "/__fake/faults",
                       "{\"mode\":\"status\",\"code\":504,\"count\":1,\"path_prefix\":\"/node\"}", NULL, 0), DRUPAL_OK);
    ASYNC(w, drupal_entity_get(NULL, c, "node", "1", waiter_callback, &w));
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    waiter_clear(&w);
    CHECK_INT(retries_seen(&log).retries, 3);
    drupal_client_free(c);
}

/* Proxy-Authorization and a header marked secret, from the request or the client's options, do
 * not follow a redirect to another origin (issue 10 item 1). */
static void test_proxy_authorization_and_secrets_stay_on_the_site(void) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    const char *secret[] = {"X-Api-Key", NULL};
    const char *client_headers[] = {"Proxy-Authorization: Basic cHJveHk6cDF4eQ==", "X-Api-Key: k-client", NULL};
    const char *request_headers[] = {"Proxy-Authorization: Basic cmVxOnAyeHk=", "X-Api-Key: k-request", NULL};
    const char *leaks[] = {"proxy-authorization", "x-api-key", "cHJveHk6cDF4eQ", "cmVxOnAyeHk", "k-client",
                           "k-request", NULL};
    char to[256];
    int round;
    options.follow_redirects = 1;
    options.secret_headers = secret;
    options.headers = client_headers;
    if (drupal_client_new(&c, base_url(), &options) != DRUPAL_OK) exit(2);
    for (round = 0; round < 2; round++) {
        CHECK_CODE(control(other_url(), "POST", "/__fake/reset", NULL, NULL, 0), DRUPAL_OK);
        snprintf(to, sizeof to, "%s/node/1?_format=json", other_url());
        redirect_once(302, to);
        o.headers = round ? request_headers : NULL;
        CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/2", &o), DRUPAL_OK);
        CHECK_INT(drupal_response_status(r), 200);
        drupal_response_free(r);
        r = NULL;
        check_other_origin_saw("/node/1", leaks, __LINE__);
    }
    drupal_client_free(c);
}

/* A Retry-After given as an HTTP-date (IMF-fixdate, 2 s ahead) on a 503 to a GET is honoured. */
static void test_retry_after_as_a_date(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    char date[64], json[256];
    time_t when = time(NULL) + 2;
    struct tm tm;
    double started;
    gmtime_r(&when, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    snprintf(json, sizeof json,
             "{\"mode\":\"status\",\"code\":503,\"count\":1,\"path_prefix\":\"/node\",\"retry_after\":\"%s\"}", date);
    CHECK_CODE(control(base_url(), "POST", "/__fake/faults", json, NULL, 0), DRUPAL_OK);
    started = now_seconds();
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_OK);
    CHECK_INT(drupal_response_status(r), 200);
    drupal_response_free(r);
    check_record(now_seconds() - started >= 0.5, __FILE__, __LINE__, "waited for the Retry-After date", date);
    drupal_client_free(c);
}

/* A client that does not retry (so one fault is one answer), with a timeout and a body limit. */
static drupal_client *fault_client(double timeout, size_t max_body_size) {
    drupal_client *c = NULL;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    options.max_retries = -1;
    options.timeout = timeout;
    options.max_body_size = max_body_size;
    if (drupal_client_new(&c, base_url(), &options) != DRUPAL_OK) exit(2);
    return c;
}

/* GET /node/1 with an X-Fake-Fault header; returns the code. */
static drupal_code get_with_fault(drupal_client *c, const char *fault, drupal_response **out) {
    char header[256];
    const char *headers[] = {header, NULL};
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    snprintf(header, sizeof header, "X-Fake-Fault: %s", fault);
    o.headers = headers;
    return drupal_request_sync(out, c, "GET", "/node/1", &o);
}

static void check_fault_fails(drupal_client *c, const char *fault) {
    drupal_response *r = NULL;
    drupal_code code = get_with_fault(c, fault, &r);
    char detail[256];
    snprintf(detail, sizeof detail, "%s: %s (%s)", fault, drupal_code_name(code), drupal_last_error());
    check_record(code == DRUPAL_E_NETWORK, __FILE__, __LINE__, "a broken answer is a network error", detail);
    drupal_response_free(r);
}

/* The fake's fault modes, from the library: errors named, no hang, no success (issue 10). */
static void test_fault_modes(void) {
    drupal_client *c = fault_client(0, 0), *quick = fault_client(1.0, 0), *small = fault_client(10, 65536);
    drupal_response *r = NULL;
    const char *broken[] = {"reset;at=start", "reset;at=headers", "reset", "bad_length;delta=25",
                            "bad_chunked;kind=size", "bad_chunked;kind=truncated", "bad_chunked;kind=noend",
                            "bad_chunked;kind=overflow", "garbage", "bad_status;kind=code",
                            "bad_status;kind=version", NULL};
    double started;
    int i;
    for (i = 0; broken[i]; i++) check_fault_fails(c, broken[i]);

    started = now_seconds();
    CHECK_CODE(get_with_fault(quick, "stall;seconds=20;after=headers", &r), DRUPAL_E_TIMEOUT);
    check_record(now_seconds() - started < 10, __FILE__, __LINE__, "a stall ends at the client's 1 s timeout", NULL);
    drupal_response_free(r);
    r = NULL;

    CHECK_CODE(get_with_fault(c, "trickle;ms=0", &r), DRUPAL_OK);
    CHECK_INT(drupal_response_status(r), 200);
    CHECK(strstr(drupal_response_body(r, NULL), "Body of article 1") != NULL);
    drupal_response_free(r);
    r = NULL;

    CHECK_CODE(get_with_fault(small, "endless", &r), DRUPAL_E_TOO_LARGE);
    drupal_response_free(r);
    r = NULL;
    CHECK_CODE(get_with_fault(small, "endless;chunked=1", &r), DRUPAL_E_TOO_LARGE);
    drupal_response_free(r);
    r = NULL;

    started = now_seconds();
    {
        drupal_code code = get_with_fault(quick, "endless_headers", &r);
        CHECK_CODE(code, DRUPAL_E_TOO_LARGE);
        check_record(now_seconds() - started < 10, __FILE__, __LINE__, "endless headers end", drupal_code_name(code));
    }
    drupal_response_free(r);
    drupal_client_free(c);
    drupal_client_free(quick);
    drupal_client_free(small);
}

/* A compressed answer is decoded whole or not at all: libcurl 7.88 handed back the first half of
 * a gzip body cut short (the HTTP framing whole) as a success. */
static void test_compressed_answers(void) {
    drupal_client *c = fault_client(0, 0);
    drupal_response *r = NULL;
    drupal_code code;
    CHECK_CODE(get_with_fault(c, "gzip", &r), DRUPAL_OK);
    CHECK(strstr(drupal_response_body(r, NULL), "Body of article 1") != NULL);
    drupal_response_free(r);
    r = NULL;
    code = get_with_fault(c, "gzip;cut", &r);
    check_record(code == DRUPAL_E_DECODE && strstr(drupal_last_error(), "gzip body ends early") != NULL, __FILE__,
                 __LINE__, "half a gzip body is a decode error", code == DRUPAL_OK
                     ? drupal_response_body(r, NULL) : drupal_last_error());
    drupal_response_free(r);
    r = NULL;
    code = get_with_fault(c, "gzip;trailing", &r);
    check_record(code == DRUPAL_E_DECODE && strstr(drupal_last_error(), "follow the end") != NULL, __FILE__,
                 __LINE__, "bytes after the gzip stream are a decode error", drupal_last_error());
    drupal_response_free(r);
    drupal_client_free(c);
}

int main(void) {
    fake_reset();
    test_compressed_answers();
    test_credentials_stay_on_the_site();
    test_cookies_of_another_origin_are_not_kept();
    test_a_combining_mark_cannot_disguise_another_origin();
    test_a_header_colon_before_a_combining_mark();
    test_framing_headers_and_secrets();
    test_not_successes();
    test_huge_inputs();
    test_retries();
    test_proxy_authorization_and_secrets_stay_on_the_site();
    test_retry_after_as_a_date();
    test_fault_modes();
    return check_summary();
}
