/* drupal_pager over Views REST exports, against the fake server: where the pages end (an empty
 * page, a page that repeats the one before, max_pages), the query's own page, async and _sync,
 * bad input, and a pager that outlives its client. */
#include "check.h"

/* Counts the rows of every page until the pager says it has ended; -1 on an error. */
static int rows_until_end(drupal_pager *pager, int *pages) {
    int rows = 0;
    drupal_response *page = NULL;
    *pages = 0;
    for (;;) {
        drupal_code code = drupal_pager_next_sync(&page, pager);
        if (code != DRUPAL_OK) {
            drupal_response_free(page);
            return -1;
        }
        if (page == NULL) return rows;
        json_t *array = NULL;
        if (drupal_response_json(&array, page) == DRUPAL_OK) rows += (int)json_array_size(array);
        json_decref(array);
        drupal_response_free(page);
        (*pages)++;
    }
}

static void test_pages_end(drupal_client *c) {
    drupal_pager *pager = NULL;
    drupal_response *page = (drupal_response *)&page;
    const char *from_page_one[] = {"page", "1", NULL};
    int pages = 0;

    /* A full pager: 2 + 2 + 1 rows, then an empty page. */
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles", NULL, 0), DRUPAL_OK);
    CHECK_INT(rows_until_end(pager, &pages), 5);
    CHECK_INT(pages, 3);
    /* Once ended, always ended, with no request. */
    CHECK_CODE(drupal_pager_next_sync(&page, pager), DRUPAL_OK);
    CHECK(page == NULL);
    drupal_pager_free(pager);

    /* No pager: page 1 repeats page 0, so there is one page (it used to loop to max_pages). */
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles-all", NULL, 0), DRUPAL_OK);
    CHECK_INT(rows_until_end(pager, &pages), 5);
    CHECK_INT(pages, 1);
    drupal_pager_free(pager);

    /* The query's own page is the first; max_pages bounds the walk. */
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles", from_page_one, 0), DRUPAL_OK);
    CHECK_INT(rows_until_end(pager, &pages), 3);
    CHECK_INT(pages, 2);
    drupal_pager_free(pager);
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles", NULL, 2), DRUPAL_OK);
    CHECK_INT(rows_until_end(pager, &pages), 4);
    drupal_pager_free(pager);
}

static void test_async_pager(drupal_client *c) {
    drupal_pager *pager = NULL;
    waiter w;
    int pages = 0;
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles", NULL, 0), DRUPAL_OK);
    for (;;) {
        ASYNC(w, drupal_pager_next(NULL, pager, waiter_callback, &w));
        CHECK_INT(waiter_calls(&w), 1);
        CHECK_INT(w.code, DRUPAL_OK);
        if (w.response == NULL) {  /* the end: DRUPAL_OK with a NULL response */
            waiter_clear(&w);
            break;
        }
        CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
        waiter_clear(&w);
        if (++pages > 10) break;
    }
    CHECK_INT(pages, 3);
    drupal_pager_free(pager);
}

/* Of two fetches that overlap, the one started second is refused as it starts (the first one
 * could be the one refused, by its callback, when the pager was held only once a call ran). The
 * site answers after 300 ms, so that the first is still in flight when the second starts (under
 * TSan an answer at once could end it first: no overlap, and the second was served). */
static void test_overlapping_fetches(void) {
    const char *slow[] = {"X-Fake-Fault: delay;ms=300", NULL};
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *c = NULL;
    drupal_pager *pager = NULL;
    drupal_response *page = (drupal_response *)&page;
    waiter w;
    options.headers = slow;
    CHECK_CODE(drupal_client_new(&c, base_url(), &options), DRUPAL_OK);
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles", NULL, 0), DRUPAL_OK);
    waiter_init(&w);
    CHECK_CODE(drupal_pager_next(NULL, pager, waiter_callback, &w), DRUPAL_OK);
    CHECK_CODE(drupal_pager_next_sync(&page, pager), DRUPAL_E_STATE);
    CHECK(page == NULL);
    CHECK(waiter_wait(&w, 30) != -1);
    CHECK_INT(w.code, DRUPAL_OK);
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    waiter_clear(&w);
    CHECK_CODE(drupal_pager_next_sync(&page, pager), DRUPAL_OK);   /* the second page */
    CHECK_RESPONSE(page, DRUPAL_OK, 200);
    drupal_response_free(page);
    drupal_pager_free(pager);
    drupal_client_free(c);
}

static void test_bad_input_and_lifetime(void) {
    drupal_client *c = new_client();
    drupal_pager *pager = (drupal_pager *)&pager;
    drupal_response *page = NULL;
    const char *odd[] = {"page", NULL};

    CHECK_CODE(drupal_view_pager_new(&pager, NULL, "/api/articles", NULL, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(pager == NULL);
    CHECK_CODE(drupal_view_pager_new(NULL, c, "/api/articles", NULL, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_view_pager_new(&pager, c, NULL, NULL, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/../x", NULL, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles", odd, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_pager_next_sync(&page, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_pager_next(NULL, NULL, waiter_callback, NULL), DRUPAL_E_INVALID_ARGUMENT);
    drupal_pager_free(NULL);

    /* A pager keeps its client's handle; once the client is freed, fetching is refused. */
    CHECK_CODE(drupal_view_pager_new(&pager, c, "/api/articles", NULL, 0), DRUPAL_OK);
    drupal_client_free(c);
    CHECK_CODE(drupal_pager_next_sync(&page, pager), DRUPAL_E_STATE);
    CHECK(page == NULL);
    drupal_pager_free(pager);
}

/* Nid of row i of a view page (from its JSON), -1 if there is none. */
static long row_nid(drupal_response *page, size_t i) {
    json_t *array = NULL, *nid;
    long value = -1;
    if (drupal_response_json(&array, page) != DRUPAL_OK) return -1;
    nid = json_object_get(json_array_get(array, i), "nid");   /* Views rows: "nid": "3" */
    if (json_is_integer(nid)) value = (long)json_integer_value(nid);
    else if (json_is_string(nid)) value = strtol(json_string_value(nid), NULL, 10);
    json_decref(array);
    return value;
}

/* Issue 9: a path may carry a query string, or be an absolute URL under the base URL (what
 * JSON:API's links.next gives); a URL on another origin is still refused. */
static void test_paths_with_queries_and_absolute_urls(drupal_client *c) {
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    char url[512];
    const char *elsewhere[] = {"http://example.com/node/1?_format=json", "https://127.0.0.1:1/api/articles?page=1",
                               NULL};
    int i;

    CHECK_CODE(drupal_view_sync(&r, c, "/api/articles?page=1", NULL), DRUPAL_OK);
    CHECK_INT(row_nid(r, 0), 3);
    drupal_response_free(r);
    r = NULL;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/api/articles?page=0", NULL), DRUPAL_OK);
    CHECK_INT(row_nid(r, 0), 1);
    drupal_response_free(r);
    r = NULL;
    o.no_format = 1;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1?_format=json", &o), DRUPAL_OK);
    CHECK_INT(drupal_response_status(r), 200);
    CHECK(strstr(drupal_response_body(r, NULL), "Article 1") != NULL);
    drupal_response_free(r);
    r = NULL;

    snprintf(url, sizeof url, "%s/node/1?_format=json", base_url());
    CHECK_CODE(drupal_request_sync(&r, c, "GET", url, &o), DRUPAL_OK);
    CHECK_INT(drupal_response_status(r), 200);
    CHECK(strstr(drupal_response_body(r, NULL), "Article 1") != NULL);
    drupal_response_free(r);
    r = NULL;
    snprintf(url, sizeof url, "%s/api/articles?page=2", base_url());
    CHECK_CODE(drupal_view_sync(&r, c, url, NULL), DRUPAL_OK);
    CHECK_INT(row_nid(r, 0), 5);
    drupal_response_free(r);
    r = NULL;

    for (i = 0; elsewhere[i]; i++) {
        CHECK_CODE(drupal_request_sync(&r, c, "GET", elsewhere[i], &o), DRUPAL_E_INVALID_ARGUMENT);
        drupal_response_free(r);
        r = NULL;
        CHECK_CODE(drupal_view_sync(&r, c, elsewhere[i], NULL), DRUPAL_E_INVALID_ARGUMENT);
        drupal_response_free(r);
        r = NULL;
    }
}

int main(void) {
    drupal_client *c = new_client();
    fake_reset();
    test_pages_end(c);
    test_async_pager(c);
    test_overlapping_fetches();
    test_paths_with_queries_and_absolute_urls(c);
    drupal_client_free(c);
    test_bad_input_and_lifetime();
    return check_summary();
}
