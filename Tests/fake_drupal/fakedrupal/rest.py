"""REST entity resources: GET/POST/PATCH/DELETE for node, comment,
taxonomy_term, user and GET for file."""
import time

from . import access, languages, pagecache, paths, schema
from .body import json_body
from .denormalize import HttpError, _find_uuid, denormalize, same_items, unprocessable, validate
from .normalize import hidden_fields
from .responses import Response

# Link headers Drupal adds on GET, per entity type (from the recordings).
LINKS = {
    'node': [('{c}', 'canonical'), ('/node/{id}/delete', 'https://drupal.org/link-relations/delete-form'),
             ('/admin/content/node/delete?node={id}', 'https://drupal.org/link-relations/delete-multiple-form'),
             ('/node/{id}/edit', 'edit-form'), ('/node/{id}/revisions', 'version-history'),
             ('{c}', 'https://drupal.org/link-relations/revision'),
             ('/node?node={id}', 'https://drupal.org/link-relations/create')],
    'comment': [('{c}', 'canonical'), ('/comment/{id}/delete', 'https://drupal.org/link-relations/delete-form'),
                ('/admin/content/comment/delete?comment={id}',
                 'https://drupal.org/link-relations/delete-multiple-form'),
                ('/comment/{id}/edit', 'edit-form'),
                ('/comment?comment={id}', 'https://drupal.org/link-relations/create')],
    'taxonomy_term': [
        ('{c}', 'canonical'), ('/taxonomy/term/{id}/delete', 'https://drupal.org/link-relations/delete-form'),
        ('/taxonomy/term/{id}/edit', 'edit-form'),
        ('/taxonomy/term?taxonomy_term={id}', 'https://drupal.org/link-relations/create'),
        ('{c}', 'https://drupal.org/link-relations/revision'),
        ('/taxonomy/term/{id}/revision/{rev}/delete', 'https://drupal.org/link-relations/revision-delete-form'),
        ('/taxonomy/term/{id}/revision/{rev}/revert', 'https://drupal.org/link-relations/revision-revert-form'),
        ('/taxonomy/term/{id}/revisions', 'version-history')],
    'user': [('{c}', 'canonical'), ('/user/{id}/edit', 'edit-form'),
             ('/user/{id}/cancel', 'https://drupal.org/link-relations/cancel-form'),
             ('/admin/people', 'collection')],
    'file': [('/file/{id}/delete', 'https://drupal.org/link-relations/delete-form')],
}


def canonical(entity_type, entity_id):
    return schema.TYPES[entity_type]['canonical'].replace('{id}', str(entity_id))


def link_headers(ctx, entity_type, entity_id, entity):
    rev = entity.get('revision_id', [{'value': entity_id}])[0]['value']
    out = []
    for template, rel in LINKS[entity_type]:
        url = template.replace('{c}', canonical(entity_type, entity_id))
        url = url.replace('{id}', str(entity_id)).replace('{rev}', str(rev))
        out.append(('Link', '<%s%s>; rel="%s"' % (ctx.base, url, rel)))
    return out


# ----- access callbacks used by the route table ------------------------------
def view_access(ctx):
    return access.view(ctx.route.entity, ctx.entity, ctx.account)


def update_access(ctx):
    return access.update(ctx.route.entity, ctx.entity, ctx.account)


def delete_access(ctx):
    return access.delete(ctx.route.entity, ctx.entity, ctx.account)


def create_access(entity_type):
    return lambda ctx: access.create_any(entity_type, ctx.account)


# ----- controllers -----------------------------------------------------------
def get(ctx):
    et = ctx.route.entity
    shown = languages.view(ctx.store, et, ctx.entity_id, ctx.entity, ctx.langcode)
    body = ctx.normalizer.entity(et, shown, ctx.account)
    resp = ctx.json(200, body, link_headers(ctx, et, ctx.entity_id, ctx.entity))
    resp.cacheability = pagecache.entity_hint(et, ctx.entity, ctx.account)
    return resp


def _mark_files_permanent(ctx, fields):
    for item in fields.get('field_image', []) + fields.get('user_picture', []):
        f = ctx.store.get('file', item.get('target_id'))
        if f:
            f['status'] = [{'value': True}]
            f['changed'] = [{'value': int(time.time())}]


def _fill_image_sizes(ctx, fields):
    from .normalize import image_size
    for name in ('field_image', 'user_picture'):
        for item in fields.get(name, []):
            f = ctx.store.get('file', item.get('target_id'))
            if f:
                mime, data = ctx.store.file_data.get(f['uri'][0]['value'], (None, b''))
                item['width'], item['height'] = image_size(data)
                item.setdefault('title', None)
                item.setdefault('alt', None)


def post(entity_type):
    def controller(ctx):
        data = json_body(ctx)
        bundle, fields = denormalize(ctx.store, entity_type, data)
        id_key = schema.TYPES[entity_type]['id']
        reason = access.create_bundle(entity_type, bundle, ctx.account)
        if reason is not None:
            raise HttpError(403, reason)
        for name in fields:
            if name == 'uuid':
                continue
            if name == id_key:
                # A translation cannot be made by POSTing an existing id (82d): field access says no.
                raise HttpError(403, "Access denied on creating field '%s'." % name)
            denied = access.field_edit(entity_type, name, ctx.account)
            if denied is not None:
                raise HttpError(403, "Access denied on creating field '%s'.%s" % (name, denied))
        bundle_key = schema.TYPES[entity_type]['bundle_key']
        full = dict(fields)
        if bundle_key:
            full[bundle_key] = [{'target_id': bundle}]
        lines = validate(ctx.store, entity_type, bundle, full)
        if lines:
            raise unprocessable(lines)
        if fields.get('uuid') and _find_uuid(ctx.store, entity_type, fields['uuid'][0].get('value')):
            raise HttpError(500)   # the storage's duplicate-key error is not caught (82e)
        _fill_image_sizes(ctx, full)
        store, uid = ctx.store, ctx.account.uid
        if entity_type == 'node':
            new_id = store.create_node(full, uid)
        elif entity_type == 'comment':
            new_id = store.create_comment(full, uid)
        elif entity_type == 'taxonomy_term':
            new_id = store.create_term(full)
        else:
            new_id = store.create_user(full, status=bool(full.get('status', [{'value': False}])[0]['value']))
        _mark_files_permanent(ctx, full)
        entity = store.get(entity_type, new_id)
        shown = paths.saved(store, entity_type, new_id, entity, full.get('path'), update=False)
        body = ctx.normalizer.entity(entity_type, shown, ctx.account)
        if entity_type == 'taxonomy_term' and not entity['description']:
            # Drupal quirk: the create response has [], a reload shows an empty item.
            entity['description'] = [{'value': None, 'format': None}]
        if entity_type == 'node':
            store.init_comment_statistics(new_id)
        location = ctx.base + canonical(entity_type, new_id)
        return ctx.json(201, body, [('Location', location)])
    return controller


def patch(ctx):
    et, original = ctx.route.entity, ctx.entity
    # Under a language prefix, the translation if there is one (else the original).
    entity = languages.view(ctx.store, et, ctx.entity_id, original, ctx.langcode)
    data = json_body(ctx)
    bundle, fields = denormalize(ctx.store, et, data)
    hidden = hidden_fields(et, entity, ctx.account)
    changes = {}
    for name, items in fields.items():
        stored = entity.get(name, [])
        if name not in hidden and name != 'pass' and same_items(items, stored):
            continue  # unchanged values of read-only fields are silently accepted
        denied = access.field_edit(et, name, ctx.account, entity)
        if denied is not None:
            raise HttpError(403, "Access denied on updating field '%s'.%s" % (name, denied))
        changes[name] = items
    new_password = None
    if et == 'user':
        new_password = _check_protected_user_fields(ctx, entity, changes)
    merged = dict(entity)
    merged.update(changes)
    lines = validate(ctx.store, et, bundle, merged, changed=changes.keys())
    if lines:
        raise unprocessable(lines)
    _fill_image_sizes(ctx, changes)
    headers = []
    if changes:
        for name, items in changes.items():
            if name != 'pass':
                entity[name] = items
        if 'changed' in entity:
            entity['changed'] = [{'value': int(time.time())}]
        _mark_files_permanent(ctx, changes)
    if new_password is not None:
        headers = _password_changed(ctx, entity['uid'][0]['value'], new_password)
    languages.save(ctx.store, et, ctx.entity_id, original, entity, ctx.langcode)
    entity = paths.saved(ctx.store, et, ctx.entity_id, entity, changes.get('path'), update=True)
    if et == 'comment' and changes:
        ctx.store.refresh_comment_statistics(entity['entity_id'][0]['target_id'])
    return ctx.json(200, ctx.normalizer.entity(et, entity, ctx.account), headers)


def _check_protected_user_fields(ctx, entity, changes):
    """Own mail/pass changes need the current password (admins are exempt)."""
    uid = entity['uid'][0]['value']
    pass_item = (changes.get('pass') or [{}])[0]
    own = ctx.account.uid == uid and not ctx.account.has('administer users')
    existing_ok = pass_item.get('existing') == ctx.store.passwords.get(uid)
    lines = []
    if own and 'mail' in changes and not existing_ok:
        lines.append("mail: Your current password is missing or incorrect; it's required to change the Email.")
    if own and pass_item.get('value') is not None and not existing_ok:
        lines.append("pass: Your current password is missing or incorrect; it's required to change the Password.")
    if lines:
        raise unprocessable(lines)
    return pass_item.get('value')


def _password_changed(ctx, uid, new_password):
    """Own password change: new session id, the user's other sessions end."""
    ctx.store.passwords[uid] = new_password
    if ctx.auth.session and ctx.auth.session.uid == uid:
        from .users import session_cookie
        old = ctx.auth.session_id
        ctx.store.sessions.pop(old, None)
        ctx.store.drop_user_sessions(uid)
        sid = ctx.store.new_session(uid)
        return [session_cookie(ctx, sid)]
    ctx.store.drop_user_sessions(uid)
    return []


def delete(ctx):
    et = ctx.route.entity
    gone = ctx.store.entities[et].pop(ctx.entity_id)
    if et == 'comment':
        ctx.store.refresh_comment_statistics(gone['entity_id'][0]['target_id'])
    languages.forget(ctx.store, et, ctx.entity_id)   # under /fr too: the whole entity goes (85)
    paths.forget(ctx.store, et, ctx.entity_id)
    if et == 'node':
        for cid in [c for c, e in ctx.store.entities['comment'].items()
                    if e['entity_id'][0]['target_id'] == ctx.entity_id]:
            del ctx.store.entities['comment'][cid]
    if et == 'user':
        ctx.store.drop_user_sessions(ctx.entity_id)
    return Response(204, b'')
