/* libFuzzer target: the field and view readers (and the field setters) on parsed values.
 *
 * The input is parsed with drupal_json_parse; every reader then runs on the value, with the names
 * the value itself holds (its keys, its items' keys, its rows' columns) plus a few fixed ones.
 * Asserts, beyond no crash, leak or UB:
 *  - a failure returns a drupal_code, records the same code with a message, and resets *out;
 *  - counts and items are the tree's own (json_array_size, json_array_get);
 *  - a string read is a whole, valid UTF-8 C string;
 *  - drupal_json_field_int on a string value succeeds exactly when the string is a decimal
 *    integer that fits in 64 bits (strtoll as the oracle), with strtoll's value;
 *  - drupal_json_field_double on a string value succeeds exactly when the string is a JSON number
 *    of at most 64 bytes that does not overflow, with strtod's value (the C locale);
 *  - drupal_json_view_column_copy is snprintf-like for every buffer size: NUL-terminated, a
 *    prefix of the cell's text, the full length reported, DRUPAL_E_TOO_LARGE exactly when it
 *    does not fit; it agrees with drupal_json_view_column on string cells;
 *  - drupal_json_field_set / _append on a fresh entity give the item counts they document. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drupalsdk.h"
#include "json_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Bounds per input, so one input stays fast however wide its value is. */
#define MAX_NAMES 12
#define MAX_ITEMS 4

static void violated(const char *what, const char *detail) {
    fprintf(stderr, "fuzz_json_read: property violated: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

#define REQUIRE(cond, what, detail) \
    do {                            \
        if (!(cond)) violated(what, detail); \
    } while (0)

/* A failed call: a real code, recorded with a message for drupal_last_error. */
static void check_failure(drupal_code rc, const char *fn) {
    REQUIRE(rc > DRUPAL_OK && rc <= DRUPAL_E_INTERNAL, "an unknown drupal_code", fn);
    REQUIRE(drupal_last_error_code() == rc, "drupal_last_error_code differs from the returned code", fn);
    REQUIRE(drupal_last_error()[0] != '\0', "a failure without a message", fn);
}

static void check_c_string(const char *s, const char *fn) {
    REQUIRE(s != NULL, "DRUPAL_OK with a NULL string", fn);
    REQUIRE(drupal__json_utf8_valid(s, strlen(s)), "a string read is not valid UTF-8", fn);
}

/* The oracle for drupal_json_field_int on strings: -?[0-9]+ within int64. */
static int oracle_int(const char *s, size_t length, int64_t *out) {
    size_t i = s[0] == '-' ? 1 : 0;
    if (length == 0 || i == length || strlen(s) != length) return 0;
    for (size_t k = i; k < length; k++)
        if (s[k] < '0' || s[k] > '9') return 0;
    errno = 0;
    long long value = strtoll(s, NULL, 10);
    if (errno == ERANGE) return 0;
    *out = (int64_t)value;
    return 1;
}

/* The oracle for drupal_json_field_double on strings: the JSON number grammar, written as a
 * small state machine independent of the library's, then strtod. */
static int oracle_double(const char *s, size_t length, double *out) {
    size_t i = 0;
    if (length == 0 || length > 64 || strlen(s) != length) return 0;
    if (s[i] == '-') i++;
    if (i < length && s[i] == '0') i++;
    else if (i < length && s[i] >= '1' && s[i] <= '9') while (i < length && s[i] >= '0' && s[i] <= '9') i++;
    else return 0;
    if (i < length && s[i] == '.') {
        size_t digits = ++i;
        while (i < length && s[i] >= '0' && s[i] <= '9') i++;
        if (i == digits) return 0;
    }
    if (i < length && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < length && (s[i] == '+' || s[i] == '-')) i++;
        size_t digits = i;
        while (i < length && s[i] >= '0' && s[i] <= '9') i++;
        if (i == digits) return 0;
    }
    if (i != length) return 0;
    errno = 0;
    double value = strtod(s, NULL);
    if (isinf(value) && errno == ERANGE) return 0;
    *out = value;
    return 1;
}

/* Up to MAX_NAMES names to try on an object: its own keys, then fixed ones. */
static size_t names_of(const json_t *object, const char **names) {
    static const char *fixed[] = {"value", "target_id", "nid", "missing", "", NULL};
    size_t n = 0;
    const char *key;
    json_t *member;
    if (json_is_object(object)) {
        json_object_foreach((json_t *)object, key, member) {
            if (n == MAX_NAMES - 6) break;
            names[n++] = key;
        }
    }
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) names[n++] = fixed[k];
    return n; /* includes the NULL name */
}

static void read_scalars(const json_t *entity, const char *field) {
    const char *text = NULL, *direct = (const char *)1;
    int64_t integer = 7;
    int flag = 7;
    double real = 7.0;
    drupal_code rc;

    rc = drupal_json_field_string(&direct, entity, field);
    if (rc == DRUPAL_OK) check_c_string(direct, "drupal_json_field_string");
    else {
        check_failure(rc, "drupal_json_field_string");
        REQUIRE(direct == NULL, "drupal_json_field_string leaves *out set", NULL);
    }
    text = rc == DRUPAL_OK ? direct : NULL;

    rc = drupal_json_field_int(&integer, entity, field);
    if (rc != DRUPAL_OK) {
        check_failure(rc, "drupal_json_field_int");
        REQUIRE(integer == 0, "drupal_json_field_int leaves *out set", NULL);
    }
    if (text != NULL) { /* the main value is a string: the oracle decides */
        int64_t expected = 0;
        int ok = oracle_int(text, strlen(text), &expected);
        REQUIRE(ok == (rc == DRUPAL_OK), ok ? "drupal_json_field_int refuses a decimal integer"
                                            : "drupal_json_field_int accepts a non-integer string", text);
        REQUIRE(!ok || integer == expected, "drupal_json_field_int's value differs from strtoll", text);
    }

    rc = drupal_json_field_bool(&flag, entity, field);
    if (rc == DRUPAL_OK) REQUIRE(flag == 0 || flag == 1, "drupal_json_field_bool gives neither 0 nor 1", NULL);
    else {
        check_failure(rc, "drupal_json_field_bool");
        REQUIRE(flag == 0, "drupal_json_field_bool leaves *out set", NULL);
    }
    if (text != NULL)
        REQUIRE((rc == DRUPAL_OK) == (strcmp(text, "0") == 0 || strcmp(text, "1") == 0),
                "drupal_json_field_bool on a string other than \"0\"/\"1\"", text);

    rc = drupal_json_field_double(&real, entity, field);
    if (rc != DRUPAL_OK) {
        check_failure(rc, "drupal_json_field_double");
        REQUIRE(real == 0.0, "drupal_json_field_double leaves *out set", NULL);
    }
    if (text != NULL) {
        double expected = 0.0;
        int ok = oracle_double(text, strlen(text), &expected);
        REQUIRE(ok == (rc == DRUPAL_OK), ok ? "drupal_json_field_double refuses a JSON number"
                                            : "drupal_json_field_double accepts a non-number string", text);
        REQUIRE(!ok || real == expected || (isnan(real) && isnan(expected)),
                "drupal_json_field_double's value differs from strtod", text);
    }
}

static void read_items(const json_t *entity, const char *field) {
    size_t count = 99;
    drupal_code rc = drupal_json_field_count(&count, entity, field);
    json_t *items = json_is_object(entity) && field != NULL ? json_object_get(entity, field) : NULL;
    if (rc == DRUPAL_OK) {
        REQUIRE(json_is_array(items) && count == json_array_size(items), "drupal_json_field_count is not the array size",
                field);
    } else {
        check_failure(rc, "drupal_json_field_count");
        REQUIRE(count == 0, "drupal_json_field_count leaves *out set", NULL);
    }
    size_t limit = rc == DRUPAL_OK ? (count < MAX_ITEMS ? count : MAX_ITEMS) : 0;
    for (size_t index = 0; index <= limit; index++) {
        json_t *item = (json_t *)entity;
        rc = drupal_json_field_item(&item, entity, field, index);
        if (index < count && rc == DRUPAL_OK) {
            REQUIRE(item == json_array_get(items, index), "drupal_json_field_item is not the array's item", field);
        } else {
            REQUIRE(rc != DRUPAL_OK, "drupal_json_field_item past the last item", field);
            check_failure(rc, "drupal_json_field_item");
            REQUIRE(item == NULL, "drupal_json_field_item leaves *out set", NULL);
        }

        const char *properties[MAX_NAMES];
        size_t n = names_of(rc == DRUPAL_OK ? item : NULL, properties);
        for (size_t p = 0; p < n; p++) {
            json_t *value = (json_t *)entity;
            const char *text = (const char *)1;
            drupal_code prc = drupal_json_field_property_json(&value, entity, field, index, properties[p]);
            if (prc == DRUPAL_OK)
                REQUIRE(value == json_object_get(item, properties[p]), "drupal_json_field_property_json is not the member",
                        properties[p]);
            else {
                check_failure(prc, "drupal_json_field_property_json");
                REQUIRE(value == NULL, "drupal_json_field_property_json leaves *out set", NULL);
            }
            drupal_code src = drupal_json_field_property(&text, entity, field, index, properties[p]);
            if (src == DRUPAL_OK) {
                check_c_string(text, "drupal_json_field_property");
                REQUIRE(prc == DRUPAL_OK && text == json_string_value(value), "drupal_json_field_property is not the member",
                        properties[p]);
            } else {
                check_failure(src, "drupal_json_field_property");
                REQUIRE(text == NULL, "drupal_json_field_property leaves *out set", NULL);
            }
        }

        int64_t id = 7;
        const char *id_text = (const char *)1;
        rc = drupal_json_field_target_id(&id, entity, field, index);
        if (rc != DRUPAL_OK) {
            check_failure(rc, "drupal_json_field_target_id");
            REQUIRE(id == 0, "drupal_json_field_target_id leaves *out set", NULL);
        }
        drupal_code src = drupal_json_field_target_id_string(&id_text, entity, field, index);
        if (src == DRUPAL_OK) {
            check_c_string(id_text, "drupal_json_field_target_id_string");
            int64_t expected = 0;
            int ok = oracle_int(id_text, strlen(id_text), &expected);
            REQUIRE(ok == (rc == DRUPAL_OK) && (!ok || id == expected),
                    "drupal_json_field_target_id disagrees with strtoll on a string id", id_text);
        } else {
            check_failure(src, "drupal_json_field_target_id_string");
            REQUIRE(id_text == NULL, "drupal_json_field_target_id_string leaves *out set", NULL);
        }
    }
}

/* Setting and appending a field on a fresh entity: the counts the header documents. */
static void build(const char *field, json_t *value) {
    json_t *entity = json_object();
    size_t count = 0;
    if (entity == NULL) abort();
    drupal_code rc = drupal_json_field_set(entity, field, value);
    if (rc == DRUPAL_OK) {
        size_t expected = json_is_array(value) ? json_array_size(value) : 1;
        REQUIRE(drupal_json_field_count(&count, entity, field) == DRUPAL_OK && count == expected,
                "drupal_json_field_set gives another item count", field);
        rc = drupal_json_field_append(entity, field, value);
        if (rc == DRUPAL_OK) {
            REQUIRE(drupal_json_field_count(&count, entity, field) == DRUPAL_OK && count == expected + 1,
                    "drupal_json_field_append does not add one item", field);
        } else {
            check_failure(rc, "drupal_json_field_append");
            /* Only appending an array field to itself is refused. */
            REQUIRE(json_is_array(value), "drupal_json_field_append refuses a non-array value", field);
        }
    } else {
        check_failure(rc, "drupal_json_field_set");
        REQUIRE(field == NULL || field[0] == '\0', "drupal_json_field_set refuses a valid name", field);
    }
    rc = drupal_json_field_set_string(entity, "title", json_is_string(value) ? json_string_value(value) : "x");
    REQUIRE(rc == DRUPAL_OK, "drupal_json_field_set_string refuses a parsed string", NULL);
    json_decref(entity);
}

static void read_view(const json_t *value) {
    json_t *rows = (json_t *)&rows;
    size_t count = 99;
    drupal_code rc = drupal_json_view_rows(&rows, value);
    REQUIRE((rc == DRUPAL_OK) == json_is_array(value), "drupal_json_view_rows accepts a non-array or refuses an array",
            NULL);
    if (rc != DRUPAL_OK) {
        check_failure(rc, "drupal_json_view_rows");
        REQUIRE(rows == NULL, "drupal_json_view_rows leaves *out set", NULL);
        return;
    }
    REQUIRE(drupal_json_view_count(&count, rows) == DRUPAL_OK && count == json_array_size(rows),
            "drupal_json_view_count is not the array size", NULL);
    size_t limit = count < MAX_ITEMS ? count : MAX_ITEMS;
    for (size_t r = 0; r <= limit; r++) {
        json_t *row = (json_t *)&row;
        rc = drupal_json_view_row(&row, rows, r);
        if (rc == DRUPAL_OK)
            REQUIRE(r < count && row == json_array_get(rows, r) && json_is_object(row), "drupal_json_view_row is wrong",
                    NULL);
        else {
            check_failure(rc, "drupal_json_view_row");
            REQUIRE(row == NULL, "drupal_json_view_row leaves *out set", NULL);
        }
        const char *columns[MAX_NAMES];
        size_t n = names_of(rc == DRUPAL_OK ? row : NULL, columns);
        for (size_t c = 0; c < n; c++) {
            const char *text = (const char *)1;
            size_t length = 99;
            char buffer[80];
            drupal_code crc = drupal_json_view_column(&text, rows, r, columns[c]);
            if (crc == DRUPAL_OK) check_c_string(text, "drupal_json_view_column");
            else {
                check_failure(crc, "drupal_json_view_column");
                REQUIRE(text == NULL, "drupal_json_view_column leaves *out set", NULL);
            }
            /* The full text first (a big buffer), then every size around its length. */
            char *full = malloc(4096);
            if (full == NULL) abort();
            drupal_code frc = drupal_json_view_column_copy(full, 4096, &length, rows, r, columns[c]);
            if (frc != DRUPAL_OK) {
                if (frc != DRUPAL_E_TOO_LARGE) check_failure(frc, "drupal_json_view_column_copy");
                REQUIRE(crc != DRUPAL_OK || frc == DRUPAL_E_TOO_LARGE, "view_column succeeds where view_column_copy fails",
                        columns[c]);
                free(full);
                continue;
            }
            REQUIRE(length == strlen(full), "drupal_json_view_column_copy's length is not the text's", columns[c]);
            if (crc == DRUPAL_OK) REQUIRE(strcmp(text, full) == 0, "view_column and view_column_copy differ", columns[c]);
            size_t sizes[] = {0, 1, 2, length, length + 1, sizeof buffer};
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                size_t cap = sizes[s] <= sizeof buffer ? sizes[s] : sizeof buffer;
                size_t got = 99;
                memset(buffer, 'X', sizeof buffer);
                drupal_code src = drupal_json_view_column_copy(cap ? buffer : NULL, cap, &got, rows, r, columns[c]);
                REQUIRE(got == length, "drupal_json_view_column_copy reports another length", columns[c]);
                REQUIRE((src == DRUPAL_E_TOO_LARGE) == (length >= cap) && (src == DRUPAL_OK) == (length < cap),
                        "drupal_json_view_column_copy's code does not match the buffer size", columns[c]);
                if (cap > 0) {
                    size_t kept = length < cap ? length : cap - 1;
                    REQUIRE(memchr(buffer, '\0', cap) == buffer + kept && memcmp(buffer, full, kept) == 0,
                            "drupal_json_view_column_copy's buffer is not a NUL-terminated prefix", columns[c]);
                }
            }
            free(full);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    json_t *value = NULL;
    if (drupal_json_parse(&value, (const char *)data, size) != DRUPAL_OK) return 0;

    const char *fields[MAX_NAMES];
    size_t n = names_of(value, fields);
    for (size_t f = 0; f < n; f++) {
        read_scalars(value, fields[f]);
        read_items(value, fields[f]);
        json_t *member = json_is_object(value) && fields[f] != NULL ? json_object_get(value, fields[f]) : NULL;
        build(fields[f], member != NULL ? member : value);
    }
    /* An array top value: each item is also an entity (a view's rows, a list of entities). */
    if (json_is_array(value)) {
        for (size_t i = 0; i < json_array_size(value) && i < MAX_ITEMS; i++) {
            json_t *entity = json_array_get(value, i);
            const char *names[MAX_NAMES];
            size_t m = names_of(entity, names);
            for (size_t f = 0; f < m; f++) read_scalars(entity, names[f]);
        }
    }
    read_view(value);
    json_decref(value);
    return 0;
}
