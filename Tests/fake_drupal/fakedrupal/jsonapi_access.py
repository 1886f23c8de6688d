"""Access as JSON:API applies it, on top of access.py (the entity rules that
core REST uses too).

- view(): 'full', 'label' (users the viewer may not see: display_name only,
  171b/171c) or a denial reason ('' when Drupal gives none).
- query_allows(): the conditions Drupal's TemporaryQueryGuard adds when a
  request filters. Filtering is then silently narrowed, never an error: an
  anonymous filter on user names finds nobody (170).
- Route-level checks (create, update, delete) give the reason Drupal puts in
  the 403 detail; anonymous callers get 401 instead (44c).
"""
from . import access


def _owner(entity):
    uid = entity.get('uid')
    return uid[0].get('target_id') if uid else None


def _status(entity):
    return bool(entity['status'][0]['value']) if entity.get('status') else True


def view(entity_type, entity, acc):
    if entity_type == 'user':
        if entity['uid'][0]['value'] == 0:
            return 'full' if acc.is_admin else 'label'
        return 'full' if access.view('user', entity, acc) is None else 'label'
    if entity_type == 'file':
        if acc.is_admin or (acc.authenticated and _owner(entity) == acc.uid):
            return 'full'
        return 'full' if _status(entity) and acc.has('access content') else ''
    reason = access.view(entity_type, entity, acc)
    return 'full' if reason is None else reason


def view_revision(entity_type, entity, acc):
    """An older revision also needs the revision permission."""
    level = view(entity_type, entity, acc)
    if level != 'full':
        return level
    if entity_type == 'node' and not acc.has('view all revisions'):
        return "The 'view all revisions' permission is required."
    return 'full'


def query_allows(entity_type, entity, acc):
    if entity_type == 'node':
        if acc.has('bypass node access') or _status(entity):
            return True
        return acc.authenticated and acc.has('view own unpublished content') and _owner(entity) == acc.uid
    if entity_type == 'user':
        uid = entity['uid'][0]['value']
        if acc.has('administer users'):
            return True
        if acc.has('access user profiles'):
            return uid != 0 and _status(entity)
        return uid != 0 and uid == acc.uid     # without the permission: only one's own account
    if entity_type == 'taxonomy_term':
        return acc.has('administer taxonomy') or _status(entity)
    if entity_type == 'comment':
        return acc.has('administer comments') or _status(entity)
    if entity_type == 'file':
        return acc.is_admin or _status(entity) or (acc.authenticated and _owner(entity) == acc.uid)
    return True


def create(entity_type, bundle, acc):
    """None, or the route-level reason for refusing a create."""
    if entity_type == 'node':
        perm = 'create %s content' % bundle
        return None if acc.has(perm) else "The '%s' permission is required." % perm
    if entity_type == 'taxonomy_term':
        if acc.has('administer taxonomy') or acc.has('create terms in %s' % bundle):
            return None
        return "The following permissions are required: 'create terms in %s' OR 'administer taxonomy'." % bundle
    if entity_type == 'comment':
        return None if acc.has('post comments') else "The 'post comments' permission is required."
    if entity_type == 'user':
        return None if acc.has('administer users') else "The 'administer users' permission is required."
    return None if acc.is_admin else ''


def update(entity_type, entity, acc):
    if entity_type == 'file':
        return None if acc.is_admin or (acc.authenticated and _owner(entity) == acc.uid) else ''
    return access.update(entity_type, entity, acc)


def delete(entity_type, entity, acc):
    if entity_type == 'file':
        if acc.is_admin or (acc.authenticated and _owner(entity) == acc.uid and acc.has('delete own files')):
            return None
        return ''
    return access.delete(entity_type, entity, acc)


def field_edit(entity_type, internal, acc):
    """None, or the reason suffix (may be '') for not letting the caller set a field."""
    if internal == 'pass':
        return None
    return access.field_edit(entity_type, internal, acc)
