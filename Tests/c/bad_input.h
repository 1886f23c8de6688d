/* Shared by the tests of bad input (test_bad_input.c, test_header_promises.c): calls that must
 * fail validation with DRUPAL_E_INVALID_ARGUMENT, leave *call or *out NULL and never call back.
 * Include after check.h; the test declares `drupal_call *call` and `drupal_response *out` where
 * it uses BAD_ASYNC and BAD_SYNC. */
#ifndef DRUPALSDK_TEST_BAD_INPUT_H
#define DRUPALSDK_TEST_BAD_INPUT_H

static int callbacks_run;  /* callbacks of calls that failed validation: must stay 0 */
static CHECK_UNUSED void must_not_run(drupal_code code, drupal_response *response, void *userdata) {
    (void)code; (void)response; (void)userdata;
    pthread_mutex_lock(&check_lock);
    callbacks_run++;
    pthread_mutex_unlock(&check_lock);
}
#define CB must_not_run, NULL

/* callbacks_run, read under check_lock as must_not_run (a library thread) writes it. */
static CHECK_UNUSED int callbacks_run_count(void) {
    int n;
    pthread_mutex_lock(&check_lock);
    n = callbacks_run;
    pthread_mutex_unlock(&check_lock);
    return n;
}

#define BAD(expr) CHECK_CODE(expr, DRUPAL_E_INVALID_ARGUMENT)

/* An async start that must fail validation: INVALID_ARGUMENT, *call reset to NULL. */
#define BAD_ASYNC(expr)                                                                          \
    do {                                                                                         \
        call = (drupal_call *)&call;                                                             \
        BAD(expr);                                                                               \
        CHECK(call == NULL);                                                                     \
        if (call != NULL && call != (drupal_call *)&call) drupal_call_free(call);                \
    } while (0)

/* A _sync call that must fail validation: INVALID_ARGUMENT, *out reset to NULL. */
#define BAD_SYNC(expr)                                                                           \
    do {                                                                                         \
        out = (drupal_response *)&out;                                                           \
        BAD(expr);                                                                               \
        CHECK(out == NULL);                                                                      \
        if (out != NULL && out != (drupal_response *)&out) drupal_response_free(out);            \
    } while (0)

static CHECK_UNUSED const char *INVALID_UTF8 = "no\xff\xfe" "de";

#endif
