"""JSON:API writes: create, update, delete, and the relationship endpoints.

- POST: 201 + Location with ?resourceVersion=id%3A<vid> (120). A client
  data.id must be a UUID (422, 122b) not yet taken (409, 122). data.type is
  not checked (44f). A node's revision author is its owner (120).
- PATCH: data.id must equal the URL's (400, 133/133b); type not checked
  (132). Only sent members change (123). Every article PATCH is a new
  revision by the caller; the log message stays unless one is sent (124, 132).
- Relationship writes save the entity without a new revision (151-162):
  PATCH replaces, POST adds (to-many only, 409 else, 156), DELETE removes;
  204 when the result is what was sent, else 200 with the linkage (152-154).
"""
import time

from . import jsonapi_access as japi_access
from . import jsonapi_language as jlang
from . import jsonapi_state as jstate
from . import paths, schema
from .jsonapi_denormalize import (UUID, body, check_field_access, fields_from, resolve_identifiers, resource_data,
                                  route_identifiers, violations)
from .jsonapi_errors import JsonApiError, document, jsonapi_member
from .jsonapi_normalize import resource_object, version_query
from .jsonapi_read import relationship_document
from .responses import Response

NEW_REVISION = {('node', 'article'), ('node', 'page')}   # node types with "Create new revision" on


def _no_content():
    return Response(204, b'')


def _single(ctx, status, entity, headers=None):
    doc = {'jsonapi': jsonapi_member(ctx.config), 'data': resource_object(ctx, ctx.rtype, entity),
           'links': {'self': {'href': ctx.url}}}
    return document(status, doc, headers)


def mark_files_permanent(store, items):
    for item in items:
        f = store.get('file', item.get('target_id'))
        if f is not None and not f['status'][0]['value']:
            f['status'] = [{'value': True}]
            f['changed'] = [{'value': int(time.time())}]


def create(ctx):
    rtype, store, acc = ctx.rtype, ctx.store, ctx.account
    reason = japi_access.create(rtype.entity_type, rtype.bundle, acc)
    if reason is not None:
        ctx.deny(reason)
    data = resource_data(ctx)
    uuid = data.get('id')
    if uuid is not None:
        if not isinstance(uuid, str) or not UUID.fullmatch(uuid):
            raise JsonApiError(422, 'IDs should be properly generated and formatted UUIDs as described in RFC 4122.',
                               info=False)
        if jstate.uuid_taken(store, rtype.entity_type, uuid):
            raise JsonApiError(409, 'Conflict: Entity already exists.')
    fields = fields_from(ctx, rtype, data)
    check_field_access(ctx, rtype, fields, 'POST')
    full = {name: items for name, (items, _, _) in fields.items()}
    if uuid is not None:
        full['uuid'] = [{'value': uuid}]
    et = rtype.entity_type
    if et == 'node':
        full['type'] = [{'target_id': rtype.bundle}]
        full.setdefault('uid', [{'target_id': acc.uid}])
    elif et == 'taxonomy_term':
        full['vid'] = [{'target_id': rtype.bundle}]
    elif et == 'comment':
        full['comment_type'] = [{'target_id': rtype.bundle}]
        full.setdefault('entity_type', [{'value': 'node'}])
        full.setdefault('field_name', [{'value': 'comment'}])
    problems = violations(ctx, rtype, full, changed=None)
    if problems:
        raise problems
    password = (full.pop('pass', None) or [{}])[0].get('value')
    if et == 'node':
        owner = full['uid'][0]['target_id'] if full['uid'] else acc.uid
        new_id = store.create_node(full, uid=owner)
    elif et == 'taxonomy_term':
        new_id = store.create_term(full)
    elif et == 'comment':
        new_id = store.create_comment(full, acc.uid)
    elif et == 'user':
        new_id = store.create_user(full, status=bool((full.get('status') or [{'value': False}])[0]['value']))
        if password:
            store.passwords[new_id] = password
    else:
        raise JsonApiError(403, '')
    mark_files_permanent(store, full.get('field_image', []) + full.get('user_picture', []))
    entity = store.get(et, new_id)
    shown = paths.saved(store, et, new_id, entity, full.get('path'), update=False)
    location = '%s%s/%s%s' % (ctx.base, rtype.path, jstate.uuid_of(entity), version_query(rtype, entity))
    resp = _single(ctx, 201, shown, [('Location', location)])
    if et == 'node':
        store.init_comment_statistics(new_id)   # after the answer: it shows zeros (120 vs 123)
    return resp


def _save(ctx, entity, new_revision):
    """Bookkeeping of an entity save: changed time, storage order, maybe a new revision."""
    rtype, store, now = ctx.rtype, ctx.store, int(time.time())
    if new_revision and (rtype.entity_type, rtype.bundle) in NEW_REVISION:
        entity['vid'] = [{'value': store.next_vid}]
        store.next_vid += 1
        entity['revision_uid'] = [{'target_id': ctx.account.uid}]
        entity['revision_timestamp'] = [{'value': now}]
    if 'changed' in entity:
        entity['changed'] = [{'value': now}]
    jstate.saved(store, rtype.entity_type, ctx.entity_id)


def _refuse_translation_write(ctx):
    """EntityUuidConverter's 405s (languages.jsonapi_refusal), for PATCH and DELETE routes."""
    refusal = jlang.refuse_write(ctx, ctx.method)
    if refusal:
        status, detail, allow = refusal
        raise JsonApiError(status, detail, headers=[('Allow', allow)])


def update(ctx):
    rtype, original, store = ctx.rtype, ctx.entity, ctx.store
    _refuse_translation_write(ctx)     # when {entity} is converted: before access
    reason = japi_access.update(rtype.entity_type, original, ctx.account)
    if reason is not None:
        ctx.deny(reason)
    entity = jlang.view(ctx, rtype.entity_type, ctx.entity_id, original)   # the translation, or the original
    data = resource_data(ctx)
    uuid = jstate.uuid_of(entity)
    if data.get('id') != uuid:
        given = data.get('id')
        raise JsonApiError(400, 'The selected entity (%s) does not match the ID in the payload (%s).'
                           % (uuid, '' if given is None else given))
    fields = fields_from(ctx, rtype, data)
    check_field_access(ctx, rtype, fields, 'PATCH', entity)
    changes = {name: items for name, (items, _, _) in fields.items()}
    password = changes.pop('pass', None)
    if 'comment' in changes and entity.get('comment'):   # only the status is writable
        merged_stats = dict(entity['comment'][0], **{k: v for k, v in (changes['comment'] or [{}])[0].items()
                                                      if v is not None})
        changes['comment'] = [merged_stats]
    merged = dict(entity)
    merged.update(changes)
    problems = violations(ctx, rtype, merged, changed=list(changes))
    if problems:
        raise problems
    if password:
        _set_password(ctx, entity, password[0])
    if rtype.versionable and rtype.revision_key == 'vid':
        jstate.remember_revision(store, rtype.entity_type, ctx.entity_id, original['vid'][0]['value'], original)
    for name, items in changes.items():
        entity[name] = items
    mark_files_permanent(store, changes.get('field_image', []) + changes.get('user_picture', []))
    _save(ctx, entity, new_revision=True)
    jlang.save(ctx, original, entity)
    entity = paths.saved(store, rtype.entity_type, ctx.entity_id, entity, changes.get('path'), update=True)
    return _single(ctx, 200, entity)


def _set_password(ctx, user, item):
    from .jsonapi_errors import Violations
    uid = user['uid'][0]['value']
    own = ctx.account.uid == uid and not ctx.account.has('administer users')
    if own and item.get('existing') != ctx.store.passwords.get(uid):
        raise Violations([("pass: Your current password is missing or incorrect; it's required to change "
                           "the Password.", '/data/attributes/pass')])
    ctx.store.passwords[uid] = item.get('value')


def delete(ctx):
    rtype, entity, store = ctx.rtype, ctx.entity, ctx.store
    _refuse_translation_write(ctx)     # when {entity} is converted: before access
    reason = japi_access.delete(rtype.entity_type, entity, ctx.account)
    if reason is not None:
        ctx.deny(reason)
    if rtype.entity_type == 'file':
        store.file_data.pop(entity['uri'][0]['value'], None)
    jstate.delete(store, rtype.entity_type, ctx.entity_id)
    paths.forget(store, rtype.entity_type, ctx.entity_id)
    jlang.deleted(ctx)
    return _no_content()


# ----- relationship endpoints ---------------------------------------------------
def _relationship_write(ctx):
    rtype, entity = ctx.rtype, ctx.entity
    _refuse_translation_write(ctx)     # its PATCH and DELETE routes convert {entity} alike
    reason = japi_access.update(rtype.entity_type, entity, ctx.account)
    if reason is not None:
        ctx.deny(reason)
    field = rtype.by_public[ctx.route.field]
    if field.internal == schema.TYPES[rtype.entity_type]['bundle_key']:
        denied = ' The entity bundle cannot be changed.'
    else:
        denied = japi_access.field_edit(rtype.entity_type, field.internal, ctx.account)
    if denied is not None:
        raise JsonApiError(403, 'The current user is not allowed to PATCH the selected field (%s).%s'
                           % (field.public, denied), pointer='/data')
    return field


def _to_many_only(field, verb):
    if not field.multi:
        raise JsonApiError(409, 'You can only %s to-many relationships. %s is a to-one relationship.'
                           % (verb, field.public))


def _finish(ctx, field, items, requested):
    entity = ctx.entity
    merged = dict(entity)
    merged[field.internal] = items
    problems = violations(ctx, ctx.rtype, merged, changed=[field.internal])
    if problems:
        raise problems
    entity[field.internal] = items
    if field.kind == 'image':
        mark_files_permanent(ctx.store, items)
    _save(ctx, entity, new_revision=False)
    result = [i.get('target_id') for i in items]
    if result == [i.get('target_id') for i in requested]:
        return _no_content()
    return document(200, relationship_document(ctx, entity, field))


def relationship_replace(ctx):
    field = _relationship_write(ctx)
    items = resolve_identifiers(ctx, field, route_identifiers(field, body(ctx)))
    return _finish(ctx, field, items, items)


def relationship_add(ctx):
    field = _relationship_write(ctx)
    sent = route_identifiers(field, body(ctx))   # deserialized before the 409 (156), looked up after
    _to_many_only(field, 'POST to')
    requested = resolve_identifiers(ctx, field, sent)
    items = [dict(i) for i in ctx.entity.get(field.internal) or []]
    have = {i.get('target_id') for i in items}
    for item in requested:
        if item['target_id'] not in have:
            items.append(item)
            have.add(item['target_id'])
    return _finish(ctx, field, items, requested)


def relationship_remove(ctx):
    field = _relationship_write(ctx)
    sent = route_identifiers(field, body(ctx))
    _to_many_only(field, 'DELETE from')
    requested = resolve_identifiers(ctx, field, sent)
    gone = {i['target_id'] for i in requested}
    items = [dict(i) for i in ctx.entity.get(field.internal) or [] if i.get('target_id') not in gone]
    _finish(ctx, field, items, items)
    return _no_content()
