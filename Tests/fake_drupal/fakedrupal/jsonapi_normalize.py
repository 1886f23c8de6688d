"""Stored entities -> JSON:API resource objects and resource identifiers.

Differences from core REST output (normalize.py): one value per
single-cardinality field (null when empty), a bare value for one-property
items, references as relationships with identifiers carrying
meta.drupal_internal__target_id (image references also alt/title/width/height,
162), and fields the viewer may not see left out (hidden_fields, 183c, 172).
"""
from . import jsonapi_access as japi_access
from . import jsonapi_state as jstate
from .jsonapi_types import CONFIG, IMAGE_META, TYPES, of_entity
from .normalize import file_url, hidden_fields, rfc3339
from .store import config_uuid

HELP = 'https://www.drupal.org/docs/8/modules/json-api/core-concepts#%s'


def _virtual_or_missing(type_name, which):
    return {'type': type_name, 'id': which,
            'meta': {'links': {'help': {'href': HELP % which,
                                        'meta': {'about': "Usage and meaning of the '%s' resource identifier." % which}}}}}


def version_query(rtype, entity):
    """'?resourceVersion=id%3A<vid>' for revisionable types, else ''."""
    if not rtype.versionable:
        return ''
    return '?resourceVersion=id%%3A%s' % entity[rtype.revision_key][0]['value']


def resource_url(ctx, rtype, entity):
    return '%s%s/%s' % (ctx.base, rtype.path, jstate.uuid_of(entity))


def config_resource_url(ctx, ctype, name):
    return '%s%s/%s' % (ctx.base, ctype.path, config_uuid(ctype.kind, name))


def attribute_value(field, items, entity):
    kind = field.kind
    if kind == 'display_name':
        name = (entity.get('name') or [{}])[0].get('value')
        return name if entity['uid'][0]['value'] != 0 else 'Anonymous'
    values = [v for v in (_item_value(kind, i) for i in items or []) if v is not None]
    if field.multi:
        return values
    return values[0] if values else None


def _item_value(kind, item):
    if kind == 'ts':
        return rfc3339(item['value']) if item.get('value') is not None else None
    if kind in ('text', 'text_summary'):
        value = item.get('value')
        if value is None:
            return None       # an item without its main value is empty: "description": null (104)
        out = {'value': value, 'format': item.get('format'), 'processed': value}
        if kind == 'text_summary':
            out['summary'] = item.get('summary')
        return out
    if kind == 'path':
        return {'alias': item.get('alias'), 'pid': item.get('pid'), 'langcode': item.get('langcode', 'en')}
    if kind == 'comment':
        return dict(item)
    if kind == 'uri':
        return {'value': item['value'], 'url': file_url(item['value'])}
    if kind == 'bool':
        return bool(item.get('value')) if item.get('value') is not None else None
    return item.get('value')


def identifier(ctx, field, item):
    """The resource identifier of one reference item, or None (no reference)."""
    target_id = item.get('target_id')
    if field.config:
        if target_id is None:
            return None
        return {'type': field.targets[0], 'id': config_uuid(field.config, target_id),
                'meta': {'drupal_internal__target_id': target_id}}
    if field.internal == 'parent' and not target_id:
        return _virtual_or_missing('taxonomy_term--tags', 'virtual')   # a root term (104, 172)
    if target_id is None:
        return None
    target = jstate.get(ctx.store, field.target_entity_type, target_id)
    if target is None:
        return _virtual_or_missing(field.targets[0], 'missing')
    out = {'type': of_entity(field.target_entity_type, target).name, 'id': jstate.uuid_of(target)}
    meta = {}
    if field.kind == 'image':
        meta = {k: item.get(k) for k in IMAGE_META}
    meta['drupal_internal__target_id'] = target_id
    out['meta'] = meta
    return out


def relationship_data(ctx, field, items):
    idents = [i for i in (identifier(ctx, field, item) for item in items or []) if i is not None]
    if field.multi:
        return idents
    return idents[0] if idents else None


def relationship_links(ctx, rtype, entity, field):
    url = resource_url(ctx, rtype, entity)
    version = version_query(rtype, entity)
    return {'related': {'href': '%s/%s%s' % (url, field.public, version)},
            'self': {'href': '%s/relationships/%s%s' % (url, field.public, version)}}


def resource_object(ctx, rtype, entity, level='full', old_revision=False):
    """level: 'full' or 'label' (japi_access.view)."""
    url = resource_url(ctx, rtype, entity)
    links = {'self': {'href': url + version_query(rtype, entity)}}
    if old_revision:  # only an older revision points at the current one (143)
        links = {'latest-version': {'href': url + '?resourceVersion=rel%3Alatest-version'},
                 'self': links['self'],
                 'working-copy': {'href': url + '?resourceVersion=rel%3Aworking-copy'}}
    out = {'type': rtype.name, 'id': jstate.uuid_of(entity), 'links': links}
    wanted = ctx.sparse.get(rtype.name)
    attributes, relationships = {}, {}
    if level == 'label':
        fields = [rtype.by_public['display_name']] if 'display_name' in rtype.by_public else []
        hidden = set()
    else:
        fields = rtype.fields
        hidden = hidden_fields(rtype.entity_type, entity, ctx.account)
    for field in fields:
        if field.internal in hidden or (wanted is not None and field.public not in wanted):
            continue
        if field.relationship:
            relationships[field.public] = {'data': relationship_data(ctx, field, entity.get(field.internal)),
                                           'links': relationship_links(ctx, rtype, entity, field)}
        elif field.kind == 'display_name' or field.internal in entity:
            attributes[field.public] = attribute_value(field, entity.get(field.internal), entity)
    if attributes:
        out['attributes'] = attributes
    if relationships:
        out['relationships'] = relationships
    return out


def config_object(ctx, ctype, name):
    """A config entity resource: only the basic attributes are modelled."""
    out = {'type': ctype.name, 'id': config_uuid(ctype.kind, name),
           'links': {'self': {'href': config_resource_url(ctx, ctype, name)}},
           'attributes': {'langcode': 'en', 'status': True, 'dependencies': [],
                          'drupal_internal__' + ctype.key: name, 'label': ctype.items[name]}}
    wanted = ctx.sparse.get(ctype.name)
    if wanted is not None:
        out['attributes'] = {k: v for k, v in out['attributes'].items() if k in wanted}
        if not out['attributes']:
            del out['attributes']
    return out


def config_by_uuid(uuid):
    """(config type, name) for a config entity UUID, else (None, None)."""
    for kind, spec in CONFIG.items():
        for name in spec['items']:
            if config_uuid(kind, name) == uuid:
                return TYPES[spec['type']], name
    return None, None


def view_level(ctx, entity_type, entity):
    return japi_access.view(entity_type, entity, ctx.account)
