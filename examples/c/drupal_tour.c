/*
 * drupal_tour.c - a tour of libdrupalsdk's C API against a Drupal 10/11 site.
 *
 * Logs in, creates an article, reads it back, renames it, lists the /api/articles view (every
 * page), deletes the article and logs out. Uses the blocking *_sync calls: the simplest way for
 * a program that does one thing after another.
 *
 *   drupal_tour [BASE_URL]      (or DRUPAL_BASE_URL; DRUPAL_USER / DRUPAL_PASSWORD, default admin/admin)
 *   DRUPAL_CA_FILE=ca.pem       for an HTTPS site whose certificate comes from a private CA
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <drupalsdk.h>

/* Prints why a call failed: the code, and for answers from the site its status, Drupal's message
 * and each validation violation. Returns 1 so that callers can `return fail(...)`. */
static int fail(const char *what, drupal_code code, const drupal_response *response) {
    size_t i;
    fprintf(stderr, "%s failed: %s", what, drupal_code_name(code));
    if (response == NULL) {  /* the call never started: the reason is the thread's last error */
        fprintf(stderr, ": %s\n", drupal_last_error());
        return 1;
    }
    if (drupal_response_status(response) != 0) fprintf(stderr, " (HTTP %d)", drupal_response_status(response));
    fprintf(stderr, ": %s\n", drupal_response_error_message(response));
    for (i = 0; i < drupal_response_violation_count(response); i++) {
        const char *path, *message;
        if (drupal_response_violation_at(&path, &message, response, i) == DRUPAL_OK)
            fprintf(stderr, "  - %s: %s\n", path, message);
    }
    return 1;
}

static const char *env_or(const char *name, const char *fallback) {
    const char *value = getenv(name);
    return value && value[0] ? value : fallback;
}

/* Creates the article; on success writes its node id into nid. */
static int create_article(drupal_client *client, char *nid, size_t nid_size) {
    json_t *node = NULL, *stored = NULL;
    drupal_response *response = NULL;
    drupal_code code;
    int64_t id = 0;

    /* Builders give Drupal's shape: every field is a list of items. */
    code = drupal_json_entity_new(&node, "node", "article");
    if (code == DRUPAL_OK) code = drupal_json_field_set_string(node, "title", "Hello from C");
    if (code == DRUPAL_OK)
        code = drupal_json_field_set_text(node, "body", "<p>Created by drupal_tour.c</p>", "basic_html", NULL);
    if (code != DRUPAL_OK) {
        json_decref(node);
        return fail("building the article", code, NULL);
    }
    code = drupal_entity_create_json_sync(&response, client, "node", node);
    json_decref(node);  /* the body was serialised at once; our reference is still ours */
    if (code != DRUPAL_OK) {
        fail("create", code, response);
        drupal_response_free(response);
        return 1;
    }
    code = drupal_response_json(&stored, response);
    if (code == DRUPAL_OK) code = drupal_json_field_int(&id, stored, "nid");
    json_decref(stored);
    drupal_response_free(response);
    if (code != DRUPAL_OK) return fail("reading the new node id", code, NULL);
    snprintf(nid, nid_size, "%lld", (long long)id);
    printf("created node %s\n", nid);
    return 0;
}

static int read_article(drupal_client *client, const char *nid) {
    drupal_response *response = NULL;
    json_t *node = NULL;
    const char *title = NULL;
    drupal_code code = drupal_entity_get_sync(&response, client, "node", nid);
    if (code != DRUPAL_OK) {
        fail("get", code, response);
        drupal_response_free(response);
        return 1;
    }
    code = drupal_response_json(&node, response);
    if (code == DRUPAL_OK) code = drupal_json_field_string(&title, node, "title");
    if (code == DRUPAL_OK) printf("read back node %s: \"%s\"\n", nid, title);  /* title borrowed from node */
    json_decref(node);
    drupal_response_free(response);
    return code == DRUPAL_OK ? 0 : fail("reading the title", code, NULL);
}

static int rename_article(drupal_client *client, const char *nid) {
    json_t *patch = NULL;
    drupal_response *response = NULL;
    drupal_code code;
    /* A PATCH carries the bundle field plus the fields to change. */
    code = drupal_json_entity_new(&patch, "node", "article");
    if (code == DRUPAL_OK) code = drupal_json_field_set_string(patch, "title", "Hello from C, renamed");
    if (code == DRUPAL_OK) code = drupal_entity_update_json_sync(&response, client, "node", nid, patch);
    json_decref(patch);
    if (code != DRUPAL_OK) {
        fail("update", code, response);
        drupal_response_free(response);
        return 1;
    }
    drupal_response_free(response);
    printf("renamed node %s\n", nid);
    return 0;
}

/* Lists every page of the view with the library's pager, which knows where the pages end (an
 * empty page, a page that repeats the one before on displays without a full pager, 1000 pages). */
static int list_articles(drupal_client *client) {
    drupal_pager *pager = NULL;
    drupal_code code = drupal_view_pager_new(&pager, client, "/api/articles", NULL, 0);
    int page;
    if (code != DRUPAL_OK) return fail("pager", code, NULL);
    for (page = 0;; page++) {
        drupal_response *response = NULL;
        json_t *rows = NULL;
        size_t count = 0, i;

        code = drupal_pager_next_sync(&response, pager);
        if (code != DRUPAL_OK) {
            fail("view", code, response);
            drupal_response_free(response);
            break;
        }
        if (response == NULL) break;  /* no more pages */
        code = drupal_response_json(&rows, response);
        drupal_response_free(response);  /* rows is a separate, parsed copy */
        if (code == DRUPAL_OK) code = drupal_json_view_count(&count, rows);
        for (i = 0; code == DRUPAL_OK && i < count; i++) {
            const char *title = NULL;
            code = drupal_json_view_column(&title, rows, i, "title");
            if (code == DRUPAL_OK) printf("  page %d: %s\n", page, title);
        }
        json_decref(rows);
        if (code != DRUPAL_OK) {
            fail("reading the view rows", code, NULL);
            break;
        }
    }
    drupal_pager_free(pager);
    return code != DRUPAL_OK;
}

static int delete_article(drupal_client *client, const char *nid) {
    drupal_response *response = NULL;
    drupal_code code = drupal_entity_delete_sync(&response, client, "node", nid);
    if (code != DRUPAL_OK) fail("delete", code, response);
    else printf("deleted node %s\n", nid);
    drupal_response_free(response);
    return code != DRUPAL_OK;
}

int main(int argc, char **argv) {
    const char *base_url = argc > 1 ? argv[1] : getenv("DRUPAL_BASE_URL");
    const char *user = env_or("DRUPAL_USER", "admin");
    const char *password = env_or("DRUPAL_PASSWORD", "admin");
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *client = NULL;
    drupal_response *response = NULL;
    drupal_code code;
    char nid[32] = "";
    int failed = 0;

    if (base_url == NULL || base_url[0] == '\0') {
        fprintf(stderr, "usage: %s BASE_URL   (or set DRUPAL_BASE_URL)\n", argv[0]);
        return 2;
    }
    printf("libdrupalsdk %s\n", drupal_version());
    /* DRUPAL_CA_FILE: the CA certificates of an HTTPS site with a private CA (NULL: the system's). */
    options.ca_bundle = env_or("DRUPAL_CA_FILE", NULL);
    code = drupal_client_new(&client, base_url, &options);
    if (code != DRUPAL_OK) return fail("drupal_client_new", code, NULL);

    /* Cookie login: the client keeps the session and CSRF token for the writes below. */
    code = drupal_login_sync(&response, client, user, password);
    if (code != DRUPAL_OK) {
        fail("login", code, response);
        drupal_response_free(response);
        drupal_client_free(client);
        return 1;
    }
    drupal_response_free(response);
    printf("logged in as %s\n", user);

    failed = create_article(client, nid, sizeof nid);
    if (!failed) failed = read_article(client, nid);
    if (!failed) failed = rename_article(client, nid);
    if (!failed) failed = read_article(client, nid);
    if (!failed) failed = list_articles(client);
    if (nid[0] != '\0') failed |= delete_article(client, nid);  /* clean up even after a failure */

    code = drupal_logout_sync(&response, client);
    if (code != DRUPAL_OK) failed |= fail("logout", code, response);
    else printf("logged out\n");
    drupal_response_free(response);

    drupal_client_free(client);
    return failed ? 1 : 0;
}
