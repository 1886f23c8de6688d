/* Accounts and paths from C: registration (200, the reduced account, 422 per field) and password
 * reset (200, empty, no enumeration) against the fake (drupal10-transcripts 50, 51), and
 * decoupled_router's path resolution (84) against its extended site; async and _sync; bad input. */
#include "check.h"

static void test_register(void) {
    drupal_client *c = new_client(), *basic = new_client();
    drupal_response *r = NULL;
    json_t *account = NULL;
    const char *value = NULL;
    const char *path, *message;
    waiter w;
    fake_reset();
    CHECK_CODE(drupal_user_register_sync(&r, c, "newbie", "newbie@example.com", NULL, NULL), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    CHECK_CODE(drupal_response_json(&account, r), DRUPAL_OK);
    CHECK_CODE(drupal_json_field_string(&value, account, "name"), DRUPAL_OK);
    CHECK_STR(value, "newbie");
    CHECK_CODE(drupal_json_field_string(&value, account, "mail"), DRUPAL_E_NOT_FOUND);   /* reduced */
    json_decref(account);
    drupal_response_free(r);

    /* Taken name and mail: one violation per field. */
    ASYNC(w, drupal_user_register(NULL, c, "newbie", "newbie@example.com", NULL, NULL, waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_E_HTTP);
    CHECK_RESPONSE(w.response, DRUPAL_E_HTTP, 422);
    CHECK_INT(drupal_response_error_kind(w.response), DRUPAL_ERROR_KIND_VALIDATION);
    CHECK_INT(drupal_response_violation_count(w.response), 2);
    CHECK_CODE(drupal_response_violation_at(&path, &message, w.response, 1), DRUPAL_OK);
    CHECK_STR(path, "mail");
    waiter_clear(&w);

    CHECK_CODE(drupal_user_register_sync(&r, c, "newbie3", "n3@example.com", "pw", NULL), DRUPAL_E_HTTP);
    CHECK_STR(drupal_response_error_message(r), "A Password cannot be specified. It will be generated on login.");
    drupal_response_free(r);
    CHECK_CODE(drupal_user_register_sync(&r, c, "withfields", "wf@example.com", NULL,
                                         "{\"timezone\": [{\"value\": \"Europe/Paris\"}]}"), DRUPAL_OK);
    drupal_response_free(r);
    CHECK_CODE(drupal_client_set_basic_auth(basic, "editor", "editor"), DRUPAL_OK);
    CHECK_CODE(drupal_user_register_sync(&r, basic, "x", "x@example.com", NULL, NULL), DRUPAL_E_HTTP);
    CHECK_RESPONSE(r, DRUPAL_E_HTTP, 403);
    drupal_response_free(r);

    r = (drupal_response *)&r;
    CHECK_CODE(drupal_user_register_sync(&r, c, "", "a@b", NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_CODE(drupal_user_register_sync(&r, c, NULL, "a@b", NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_user_register_sync(&r, c, "a", "a@b", NULL, "[1]"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_user_register_sync(&r, c, "a", "a@b", NULL, "{not json"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_user_register_sync(&r, c, "a", "a@b", "\xff\xfe", NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_user_register(NULL, c, "a", "a@b", NULL, NULL, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(basic);
    drupal_client_free(c);
}

static void test_password_reset(void) {
    drupal_client *c = new_client();
    drupal_response *r = NULL;
    size_t length = 99;
    waiter w;
    fake_reset();
    CHECK_CODE(drupal_user_password_reset_sync(&r, c, "editor", NULL), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    drupal_response_body(r, &length);
    CHECK_INT(length, 0);
    drupal_response_free(r);
    CHECK_CODE(drupal_user_password_reset_sync(&r, c, NULL, "editor@example.com"), DRUPAL_OK);
    drupal_response_free(r);
    ASYNC(w, drupal_user_password_reset(NULL, c, "nobody-here", NULL, waiter_callback, &w));  /* no enumeration */
    CHECK_INT(w.code, DRUPAL_OK);
    CHECK_RESPONSE(w.response, DRUPAL_OK, 200);
    waiter_clear(&w);
    r = (drupal_response *)&r;
    CHECK_CODE(drupal_user_password_reset_sync(&r, c, NULL, NULL), DRUPAL_E_INVALID_ARGUMENT);
    CHECK(r == NULL);
    CHECK_CODE(drupal_user_password_reset_sync(&r, c, "", ""), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(c);
}

static void test_resolve_path(void) {
    drupal_client *c = NULL;
    drupal_response *r = NULL;
    json_t *doc = NULL, *entity;
    waiter w;
    CHECK_CODE(fake_control_at(extended_url(), "POST", "/__fake/reset", NULL, NULL), DRUPAL_OK);
    CHECK_CODE(drupal_client_new(&c, extended_url(), NULL), DRUPAL_OK);
    CHECK_CODE(drupal_path_resolve_sync(&r, c, "/node/1"), DRUPAL_OK);
    CHECK_RESPONSE(r, DRUPAL_OK, 200);
    CHECK_CODE(drupal_response_json(&doc, r), DRUPAL_OK);
    entity = json_object_get(doc, "entity");
    CHECK_STR(json_string_value(json_object_get(entity, "type")), "node");
    CHECK_STR(json_string_value(json_object_get(entity, "bundle")), "article");
    CHECK_STR(json_string_value(json_object_get(entity, "id")), "1");
    CHECK_STR(json_string_value(json_object_get(json_object_get(doc, "jsonapi"), "resourceName")), "node--article");
    json_decref(doc);
    drupal_response_free(r);
    ASYNC(w, drupal_path_resolve(NULL, c, "/no/such/page", waiter_callback, &w));
    CHECK_INT(w.code, DRUPAL_E_HTTP);
    CHECK_RESPONSE(w.response, DRUPAL_E_HTTP, 404);
    CHECK_INT(drupal_response_error_kind(w.response), DRUPAL_ERROR_KIND_NOT_FOUND);
    CHECK_STR(drupal_response_error_message(w.response), "Unable to resolve path /no/such/page.");
    waiter_clear(&w);
    CHECK_CODE(drupal_path_resolve_sync(&r, c, ""), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_path_resolve_sync(&r, c, "/a\r\nb"), DRUPAL_E_INVALID_ARGUMENT);
    CHECK_CODE(drupal_path_resolve_sync(&r, c, NULL), DRUPAL_E_INVALID_ARGUMENT);
    drupal_client_free(c);
}

int main(void) {
    test_register();
    test_password_reset();
    test_resolve_path();
    return check_summary();
}
