/*
 * drupalsdk.h - the C API of libdrupalsdk, a client for Drupal 10/11 sites.
 *
 * One header, C99. Link with `pkg-config --cflags --libs drupalsdk`.
 *
 * Conventions (they hold for every function below unless its doc says otherwise):
 *  - Every symbol starts with drupal_ / DRUPAL_.
 *  - Fallible functions return a drupal_code; DRUPAL_OK is 0. On failure the calling thread's
 *    last-error message (drupal_last_error()) says what went wrong. No function aborts the
 *    process on bad input: NULL handles and strings, invalid UTF-8 and malformed JSON are
 *    reported as DRUPAL_E_INVALID_ARGUMENT (or DRUPAL_E_DECODE for bodies).
 *  - Output parameters come first, then the handle, then inputs, then (callback, userdata).
 *  - Input strings are copied before a call returns; the caller keeps ownership of them.
 *  - Returned pointers are either borrowed (valid until a named event) or owned (released with
 *    a named drupal_*_free); each function says which. Every drupal_*_free(NULL) is a no-op.
 *  - Functions returning json_t* say whether the reference is new (json_decref it) or borrowed.
 *  - Client handles are thread-safe: any number of threads may use one client at once.
 *  - Async calls return at once and call their callback exactly once, on a library thread,
 *    whatever happens (success, HTTP error, network error, cancellation). Blocking *_sync
 *    calls must not be made from inside a callback (they return DRUPAL_E_STATE there).
 */
#ifndef DRUPALSDK_H
#define DRUPALSDK_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Version ================================================================================ */

#define DRUPAL_SDK_VERSION_MAJOR 0
#define DRUPAL_SDK_VERSION_MINOR 1
#define DRUPAL_SDK_VERSION_PATCH 0
/* One number for compile-time comparisons: 0xMMmmpp. */
#define DRUPAL_SDK_VERSION_NUM ((DRUPAL_SDK_VERSION_MAJOR << 16) | \
                                (DRUPAL_SDK_VERSION_MINOR << 8) | DRUPAL_SDK_VERSION_PATCH)

/**
 * The library's version as "MAJOR.MINOR.PATCH" (a static string; never free it).
 * Compare with DRUPAL_SDK_VERSION_* to detect a header/library mismatch at run time.
 */
const char *drupal_version(void);

/** The library's version as DRUPAL_SDK_VERSION_NUM would give it. */
unsigned int drupal_version_num(void);

/* ==== Errors ================================================================================= */

/** Result codes. New codes may be added at the end; treat unknown values as errors. */
typedef enum drupal_code {
    DRUPAL_OK = 0,
    DRUPAL_E_INVALID_ARGUMENT = 1, /* NULL, empty or malformed input; unsafe path; bad option */
    DRUPAL_E_NETWORK = 2,          /* could not connect, connection reset, DNS failure */
    DRUPAL_E_TIMEOUT = 3,          /* connect or total timeout expired */
    DRUPAL_E_HTTP = 4,             /* the server answered with a status >= 400 */
    DRUPAL_E_DECODE = 5,           /* a body was not the JSON (or text) expected */
    DRUPAL_E_CANCELLED = 6,        /* cancelled by drupal_call_cancel() or drupal_client_free() */
    DRUPAL_E_UNIMPLEMENTED = 7,    /* the operation has no implementation in this client */
    DRUPAL_E_TOO_LARGE = 8,        /* a response body exceeded the client's max body size */
    DRUPAL_E_TLS = 9,              /* TLS handshake or certificate verification failed */
    DRUPAL_E_NOT_FOUND = 10,       /* a lookup (header, JSON field, index) found nothing */
    DRUPAL_E_NO_MEMORY = 11,       /* an allocation failed */
    DRUPAL_E_STATE = 12,           /* not allowed now (e.g. a _sync call inside a callback) */
    DRUPAL_E_INTERNAL = 13         /* a bug in the library; please report it */
} drupal_code;

/** The code's name, e.g. "DRUPAL_E_TIMEOUT" (static string; "DRUPAL_E_UNKNOWN" if unknown). */
const char *drupal_code_name(drupal_code code);

/**
 * The message of the last failing call made on this thread, or "" if none failed yet.
 * Borrowed: valid until the next drupal_* call on this thread. Never NULL.
 */
const char *drupal_last_error(void);

/** The code of the last failing call made on this thread (DRUPAL_OK if none). */
drupal_code drupal_last_error_code(void);

/* ==== JSON helpers (Jansson) ================================================================= */
/*
 * Helpers over Jansson's json_t for Drupal's REST JSON (non-HAL `?_format=json`): parsing bodies,
 * reading entity fields, building POST/PATCH bodies, and reading Views REST export rows.
 *
 * Drupal's entity shape: an object keyed by field name whose every field is an array of item
 * objects, even single-valued ones: {"title":[{"value":"Hi"}], "uid":[{"target_id":1}],
 * "body":[{"value":"<p>x</p>","format":"basic_html","summary":""}], "field_image":[]}.
 *
 * References, as in Jansson's docs: a "new reference" is the caller's (json_decref it); a
 * "borrowed reference" belongs to the json_t it came from and stays valid while that json_t lives
 * and the part it came from is not modified (do not json_decref it; json_incref it to keep it).
 * Borrowed strings (const char *) follow the same rule. These functions call no callbacks and use
 * no global state beyond the calling thread's last error; a json_t may be read from several
 * threads at once but must not be modified while others read it.
 *
 * On failure every output parameter that is not NULL is reset (pointers to NULL, numbers to 0),
 * and drupal_last_error() names the function, field, item or column involved.
 */

/**
 * Parses a response body into a JSON value.
 *
 * Any JSON value is accepted at the top level (Drupal's /user/login_status answers a bare 0 or 1).
 * Strings containing "\u0000" are refused, so every string read later is a whole C string.
 *
 * @param out    receives a **new reference** to the parsed value (json_decref it).
 * @param body   the body bytes; need not be NUL-terminated; may be NULL only if length is 0.
 * @param length number of bytes in body.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT if out is NULL or body is NULL with length > 0;
 *         DRUPAL_E_DECODE if the body is empty, is not JSON, or is not valid UTF-8 (the message
 *         carries Jansson's text and the line and column); DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_parse(json_t **out, const char *body, size_t length);

/* ---- Reading entity fields --------------------------------------------------------------- */
/*
 * Common to the readers below:
 *  - entity is a JSON object (an entity, or any object of fields). NULL entity or NULL, empty or
 *    non-UTF-8 names -> DRUPAL_E_INVALID_ARGUMENT; an entity that is not an object ->
 *    DRUPAL_E_DECODE.
 *  - A missing field, an index past the last item, a missing property, or a JSON null value ->
 *    DRUPAL_E_NOT_FOUND (a field the user may not view is omitted by Drupal, so "missing" is a
 *    normal answer). A value of the wrong type -> DRUPAL_E_DECODE.
 *
 * The value readers (drupal_json_field_string/_int/_bool/_double/_target_id*) read the main
 * property ("value" or "target_id") of an item and also accept the flat shapes Drupal uses
 * elsewhere: a bare item ("title":["Hi"]) and a bare field ("type":"article", view rows such as
 * {"nid":"1"}, login's current_user {"uid":"1"}). drupal_json_field_count/_item/_property* accept
 * only the array-of-items shape.
 */

/**
 * Number of items in a field ("field_image":[] has 0).
 *
 * @param out    receives the count.
 * @param entity the entity object.
 * @param field  field name, e.g. "field_tags".
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field is missing;
 *         DRUPAL_E_DECODE if entity is not an object or the field is not an array.
 */
drupal_code drupal_json_field_count(size_t *out, const json_t *entity, const char *field);

/**
 * The index-th item of a field, e.g. one tag of "field_tags".
 *
 * @param out    receives a **borrowed reference** to the item (usually an object).
 * @param entity the entity object.
 * @param field  field name.
 * @param index  0-based item index.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field is missing or
 *         index >= its item count; DRUPAL_E_DECODE if the field is not an array.
 */
drupal_code drupal_json_field_item(json_t **out, const json_t *entity, const char *field, size_t index);

/**
 * A named property of the index-th item of a field, as any JSON value
 * (e.g. "comment_count" of a comment field item, "pid" of a path item).
 *
 * @param out      receives a **borrowed reference** to the property's value (may be JSON null).
 * @param entity   the entity object.
 * @param field    field name.
 * @param index    0-based item index.
 * @param property property name, e.g. "format", "target_uuid", "alias".
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field, item or
 *         property is missing; DRUPAL_E_DECODE if the field is not an array or the item not an
 *         object.
 */
drupal_code drupal_json_field_property_json(json_t **out, const json_t *entity, const char *field,
                                            size_t index, const char *property);

/**
 * A named string property of the index-th item of a field,
 * e.g. drupal_json_field_property(&format, node, "body", 0, "format") gives "basic_html".
 *
 * @param out      receives a **borrowed** NUL-terminated UTF-8 string (valid while entity lives
 *                 and the field is not modified).
 * @param entity   the entity object.
 * @param field    field name.
 * @param index    0-based item index.
 * @param property property name.
 * @return as drupal_json_field_property_json, plus DRUPAL_E_NOT_FOUND if the property is null
 *         and DRUPAL_E_DECODE if it is not a string.
 */
drupal_code drupal_json_field_property(const char **out, const json_t *entity, const char *field,
                                       size_t index, const char *property);

/**
 * The first value of a field as a string (field[0].value), e.g. "title", "langcode", "uuid".
 *
 * @param out    receives a **borrowed** NUL-terminated UTF-8 string (valid while entity lives and
 *               the field is not modified).
 * @param entity the entity object.
 * @param field  field name.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field is missing,
 *         empty ([]), or its value is null; DRUPAL_E_DECODE if the value is not a string.
 */
drupal_code drupal_json_field_string(const char **out, const json_t *entity, const char *field);

/**
 * The first value of a field as an integer, e.g. "nid". Accepts a JSON integer and a string
 * holding a decimal integer ("nid":"1" in view rows, "uid":"1" in the login response).
 *
 * @param out    receives the value.
 * @param entity the entity object (or a view row, or any flat object).
 * @param field  field name.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND as drupal_json_field_string;
 *         DRUPAL_E_DECODE if the value is neither, or does not fit in int64_t.
 */
drupal_code drupal_json_field_int(int64_t *out, const json_t *entity, const char *field);

/**
 * The first value of a field as a boolean, e.g. "status", "promote". Accepts true/false, the
 * integers 0/1 and the strings "0"/"1" (as Views sends them).
 *
 * @param out    receives 1 for true, 0 for false.
 * @param entity the entity object.
 * @param field  field name.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND as drupal_json_field_string;
 *         DRUPAL_E_DECODE for any other value.
 */
drupal_code drupal_json_field_bool(int *out, const json_t *entity, const char *field);

/**
 * The first value of a field as a double. Accepts JSON reals and integers and strings holding a
 * JSON number (decimal fields arrive as "12.50"); independent of the C locale.
 *
 * @param out    receives the value.
 * @param entity the entity object.
 * @param field  field name.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND as drupal_json_field_string;
 *         DRUPAL_E_DECODE if the value is not a number.
 */
drupal_code drupal_json_field_double(double *out, const json_t *entity, const char *field);

/**
 * The integer target_id of the index-th item of an entity reference field,
 * e.g. "uid" or each item of "field_tags". Accepts integer strings too.
 *
 * @param out    receives the target ID.
 * @param entity the entity object.
 * @param field  field name.
 * @param index  0-based item index.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field or item is
 *         missing or target_id is null ("parent":[{"target_id":null}]); DRUPAL_E_DECODE if
 *         target_id is not an integer.
 */
drupal_code drupal_json_field_target_id(int64_t *out, const json_t *entity, const char *field, size_t index);

/**
 * The string target_id of the index-th item of a reference to a config entity,
 * e.g. node "type" -> "article", term "vid" -> "tags".
 *
 * @param out    receives a **borrowed** NUL-terminated UTF-8 string (valid while entity lives
 *               and the field is not modified).
 * @param entity the entity object.
 * @param field  field name.
 * @param index  0-based item index.
 * @return as drupal_json_field_target_id, but DRUPAL_E_DECODE if target_id is not a string
 *         (use drupal_json_field_target_id for integer IDs).
 */
drupal_code drupal_json_field_target_id_string(const char **out, const json_t *entity,
                                               const char *field, size_t index);

/* ---- Building entity bodies -------------------------------------------------------------- */
/*
 * Common to the setters below: entity must be a JSON object (else DRUPAL_E_INVALID_ARGUMENT);
 * field must be a non-empty UTF-8 name; string values must be non-NULL UTF-8 (copied). A setter
 * replaces the whole field with a one-item array; DRUPAL_E_NO_MEMORY if an allocation fails,
 * leaving the entity as it was. Only send fields that exist on the bundle (Drupal answers 500
 * for unknown ones).
 */

/**
 * The field that carries the bundle for an entity type: node -> "type",
 * taxonomy_term -> "vid", comment -> "comment_type", media and menu_link_content -> "bundle",
 * block_content -> "type", any other type -> "type".
 *
 * @param out         receives a static string (never free it).
 * @param entity_type entity type ID, e.g. "node".
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for a NULL, empty or non-UTF-8 entity_type;
 *         DRUPAL_E_NOT_FOUND for types without bundles ("user", "file").
 */
drupal_code drupal_json_bundle_key(const char **out, const char *entity_type);

/**
 * A new entity body holding only its bundle field, e.g. ("node", "article") ->
 * {"type":[{"target_id":"article"}]}; ("user", NULL) -> {}.
 *
 * @param out         receives a **new reference** to the entity object (json_decref it).
 * @param entity_type entity type ID; see drupal_json_bundle_key.
 * @param bundle      bundle name (copied); required for types with bundles; for "user" and
 *                    "file" it must be NULL (or the type's own name) and adds nothing.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL out, a bad entity_type, a NULL, empty or
 *         non-UTF-8 bundle where one is needed, or a bundle for a type without bundles;
 *         DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_entity_new(json_t **out, const char *entity_type, const char *bundle);

/**
 * Sets field to [{"value": value}] with a string value, e.g. "title".
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  UTF-8 string (copied).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_string(json_t *entity, const char *field, const char *value);

/**
 * Sets field to [{"value": value}] with an integer value, e.g. "weight".
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  the integer.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_int(json_t *entity, const char *field, int64_t value);

/**
 * Sets field to [{"value": true|false}], e.g. "status".
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  0 for false, anything else for true.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_bool(json_t *entity, const char *field, int value);

/**
 * Sets field to [{"value": value}] with a real value (float fields).
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  a finite double.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT (also for NaN and infinities); DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_double(json_t *entity, const char *field, double value);

/**
 * Sets a formatted text field: [{"value": value, "format": format}] plus "summary" if given,
 * e.g. ("body", "<p>Hi</p>", "basic_html", NULL).
 * @param entity  the entity object, modified.
 * @param field   field name.
 * @param value   the markup, UTF-8 (copied).
 * @param format  text format ID, e.g. "basic_html" (non-empty UTF-8, copied).
 * @param summary summary for text-with-summary fields (copied), or NULL to leave it out.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_text(json_t *entity, const char *field, const char *value,
                                       const char *format, const char *summary);

/**
 * Sets an entity reference to one content entity: [{"target_id": target_id}], e.g. "uid".
 * @param entity    the entity object, modified.
 * @param field     field name.
 * @param target_id the referenced entity's ID.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_target_id(json_t *entity, const char *field, int64_t target_id);

/**
 * Sets a reference to one config entity: [{"target_id": "<target_id>"}], e.g. ("vid", "tags").
 * @param entity    the entity object, modified.
 * @param field     field name.
 * @param target_id the config entity's ID (non-empty UTF-8, copied).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_target_id_string(json_t *entity, const char *field,
                                                   const char *target_id);

/**
 * Sets a field to any JSON value: an array is used as the field's item list as is; any other
 * value becomes the field's only item ([value]). value is **not stolen**: the entity takes its
 * own reference, and the caller keeps (and still decrefs) theirs.
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  the items array or one item; must not be entity itself.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT (NULL value, value == entity, ...);
 *         DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set(json_t *entity, const char *field, json_t *value);

/**
 * As drupal_json_field_set, but **steals** the caller's reference to value, even on failure
 * (as Jansson's json_object_set_new does), so drupal_json_field_set_new(e, "f", json_array())
 * leaks nothing. Exception: if value == entity, the reference is left with the caller.
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  the items array or one item (**stolen**).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_new(json_t *entity, const char *field, json_t *value);

/**
 * Appends one item to a field, creating the field if it is missing, e.g. one more tag:
 * item {"target_id": 3} on "field_tags". item is **not stolen**: the entity takes its own
 * reference.
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param item   the item (usually an object); must not be entity or the field's own array.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT (also if the field exists and is not an array);
 *         DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_append(json_t *entity, const char *field, json_t *item);

/**
 * As drupal_json_field_append, but **steals** the caller's reference to item, even on failure,
 * e.g. drupal_json_field_append_new(node, "field_tags", json_pack("{s:i}", "target_id", 3)).
 * Exception: if item == entity, the reference is left with the caller.
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param item   the item (**stolen**).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT (also if the field exists and is not an array);
 *         DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_append_new(json_t *entity, const char *field, json_t *item);

/* ---- Views REST export rows -------------------------------------------------------------- */
/*
 * A REST export view answers with an array of rows, each a flat object of column -> string:
 * [{"nid":"1","title":"Article 1"}, ...]; a page past the end is []. A row can also be read with
 * the field readers above, e.g. drupal_json_field_int(&nid, row, "nid").
 */

/**
 * Checks that a parsed view response is an array of rows.
 * @param out      receives a **borrowed reference** to the rows array (response itself).
 * @param response the parsed body.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL out or response; DRUPAL_E_DECODE if the
 *         response is not an array.
 */
drupal_code drupal_json_view_rows(json_t **out, const json_t *response);

/**
 * Number of rows on this page of a view.
 * @param out  receives the count (0 past the last page).
 * @param rows the rows array.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_DECODE if rows is not an array.
 */
drupal_code drupal_json_view_count(size_t *out, const json_t *rows);

/**
 * One row of a view.
 * @param out   receives a **borrowed reference** to the row object.
 * @param rows  the rows array.
 * @param index 0-based row index.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if index is out of range;
 *         DRUPAL_E_DECODE if rows is not an array or the row not an object.
 */
drupal_code drupal_json_view_row(json_t **out, const json_t *rows, size_t index);

/**
 * A string column of a view row, e.g. (rows, 0, "title") -> "Article 1".
 * @param out    receives a **borrowed** NUL-terminated UTF-8 string (valid while rows lives and
 *               is not modified).
 * @param rows   the rows array.
 * @param row    0-based row index.
 * @param column column (field) name as configured in the view.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the row or column is
 *         missing or the cell is null; DRUPAL_E_DECODE if the cell is not a string (see
 *         drupal_json_view_column_copy) or rows/row have the wrong type.
 */
drupal_code drupal_json_view_column(const char **out, const json_t *rows, size_t row, const char *column);

/**
 * A column of a view row as text copied into the caller's buffer. Strings are copied as they
 * are; numbers and booleans are written as their JSON text ("42", "12.5", "true").
 * Like snprintf: when the text does not fit, as much as fits is written (NUL-terminated, possibly
 * ending inside a UTF-8 sequence), *length still receives the full length, and the call returns
 * DRUPAL_E_TOO_LARGE; call with (NULL, 0, &length) to learn the size needed (length + 1).
 * @param buffer receives the NUL-terminated text (may be NULL if size is 0).
 * @param size   size of buffer in bytes, including room for the NUL.
 * @param length receives the text's length without the NUL (may be NULL).
 * @param rows   the rows array.
 * @param row    0-based row index.
 * @param column column name.
 * @return DRUPAL_OK; DRUPAL_E_TOO_LARGE if buffer is too small; DRUPAL_E_INVALID_ARGUMENT (also
 *         for NULL buffer with size > 0); DRUPAL_E_NOT_FOUND as drupal_json_view_column;
 *         DRUPAL_E_DECODE if the cell is an object or array or rows/row have the wrong type.
 */
drupal_code drupal_json_view_column_copy(char *buffer, size_t size, size_t *length, const json_t *rows,
                                         size_t row, const char *column);

#ifdef __cplusplus
}
#endif

#endif /* DRUPALSDK_H */
