"""Field definitions per entity type and bundle, in the order Drupal emits them.

Kinds: int, bool, str, uuid, ts (timestamp), ref:<type> (content entity
reference), cfg:<type> (config entity reference), text, text_summary, path,
comment (node comment statistics), image, uri, pass.
"""

COMMON_NODE = [
    ('nid', 'int'), ('uuid', 'uuid'), ('vid', 'int'), ('langcode', 'str'),
    ('type', 'cfg:node_type'), ('revision_timestamp', 'ts'), ('revision_uid', 'ref:user'),
    ('revision_log', 'str'), ('status', 'bool'), ('uid', 'ref:user'), ('title', 'str'),
    ('created', 'ts'), ('changed', 'ts'), ('promote', 'bool'), ('sticky', 'bool'),
    ('default_langcode', 'bool'), ('revision_translation_affected', 'bool'), ('path', 'path'),
    ('body', 'text_summary'),
]

# content_translation's fields (extended site only; base-site nodes never hold them).
TRANSLATION_SOURCE = [('content_translation_source', 'str'), ('content_translation_outdated', 'bool')]

FIELDS = {
    ('node', 'article'): COMMON_NODE[:-1] + TRANSLATION_SOURCE + COMMON_NODE[-1:] + [
        ('comment', 'comment'), ('field_image', 'image'), ('field_tags', 'ref:taxonomy_term')],
    ('node', 'page'): COMMON_NODE,
    ('comment', 'comment'): [
        ('cid', 'int'), ('uuid', 'uuid'), ('langcode', 'str'), ('comment_type', 'cfg:comment_type'),
        ('status', 'bool'), ('uid', 'ref:user'), ('pid', 'ref:comment'), ('entity_id', 'ref:node'),
        ('subject', 'str'), ('name', 'str'), ('mail', 'str'), ('homepage', 'str'),
        ('created', 'ts'), ('changed', 'ts'), ('thread', 'str'), ('entity_type', 'str'),
        ('field_name', 'str'), ('default_langcode', 'bool'), ('comment_body', 'text')],
    ('taxonomy_term', 'tags'): [
        ('tid', 'int'), ('uuid', 'uuid'), ('revision_id', 'int'), ('langcode', 'str'),
        ('vid', 'cfg:taxonomy_vocabulary'), ('revision_created', 'ts'), ('revision_user', 'ref:user'),
        ('revision_log_message', 'str'), ('status', 'bool'), ('name', 'str'), ('description', 'text'),
        ('weight', 'int'), ('parent', 'ref:taxonomy_term'), ('changed', 'ts'),
        ('default_langcode', 'bool'), ('revision_translation_affected', 'bool'), ('path', 'path')],
    ('user', 'user'): [
        ('uid', 'int'), ('uuid', 'uuid'), ('langcode', 'str'), ('preferred_langcode', 'str'),
        ('preferred_admin_langcode', 'str'), ('name', 'str'), ('pass', 'pass'), ('mail', 'str'),
        ('timezone', 'str'), ('status', 'bool'), ('created', 'ts'), ('changed', 'ts'),
        ('access', 'ts'), ('login', 'ts'), ('init', 'str'), ('roles', 'cfg:user_role'),
        ('default_langcode', 'bool'), ('user_picture', 'image')],
    ('file', 'file'): [
        ('fid', 'int'), ('uuid', 'uuid'), ('langcode', 'str'), ('uid', 'ref:user'),
        ('filename', 'str'), ('uri', 'uri'), ('filemime', 'str'), ('filesize', 'int'),
        ('status', 'bool'), ('created', 'ts'), ('changed', 'ts')],
}

# Entity type facts: id key, bundle key, valid bundles, paths.
TYPES = {
    'node': {'id': 'nid', 'bundle_key': 'type', 'bundles': ('article', 'page'),
             'canonical': '/node/{id}', 'param': 'node'},
    'comment': {'id': 'cid', 'bundle_key': 'comment_type', 'bundles': ('comment',),
                'canonical': '/comment/{id}', 'param': 'comment'},
    'taxonomy_term': {'id': 'tid', 'bundle_key': 'vid', 'bundles': ('tags',),
                      'canonical': '/taxonomy/term/{id}', 'param': 'taxonomy_term'},
    'user': {'id': 'uid', 'bundle_key': None, 'bundles': ('user',),
             'canonical': '/user/{id}', 'param': 'user'},
    'file': {'id': 'fid', 'bundle_key': None, 'bundles': ('file',),
             'canonical': '/entity/file/{id}', 'param': 'file'},
}

# The main property a bare scalar item stands for ("title": ["x"]).
MAIN_PROPERTY = {'image': 'target_id', 'comment': 'status', 'path': 'alias'}


def bundle_of(entity_type, entity):
    key = TYPES[entity_type]['bundle_key']
    return entity[key][0]['target_id'] if key else entity_type


def fields_for(entity_type, bundle):
    return FIELDS[(entity_type, bundle)]


def kinds_for(entity_type, bundle):
    return dict(FIELDS[(entity_type, bundle)])


def main_property(kind):
    if kind.startswith('ref:') or kind.startswith('cfg:'):
        return 'target_id'
    return MAIN_PROPERTY.get(kind, 'value')
