/*
 * errors.c - what failures look like: HTTP errors with Drupal's message, 422 violations,
 * a network error, and a call refused before it started.
 *
 *   errors [BASE_URL]   (or DRUPAL_BASE_URL; DRUPAL_CA_FILE=ca.pem for an HTTPS site with a private CA)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <drupalsdk.h>

static void report(const char *what, drupal_code code, const drupal_response *r) {
    size_t i;
    printf("%-26s %s", what, drupal_code_name(code));
    if (r == NULL) {  /* nothing started: the reason is in the thread's last error */
        printf(" (not sent): %s\n", drupal_last_error());
        return;
    }
    printf(", HTTP %d: %s\n", drupal_response_status(r), drupal_response_error_message(r));
    for (i = 0; i < drupal_response_violation_count(r); i++) {
        const char *path, *message;
        drupal_response_violation_at(&path, &message, r, i);
        printf("%28s %s: %s\n", "-", path, message);
    }
}

int main(int argc, char **argv) {
    const char *base_url = argc > 1 ? argv[1] : getenv("DRUPAL_BASE_URL");
    const char *no_title = "{\"type\":[{\"target_id\":\"article\"}]}";
    drupal_client_options options = DRUPAL_CLIENT_OPTIONS_INIT;
    drupal_client *client = NULL, *nowhere = NULL;
    drupal_response *r = NULL;
    drupal_code code;
    int ok = 1;

    /* DRUPAL_CA_FILE: the CA certificates of an HTTPS site with a private CA (unset: the system's). */
    const char *ca_file = getenv("DRUPAL_CA_FILE");
    options.ca_bundle = ca_file && ca_file[0] ? ca_file : NULL;
    if (base_url == NULL) {
        fprintf(stderr, "usage: %s BASE_URL   (or set DRUPAL_BASE_URL)\n", argv[0]);
        return 2;
    }
    if (drupal_client_new(&client, base_url, &options) != DRUPAL_OK) {
        fprintf(stderr, "%s: %s\n", drupal_code_name(drupal_last_error_code()), drupal_last_error());
        return 2;
    }

    code = drupal_entity_get_sync(&r, client, "node", "999999");          /* 404 */
    report("missing node", code, r);
    ok &= code == DRUPAL_E_HTTP && drupal_response_status(r) == 404;
    drupal_response_free(r);

    code = drupal_entity_get_sync(&r, client, "user", "1");               /* 401: not logged in */
    report("user without login", code, r);
    ok &= code == DRUPAL_E_HTTP && drupal_response_status(r) == 401;
    drupal_response_free(r);

    code = drupal_login_sync(&r, client, "admin", "not the password");    /* 400 */
    report("bad password", code, r);
    ok &= code == DRUPAL_E_HTTP;
    drupal_response_free(r);

    drupal_client_set_basic_auth(client, "admin", "admin");
    code = drupal_entity_create_sync(&r, client, "node", no_title, strlen(no_title)); /* 422 */
    report("article without title", code, r);
    ok &= code == DRUPAL_E_HTTP && drupal_response_violation_count(r) == 1;
    drupal_response_free(r);

    code = drupal_request_sync(&r, client, "GET", "/../etc/passwd", NULL);  /* refused locally */
    report("unsafe path", code, r);
    ok &= code == DRUPAL_E_INVALID_ARGUMENT && r == NULL;

    drupal_client_new(&nowhere, "http://127.0.0.1:1", NULL);              /* nothing listens */
    code = drupal_entity_get_sync(&r, nowhere, "node", "1");
    report("connection refused", code, r);
    ok &= code == DRUPAL_E_NETWORK && drupal_response_status(r) == 0;
    drupal_response_free(r);

    drupal_client_free(nowhere);
    drupal_client_free(client);
    return ok ? 0 : 1;
}
