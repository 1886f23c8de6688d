/* Building entity bodies for POST/PATCH: the bundle key per entity type and one-item fields
 * (drupal-http-api.md §5.4 "Input rules"). Setters replace a field; append adds an item. */
#include <math.h>
#include <string.h>
#include "json_internal.h"

#define FIELD DRUPAL_JSON_NAME_FMT

/* Core entity types' bundle keys; NULL = no bundles. Contrib types mostly use "type". */
static const struct { const char *entity_type; const char *key; } bundle_keys[] = {
    {"node", "type"},          {"taxonomy_term", "vid"},     {"comment", "comment_type"},
    {"media", "bundle"},       {"menu_link_content", "bundle"}, {"block_content", "type"},
    {"user", NULL},            {"file", NULL},
};

/* The bundle key of entity_type, or NULL for a type without bundles. Records no error, so that
 * drupal_json_entity_new, for which a bundle-less type is no failure, leaves the last error alone. */
static const char *bundle_key_of(const char *entity_type) {
    for (size_t i = 0; i < sizeof bundle_keys / sizeof bundle_keys[0]; i++)
        if (strcmp(bundle_keys[i].entity_type, entity_type) == 0) return bundle_keys[i].key;
    return "type";
}

drupal_code drupal_json_bundle_key(const char **out, const char *entity_type) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_bundle_key: out is NULL");
    *out = NULL;
    int rc = drupal__json_check_name("entity type", entity_type);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    const char *key = bundle_key_of(entity_type);
    if (key == NULL)
        return (drupal_code)drupal__json_failf(DRUPAL_E_NOT_FOUND, "entity type " FIELD " has no bundle key",
                                               entity_type);
    *out = key;
    return DRUPAL_OK;
}

static int check_entity(const json_t *entity, const char *field) {
    int rc = drupal__json_check_name("field", field);
    if (rc != DRUPAL_OK) return rc;
    if (entity == NULL)
        return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "setting field " FIELD ": entity is NULL", field);
    if (!json_is_object(entity))
        return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "setting field " FIELD ": entity is %s, not an object",
                                  field, drupal__json_type_name(entity));
    return DRUPAL_OK;
}

/* entity[field] = [item]; steals item (NULL item = an allocation failed upstream). */
static int set_one_item_new(json_t *entity, const char *field, json_t *item) {
    json_t *items = json_array();
    if (item == NULL || items == NULL || json_array_append_new(items, item) != 0) {
        if (items == NULL) json_decref(item);
        json_decref(items);
        return drupal__fail(DRUPAL_E_NO_MEMORY, "out of memory building a field");
    }
    if (json_object_set_new(entity, field, items) != 0)
        return drupal__fail(DRUPAL_E_NO_MEMORY, "out of memory setting a field");
    return DRUPAL_OK;
}

/* {"<property>": value}; steals value. NULL on allocation failure. */
static json_t *item_new(const char *property, json_t *value) {
    json_t *item = json_object();
    if (item == NULL || value == NULL || json_object_set_new(item, property, value) != 0) {
        if (item == NULL) json_decref(value);
        json_decref(item);
        return NULL;
    }
    return item;
}

drupal_code drupal_json_entity_new(json_t **out, const char *entity_type, const char *bundle) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_entity_new: out is NULL");
    *out = NULL;
    int rc = drupal__json_check_name("entity type", entity_type);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    const char *key = bundle_key_of(entity_type);
    if (key == NULL) {
        /* Bundle-less types: their only bundle is named after the type itself. */
        if (bundle != NULL && strcmp(bundle, entity_type) != 0)
            return (drupal_code)drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT,
                                                   "entity type " FIELD " has no bundles; pass NULL as bundle",
                                                   entity_type);
    } else {
        rc = drupal__json_check_name("bundle", bundle);
        if (rc != DRUPAL_OK) return (drupal_code)rc;
    }
    json_t *entity = json_object();
    if (entity == NULL) return drupal__fail(DRUPAL_E_NO_MEMORY, "out of memory creating an entity");
    if (key != NULL) {
        rc = set_one_item_new(entity, key, item_new("target_id", json_string(bundle)));
        if (rc != DRUPAL_OK) { json_decref(entity); return (drupal_code)rc; }
    }
    *out = entity;
    return DRUPAL_OK;
}

drupal_code drupal_json_field_set_string(json_t *entity, const char *field, const char *value) {
    int rc = check_entity(entity, field);
    if (rc == DRUPAL_OK) rc = drupal__json_check_text("value", value);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    return (drupal_code)set_one_item_new(entity, field, item_new("value", json_string(value)));
}

drupal_code drupal_json_field_set_int(json_t *entity, const char *field, int64_t value) {
    int rc = check_entity(entity, field);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    return (drupal_code)set_one_item_new(entity, field, item_new("value", json_integer((json_int_t)value)));
}

drupal_code drupal_json_field_set_bool(json_t *entity, const char *field, int value) {
    int rc = check_entity(entity, field);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    return (drupal_code)set_one_item_new(entity, field, item_new("value", json_boolean(value)));
}

drupal_code drupal_json_field_set_double(json_t *entity, const char *field, double value) {
    int rc = check_entity(entity, field);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    if (!isfinite(value))
        return (drupal_code)drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT,
                                               "field " FIELD ": JSON cannot hold NaN or infinity", field);
    return (drupal_code)set_one_item_new(entity, field, item_new("value", json_real(value)));
}

drupal_code drupal_json_field_set_text(json_t *entity, const char *field, const char *value,
                                       const char *format, const char *summary) {
    int rc = check_entity(entity, field);
    if (rc == DRUPAL_OK) rc = drupal__json_check_text("value", value);
    if (rc == DRUPAL_OK) rc = drupal__json_check_name("format", format);
    if (rc == DRUPAL_OK && summary != NULL) rc = drupal__json_check_text("summary", summary);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    json_t *item = item_new("value", json_string(value));
    if (item != NULL && json_object_set_new(item, "format", json_string(format)) != 0) {
        json_decref(item);
        item = NULL;
    }
    if (item != NULL && summary != NULL && json_object_set_new(item, "summary", json_string(summary)) != 0) {
        json_decref(item);
        item = NULL;
    }
    return (drupal_code)set_one_item_new(entity, field, item);
}

drupal_code drupal_json_field_set_target_id(json_t *entity, const char *field, int64_t target_id) {
    int rc = check_entity(entity, field);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    return (drupal_code)set_one_item_new(entity, field, item_new("target_id", json_integer((json_int_t)target_id)));
}

drupal_code drupal_json_field_set_target_id_string(json_t *entity, const char *field, const char *target_id) {
    int rc = check_entity(entity, field);
    if (rc == DRUPAL_OK) rc = drupal__json_check_name("target_id", target_id);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    return (drupal_code)set_one_item_new(entity, field, item_new("target_id", json_string(target_id)));
}

/* Checks for set/append without touching value's reference count. */
static int check_value(const json_t *entity, const char *field, const json_t *value) {
    int rc = check_entity(entity, field);
    if (rc != DRUPAL_OK) return rc;
    if (value == NULL)
        return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "field " FIELD ": value is NULL", field);
    /* An entity inside itself is a reference cycle Jansson can neither dump nor free. */
    if (value == entity)
        return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "field " FIELD ": value is the entity itself",
                                  field);
    return DRUPAL_OK;
}

/* The _new variants steal value even when they fail, as Jansson's *_new functions do
 * (except a value that is the entity itself: that reference stays the caller's). */
drupal_code drupal_json_field_set_new(json_t *entity, const char *field, json_t *value) {
    int rc = check_value(entity, field, value);
    if (rc != DRUPAL_OK) {
        if (value != entity) json_decref(value);
        return (drupal_code)rc;
    }
    if (!json_is_array(value)) return (drupal_code)set_one_item_new(entity, field, value);
    if (json_object_set_new(entity, field, value) != 0)
        return drupal__fail(DRUPAL_E_NO_MEMORY, "out of memory setting a field");
    return DRUPAL_OK;
}

drupal_code drupal_json_field_set(json_t *entity, const char *field, json_t *value) {
    int rc = check_value(entity, field, value);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    return drupal_json_field_set_new(entity, field, json_incref(value));
}

drupal_code drupal_json_field_append_new(json_t *entity, const char *field, json_t *item) {
    int rc = check_value(entity, field, item);
    json_t *items = rc == DRUPAL_OK ? json_object_get(entity, field) : NULL;
    if (rc == DRUPAL_OK && items != NULL && !json_is_array(items))
        rc = drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "field " FIELD " is %s, not an array of items",
                                field, drupal__json_type_name(items));
    if (rc == DRUPAL_OK && item == items)
        rc = drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "field " FIELD ": cannot append a field to itself",
                                field);
    if (rc != DRUPAL_OK) {
        if (item != entity) json_decref(item);
        return (drupal_code)rc;
    }
    if (items == NULL) return (drupal_code)set_one_item_new(entity, field, item);
    if (json_array_append_new(items, item) != 0)
        return drupal__fail(DRUPAL_E_NO_MEMORY, "out of memory appending an item");
    return DRUPAL_OK;
}

drupal_code drupal_json_field_append(json_t *entity, const char *field, json_t *item) {
    int rc = check_value(entity, field, item);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    return drupal_json_field_append_new(entity, field, json_incref(item));
}
