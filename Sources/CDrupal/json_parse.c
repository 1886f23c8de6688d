/* drupal_json_parse: a response body to a json_t, with the line and column in the error.
 * The tree is Jansson's; the parsing is drupal__json_fastparse (json_fastparse.c), which accepts
 * and refuses exactly what json_loadb(JSON_DECODE_ANY) does, about 10x faster. */
#include "json_internal.h"
#include "json_fastparse.h"

drupal_code drupal_json_parse(json_t **out, const char *body, size_t length) {
    drupal__json_fastparse_error error;
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_parse: out is NULL");
    *out = NULL;
    /* A negative size cast to size_t: body + length would wrap, so no byte of it may be read. */
    if (length > (size_t)PTRDIFF_MAX)
        return drupal__fail(DRUPAL_E_INVALID_ARGUMENT,
                            "drupal_json_parse: body's length is larger than any buffer can be");
    if (body == NULL && length != 0)
        return drupal__fail(DRUPAL_E_INVALID_ARGUMENT,
                            "drupal_json_parse: body is NULL but length is not 0");
    /* An empty body is what Drupal sends for 204 and some errors: say so plainly. */
    if (length == 0) return drupal__fail(DRUPAL_E_DECODE, "invalid JSON: the body is empty");
    /* Like json_loadb without JSON_ALLOW_NUL: "\u0000" is refused, so every borrowed string is a
     * whole C string. */
    json_t *root = drupal__json_fastparse(body, length, &error);
    if (root == NULL) {
        if (error.out_of_memory) return drupal__fail(DRUPAL_E_NO_MEMORY, "out of memory while parsing JSON");
        return drupal__json_failf(DRUPAL_E_DECODE, "invalid JSON at line %d, column %d: %s",
                                  error.line, error.column, error.text);
    }
    *out = root;
    return DRUPAL_OK;
}
