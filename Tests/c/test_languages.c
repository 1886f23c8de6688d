/* Languages from C against the fake's extended site (French at /fr): a language handle on the
 * same session, French reads and their fallback (drupal_response_langcode), a translation's
 * update, the guarded traps (untranslated update, delete), JSON:API under the prefix, bad input. */
#include "check.h"

static const char *FR_TITLE = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"Article 1 FR (modifi\\u00e9)\"}]}";
static const char *FR_LANGCODE = "{\"type\":[{\"target_id\":\"article\"}],\"langcode\":[{\"value\":\"fr\"}],"
                                 "\"title\":[{\"value\":\"Devenu fran\\u00e7ais\"}]}";

static void ext_reset(void) {
    if (fake_control_at(extended_url(), "POST", "/__fake/reset", NULL, NULL) != DRUPAL_OK) exit(2);
}

static drupal_client *ext_client(void) {
    drupal_client *c = NULL;
    if (drupal_client_new(&c, extended_url(), NULL) != DRUPAL_OK) exit(2);
    return c;
}

static void check_node(drupal_client *c, const char *id, const char *title, const char *langcode) {
    drupal_response *r = NULL;
    json_t *node = NULL;
    const char *value = NULL;
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", id), DRUPAL_OK);
    CHECK_STR(drupal_response_langcode(r), langcode);
    if (drupal_response_json(&node, r) == DRUPAL_OK) {
        CHECK_CODE(drupal_json_field_string(&value, node, "title"), DRUPAL_OK);
        CHECK_STR(value, title);
        json_decref(node);
    }
    drupal_response_free(r);
}

static void test_reads(void) {
    drupal_client *c = ext_client(), *fr = NULL, *plain = NULL;
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *query[] = {"filter[drupal_internal__nid]", "1", NULL};
    ext_reset();
    CHECK_CODE(drupal_client_with_language(&fr, c, "fr", 0), DRUPAL_OK);
    check_node(fr, "1", "Article 1 FR", "fr");
    check_node(fr, "2", "Article 2", "en");    /* no translation: the original, no 404 */
    check_node(c, "1", "Article 1", "en");
    CHECK_CODE(drupal_client_with_language(&plain, c, NULL, 0), DRUPAL_OK);
    check_node(plain, "1", "Article 1", "en");
    drupal_client_free(plain);

    /* JSON:API under the prefix. */
    o.no_format = 1;
    o.query = query;
    CHECK_CODE(drupal_request_sync(&r, fr, "GET", "/jsonapi/node/article", &o), DRUPAL_OK);
    CHECK(strstr(drupal_response_body(r, NULL), "Article 1 FR") != NULL);
    {
        json_t *doc = NULL;
        const char *self_link;
        CHECK_CODE(drupal_response_json(&doc, r), DRUPAL_OK);
        self_link = json_string_value(json_object_get(json_object_get(json_object_get(doc, "links"), "self"), "href"));
        CHECK(self_link != NULL && strstr(self_link, "/fr/jsonapi/node/article") != NULL);
        json_decref(doc);
    }
    CHECK(drupal_response_langcode(r) == NULL);  /* a collection carries no one langcode */
    drupal_response_free(r);

    /* The language handle outlives its client: the session is shared, not owned by one handle. */
    drupal_client_free(c);
    check_node(fr, "1", "Article 1 FR", "fr");
    drupal_client_free(fr);
}

static void test_writes_and_guards(void) {
    drupal_client *c = ext_client(), *fr = NULL, *forced = NULL;
    drupal_response *r = NULL;
    int logged_in = 0;
    ext_reset();
    /* One session for every language: log in once, write in French with the same CSRF token. */
    CHECK_CODE(drupal_login_sync(&r, c, "admin", "admin"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_client_with_language(&fr, c, "fr", 0), DRUPAL_OK);
    CHECK_INT(drupal_client_has_session(fr), 1);
    CHECK_CODE(drupal_login_status_sync(NULL, &logged_in, fr), DRUPAL_OK);
    CHECK_INT(logged_in, 1);

    CHECK_CODE(drupal_entity_update_sync(&r, fr, "node", "1", FR_TITLE, strlen(FR_TITLE)), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    CHECK_STR(drupal_response_langcode(r), "fr");
    drupal_response_free(r);
    check_node(fr, "1", "Article 1 FR (modifi\xc3\xa9)", "fr");
    check_node(c, "1", "Article 1", "en");      /* the original is untouched */

    /* Node 2 has no French translation: refused, the original left as it is. */
    r = NULL;
    CHECK_CODE(drupal_entity_update_sync(&r, fr, "node", "2", FR_LANGCODE, strlen(FR_LANGCODE)), DRUPAL_E_STATE);
    CHECK(r != NULL && strstr(drupal_response_error_message(r), "has no fr translation") != NULL);
    drupal_response_free(r);
    check_node(c, "2", "Article 2", "en");
    /* A delete under the prefix would delete the whole node: refused before any request. */
    r = NULL;
    CHECK_CODE(drupal_entity_delete_sync(&r, fr, "node", "1"), DRUPAL_E_STATE);
    CHECK(r == NULL);
    check_node(c, "1", "Article 1", "en");

    /* Forced, both do what Drupal does (82g, 85). */
    CHECK_CODE(drupal_client_with_language(&forced, c, "fr", DRUPAL_LANGUAGE_FORCE), DRUPAL_OK);
    CHECK_CODE(drupal_entity_update_sync(&r, forced, "node", "2", FR_LANGCODE, strlen(FR_LANGCODE)), DRUPAL_OK);
    drupal_response_free(r);
    check_node(c, "2", "Devenu fran\xc3\xa7" "ais", "fr");
    CHECK_CODE(drupal_entity_delete_sync(&r, forced, "node", "1"), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 204);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_get_sync(&r, c, "node", "1"), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 404);
    drupal_response_free(r);
    drupal_client_free(forced);
    drupal_client_free(fr);
    drupal_client_free(c);
}

/* JSON:API under the prefix (81-83c): the French translation with drupal_jsonapi_get, Drupal's
 * 405 for writing a missing translation or deleting one, and French links.next followed (by
 * drupal_jsonapi_follow and the pager) without a second prefix. */
static const char *ARTICLE = "node--article";

/* The UUID of article nid (in buffer out), read without a language. */
static void article_uuid(drupal_client *c, int nid, char *out, size_t size) {
    drupal_jsonapi_query *q = NULL;
    drupal_response *r = NULL;
    json_t *doc = NULL, *resource = NULL;
    char value[16];
    out[0] = '\0';
    snprintf(value, sizeof value, "%d", nid);
    CHECK_CODE(drupal_jsonapi_query_new(&q), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "drupal_internal__nid", NULL, value, NULL, NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_get_sync(&r, c, ARTICLE, NULL, q), DRUPAL_OK);
    if (drupal_response_json(&doc, r) == DRUPAL_OK && drupal_json_jsonapi_resource(&resource, doc, 0) == DRUPAL_OK) {
        const char *id = json_string_value(json_object_get(resource, "id"));
        if (id) snprintf(out, size, "%s", id);
    }
    json_decref(doc);
    drupal_response_free(r);
    drupal_jsonapi_query_free(q);
}

static void check_jsonapi_title(const drupal_response *r, const char *title, const char *langcode) {
    json_t *doc = NULL, *resource = NULL;
    const char *value = NULL;
    CHECK_STR(drupal_response_langcode(r), langcode);
    CHECK_CODE(drupal_response_json(&doc, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_jsonapi_resource(&resource, doc, 0), DRUPAL_OK);
    CHECK_CODE(drupal_json_jsonapi_attribute_string(&value, resource, "title"), DRUPAL_OK);
    CHECK_STR(value, title);
    CHECK_CODE(drupal_json_jsonapi_attribute_string(&value, resource, "langcode"), DRUPAL_OK);
    CHECK_STR(value, langcode);
    json_decref(doc);
}

static void test_jsonapi(void) {
    drupal_client *c = ext_client(), *fr = NULL;
    drupal_response *r = NULL;
    drupal_jsonapi_query *q = NULL;
    drupal_pager *pager = NULL;
    json_t *doc = NULL, *requests = NULL;
    char one[64], two[64], patch[300];
    const char *next = NULL;
    int pages = 0, resources = 0, doubled = 0, unprefixed = 0;
    size_t i;
    ext_reset();
    CHECK_CODE(drupal_client_set_basic_auth(c, "admin", "admin"), DRUPAL_OK);
    article_uuid(c, 1, one, sizeof one);
    article_uuid(c, 2, two, sizeof two);
    CHECK_CODE(drupal_client_with_language(&fr, c, "fr", 0), DRUPAL_OK);

    CHECK_CODE(drupal_jsonapi_get_sync(&r, fr, ARTICLE, one, NULL), DRUPAL_OK);
    check_jsonapi_title(r, "Article 1 FR", "fr");
    drupal_response_free(r);
    CHECK_CODE(drupal_jsonapi_get_sync(&r, fr, ARTICLE, two, NULL), DRUPAL_OK);   /* the original, no error */
    check_jsonapi_title(r, "Article 2", "en");
    drupal_response_free(r);

    /* Writing a translation that does not exist: Drupal's 405 and its words. */
    snprintf(patch, sizeof patch, "{\"data\": {\"type\": \"node--article\", \"id\": \"%s\", "
             "\"attributes\": {\"title\": \"Article 2 FR\"}}}", two);
    CHECK_CODE(drupal_jsonapi_update_sync(&r, fr, ARTICLE, two, patch, strlen(patch)), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 405);
    CHECK(strstr(drupal_response_error_message(r), "The requested translation of the resource object does not "
                                                   "exist, instead modify one of the translations that do exist: en.")
          != NULL);
    CHECK_STR(drupal_response_header(r, "Allow"), "GET");
    CHECK_INT((int)drupal_response_jsonapi_error_count(r), 1);
    drupal_response_free(r);
    CHECK_CODE(drupal_jsonapi_delete_sync(&r, fr, ARTICLE, one), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 405);
    CHECK(strstr(drupal_response_error_message(r), "Deleting a resource object translation is not yet supported.")
          != NULL);
    drupal_response_free(r);
    CHECK_CODE(drupal_jsonapi_get_sync(&r, c, ARTICLE, two, NULL), DRUPAL_OK);   /* untouched */
    check_jsonapi_title(r, "Article 2", "en");
    drupal_response_free(r);

    /* A French collection page's links.next carries /fr: followed as it is. */
    CHECK_CODE(fake_control_at(extended_url(), "POST", "/__fake/reset", NULL, NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_new(&q), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_sort(q, "drupal_internal__nid", 0), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_page_limit(q, 2), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_get_sync(&r, fr, ARTICLE, NULL, q), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&doc, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_jsonapi_link(&next, doc, "next"), DRUPAL_OK);
    CHECK(next != NULL && strstr(next, "/fr/jsonapi/node/article") != NULL);
    if (next != NULL) {
        drupal_response *second = NULL;
        CHECK_CODE(drupal_jsonapi_follow_sync(&second, fr, next), DRUPAL_OK);
        CHECK_RESPONSE(second, DRUPAL_OK, 200);
        drupal_response_free(second);
    }
    json_decref(doc);
    drupal_response_free(r);
    CHECK_CODE(drupal_jsonapi_pager_new(&pager, fr, ARTICLE, q, 1, 0), DRUPAL_OK);
    for (;;) {
        drupal_response *page = NULL;
        size_t count = 0;
        if (drupal_pager_next_sync(&page, pager) != DRUPAL_OK || page == NULL) break;
        if (drupal_response_json(&doc, page) == DRUPAL_OK) {
            drupal_json_jsonapi_count(&count, doc);
            json_decref(doc);
        }
        resources += (int)count;
        pages++;
        drupal_response_free(page);
    }
    drupal_pager_free(pager);
    drupal_jsonapi_query_free(q);
    CHECK_INT(pages, 3);
    CHECK_INT(resources, 5);
    CHECK_CODE(fake_control_at(extended_url(), "GET", "/__fake/requests", NULL, &requests), DRUPAL_OK);
    {
        json_t *list = json_object_get(requests, "requests");
        CHECK(json_array_size(list) >= 5);
        for (i = 0; i < json_array_size(list); i++) {
            const char *target = json_string_value(json_object_get(json_array_get(list, i), "target"));
            if (target == NULL || strncmp(target, "/fr/jsonapi/", 12) != 0) unprefixed++;
            if (target != NULL && strncmp(target, "/fr/fr/", 7) == 0) doubled++;
        }
    }
    CHECK_INT(doubled, 0);
    CHECK_INT(unprefixed, 0);
    json_decref(requests);
    drupal_client_free(fr);
    drupal_client_free(c);
}

static void test_bad_input(void) {
    drupal_client *c = ext_client(), *fr = (drupal_client *)&c;
    const char *bad[] = {"../x", "f r", "fr/", "fr?x", "fr\r\n", "\xff", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_CODE(drupal_client_with_language(&fr, c, bad[i], 0), DRUPAL_E_INVALID_ARGUMENT);
        CHECK(fr == NULL);
    }
    CHECK_CODE(drupal_client_with_language(&fr, c, "fr", 2), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_client_with_language(NULL, c, "fr", 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_client_with_language(&fr, NULL, "fr", 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(drupal_response_langcode(NULL) == NULL);
    drupal_client_free(c);
}

int main(void) {
    test_reads();
    test_writes_and_guards();
    test_jsonapi();
    test_bad_input();
    return check_summary();
}
