/* Reading Drupal entity fields: every field is an array of item objects (drupal-http-api.md
 * §5.4). The strict accessors (count, item, property) insist on that shape; the value readers
 * also take the flat shapes Drupal uses elsewhere (view rows, login's current_user, and the
 * POST shorthands "type":"article" and "title":["Hi"]). */
#include "json_internal.h"

#define FIELD DRUPAL_JSON_NAME_FMT

static int get_field(json_t **out, const json_t *entity, const char *field) {
    int rc = drupal__json_check_name("field", field);
    if (rc != DRUPAL_OK) return rc;
    if (entity == NULL) return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT,
                                                  "reading field " FIELD ": entity is NULL", field);
    if (!json_is_object(entity))
        return drupal__json_failf(DRUPAL_E_DECODE, "reading field " FIELD ": entity is %s, not an object",
                                  field, drupal__json_type_name(entity));
    json_t *value = json_object_get(entity, field);
    if (value == NULL) return drupal__json_failf(DRUPAL_E_NOT_FOUND, "field " FIELD " not found", field);
    *out = value;
    return DRUPAL_OK;
}

static int get_items(json_t **out, const json_t *entity, const char *field) {
    json_t *items = NULL;
    int rc = get_field(&items, entity, field);
    if (rc != DRUPAL_OK) return rc;
    if (!json_is_array(items))
        return drupal__json_failf(DRUPAL_E_DECODE, "field " FIELD " is %s, not an array of items",
                                  field, drupal__json_type_name(items));
    *out = items;
    return DRUPAL_OK;
}

static int get_item(json_t **out, const json_t *entity, const char *field, size_t index) {
    json_t *items = NULL;
    int rc = get_items(&items, entity, field);
    if (rc != DRUPAL_OK) return rc;
    if (index >= json_array_size(items))
        return drupal__json_failf(DRUPAL_E_NOT_FOUND, "field " FIELD " has %zu item(s); no item %zu",
                                  field, json_array_size(items), index);
    *out = json_array_get(items, index);
    return DRUPAL_OK;
}

/* The lenient path: property of item index, or the bare value where Drupal sends one. */
static int main_value(json_t **out, const json_t *entity, const char *field, size_t index,
                      const char *property) {
    json_t *value = NULL, *item = NULL;
    int rc = get_field(&value, entity, field);
    if (rc != DRUPAL_OK) return rc;
    if (json_is_array(value)) {
        if (index >= json_array_size(value))
            return drupal__json_failf(DRUPAL_E_NOT_FOUND, "field " FIELD " has %zu item(s); no item %zu",
                                      field, json_array_size(value), index);
        item = json_array_get(value, index);
    } else if (json_is_null(value)) {
        return drupal__json_failf(DRUPAL_E_NOT_FOUND, "field " FIELD " is null", field);
    } else {
        if (index != 0)
            return drupal__json_failf(DRUPAL_E_NOT_FOUND, "field " FIELD " has one value; no item %zu",
                                      field, index);
        item = value;
    }
    if (json_is_object(item)) {
        json_t *property_value = json_object_get(item, property);
        if (property_value == NULL)
            return drupal__json_failf(DRUPAL_E_NOT_FOUND, "field " FIELD " item %zu has no \"%s\"",
                                      field, index, property);
        item = property_value;
    } else if (json_is_array(item)) {
        return drupal__json_failf(DRUPAL_E_DECODE, "field " FIELD " item %zu is an array, not an item",
                                  field, index);
    }
    if (json_is_null(item))
        return drupal__json_failf(DRUPAL_E_NOT_FOUND, "field " FIELD " item %zu \"%s\" is null",
                                  field, index, property);
    *out = item;
    return DRUPAL_OK;
}

/* Borrowed C string of a JSON string, refusing embedded NULs a C caller could not see. */
static int as_string(const char **out, const json_t *value, const char *field, const char *property) {
    if (!json_is_string(value))
        return drupal__json_failf(DRUPAL_E_DECODE, "field " FIELD " \"%s\" is %s, not a string",
                                  field, property, drupal__json_type_name(value));
    const char *text = drupal__json_c_string(value);
    if (text == NULL)
        return drupal__json_failf(DRUPAL_E_DECODE, "field " FIELD " \"%s\" contains a NUL character",
                                  field, property);
    *out = text;
    return DRUPAL_OK;
}

static int as_int(int64_t *out, const json_t *value, const char *field, const char *property) {
    if (json_is_integer(value)) { *out = (int64_t)json_integer_value(value); return DRUPAL_OK; }
    if (json_is_string(value)) {
        if (drupal__json_parse_int(json_string_value(value), json_string_length(value), out))
            return DRUPAL_OK;
        return drupal__json_failf(DRUPAL_E_DECODE,
                                  "field " FIELD " \"%s\" is a string that is not a 64-bit integer",
                                  field, property);
    }
    return drupal__json_failf(DRUPAL_E_DECODE, "field " FIELD " \"%s\" is %s, not an integer",
                              field, property, drupal__json_type_name(value));
}

#define CHECK_OUT(out, fn)                                                                 \
    do {                                                                                   \
        if ((out) == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, fn ": out is NULL"); \
    } while (0)

drupal_code drupal_json_field_count(size_t *out, const json_t *entity, const char *field) {
    json_t *items = NULL;
    CHECK_OUT(out, "drupal_json_field_count");
    *out = 0;
    int rc = get_items(&items, entity, field);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    *out = json_array_size(items);
    return DRUPAL_OK;
}

drupal_code drupal_json_field_item(json_t **out, const json_t *entity, const char *field, size_t index) {
    CHECK_OUT(out, "drupal_json_field_item");
    *out = NULL;
    return (drupal_code)get_item(out, entity, field, index);
}

drupal_code drupal_json_field_property_json(json_t **out, const json_t *entity, const char *field,
                                            size_t index, const char *property) {
    json_t *item = NULL;
    CHECK_OUT(out, "drupal_json_field_property_json");
    *out = NULL;
    int rc = drupal__json_check_name("property", property);
    if (rc == DRUPAL_OK) rc = get_item(&item, entity, field, index);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    if (!json_is_object(item))
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "field " FIELD " item %zu is %s, not an object",
                                               field, index, drupal__json_type_name(item));
    json_t *value = json_object_get(item, property);
    if (value == NULL)
        return (drupal_code)drupal__json_failf(DRUPAL_E_NOT_FOUND, "field " FIELD " item %zu has no \"%.100s\"",
                                               field, index, property);
    *out = value;
    return DRUPAL_OK;
}

drupal_code drupal_json_field_property(const char **out, const json_t *entity, const char *field,
                                       size_t index, const char *property) {
    json_t *value = NULL;
    CHECK_OUT(out, "drupal_json_field_property");
    *out = NULL;
    int rc = drupal_json_field_property_json(&value, entity, field, index, property);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    if (json_is_null(value))
        return (drupal_code)drupal__json_failf(DRUPAL_E_NOT_FOUND, "field " FIELD " item %zu \"%.100s\" is null",
                                               field, index, property);
    return (drupal_code)as_string(out, value, field, property);
}

drupal_code drupal_json_field_string(const char **out, const json_t *entity, const char *field) {
    json_t *value = NULL;
    CHECK_OUT(out, "drupal_json_field_string");
    *out = NULL;
    int rc = main_value(&value, entity, field, 0, "value");
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    return (drupal_code)as_string(out, value, field, "value");
}

drupal_code drupal_json_field_int(int64_t *out, const json_t *entity, const char *field) {
    json_t *value = NULL;
    CHECK_OUT(out, "drupal_json_field_int");
    *out = 0;
    int rc = main_value(&value, entity, field, 0, "value");
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    rc = as_int(out, value, field, "value");
    if (rc != DRUPAL_OK) *out = 0;
    return (drupal_code)rc;
}

drupal_code drupal_json_field_bool(int *out, const json_t *entity, const char *field) {
    json_t *value = NULL;
    CHECK_OUT(out, "drupal_json_field_bool");
    *out = 0;
    int rc = main_value(&value, entity, field, 0, "value");
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    if (json_is_boolean(value)) { *out = json_is_true(value); return DRUPAL_OK; }
    /* Views and older serializers send booleans as 0/1 or "0"/"1". */
    if (json_is_integer(value) && (json_integer_value(value) == 0 || json_integer_value(value) == 1)) {
        *out = (int)json_integer_value(value);
        return DRUPAL_OK;
    }
    if (json_is_string(value) && json_string_length(value) == 1) {
        char c = json_string_value(value)[0];
        if (c == '0' || c == '1') { *out = c == '1'; return DRUPAL_OK; }
    }
    return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "field " FIELD " \"value\" is %s, not a boolean",
                                           field, drupal__json_type_name(value));
}

drupal_code drupal_json_field_double(double *out, const json_t *entity, const char *field) {
    json_t *value = NULL;
    CHECK_OUT(out, "drupal_json_field_double");
    *out = 0.0;
    int rc = main_value(&value, entity, field, 0, "value");
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    if (json_is_real(value)) { *out = json_real_value(value); return DRUPAL_OK; }
    if (json_is_integer(value)) { *out = (double)json_integer_value(value); return DRUPAL_OK; }
    /* Decimal fields come as strings ("12.50") so they keep their precision in PHP. */
    if (json_is_string(value)) {
        if (drupal__json_parse_double(json_string_value(value), json_string_length(value), out))
            return DRUPAL_OK;
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "field " FIELD " \"value\" is a string that is not a number",
                                               field);
    }
    return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "field " FIELD " \"value\" is %s, not a number",
                                           field, drupal__json_type_name(value));
}

drupal_code drupal_json_field_target_id(int64_t *out, const json_t *entity, const char *field, size_t index) {
    json_t *value = NULL;
    CHECK_OUT(out, "drupal_json_field_target_id");
    *out = 0;
    int rc = main_value(&value, entity, field, index, "target_id");
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    rc = as_int(out, value, field, "target_id");
    if (rc != DRUPAL_OK) *out = 0;
    return (drupal_code)rc;
}

drupal_code drupal_json_field_target_id_string(const char **out, const json_t *entity, const char *field,
                                               size_t index) {
    json_t *value = NULL;
    CHECK_OUT(out, "drupal_json_field_target_id_string");
    *out = NULL;
    int rc = main_value(&value, entity, field, index, "target_id");
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    return (drupal_code)as_string(out, value, field, "target_id");
}
