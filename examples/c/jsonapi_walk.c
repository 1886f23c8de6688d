/*
 * jsonapi_walk.c - JSON:API from C: a filter group, include and a sparse fieldset, every page of
 * the collection (8 pages in flight), and each article's author and tags resolved from the
 * page's "included" with the Jansson helpers.
 *
 *   jsonapi_walk [BASE_URL]   (or DRUPAL_BASE_URL; DRUPAL_USER / DRUPAL_PASSWORD, default admin;
 *                             DRUPAL_CA_FILE=ca.pem for an HTTPS site with a private CA)
 *
 * The filter: title CONTAINS "Article" AND (author is admin OR tagged beta).
 */
#include <stdio.h>
#include <stdlib.h>
#include <drupalsdk.h>

static const char *env_or(const char *name, const char *fallback) {
    const char *value = getenv(name);
    return value && *value ? value : fallback;
}

/* Prints one article: its title, its author and its tags, found in the page's "included". */
static void print_article(const json_t *page, const json_t *node) {
    const char *title = "?", *author = "(not included)";
    json_t *user = NULL;
    size_t tags = 0, i;
    drupal_json_jsonapi_attribute_string(&title, node, "title");
    if (drupal_json_jsonapi_related(&user, page, node, "uid", 0) == DRUPAL_OK)
        drupal_json_jsonapi_attribute_string(&author, user, "name");
    printf("  %-24s by %-8s tags:", title, author);
    drupal_json_jsonapi_relationship_count(&tags, node, "field_tags");
    for (i = 0; i < tags; i++) {
        json_t *tag = NULL;
        const char *name = NULL;
        if (drupal_json_jsonapi_related(&tag, page, node, "field_tags", i) == DRUPAL_OK
            && drupal_json_jsonapi_attribute_string(&name, tag, "name") == DRUPAL_OK)
            printf(" %s", name);
    }
    printf("\n");
}

int main(int argc, char **argv) {
    const char *base_url = argc > 1 ? argv[1] : env_or("DRUPAL_BASE_URL", "http://127.0.0.1:8888");
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *client = NULL;
    drupal_jsonapi_query *query = NULL;
    drupal_pager *pager = NULL;
    drupal_response *page = NULL;
    int pages = 0, articles = 0, status = 0;
    drupal_code code;

    /* DRUPAL_CA_FILE: the CA certificates of an HTTPS site with a private CA (NULL: the system's). */
    options.ca_bundle = env_or("DRUPAL_CA_FILE", NULL);
    if (drupal_client_new(&client, base_url, &options) != DRUPAL_OK
        || drupal_client_set_basic_auth(client, env_or("DRUPAL_USER", "admin"),
                                        env_or("DRUPAL_PASSWORD", "admin")) != DRUPAL_OK) {
        fprintf(stderr, "jsonapi_walk: %s\n", drupal_last_error());
        return 1;
    }
    /* Each setter checks its input; the first failure is reported below by drupal_last_error(). */
    code = drupal_jsonapi_query_new(&query);
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_group(query, "either", "OR", NULL);
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_filter(query, "title", "CONTAINS", "Article", NULL, NULL);
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_filter(query, "uid.name", NULL, "admin", "either", NULL);
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_filter(query, "field_tags.name", NULL, "beta", "either", NULL);
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_include(query, "uid");
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_include(query, "field_tags");
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_fields(query, "node--article", "title,uid,field_tags");
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_fields(query, "user--user", "name");
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_sort(query, "drupal_internal__nid", 0);
    if (code == DRUPAL_OK) code = drupal_jsonapi_query_page_limit(query, 2);
    if (code == DRUPAL_OK) code = drupal_jsonapi_pager_new(&pager, client, "node--article", query, 8, 0);
    drupal_jsonapi_query_free(query); /* the pager copied it */
    if (code != DRUPAL_OK) {
        fprintf(stderr, "jsonapi_walk: %s\n", drupal_last_error());
        drupal_client_free(client);
        return 1;
    }

    while ((code = drupal_pager_next_sync(&page, pager)) == DRUPAL_OK && page != NULL) {
        json_t *document = NULL;
        size_t count = 0, i;
        if (drupal_response_json(&document, page) == DRUPAL_OK) {
            drupal_json_jsonapi_count(&count, document);
            printf("page %d: %zu article(s)\n", ++pages, count);
            for (i = 0; i < count; i++) {
                json_t *node = NULL;
                if (drupal_json_jsonapi_resource(&node, document, i) == DRUPAL_OK) print_article(document, node);
            }
            articles += (int)count;
        }
        json_decref(document);
        drupal_response_free(page);
    }
    if (code != DRUPAL_OK) {
        fprintf(stderr, "jsonapi_walk: %s: %s\n", drupal_code_name(code),
                page ? drupal_response_error_message(page) : drupal_last_error());
        drupal_response_free(page);
        status = 1;
    } else {
        printf("%d article(s) on %d page(s)\n", articles, pages);
    }
    drupal_pager_free(pager);
    drupal_client_free(client);
    return status;
}
