/* JSON:API documents: {"data": resource | [resources] | null, "included": [...], "links": {...}},
 * each resource {"type", "id", "attributes": {...}, "relationships": {name: {"data": identifier |
 * [identifiers] | null}}}. Readers return borrowed references into the document. */
#include <string.h>
#include "json_internal.h"

#define NAME DRUPAL_JSON_NAME_FMT

static int check_object(const json_t *value, const char *what) {
    if (value == NULL) return drupal__json_failf(DRUPAL_E_INVALID_ARGUMENT, "the %s is NULL", what);
    if (!json_is_object(value))
        return drupal__json_failf(DRUPAL_E_DECODE, "the %s is %s, not an object", what, drupal__json_type_name(value));
    return DRUPAL_OK;
}

/* holder's member name: *out is the object or array (as is_array asks), NULL when absent or null.
 * Any other value is DRUPAL_E_DECODE: a broken answer must not read as an empty one. */
static int member(json_t **out, const json_t *holder, const char *name, int is_array) {
    json_t *value = json_object_get(holder, name);
    *out = NULL;
    if (value == NULL || json_is_null(value)) return DRUPAL_OK;
    if (is_array ? !json_is_array(value) : !json_is_object(value))
        return drupal__json_failf(DRUPAL_E_DECODE, "the %s member is %s, not %s", name,
                                  drupal__json_type_name(value), is_array ? "an array" : "an object");
    *out = value;
    return DRUPAL_OK;
}

/* The primary data as (array, or the one object, or nothing). */
static int primary_data(const json_t *document, json_t **list, json_t **single) {
    int rc = check_object(document, "JSON:API document");
    if (rc != DRUPAL_OK) return rc;
    json_t *data = json_object_get(document, "data");
    *list = json_is_array(data) ? data : NULL;
    *single = json_is_object(data) ? data : NULL;
    if (data != NULL && !json_is_null(data) && *list == NULL && *single == NULL)
        return drupal__json_failf(DRUPAL_E_DECODE, "the document's data is %s, not a resource or a list",
                                  drupal__json_type_name(data));
    return DRUPAL_OK;
}

drupal_code drupal_json_jsonapi_count(size_t *out, const json_t *document) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_count: out is NULL");
    *out = 0;
    json_t *list = NULL, *single = NULL;
    int rc = primary_data(document, &list, &single);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    *out = list != NULL ? json_array_size(list) : (single != NULL ? 1 : 0);
    return DRUPAL_OK;
}

drupal_code drupal_json_jsonapi_resource(json_t **out, const json_t *document, size_t index) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_resource: out is NULL");
    *out = NULL;
    json_t *list = NULL, *single = NULL;
    int rc = primary_data(document, &list, &single);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    json_t *resource = list != NULL ? json_array_get(list, index) : (index == 0 ? single : NULL);
    if (resource == NULL)
        return (drupal_code)drupal__json_failf(DRUPAL_E_NOT_FOUND, "the document has no resource %zu", index);
    rc = check_object(resource, "resource");
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    *out = resource;
    return DRUPAL_OK;
}

drupal_code drupal_json_jsonapi_attribute(json_t **out, const json_t *resource, const char *name) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_attribute: out is NULL");
    *out = NULL;
    int rc = drupal__json_check_name("attribute", name);
    if (rc == DRUPAL_OK) rc = check_object(resource, "resource");
    json_t *attributes = NULL;
    if (rc == DRUPAL_OK) rc = member(&attributes, resource, "attributes", 0);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    json_t *value = json_object_get(attributes, name);
    if (value == NULL || json_is_null(value))
        return (drupal_code)drupal__json_failf(DRUPAL_E_NOT_FOUND, "the resource has no attribute " NAME, name);
    *out = value;
    return DRUPAL_OK;
}

drupal_code drupal_json_jsonapi_attribute_string(const char **out, const json_t *resource, const char *name) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_attribute_string: out is NULL");
    *out = NULL;
    json_t *value = NULL;
    drupal_code rc = drupal_json_jsonapi_attribute(&value, resource, name);
    if (rc != DRUPAL_OK) return rc;
    if (!json_is_string(value))
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "attribute " NAME " is %s, not a string", name,
                                               drupal__json_type_name(value));
    const char *text = drupal__json_c_string(value);
    if (text == NULL)
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "attribute " NAME " contains a NUL character", name);
    *out = text;
    return DRUPAL_OK;
}

/* The identifiers of a relationship: (array, or the one object); both NULL for data null (an empty
 * to-one) or no data (a relationship with links only). */
static int relationship_data(const json_t *resource, const char *field, json_t **list, json_t **single) {
    *list = *single = NULL;
    json_t *relationships = NULL;
    int rc = drupal__json_check_name("relationship", field);
    if (rc == DRUPAL_OK) rc = check_object(resource, "resource");
    if (rc == DRUPAL_OK) rc = member(&relationships, resource, "relationships", 0);
    if (rc != DRUPAL_OK) return rc;
    json_t *relationship = json_object_get(relationships, field);
    if (relationship == NULL || json_is_null(relationship))
        return drupal__json_failf(DRUPAL_E_NOT_FOUND, "the resource has no relationship " NAME
                                  " (a sparse fieldset may leave it out)", field);
    if (!json_is_object(relationship))
        return drupal__json_failf(DRUPAL_E_DECODE, "relationship " NAME " is %s, not an object", field,
                                  drupal__json_type_name(relationship));
    json_t *data = json_object_get(relationship, "data");
    *list = json_is_array(data) ? data : NULL;
    *single = json_is_object(data) ? data : NULL;
    if (data != NULL && !json_is_null(data) && *list == NULL && *single == NULL)
        return drupal__json_failf(DRUPAL_E_DECODE, "the data of relationship " NAME
                                  " is %s, not an identifier, a list or null", field, drupal__json_type_name(data));
    return DRUPAL_OK;
}

drupal_code drupal_json_jsonapi_relationship_count(size_t *out, const json_t *resource, const char *field) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_relationship_count: out is NULL");
    *out = 0;
    json_t *list = NULL, *single = NULL;
    int rc = relationship_data(resource, field, &list, &single);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    *out = list != NULL ? json_array_size(list) : (single != NULL ? 1 : 0);
    return DRUPAL_OK;
}

drupal_code drupal_json_jsonapi_relationship_id(const char **type, const char **id, const json_t *resource,
                                                const char *field, size_t index) {
    if (type != NULL) *type = NULL;
    if (id != NULL) *id = NULL;
    if (type == NULL || id == NULL)
        return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_relationship_id: type or id is NULL");
    json_t *list = NULL, *single = NULL;
    int rc = relationship_data(resource, field, &list, &single);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    json_t *identifier = list != NULL ? json_array_get(list, index) : (index == 0 ? single : NULL);
    if (identifier == NULL)
        return (drupal_code)drupal__json_failf(DRUPAL_E_NOT_FOUND, "relationship " NAME " has no item %zu", field, index);
    json_t *type_value = json_object_get(identifier, "type"), *id_value = json_object_get(identifier, "id");
    if (!json_is_string(type_value) || !json_is_string(id_value))
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "item %zu of relationship " NAME
                                               " is not a {type, id} identifier", index, field);
    const char *type_text = drupal__json_c_string(type_value), *id_text = drupal__json_c_string(id_value);
    if (type_text == NULL || id_text == NULL)
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "item %zu of relationship " NAME
                                               " has a type or id that contains a NUL character", index, field);
    *type = type_text;
    *id = id_text;
    return DRUPAL_OK;
}

drupal_code drupal_json_jsonapi_included(json_t **out, const json_t *document, const char *type, const char *id) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_included: out is NULL");
    *out = NULL;
    int rc = check_object(document, "JSON:API document");
    if (rc == DRUPAL_OK) rc = drupal__json_check_name("type", type);
    if (rc == DRUPAL_OK) rc = drupal__json_check_name("id", id);
    json_t *included = NULL;
    if (rc == DRUPAL_OK) rc = member(&included, document, "included", 1);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    size_t index;
    json_t *resource;
    json_t *found = NULL;
    /* Every item is checked, the match's followers too: an item that is not an object is a broken
     * answer wherever it stands, not a resource to skip. */
    json_array_foreach(included, index, resource) {
        if (!json_is_object(resource))
            return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "included[%zu] is %s, not a resource object", index,
                                                   drupal__json_type_name(resource));
        /* A type or id with a NUL matches nothing (its prefix is another resource's name). */
        const char *resource_type = drupal__json_c_string(json_object_get(resource, "type"));
        const char *resource_id = drupal__json_c_string(json_object_get(resource, "id"));
        if (found == NULL && resource_type != NULL && resource_id != NULL && strcmp(resource_type, type) == 0
            && strcmp(resource_id, id) == 0)
            found = resource;
    }
    if (found != NULL) {
        *out = found;
        return DRUPAL_OK;
    }
    return (drupal_code)drupal__json_failf(DRUPAL_E_NOT_FOUND, "%s %.64s is not included", type, id);
}

drupal_code drupal_json_jsonapi_related(json_t **out, const json_t *document, const json_t *resource,
                                        const char *field, size_t index) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_related: out is NULL");
    *out = NULL;
    const char *type = NULL, *id = NULL;
    drupal_code rc = drupal_json_jsonapi_relationship_id(&type, &id, resource, field, index);
    if (rc != DRUPAL_OK) return rc;
    return drupal_json_jsonapi_included(out, document, type, id);
}

drupal_code drupal_json_jsonapi_link(const char **out, const json_t *document, const char *name) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_link: out is NULL");
    *out = NULL;
    int rc = check_object(document, "JSON:API document");
    if (rc == DRUPAL_OK) rc = drupal__json_check_name("link", name);
    json_t *links = NULL;
    if (rc == DRUPAL_OK) rc = member(&links, document, "links", 0);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    json_t *link = json_object_get(links, name);
    if (link == NULL || json_is_null(link))   /* null is JSON:API's "no such link" */
        return (drupal_code)drupal__json_failf(DRUPAL_E_NOT_FOUND, "the document has no " NAME " link", name);
    /* A link is its URL or a link object {"href": URL}; anything else must not read as "no next page". */
    json_t *href = json_is_object(link) ? json_object_get(link, "href") : link;
    if (!json_is_string(href))
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "the document's " NAME " link is %s, not a URL"
                                               " or an object with a string href", name,
                                               drupal__json_type_name(link));
    const char *text = drupal__json_c_string(href);
    if (text == NULL)
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "the document's " NAME " link contains a NUL character",
                                               name);
    *out = text;
    return DRUPAL_OK;
}

drupal_code drupal_json_jsonapi_me(const char **out, const json_t *entry_point) {
    if (out == NULL) return drupal__fail(DRUPAL_E_INVALID_ARGUMENT, "drupal_json_jsonapi_me: out is NULL");
    *out = NULL;
    /* Anonymous gets no meta (173b); a meta.links.me of the wrong shape is a broken answer, not
     * "no one is logged in". */
    json_t *meta = NULL, *links = NULL, *me = NULL, *me_meta = NULL;
    int rc = check_object(entry_point, "JSON:API entry point");
    if (rc == DRUPAL_OK) rc = member(&meta, entry_point, "meta", 0);
    if (rc == DRUPAL_OK && meta != NULL) rc = member(&links, meta, "links", 0);
    if (rc == DRUPAL_OK && links != NULL) rc = member(&me, links, "me", 0);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    if (me == NULL) return (drupal_code)drupal__json_failf(DRUPAL_E_NOT_FOUND, "no one is logged in (no meta.links.me)");
    rc = member(&me_meta, me, "meta", 0);
    if (rc != DRUPAL_OK) return (drupal_code)rc;
    json_t *id = json_object_get(me_meta, "id");
    if (!json_is_string(id))
        return (drupal_code)drupal__json_failf(DRUPAL_E_DECODE, "the entry point's meta.links.me has no string meta.id"
                                               " (it is %s)", id == NULL ? "missing" : drupal__json_type_name(id));
    const char *text = drupal__json_c_string(id);
    if (text == NULL)
        return drupal__fail(DRUPAL_E_DECODE, "the entry point's meta.links.me id contains a NUL character");
    *out = text;
    return DRUPAL_OK;
}
