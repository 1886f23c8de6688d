/* Views REST export bodies: an array of rows, each a flat object of column -> string
 * ({"nid":"1","title":"Article 1"}); a page past the end is []. */
#include <string.h>
#include "json_internal.h"

#define NAME DRUPAL_JSON_NAME_FMT

static int check_rows(const json_t *rows) {
    if (rows == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "view rows are NULL");
    if (!json_is_array(rows))
        return drupal__json_failf(DRUPAL_E_DECODE, "view response is %s, not an array of rows",
                                  drupal__json_type_name(rows));
    return DRUPAL_OK;
}

static int get_row(json_t **out, const json_t *rows, size_t index) {
    int rc = check_rows(rows);
    if (rc != DRUPAL_OK) return rc;
    if (index >= json_array_size(rows))
        return drupal__json_failf(DRUPAL_E_NOT_FOUND, "view has %zu row(s); no row %zu",
                                  json_array_size(rows), index);
    json_t *row = json_array_get(rows, index);
    if (!json_is_object(row))
        return drupal__json_failf(DRUPAL_E_DECODE, "view row %zu is %s, not an object", index,
                                  drupal__json_type_name(row));
    *out = row;
    return DRUPAL_OK;
}

/* The non-null cell at (row, column). */
static int get_cell(json_t **out, const json_t *rows, size_t row, const char *column) {
    json_t *object = NULL;
    int rc = drupal__json_check_name("column", column);
    if (rc == DRUPAL_OK) rc = get_row(&object, rows, row);
    if (rc != DRUPAL_OK) return rc;
    json_t *cell = json_object_get(object, column);
    if (cell == NULL)
        return drupal__json_failf(DRUPAL_E_NOT_FOUND, "view row %zu has no column " NAME, row, column);
    if (json_is_null(cell))
        return drupal__json_failf(DRUPAL_E_NOT_FOUND, "view row %zu column " NAME " is null", row, column);
    *out = cell;
    return DRUPAL_OK;
}

drupal_code drupal_json_view_rows(json_t **out, const json_t *response) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_view_rows: out is NULL");
    *out = NULL;
    int rc = check_rows(response);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    *out = (json_t *)response; /* borrowed: the response is the array of rows */
    return DRUPAL_OK;
}

drupal_code drupal_json_view_count(size_t *out, const json_t *rows) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_view_count: out is NULL");
    *out = 0;
    int rc = check_rows(rows);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    *out = json_array_size(rows);
    return DRUPAL_OK;
}

drupal_code drupal_json_view_row(json_t **out, const json_t *rows, size_t index) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_view_row: out is NULL");
    *out = NULL;
    return (drupal_code)get_row(out, rows, index);
}

drupal_code drupal_json_view_column(const char **out, const json_t *rows, size_t row, const char *column) {
    json_t *cell = NULL;
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_view_column: out is NULL");
    *out = NULL;
    int rc = get_cell(&cell, rows, row, column);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    if (!json_is_string(cell))
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE,
                                               "view row %zu column " NAME " is %s, not a string "
                                               "(drupal_json_view_column_copy formats it)",
                                               row, column, drupal__json_type_name(cell));
    const char *text = drupal__json_c_string(cell);
    if (text == NULL)
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "view row %zu column " NAME " contains a NUL character",
                                               row, column);
    *out = text;
    return DRUPAL_OK;
}

drupal_code drupal_json_view_column_copy(char *buffer, size_t size, size_t *length, const json_t *rows,
                                         size_t row, const char *column) {
    json_t *cell = NULL;
    char number[64]; /* a formatted number or boolean: at most ~25 bytes */
    const char *text;
    size_t text_length;
    if (length != NULL) *length = 0;
    if (buffer == NULL && size != 0)
        return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_view_column_copy: buffer is NULL but size is not 0");
    if (size > 0) buffer[0] = '\0';
    int rc = get_cell(&cell, rows, row, column);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    if (json_is_string(cell)) {
        /* Refused like drupal_json_view_column: the copy is a C string, which the NUL would end. */
        text = drupal__json_c_string(cell);
        if (text == NULL)
            return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE,
                                                   "view row %zu column " NAME " contains a NUL character", row, column);
        text_length = json_string_length(cell);
    } else if (json_is_number(cell) || json_is_boolean(cell)) {
        /* Jansson's own number text: locale-independent, and a real keeps its ".0". */
        text_length = json_dumpb(cell, number, sizeof number, JSON_ENCODE_ANY | JSON_COMPACT);
        if (text_length == 0 || text_length >= sizeof number)
            return drupal__fail(DRUPAL_E_INTERNAL, "could not format a view column");
        number[text_length] = '\0';
        text = number;
    } else {
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "view row %zu column " NAME " is %s, not a scalar",
                                               row, column, drupal__json_type_name(cell));
    }
    if (length != NULL) *length = text_length;
    if (text_length >= size) {
        /* Like snprintf: as much as fits, always NUL-terminated; the caller learns the size. */
        if (size > 0) {
            memcpy(buffer, text, size - 1);
            buffer[size - 1] = '\0';
        }
        return (drupal_code)drupal__json_failf(DRUPAL_E_TOO_LARGE,
                                               "view row %zu column " NAME " needs %zu bytes; the buffer has %zu",
                                               row, column, text_length + 1, size);
    }
    memcpy(buffer, text, text_length);
    buffer[text_length] = '\0';
    return DRUPAL_OK;
}
