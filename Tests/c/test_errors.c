/* What failed calls carry, against the fake server: Drupal's own message verbatim (empty
 * included) beside the description for humans, and 422 violations only where Drupal sent a
 * violation list. */
#include "check.h"

static drupal_client *basic_client(const char *user, const char *password) {
    drupal_client *c = new_client();
    CHECK_CODE(drupal_client_set_basic_auth(c, user, password), DRUPAL_OK);
    return c;
}

/* Recording 24g: an editor reading an unpublished node it does not own gets {"message":""}. */
static void test_empty_drupal_message(void) {
    drupal_client *admin = basic_client("admin", "admin"), *editor = basic_client("editor", "editor");
    drupal_response *r = NULL;
    const char *hidden = "{\"type\":[{\"target_id\":\"article\"}],\"title\":[{\"value\":\"hidden\"}],"
                         "\"status\":[{\"value\":false}]}";
    json_t *node = NULL;
    int64_t nid = 0;
    char id[32], expected[128];

    CHECK_CODE(drupal_entity_create_sync(&r, admin, "node", hidden, strlen(hidden)), DRUPAL_OK);
    CHECK_CODE(drupal_response_json(&node, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_int(&nid, node, "nid"), DRUPAL_OK);
    json_decref(node);
    drupal_response_free(r);
    snprintf(id, sizeof id, "%lld", (long long)nid);

    CHECK_CODE(drupal_entity_get_sync(&r, editor, "node", id), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 403);
    CHECK_STR(drupal_response_drupal_message(r), "");
    snprintf(expected, sizeof expected, "GET /node/%s answered HTTP 403 Forbidden with no message", id);
    CHECK_STR(drupal_response_error_message(r), expected);
    drupal_response_free(r);

    /* A non-empty message is both; a success has neither. */
    CHECK_CODE(drupal_entity_get_sync(&r, admin, "node", "999"), DRUPAL_E_HTTP);
    CHECK(drupal_response_drupal_message(r) != NULL &&
          strcmp(drupal_response_drupal_message(r), drupal_response_error_message(r)) == 0);
    drupal_response_free(r);
    CHECK_CODE(drupal_entity_get_sync(&r, admin, "node", "1"), DRUPAL_OK);
    CHECK(drupal_response_drupal_message(r) == NULL);
    CHECK_STR(drupal_response_error_message(r), "");
    drupal_response_free(r);
    CHECK(drupal_response_drupal_message(NULL) == NULL);

    drupal_client_free(admin);
    drupal_client_free(editor);
}

/* A plain-text 500 carries no Drupal message, only a description. */
static void test_no_drupal_message_without_json(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *fault[] = {"X-Fake-Fault: status;code=500", NULL};
    o.headers = fault;
    CHECK_CODE(drupal_request_sync(&r, c, "GET", "/node/1", &o), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 500);
    CHECK(drupal_response_drupal_message(r) == NULL);
    CHECK_STR(drupal_response_error_message(r), "The website encountered an unexpected error. Try again later.");
    drupal_response_free(r);
    drupal_client_free(c);
}

/* Recording 52e: "Unprocessable Entity: file validation failed." is not a violation list. */
static void test_violations_only_for_validation_failed(void) {
    drupal_client *c = basic_client("admin", "admin");
    drupal_response *r = NULL;
    const char *path = NULL, *message = NULL;
    const char *no_title = "{\"type\":[{\"target_id\":\"article\"}]}";

    CHECK_CODE(drupal_file_upload_sync(&r, c, "node", "article", "field_image", "notes.txt", "text", 4),
               DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 422);
    CHECK(strncmp(drupal_response_drupal_message(r), "Unprocessable Entity: file validation failed.\n", 46) == 0);
    CHECK_INT(drupal_response_violation_count(r), 0);
    CHECK_CODE(drupal_response_violation_at(&path, &message, r, 0), DRUPAL_E_NOT_FOUND);
    CHECK(path == NULL && message == NULL);
    drupal_response_free(r);

    CHECK_CODE(drupal_entity_create_sync(&r, c, "node", no_title, strlen(no_title)), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 422);
    CHECK_INT(drupal_response_violation_count(r), 1);
    CHECK_CODE(drupal_response_violation_at(&path, &message, r, 0), DRUPAL_OK);
    CHECK_STR(path, "title");
    CHECK_STR(message, "This value should not be null.");
    CHECK_INT(drupal_response_jsonapi_error_count(r), 0);
    CHECK(drupal_response_jsonapi_error_member(r, 0, "detail") == NULL);
    drupal_response_free(r);
    drupal_client_free(c);
}

/* Recording 125: a JSON:API 422 with two errors keeps both, and each is a violation. */
static void test_jsonapi_errors_kept(void) {
    drupal_client *c = basic_client("admin", "admin");
    drupal_response *r = NULL;
    drupal_request_options o = DRUPAL_REQUEST_OPTIONS_INIT;
    const char *headers[] = {"Content-Type: application/vnd.api+json", NULL};
    const char *body = "{\"data\":{\"type\":\"node--article\",\"attributes\":{\"langcode\":\"xx\","
                       "\"body\":{\"value\":\"x\",\"format\":\"basic_html\"}}}}";
    const char *name = NULL, *value = NULL, *path = NULL, *message = NULL;
    size_t i, members = 0;

    o.headers = headers;
    o.body = body;
    o.body_length = strlen(body);
    o.no_format = 1;
    CHECK_CODE(drupal_request_sync(&r, c, "POST", "/jsonapi/node/article", &o), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 422);
    CHECK_INT(drupal_response_jsonapi_error_count(r), 2);
    CHECK_STR(drupal_response_jsonapi_error_member(r, 0, "status"), "422");
    CHECK_STR(drupal_response_jsonapi_error_member(r, 0, "source.pointer"), "/data/attributes/langcode/0");
    CHECK_STR(drupal_response_jsonapi_error_member(r, 1, "detail"), "title: This value should not be null.");
    CHECK_STR(drupal_response_jsonapi_error_member(r, 1, "title"), "Unprocessable Content");
    CHECK(drupal_response_jsonapi_error_member(r, 1, "code") == NULL);
    CHECK(drupal_response_jsonapi_error_member(r, 2, "detail") == NULL);
    CHECK(drupal_response_jsonapi_error_member(r, 0, NULL) == NULL);
    /* Every member, sorted by name. */
    for (i = 0; drupal_response_jsonapi_error_member_at(&name, &value, r, 1, i) == DRUPAL_OK; i++) members++;
    CHECK_INT(members, 4);  /* detail, source.pointer, status, title */
    CHECK_CODE(drupal_response_jsonapi_error_member_at(&name, &value, r, 1, 9), DRUPAL_E_NOT_FOUND);
    CHECK(name == NULL && value == NULL);
    CHECK_CODE(drupal_response_jsonapi_error_member_at(&name, &value, r, 5, 0), DRUPAL_E_NOT_FOUND);
    CHECK_CODE(drupal_response_jsonapi_error_member_at(&name, &value, NULL, 0, 0), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_INT(drupal_response_violation_count(r), 2);
    CHECK_CODE(drupal_response_violation_at(&path, &message, r, 1), DRUPAL_OK);
    CHECK_STR(path, "/data/attributes/title");
    CHECK_STR(message, "title: This value should not be null.");
    CHECK_STR(drupal_response_drupal_message(r), "langcode.0: The value you selected is not a valid choice.");
    drupal_response_free(r);
    drupal_client_free(c);
}

int main(void) {
    fake_reset();
    test_jsonapi_errors_kept();
    test_empty_drupal_message();
    test_no_drupal_message_without_json();
    test_violations_only_for_validation_failed();
    return check_summary();
}
