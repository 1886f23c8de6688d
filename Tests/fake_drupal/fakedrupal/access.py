"""Entity and field access, with the reasons Drupal puts in its 403 messages.

Each check returns None when allowed, else the reason string ('' when Drupal
gives no reason).
"""


def _owner(entity):
    uid = entity.get('uid')
    return uid[0].get('target_id') if uid else None


def _published(entity):
    return bool(entity['status'][0]['value']) if entity.get('status') else True


def view(entity_type, entity, acc):
    if entity_type == 'node':
        if _published(entity):
            return None if acc.has('access content') else "The 'access content' permission is required."
        if acc.has('bypass node access'):
            return None
        if acc.authenticated and _owner(entity) == acc.uid and acc.has('view own unpublished content'):
            return None
        return ''
    if entity_type == 'comment':
        if acc.has('administer comments'):
            return None
        if not acc.has('access comments'):
            return "The 'access comments' permission is required."
        return None if _published(entity) else ''
    if entity_type == 'taxonomy_term':
        if acc.has('administer taxonomy'):
            return None
        if not acc.has('access content'):
            return "The 'access content' permission is required."
        return None if _published(entity) else ''
    if entity_type == 'user':
        if acc.is_admin or acc.uid == entity['uid'][0]['value']:
            return None
        if acc.has('access user profiles') and entity['status'][0]['value']:
            return None
        return "The 'access user profiles' permission is required."
    if entity_type == 'file':
        if acc.is_admin or (acc.authenticated and _owner(entity) == acc.uid):
            return None
        return None if _published(entity) and acc.has('access content') else ''
    return ''


def create_any(entity_type, acc):
    """Route-level create access (Drupal's _entity_create_any_access): reason is empty."""
    if entity_type == 'node':
        ok = acc.has('create article content') or acc.has('create page content')
    elif entity_type == 'comment':
        ok = acc.has('post comments')
    elif entity_type == 'taxonomy_term':
        ok = acc.has('create terms in tags')
    elif entity_type == 'user':
        ok = acc.has('administer users')
    else:
        ok = False
    return None if ok else ''


def create_bundle(entity_type, bundle, acc):
    if entity_type == 'node':
        ok = acc.has('create %s content' % bundle)
    else:
        ok = create_any(entity_type, acc) is None
    if ok:
        return None
    return 'You are not authorized to create this %s entity of bundle %s.' % (entity_type, bundle)


def update(entity_type, entity, acc):
    if entity_type == 'node':
        bundle = entity['type'][0]['target_id']
        if acc.has('bypass node access') or acc.has('edit any %s content' % bundle):
            return None
        if acc.authenticated and _owner(entity) == acc.uid and acc.has('edit own %s content' % bundle):
            return None
        return "The 'edit any %s content' permission is required." % bundle
    if entity_type == 'comment':
        if acc.has('administer comments'):
            return None
        if acc.authenticated and _owner(entity) == acc.uid and acc.has('edit own comments'):
            return None
        return ''
    if entity_type == 'taxonomy_term':
        if acc.has('administer taxonomy') or acc.has('edit terms in tags'):
            return None
        return "The following permissions are required: 'edit terms in tags' OR 'administer taxonomy'."
    if entity_type == 'user':
        if acc.has('administer users') or (acc.authenticated and acc.uid == entity['uid'][0]['value']):
            return None
        return "The 'administer users' permission is required."
    return ''


def delete(entity_type, entity, acc):
    if entity_type == 'node':
        bundle = entity['type'][0]['target_id']
        if acc.has('bypass node access') or acc.has('delete any %s content' % bundle):
            return None
        if acc.authenticated and _owner(entity) == acc.uid and acc.has('delete own %s content' % bundle):
            return None
        return "The 'delete any %s content' permission is required." % bundle
    if entity_type == 'comment':
        # CommentAccessControlHandler has no opinion on delete: a neutral result, no reason.
        return None if acc.has('administer comments') else ''
    if entity_type == 'taxonomy_term':
        if acc.has('administer taxonomy') or acc.has('delete terms in tags'):
            return None
        return "The following permissions are required: 'delete terms in tags' OR 'administer taxonomy'."
    if entity_type == 'user':
        if acc.has('administer users'):
            return None
        return "The 'cancel account' permission is required."
    return ''


# Fields nobody may change, with the reason Drupal appends.
READ_ONLY = {
    'uuid': ' The entity UUID cannot be changed.',
    'changed': '', 'vid': '', 'revision_timestamp': '', 'revision_uid': '', 'revision_id': '',
    'revision_created': '', 'revision_user': '', 'thread': '', 'fid': '', 'access': '',
    'login': '', 'init': '', 'default_langcode': '', 'revision_translation_affected': '',
}
ID_KEYS = {'nid', 'cid', 'tid', 'uid_key', 'fid'}
NODE_ADMIN_FIELDS = ('uid', 'status', 'created', 'promote', 'sticky')


def field_edit(entity_type, name, acc, entity=None):
    """None if the account may set this field, else the reason suffix (may be '')."""
    id_key = {'node': 'nid', 'comment': 'cid', 'taxonomy_term': 'tid', 'user': 'uid', 'file': 'fid'}
    if name == id_key[entity_type]:
        return ' The entity ID cannot be changed.'
    if name in READ_ONLY:
        return READ_ONLY[name]
    if entity_type == 'node':
        if name in NODE_ADMIN_FIELDS and not acc.has('administer nodes'):
            return " The 'administer nodes' permission is required."
        if name == 'path' and not (acc.has('create url aliases') or acc.has('administer url aliases')):
            return (" The following permissions are required: "
                    "'create url aliases' OR 'administer url aliases'.")
    if entity_type == 'comment':
        if name in ('status', 'uid', 'created', 'name', 'mail', 'homepage') and not acc.has('administer comments'):
            return " The 'administer comments' permission is required."
    if entity_type == 'user':
        if name in ('roles', 'status') and not acc.has('administer users'):
            return ''
        if name == 'name' and not (acc.has('administer users') or acc.has('change own username')):
            return ''
    return None
