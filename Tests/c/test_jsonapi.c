/* JSON:API from C against the fake server: the query builder (drupal-jsonapi-params' strings),
 * a collection walk with include and a filter group, the concurrent pager, included resolution
 * with the Jansson helpers, writes and relationships, errors, and bad input. */
#include "check.h"
#include <unistd.h>

static const char *ARTICLE = "node--article";

static drupal_client *admin_client(void) {
    drupal_client *c = new_client();
    CHECK_CODE(drupal_client_set_basic_auth(c, "admin", "admin"), DRUPAL_OK);
    return c;
}

static json_t *parse(const drupal_response *r) {
    json_t *document = NULL;
    if (drupal_response_json(&document, r) != DRUPAL_OK) return NULL;
    return document;
}

static void check_query_string(const drupal_jsonapi_query *q, const char *expected) {
    char *text = NULL;
    CHECK_CODE(drupal_jsonapi_query_string(&text, q), DRUPAL_OK);
    CHECK_STR(text, expected);
    drupal_free(text);
}

static void test_query_builder(void) {
    drupal_jsonapi_query *q = NULL;
    const char *nids[] = {"1", "3", "5", NULL};
    const char *one[] = {"1", NULL};

    CHECK_CODE(drupal_jsonapi_query_new(&q), DRUPAL_OK);
    check_query_string(q, "");
    CHECK_CODE(drupal_jsonapi_query_filter(q, "title", NULL, "Article 3", NULL, NULL), DRUPAL_OK);
    check_query_string(q, "filter%5Btitle%5D=Article%203");
    drupal_jsonapi_query_free(q);

    /* The strings drupal-jsonapi-params gives for the same calls. */
    CHECK_CODE(drupal_jsonapi_query_new(&q), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_filter_values(q, "drupal_internal__nid", "IN", nids, NULL, NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "revision_log", "IS NULL", NULL, NULL, NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_sort(q, "uid.name", 0), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_sort(q, "title", 1), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_include(q, "uid"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_fields(q, ARTICLE, "title,uid"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_page_offset(q, 4), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_page_limit(q, 2), DRUPAL_OK);
    check_query_string(q,
        "filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Bpath%5D=drupal_internal__nid"
        "&filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Bvalue%5D%5B0%5D=1"
        "&filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Bvalue%5D%5B1%5D=3"
        "&filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Bvalue%5D%5B2%5D=5"
        "&filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Boperator%5D=IN"
        "&filter%5Brevision_log%5D%5Bcondition%5D%5Bpath%5D=revision_log"
        "&filter%5Brevision_log%5D%5Bcondition%5D%5Boperator%5D=IS%20NULL"
        "&include=uid&page%5Boffset%5D=4&page%5Blimit%5D=2&sort=uid.name%2C-title"
        "&fields%5Bnode--article%5D=title%2Cuid");

    /* Refused with nothing changed. */
    /* An empty field name before a "," that a combining mark follows (once read as one name). */
    CHECK_CODE(drupal_jsonapi_query_fields(q, ARTICLE, ",\xcc\x81" "body"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "title", "LIKE", "x", NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "LIKE") != NULL);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "title", "=", NULL, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "title", "IN", "x", NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_filter_values(q, "nid", "BETWEEN", one, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_filter_values(q, "nid", "IN", NULL, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_filter_values(q, "nid", NULL, nids, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_filter(q, NULL, NULL, "x", NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "title\xff", NULL, "x", NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_group(q, "g", "XOR", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_page_limit(q, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_page_limit(q, (size_t)-1), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_resource_version(q, "latest"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_param(q, "sort", "x"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_filter(NULL, "title", NULL, "x", NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_string(NULL, q), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_query_new(NULL), DRUPAL_E_INVALID_ARGUMENT);
    {
        char *text = NULL;
        CHECK_CODE(drupal_jsonapi_query_string(&text, q), DRUPAL_OK);
        CHECK(text != NULL && strstr(text, "LIKE") == NULL && strstr(text, "XOR") == NULL);
        drupal_free(text);
    }
    drupal_jsonapi_query_free(q);
    drupal_jsonapi_query_free(NULL);
}

/* Recording 113's filter group, with the author and tags included: Article 1 and Article 5,
 * each resolved to its included author through the helpers. */
static void test_filter_group_and_included(drupal_client *c) {
    drupal_jsonapi_query *q = NULL;
    drupal_response *r = NULL;
    CHECK_CODE(drupal_jsonapi_query_new(&q), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_group(q, "or", "OR", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "title", NULL, "Article 1", "or", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_group(q, "and", "AND", "or"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "uid.name", NULL, "editor", "and", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_filter(q, "field_tags.name", NULL, "beta", "and", NULL), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_include(q, "uid"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_include(q, "field_tags"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_sort(q, "drupal_internal__nid", 0), DRUPAL_OK);

    CHECK_CODE(drupal_jsonapi_get_sync(&r, c, ARTICLE, NULL, q), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    json_t *document = parse(r);
    size_t count = 0;
    CHECK_CODE(drupal_json_jsonapi_count(&count, document), DRUPAL_OK);
    CHECK_INT((int)count, 2);
    const char *titles[] = {"Article 1", "Article 5"};
    const char *authors[] = {"admin", "editor"};
    for (size_t i = 0; i < count && i < 2; i++) {
        json_t *resource = NULL, *author = NULL, *tag = NULL;
        const char *title = NULL, *name = NULL, *tag_name = NULL;
        CHECK_CODE(drupal_json_jsonapi_resource(&resource, document, i), DRUPAL_OK);
        CHECK_CODE(drupal_json_jsonapi_attribute_string(&title, resource, "title"), DRUPAL_OK);
        CHECK_STR(title, titles[i]);
        CHECK_CODE(drupal_json_jsonapi_related(&author, document, resource, "uid", 0), DRUPAL_OK);
        CHECK_CODE(drupal_json_jsonapi_attribute_string(&name, author, "name"), DRUPAL_OK);
        CHECK_STR(name, authors[i]);
        CHECK_CODE(drupal_json_jsonapi_related(&tag, document, resource, "field_tags", 0), DRUPAL_OK);
        CHECK_CODE(drupal_json_jsonapi_attribute_string(&tag_name, tag, "name"), DRUPAL_OK);
        CHECK(tag_name != NULL && (strcmp(tag_name, "alpha") == 0 || strcmp(tag_name, "beta") == 0));
        /* Past the relationship's end, and a relationship the resource does not have. */
        CHECK_CODE(drupal_json_jsonapi_related(&tag, document, resource, "field_tags", 5), DRUPAL_E_NOT_FOUND);
        CHECK_CODE(drupal_json_jsonapi_related(&tag, document, resource, "nosuch", 0), DRUPAL_E_NOT_FOUND);
    }
    {
        const char *next = NULL;
        json_t *missing = NULL;
        CHECK_CODE(drupal_json_jsonapi_link(&next, document, "next"), DRUPAL_E_NOT_FOUND);
        CHECK_CODE(drupal_json_jsonapi_link(&next, document, "self"), DRUPAL_OK);
        CHECK_CODE(drupal_json_jsonapi_included(&missing, document, "user--user", "no-such-id"), DRUPAL_E_NOT_FOUND);
        CHECK_CODE(drupal_json_jsonapi_included(&missing, NULL, "user--user", "x"), DRUPAL_E_INVALID_ARGUMENT);
        CHECK_CODE(drupal_json_jsonapi_resource(&missing, document, 2), DRUPAL_E_NOT_FOUND);
    }
    json_decref(document);
    drupal_response_free(r);
    drupal_jsonapi_query_free(q);
}

/* Walks a pager; returns the resources' ids joined by "," (malloc'ed), or NULL on an error. */
static char *walk(drupal_pager *pager, int *pages) {
    size_t capacity = 64 * 1024, used = 0;
    char *ids = calloc(1, capacity);
    *pages = 0;
    for (;;) {
        drupal_response *page = NULL;
        if (drupal_pager_next_sync(&page, pager) != DRUPAL_OK) { free(ids); return NULL; }
        if (page == NULL) return ids;
        json_t *document = parse(page);
        size_t count = 0;
        drupal_json_jsonapi_count(&count, document);
        for (size_t i = 0; i < count; i++) {
            json_t *resource = NULL;
            drupal_json_jsonapi_resource(&resource, document, i);
            const char *id = json_string_value(json_object_get(resource, "id"));
            if (id != NULL && used + strlen(id) + 2 < capacity) used += (size_t)sprintf(ids + used, "%s,", id);
        }
        json_decref(document);
        drupal_response_free(page);
        (*pages)++;
    }
}

/* 130 articles, page[limit] 100 (capped at 50 by Drupal): every resource once, in the same order
 * with links.next and with 8 pages in flight. */
static void test_pagers(drupal_client *c) {
    drupal_jsonapi_query *q = NULL;
    drupal_pager *pager = NULL;
    int pages = 0, concurrent_pages = 0;
    CHECK_CODE(fake_control("/__fake/seed", "{\"articles\": 125}"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_new(&q), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_fields(q, ARTICLE, "title"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_sort(q, "drupal_internal__nid", 0), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_page_limit(q, 100), DRUPAL_OK);

    CHECK_CODE(drupal_jsonapi_pager_new(&pager, c, ARTICLE, q, 1, 0), DRUPAL_OK);
    char *sequential = walk(pager, &pages);
    drupal_pager_free(pager);
    CHECK_INT(pages, 3);

    CHECK_CODE(drupal_jsonapi_query_page_limit(q, 9), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_pager_new(&pager, c, ARTICLE, q, 8, 0), DRUPAL_OK);
    drupal_jsonapi_query_free(q);  /* the pager copied it */
    char *concurrent = walk(pager, &concurrent_pages);
    drupal_pager_free(pager);
    CHECK_INT(concurrent_pages, 15);
    CHECK(sequential != NULL && concurrent != NULL);
    if (sequential && concurrent) {
        int commas = 0;
        for (const char *p = sequential; *p; p++) commas += *p == ',';
        CHECK_INT(commas, 130);
        CHECK_STR(concurrent, sequential);
    }
    free(sequential);
    free(concurrent);

    CHECK_CODE(drupal_jsonapi_pager_new(&pager, c, ARTICLE, NULL, 65, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(pager == NULL);
    CHECK_CODE(drupal_jsonapi_pager_new(&pager, c, "node", NULL, 1, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_pager_new(&pager, NULL, ARTICLE, NULL, 1, 0), DRUPAL_E_INVALID_ARGUMENT);
}

static void test_writes_and_relationships(drupal_client *c) {
    drupal_response *r = NULL;
    const char *id = "3f1e7c2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b";
    json_t *doc = json_pack("{s:{s:s, s:s, s:{s:s}}}", "data", "type", ARTICLE, "id", id, "attributes",
                            "title", "From C");
    CHECK_CODE(drupal_jsonapi_create_json_sync(&r, c, ARTICLE, doc), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    drupal_response_free(r);
    json_decref(doc);

    doc = json_pack("{s:{s:s, s:s, s:{s:s}}}", "data", "type", ARTICLE, "id", id, "attributes", "title", "Renamed");
    CHECK_CODE(drupal_jsonapi_update_json_sync(&r, c, ARTICLE, id, doc), DRUPAL_OK);
    {
        json_t *document = parse(r), *resource = NULL;
        const char *title = NULL;
        CHECK_CODE(drupal_json_jsonapi_resource(&resource, document, 0), DRUPAL_OK);
        CHECK_CODE(drupal_json_jsonapi_attribute_string(&title, resource, "title"), DRUPAL_OK);
        CHECK_STR(title, "Renamed");
        json_decref(document);
    }
    drupal_response_free(r);
    json_decref(doc);

    /* The tag "beta" added to field_tags, then removed. */
    {
        drupal_jsonapi_query *q = NULL;
        json_t *tags = NULL, *beta = NULL;
        drupal_jsonapi_query_new(&q);
        drupal_jsonapi_query_filter(q, "name", NULL, "beta", NULL, NULL);
        CHECK_CODE(drupal_jsonapi_get_sync(&r, c, "taxonomy_term--tags", NULL, q), DRUPAL_OK);
        tags = parse(r);
        CHECK_CODE(drupal_json_jsonapi_resource(&beta, tags, 0), DRUPAL_OK);
        const char *beta_id = json_string_value(json_object_get(beta, "id"));
        json_t *identifiers = json_pack("{s:[{s:s, s:s}]}", "data", "type", "taxonomy_term--tags", "id", beta_id);
        drupal_response *changed = NULL;
        CHECK_CODE(drupal_jsonapi_relationship_change_json_sync(&changed, c, ARTICLE, id, "field_tags",
                                                           DRUPAL_RELATIONSHIP_ADD, identifiers), DRUPAL_OK);
        drupal_response_free(changed);
        CHECK_CODE(drupal_jsonapi_relationship_sync(&changed, c, ARTICLE, id, "field_tags"), DRUPAL_OK);
        json_t *list = parse(changed);
        CHECK_INT((int)json_array_size(json_object_get(list, "data")), 1);
        json_decref(list);
        drupal_response_free(changed);
        CHECK_CODE(drupal_jsonapi_relationship_change_json_sync(&changed, c, ARTICLE, id, "field_tags",
                                                           DRUPAL_RELATIONSHIP_REMOVE, identifiers), DRUPAL_OK);
        CHECK_RESPONSE(changed, DRUPAL_OK, 204);
        drupal_response_free(changed);
        CHECK_CODE(drupal_jsonapi_relationship_change_json_sync(&changed, c, ARTICLE, id, "field_tags",
                                                           (drupal_relationship_change)9, identifiers),
                   DRUPAL_E_INVALID_ARGUMENT);
        json_decref(identifiers);
        json_decref(tags);
        drupal_response_free(r);
        drupal_jsonapi_query_free(q);
    }
    /* The author, through the related endpoint. */
    CHECK_CODE(drupal_jsonapi_related_sync(&r, c, ARTICLE, id, "uid", NULL), DRUPAL_OK);
    {
        json_t *document = parse(r), *user = NULL;
        const char *name = NULL;
        CHECK_CODE(drupal_json_jsonapi_resource(&user, document, 0), DRUPAL_OK);
        CHECK_CODE(drupal_json_jsonapi_attribute_string(&name, user, "name"), DRUPAL_OK);
        CHECK_STR(name, "admin");
        json_decref(document);
    }
    drupal_response_free(r);

    /* A file, uploaded to the node's image field (200: attached). */
    {
        static const unsigned char png[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
        CHECK_CODE(drupal_jsonapi_upload_sync(&r, c, ARTICLE, id, "field_image", "red.png", png, sizeof png), DRUPAL_OK);
        CHECK_RESPONSE(r, DRUPAL_OK, 200);
        drupal_response_free(r);
        CHECK_CODE(drupal_jsonapi_upload_sync(&r, c, ARTICLE, NULL, "field_image", "a\"b.png", png, sizeof png),
                   DRUPAL_E_INVALID_ARGUMENT);
        drupal_response_free(r);
    }

    CHECK_CODE(drupal_jsonapi_delete_sync(&r, c, ARTICLE, id), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 204);
    drupal_response_free(r);
    CHECK_CODE(drupal_jsonapi_get_sync(&r, c, ARTICLE, id, NULL), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 404);
    drupal_response_free(r);
}

/* A file streamed from a path to a file field, with progress. The progress callback runs on a
 * library thread: what it shares with the test is read and reset under the lock. */
typedef struct {
    int calls;
    int monotonic;
    int64_t last_done, last_total;
} progress;

typedef struct {
    pthread_mutex_t lock;
    progress now;
} upload_progress;

static int count_progress(int64_t done, int64_t total, void *userdata) {
    upload_progress *p = userdata;
    pthread_mutex_lock(&p->lock);
    if (done < p->now.last_done) p->now.monotonic = 0;
    p->now.calls++;
    p->now.last_done = done;
    p->now.last_total = total;
    pthread_mutex_unlock(&p->lock);
    return 0;
}

/* The progress seen so far, as a copy taken under the lock. */
static progress progress_seen(upload_progress *p) {
    progress seen;
    pthread_mutex_lock(&p->lock);
    seen = p->now;
    pthread_mutex_unlock(&p->lock);
    return seen;
}

static void check_file_document(const drupal_response *r, const char *filename, int64_t size) {
    json_t *document = parse(r), *file = NULL, *filesize = NULL;
    const char *type = NULL, *name = NULL;
    CHECK_CODE(drupal_json_jsonapi_resource(&file, document, 0), DRUPAL_OK);
    type = json_string_value(json_object_get(file, "type"));
    CHECK(type != NULL && strcmp(type, "file--file") == 0);
    CHECK_CODE(drupal_json_jsonapi_attribute_string(&name, file, "filename"), DRUPAL_OK);
    CHECK_STR(name, filename);
    CHECK_CODE(drupal_json_jsonapi_attribute(&filesize, file, "filesize"), DRUPAL_OK);
    CHECK_INT((int64_t)json_integer_value(filesize), size);
    json_decref(document);
}

static void test_upload_from_path(drupal_client *c) {
    char dir[] = "/tmp/drupalsdk-jsonapi-XXXXXX", path[300], missing[300], latin1[300];
    const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const int64_t size = 150000;
    drupal_transfer_options o = DRUPAL_TRANSFER_OPTIONS_INIT;
    upload_progress p = {PTHREAD_MUTEX_INITIALIZER, {0, 1, 0, 0}};
    drupal_response *r = NULL, *node_page = NULL;
    json_t *nodes = NULL, *node = NULL;
    const char *node_id = NULL;
    int64_t i;
    FILE *f;
    waiter w;
    if (mkdtemp(dir) == NULL) { CHECK(!"mkdtemp"); return; }
    snprintf(path, sizeof path, "%s/streamed.png", dir);
    snprintf(missing, sizeof missing, "%s/nope.png", dir);
    f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f == NULL) return;
    fwrite(png, 1, sizeof png, f);
    for (i = 8; i < size; i++) fputc((int)((i * 31) & 0xff), f);
    fclose(f);
    o.progress = count_progress;
    o.progress_userdata = &p;

    /* To /{field}: 201, a temporary file named after the path. */
    CHECK_CODE(drupal_jsonapi_upload_path_sync(&r, c, ARTICLE, NULL, "field_image", path, NULL, &o), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    check_file_document(r, "streamed.png", size);
    drupal_response_free(r);
    CHECK(progress_seen(&p).calls > 0 && progress_seen(&p).monotonic);
    CHECK_INT(progress_seen(&p).last_done, size);
    CHECK_INT(progress_seen(&p).last_total, size);

    /* To /{id}/{field} of an article, async and renamed: 200. */
    CHECK_CODE(drupal_jsonapi_get_sync(&node_page, c, ARTICLE, NULL, NULL), DRUPAL_OK);
    nodes = parse(node_page);
    CHECK_CODE(drupal_json_jsonapi_resource(&node, nodes, 0), DRUPAL_OK);
    node_id = json_string_value(json_object_get(node, "id"));
    CHECK(node_id != NULL);
    if (node_id != NULL) {
        pthread_mutex_lock(&p.lock);
        p.now.calls = 0;
        p.now.last_done = 0;
        pthread_mutex_unlock(&p.lock);
        ASYNC(w, drupal_jsonapi_upload_path(NULL, c, ARTICLE, node_id, "field_image", path, "renamed.png", &o,
                                            waiter_callback, &w));
        CHECK_INT(w.code, DRUPAL_OK);
        CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
        waiter_clear(&w);
        CHECK(progress_seen(&p).calls > 0);
        CHECK_INT(progress_seen(&p).last_total, size);
    }
    json_decref(nodes);
    drupal_response_free(node_page);

    /* Refused before anything is sent. */
    r = (drupal_response *)&c;
    CHECK_CODE(drupal_jsonapi_upload_path_sync(&r, c, ARTICLE, NULL, "field_image", missing, NULL, NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_CODE(drupal_jsonapi_upload_path_sync(&r, c, ARTICLE, NULL, "field_image", dir, NULL, NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_upload_path_sync(&r, c, ARTICLE, NULL, "field_image", NULL, NULL, NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_upload_path_sync(&r, c, ARTICLE, NULL, "field_image", path, "a\"b.png", NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    o.version = 7;
    CHECK_CODE(drupal_jsonapi_upload_path_sync(&r, c, ARTICLE, NULL, "field_image", path, NULL, &o),
               DRUPAL_E_INVALID_ARGUMENT);

    /* A path that is not UTF-8 (a Latin-1 name) is read as it is; its base name is no text to
     * send, so the upload needs an explicit filename. */
    snprintf(latin1, sizeof latin1, "%s/caf\xe9.png", dir);
    CHECK_INT(rename(path, latin1), 0);
    CHECK_CODE(drupal_jsonapi_upload_path_sync(&r, c, ARTICLE, NULL, "field_image", latin1, NULL, NULL),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK(strstr(drupal_last_error(), "caf\\xE9.png") != NULL);
    CHECK_CODE(drupal_jsonapi_upload_path_sync(&r, c, ARTICLE, NULL, "field_image", latin1, "cafe.png", NULL), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 201);
    if (r != NULL) check_file_document(r, "cafe.png", size);
    drupal_response_free(r);
    unlink(latin1);
    unlink(path);
    rmdir(dir);
}

/* A 422 gives every errors[] entry, and the violations (pointer, detail). */
static void test_errors(drupal_client *c) {
    drupal_response *r = NULL;
    const char *doc = "{\"data\": {\"type\": \"node--article\", \"attributes\": {\"langcode\": \"xx\"}}}";
    CHECK_CODE(drupal_jsonapi_create_sync(&r, c, ARTICLE, doc, strlen(doc)), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 422);
    CHECK_INT((int)drupal_response_jsonapi_error_count(r), 2);
    {
        int found = 0;
        for (size_t i = 0; i < 4; i++) {
            const char *path = NULL, *message = NULL;
            if (drupal_response_violation_at(&path, &message, r, i) != DRUPAL_OK) break;
            if (strcmp(path, "/data/attributes/title") == 0) found = 1;
        }
        CHECK(found);
    }
    drupal_response_free(r);
    CHECK_CODE(drupal_jsonapi_create_sync(&r, c, ARTICLE, "{\"data\": ", 10), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_CODE(drupal_jsonapi_update_sync(&r, c, ARTICLE, "x", NULL, 5), DRUPAL_E_INVALID_ARGUMENT);

    /* A resourceVersion on a type without revisions: 501 with Drupal's words. */
    {
        drupal_jsonapi_query *q = NULL;
        drupal_jsonapi_query_new(&q);
        drupal_jsonapi_query_resource_version(q, "id:1");
        CHECK_CODE(drupal_jsonapi_get_sync(&r, c, "user--user", NULL, q), DRUPAL_E_HTTP);
        CHECK(drupal_response_status(r) == 400 || drupal_response_status(r) == 501);
        drupal_response_free(r);
        drupal_jsonapi_query_free(q);
    }

    /* Bad input, refused before anything is sent. */
    CHECK_CODE(drupal_jsonapi_get_sync(&r, c, "node/article", NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_CODE(drupal_jsonapi_get_sync(&r, c, NULL, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_get_sync(&r, c, ARTICLE, "..", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_create_json_sync(&r, c, ARTICLE, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_related_sync(&r, c, ARTICLE, "x", "", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_follow_sync(&r, c, "https://evil.example/jsonapi/node/article"),
               DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_jsonapi_get_sync(&r, NULL, ARTICLE, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
}

static void test_entry_point_and_async(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    waiter w;
    CHECK_CODE(drupal_client_set_basic_auth(c, "editor", "editor"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_entry_point_sync(&r, c), DRUPAL_OK);
    json_t *entry = parse(r);
    const char *me = NULL;
    CHECK_CODE(drupal_json_jsonapi_me(&me, entry), DRUPAL_OK);
    CHECK(me != NULL);
    if (me != NULL) {
        ASYNC(w, drupal_jsonapi_get(NULL, c, "user--user", me, NULL, waiter_callback, &w));
        CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
        json_t *user = parse(w.response), *resource = NULL;
        const char *name = NULL;
        drupal_json_jsonapi_resource(&resource, user, 0);
        CHECK_CODE(drupal_json_jsonapi_attribute_string(&name, resource, "name"), DRUPAL_OK);
        CHECK_STR(name, "editor");
        json_decref(user);
        waiter_clear(&w);
    }
    json_decref(entry);
    drupal_response_free(r);
    drupal_client_free(c);

    /* Anonymous: no meta.links.me. */
    c = new_client();
    CHECK_CODE(drupal_jsonapi_entry_point_sync(&r, c), DRUPAL_OK);
    entry = parse(r);
    CHECK_CODE(drupal_json_jsonapi_me(&me, entry), DRUPAL_E_NOT_FOUND);
    json_decref(entry);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* A JSON:API pager's pages fetched ahead are the client's requests too: drupal_client_free
 * waits for them, so no request hook (nor token provider) runs with userdata the caller frees
 * once it returns, even while the pager itself is still held. */
typedef struct {
    pthread_mutex_t lock;
    int running, ran, freed, ran_after_free;
} slow_hook;

static drupal_code slow_request_hook(drupal_request_edit *edit, void *userdata) {
    slow_hook *h = userdata;
    (void)edit;
    pthread_mutex_lock(&h->lock);
    h->running++;
    h->ran++;
    int late = h->freed;
    pthread_mutex_unlock(&h->lock);
    if (!late) sleep_ms(40);   /* the fetches ahead are in flight when the client is freed */
    pthread_mutex_lock(&h->lock);
    h->ran_after_free += h->freed;
    h->running--;
    pthread_mutex_unlock(&h->lock);
    return DRUPAL_OK;
}

static void test_free_waits_for_pages_fetched_ahead(void) {
    drupal_client *c = NULL;
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_jsonapi_query *q = NULL;
    drupal_pager *pager = NULL;
    drupal_response *r = NULL;
    slow_hook h;
    memset(&h, 0, sizeof h);
    pthread_mutex_init(&h.lock, NULL);
    options.request_hook = slow_request_hook;
    options.request_hook_userdata = &h;
    CHECK_CODE(drupal_client_new(&c, base_url(), &options), DRUPAL_OK);
    CHECK_CODE(drupal_client_set_basic_auth(c, "admin", "admin"), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_new(&q), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_query_page_limit(q, 1), DRUPAL_OK);
    CHECK_CODE(drupal_jsonapi_pager_new(&pager, c, ARTICLE, q, 8, 0), DRUPAL_OK);
    drupal_jsonapi_query_free(q);
    CHECK_CODE(drupal_pager_next_sync(&r, pager), DRUPAL_OK);
    CHECK(r != NULL);
    drupal_response_free(r);
    drupal_client_free(c);
    pthread_mutex_lock(&h.lock);
    int running = h.running, ran = h.ran;
    h.freed = 1;
    pthread_mutex_unlock(&h.lock);
    CHECK_INT(running, 0);
    CHECK(ran >= 2);   /* the first page and at least one fetched ahead */
    sleep_ms(300);
    pthread_mutex_lock(&h.lock);
    CHECK_INT(h.ran_after_free, 0);
    CHECK_INT(h.running, 0);
    pthread_mutex_unlock(&h.lock);
    /* The pager outlives its client: fetching is refused, freeing it is fine. */
    CHECK_CODE(drupal_pager_next_sync(&r, pager), DRUPAL_E_STATE);
    CHECK(r == NULL);
    drupal_pager_free(pager);
    pthread_mutex_destroy(&h.lock);
}

int main(void) {
    fake_reset();
    test_query_builder();
    drupal_client *c = admin_client();
    test_filter_group_and_included(c);
    test_pagers(c);
    test_writes_and_relationships(c);
    test_upload_from_path(c);
    test_errors(c);
    drupal_client_free(c);
    test_entry_point_and_async();
    test_free_waits_for_pages_fetched_ahead();
    fake_reset();
    return check_summary();
}
