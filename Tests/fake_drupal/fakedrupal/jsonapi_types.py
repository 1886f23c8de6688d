"""JSON:API resource types: which stored field becomes which attribute or
relationship, under which public name, as the recorded site exposes them.

Built once from schema.FIELDS. Public names follow Drupal's rules: the id and
revision id keys become drupal_internal__<key>, a field called "type" becomes
<entity type>_type, uuid is the resource id (no attribute) and pass is never
shown. Users get a computed display_name attribute first.
"""
from . import schema

# Every resource type the recorded entry point lists (GET /jsonapi, 41/173).
ENTRY_POINT_TYPES = (
    'action--action', 'base_field_override--base_field_override', 'block--block',
    'block_content--basic', 'block_content_type--block_content_type', 'comment--comment',
    'comment_type--comment_type', 'contact_form--contact_form', 'contact_message--feedback',
    'contact_message--personal', 'date_format--date_format', 'editor--editor',
    'entity_form_display--entity_form_display', 'entity_form_mode--entity_form_mode',
    'entity_view_display--entity_view_display', 'entity_view_mode--entity_view_mode',
    'field_config--field_config', 'field_storage_config--field_storage_config', 'file--file',
    'filter_format--filter_format', 'image_style--image_style', 'menu--menu',
    'menu_link_content--menu_link_content', 'node--article', 'node--page', 'node_type--node_type',
    'path_alias--path_alias', 'rest_resource_config--rest_resource_config',
    'search_page--search_page', 'shortcut--default', 'shortcut_set--shortcut_set',
    'taxonomy_term--tags', 'taxonomy_vocabulary--taxonomy_vocabulary', 'user--user',
    'user_role--user_role', 'view--view',
)

# id key and revision key per content entity type (revision key only where revisionable).
KEYS = {'node': ('nid', 'vid'), 'taxonomy_term': ('tid', 'revision_id'), 'user': ('uid', None),
        'file': ('fid', None), 'comment': ('cid', None)}
MULTI = {'field_tags', 'roles', 'parent'}           # unlimited cardinality on the recorded site
CONTENT_TARGETS = {'user': ('user--user',), 'taxonomy_term': ('taxonomy_term--tags',),
                   'node': ('node--article', 'node--page'), 'comment': ('comment--comment',),
                   'file': ('file--file',)}

# Config entities that relationships point at. They are served read-only with a few
# attributes only (name -> label); the recorded site has many more config types.
CONFIG = {
    'node_type': {'type': 'node_type--node_type', 'key': 'type',
                  'items': {'article': 'Article', 'page': 'Basic page'}},
    'taxonomy_vocabulary': {'type': 'taxonomy_vocabulary--taxonomy_vocabulary', 'key': 'vid',
                            'items': {'tags': 'Tags'}},
    'user_role': {'type': 'user_role--user_role', 'key': 'id',
                  'items': {'anonymous': 'Anonymous user', 'authenticated': 'Authenticated user',
                            'content_editor': 'Content editor', 'administrator': 'Administrator'}},
    'comment_type': {'type': 'comment_type--comment_type', 'key': 'id',
                     'items': {'comment': 'Default comments'}},
}

# Properties of multi-property field kinds (filter paths like body.value), main first.
PROPERTIES = {'text': ('value', 'format', 'processed'), 'text_summary': ('value', 'format', 'processed', 'summary'),
              'path': ('alias', 'pid', 'langcode'), 'uri': ('value', 'url'),
              'comment': ('status', 'cid', 'last_comment_timestamp', 'last_comment_name',
                          'last_comment_uid', 'comment_count'),
              'pass': ('value', 'existing')}
IMAGE_META = ('alt', 'title', 'width', 'height')


class Field:
    def __init__(self, internal, public, kind, multi):
        self.internal = internal
        self.public = public
        self.kind = kind
        self.multi = multi
        self.relationship = kind.startswith(('ref:', 'cfg:')) or kind == 'image'
        self.config = kind[4:] if kind.startswith('cfg:') else None
        if kind == 'image':
            self.target_entity_type = 'file'
        elif kind.startswith('ref:'):
            self.target_entity_type = kind[4:]
        else:
            self.target_entity_type = None
        if self.config:
            self.targets = (CONFIG[self.config]['type'],)
        elif self.target_entity_type:
            self.targets = CONTENT_TARGETS[self.target_entity_type]
        else:
            self.targets = ()


class ResourceType:
    def __init__(self, entity_type, bundle):
        self.entity_type = entity_type
        self.bundle = bundle
        self.name = '%s--%s' % (entity_type, bundle)
        self.path = '/jsonapi/%s/%s' % (entity_type, bundle)
        self.id_key, self.revision_key = KEYS[entity_type]
        self.versionable = self.revision_key is not None
        self.config = False
        self.fields = []
        if entity_type == 'user':
            self.fields.append(Field('display_name', 'display_name', 'display_name', False))
        for internal, kind in schema.fields_for(entity_type, bundle):
            if internal in ('uuid', 'pass'):
                continue
            public = internal
            if internal in (self.id_key, self.revision_key):
                public = 'drupal_internal__' + internal
            elif internal in ('id', 'type'):
                public = '%s_%s' % (entity_type, internal)
            self.fields.append(Field(internal, public, kind, internal in MULTI))
        self.by_public = {f.public: f for f in self.fields}
        self.by_internal = {f.internal: f for f in self.fields}
        self.writable_fields = dict(self.by_public)
        if entity_type == 'user':
            self.writable_fields['pass'] = Field('pass', 'pass', 'pass', False)
        self.relationship_names = [f.public for f in self.fields if f.relationship]


class ConfigType:
    """A config entity resource type (read-only here)."""

    def __init__(self, kind):
        spec = CONFIG[kind]
        self.entity_type, self.bundle = spec['type'].split('--')
        self.kind = kind
        self.name = spec['type']
        self.path = '/jsonapi/%s/%s' % (self.entity_type, self.bundle)
        self.key = spec['key']
        self.items = spec['items']
        self.config = True
        self.versionable = False
        self.fields = []
        self.by_public = {}
        self.relationship_names = []


def _build():
    types = {}
    for (entity_type, bundle) in schema.FIELDS:
        rt = ResourceType(entity_type, bundle)
        types[rt.name] = rt
    for kind in CONFIG:
        ct = ConfigType(kind)
        types[ct.name] = ct
    return types


TYPES = _build()
BY_PATH = {rt.path: rt for rt in TYPES.values()}
# Listed by the entry point but not modelled: their collections are empty.
UNMODELLED = {name for name in ENTRY_POINT_TYPES if name not in TYPES}


def of_entity(entity_type, entity):
    """The resource type of a stored entity."""
    return TYPES['%s--%s' % (entity_type, schema.bundle_of(entity_type, entity))]
