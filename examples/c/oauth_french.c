/*
 * oauth_french.c - an OAuth 2 password-grant session (simple_oauth) that survives its token's
 * expiry, and French reads and an update on the same session (language module, /fr prefix).
 *
 *   oauth_french [--force-expiry] [BASE_URL]   (or DRUPAL_BASE_URL; DRUPAL_CA_FILE=ca.pem for an
 *                                               HTTPS site with a private CA)
 *
 * The consumer is DRUPAL_OAUTH_CLIENT_ID / DRUPAL_OAUTH_CLIENT_SECRET (default sdk-client /
 * sdk-secret), the user DRUPAL_USER / DRUPAL_PASSWORD (default admin / admin). --force-expiry is
 * for the bundled fake server (--site extended): it asks the fake (POST /__fake/oauth-expire) to
 * expire every token at once, as the site does after the token's lifetime, so that the next
 * request is refused with a 401 and the library refreshes the token and retries by itself.
 * The French title of node 1 is changed and then put back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <drupalsdk.h>

static int token_requests;

/* Counts the answers of the token endpoint and shows refusals (events never carry a token or a
 * secret). Listeners run on the thread that made the request. */
static void on_event(const drupal_event *event, void *userdata) {
    (void)userdata;
    if (event->type != DRUPAL_EVENT_REQUEST_FINISH) return;
    if (strcmp(event->path, "/oauth/token") == 0) token_requests++;
    if (event->status == 401) printf("%-34s %s %s -> 401: refresh the token, retry once\n", "  (the site refused it)",
                                     event->method, event->path);
}

static const char *env(const char *name, const char *fallback) {
    const char *value = getenv(name);
    return value && value[0] ? value : fallback;
}

/* DRUPAL_CA_FILE: the CA certificates of an HTTPS site with a private CA (NULL: the system's). */
static const drupal_client_options *client_options(void) {
    static drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    options.ca_bundle = env("DRUPAL_CA_FILE", NULL);
    return &options;
}

/* Prints the failure of a call and returns 0, or returns 1. */
static int ok(const char *what, drupal_code code, const drupal_response *r) {
    if (code == DRUPAL_OK) return 1;
    fprintf(stderr, "%s: %s", what, drupal_code_name(code));
    if (r) fprintf(stderr, ", HTTP %d: %s", drupal_response_status(r), drupal_response_error_message(r));
    else fprintf(stderr, ": %s", drupal_last_error());
    fprintf(stderr, "\n");
    return 0;
}

/* The langcode of the last node show() read ("fr": the site has that translation). */
static char shown_langcode[16];

/* GETs a node and prints its title and langcode. */
static int show(drupal_client *client, const char *label, const char *nid) {
    drupal_response *r = NULL;
    json_t *node = NULL;
    const char *title = "?";
    drupal_code code = drupal_entity_get_sync(&r, client, "node", nid);
    int good = ok(label, code, r);
    if (good && drupal_response_json(&node, r) == DRUPAL_OK) {
        drupal_json_field_string(&title, node, "title");
        snprintf(shown_langcode, sizeof shown_langcode, "%s",
                 drupal_response_langcode(r) ? drupal_response_langcode(r) : "");
        printf("%-34s node %s: \"%s\" (langcode %s)\n", label, nid, title,
               drupal_response_langcode(r) ? drupal_response_langcode(r) : "-");
        json_decref(node);
    }
    drupal_response_free(r);
    return good;
}

static int force_expiry(const char *base_url) {
    drupal_client *control = NULL;
    drupal_response *r = NULL;
    drupal_request_options options = DRUPAL_REQUEST_OPTIONS_INIT;
    drupal_code code;
    options.no_format = 1;
    if (drupal_client_new(&control, base_url, client_options()) != DRUPAL_OK) return 0;
    code = drupal_request_sync(&r, control, "POST", "/__fake/oauth-expire", &options);
    int good = ok("forcing the expiry (is this the fake server?)", code, r);
    if (good) printf("%-34s every token expired on the site (POST /__fake/oauth-expire)\n", "forced expiry:");
    drupal_response_free(r);
    drupal_client_free(control);
    return good;
}

static int set_french_title(drupal_client *french, const char *title) {
    drupal_response *r = NULL;
    json_t *body;
    drupal_code code;
    drupal_json_entity_new(&body, "node", "article");
    drupal_json_field_set_string(body, "title", title);
    code = drupal_entity_update_json_sync(&r, french, "node", "1", body);
    json_decref(body);
    int good = ok("French update", code, r);
    if (good) printf("%-34s node 1: \"%s\" (langcode %s)\n", "updated the French translation:", title,
                     drupal_response_langcode(r));
    drupal_response_free(r);
    return good;
}

int main(int argc, char **argv) {
    int force = argc > 1 && strcmp(argv[1], "--force-expiry") == 0;
    const char *base_url = argc > 1 + force ? argv[1 + force] : getenv("DRUPAL_BASE_URL");
    drupal_client *client = NULL, *french = NULL;
    drupal_response *r = NULL;
    drupal_oauth_options oauth = DRUPAL_OAUTH_OPTIONS_INIT;
    drupal_code code;
    uint64_t listener;
    const char *original = NULL;
    char saved[256] = "", french_of_2[16] = "";
    json_t *node = NULL;
    int good = 1, changed = 0;

    if (base_url == NULL || drupal_client_new(&client, base_url, client_options()) != DRUPAL_OK) {
        fprintf(stderr, "usage: %s [--force-expiry] BASE_URL   (or set DRUPAL_BASE_URL)\n", argv[0]);
        return 2;
    }
    drupal_client_add_listener(&listener, client, on_event, NULL);

    /* 1. OAuth 2, password grant: the library fetches, refreshes and rotates the tokens. */
    oauth.grant = DRUPAL_OAUTH_PASSWORD;
    oauth.client_id = env("DRUPAL_OAUTH_CLIENT_ID", "sdk-client");
    oauth.client_secret = env("DRUPAL_OAUTH_CLIENT_SECRET", "sdk-secret");
    oauth.username = env("DRUPAL_USER", "admin");
    oauth.password = env("DRUPAL_PASSWORD", "admin");
    if (!ok("drupal_client_set_oauth", drupal_client_set_oauth(client, &oauth), NULL)) return 2;
    code = drupal_oauth_authenticate_sync(&r, client);
    if (!ok("OAuth token", code, r)) return 1;
    printf("%-34s %s\n", "OAuth token (no token printed):", drupal_response_body(r, NULL));
    drupal_response_free(r);
    good = show(client, "read with the token:", "1");

    /* 2. The token expires: the next request is refused once, refreshed and retried. */
    if (good && force) good = force_expiry(base_url);
    good = good && show(client, force ? "read after the expiry:" : "read again (the same token):", "1");
    printf("%-34s %d (%s)\n", "token requests so far:", token_requests,
           force ? "the password grant, then one refresh" : "the password grant");

    /* 3. French, on the same session: reads, the fallback, an update of the translation. */
    if (good && (good = ok("drupal_client_with_language",
                           drupal_client_with_language(&french, client, "fr", 0), NULL))) {
        good = show(french, "French read:", "1") && show(french, "French read (no translation):", "2");
        snprintf(french_of_2, sizeof french_of_2, "%s", shown_langcode);
        if (good && drupal_entity_get_sync(&r, french, "node", "1") == DRUPAL_OK &&
            drupal_response_json(&node, r) == DRUPAL_OK &&
            drupal_json_field_string(&original, node, "title") == DRUPAL_OK) {
            snprintf(saved, sizeof saved, "%s", original);
        }
        json_decref(node);
        drupal_response_free(r);
        changed = good && saved[0] && set_french_title(french, "Article 1 FR (modifi\xc3\xa9 depuis C)");
        good = changed && show(client, "the English original:", "1");
        if (good && strcmp(french_of_2, "fr") == 0) {
            /* This site has one: the refusal below cannot be shown without changing it. */
            printf("%-34s skipped: node 2 has a French translation here\n", "French update of node 2:");
        } else if (good) {
            /* Node 2 has no French translation: core REST would change the original, so it is refused. */
            json_t *body;
            drupal_json_entity_new(&body, "node", "article");
            drupal_json_field_set_string(body, "title", "Titre");
            code = drupal_entity_update_json_sync(&r, french, "node", "2", body);
            json_decref(body);
            printf("%-34s %s: %s\n", "French update of node 2:", drupal_code_name(code),
                   r ? drupal_response_error_message(r) : drupal_last_error());
            drupal_response_free(r);
            good = code == DRUPAL_E_STATE;
        }
        if (changed) good = set_french_title(french, saved) && good;  /* put back even after a failure */
        drupal_client_free(french);
    }
    printf("%-34s %d\n", "token requests in all:", token_requests);
    drupal_client_free(client);
    printf("%s\n", good ? "done" : "failed");
    return good ? 0 : 1;
}
