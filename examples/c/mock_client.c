/*
 * mock_client.c - testing your own code without a Drupal site: the mock client answers like
 * a real site (users admin/admin and editor/editor, articles, a paged /api/articles view, a
 * language and translations when you add them), and stubs make it answer anything you need,
 * e.g. an outage.
 *
 *   mock_client      (no arguments, no server)
 */
#include <stdio.h>
#include <string.h>
#include <drupalsdk.h>

/* The code under test: returns the title of a node, or NULL (into buf). */
static const char *node_title(drupal_client *client, const char *nid, char *buf, size_t size) {
    drupal_response *r = NULL;
    json_t *node = NULL;
    const char *title = NULL;
    const char *result = NULL;
    if (drupal_entity_get_sync(&r, client, "node", nid) == DRUPAL_OK && drupal_response_json(&node, r) == DRUPAL_OK &&
        drupal_json_field_string(&title, node, "title") == DRUPAL_OK) {
        snprintf(buf, size, "%s", title);  /* copy: title dies with node */
        result = buf;
    }
    json_decref(node);
    drupal_response_free(r);
    return result;
}

int main(void) {
    drupal_client *mock = NULL;
    drupal_response *r = NULL;
    char *nid = NULL, buf[128], path[64];
    const char *title;
    int ok = 1;

    if (drupal_mock_client_new(&mock) != DRUPAL_OK) return 1;
    /* Seed the site with what the test needs. */
    drupal_mock_add_user(NULL, mock, "tester", "secret", NULL);
    drupal_mock_add_entity(&nid, mock, "node", "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"Seeded\"}]}");

    ok &= drupal_login_sync(&r, mock, "tester", "secret") == DRUPAL_OK;
    drupal_response_free(r);

    title = node_title(mock, nid, buf, sizeof buf);
    printf("node %s: %s\n", nid, title ? title : "(none)");
    ok &= title != NULL && strcmp(title, "Seeded") == 0;

    /* The same code in French: the site gets French at /fr and a translation of the node. */
    drupal_client *french = NULL;
    ok &= drupal_mock_add_language(mock, "fr", NULL) == DRUPAL_OK;
    ok &= drupal_mock_add_translation(mock, "node", nid, "fr", "{\"title\":\"Traduit\"}") == DRUPAL_OK;
    ok &= drupal_client_with_language(&french, mock, "fr", 0) == DRUPAL_OK;
    title = french ? node_title(french, nid, buf, sizeof buf) : NULL;
    printf("node %s in French: %s\n", nid, title ? title : "(none)");
    ok &= title != NULL && strcmp(title, "Traduit") == 0;
    drupal_client_free(french);

    /* Simulate an outage of that node and check our code copes. */
    snprintf(path, sizeof path, "/node/%s", nid);
    drupal_mock_stub(mock, "GET", path, 503, "text/plain", "down", 4);
    title = node_title(mock, nid, buf, sizeof buf);
    printf("node %s during the outage: %s\n", nid, title ? title : "(none)");
    ok &= title == NULL;

    drupal_free(nid);  /* ids from the mock are ours to free */
    drupal_client_free(mock);
    printf("%s\n", ok ? "mock test passed" : "mock test FAILED");
    return ok ? 0 : 1;
}
