"""JSON:API request documents -> stored field items, and the 422 documents.

data.attributes hold JSON:API values (bare values, objects for multi-property
fields); data.relationships hold resource identifiers. In a full resource
document the identifier type is not checked against the field: Drupal takes
the UUID of whatever type was named and uses that entity's id (126). The
relationship endpoints do check it (157).
"""
import json
import re

from . import jsonapi_access as japi_access
from . import jsonapi_language as jlang
from . import schema
from . import jsonapi_state as jstate
from .denormalize import HttpError, _int_or_none, validate
from .denormalize import _timestamp  # RFC 3339 / ISO 8601 / Unix seconds, as core REST takes them
from .jsonapi_errors import JsonApiError, Violations
from .jsonapi_normalize import config_by_uuid
from .jsonapi_types import TYPES
from .normalize import image_size
from .schema import fields_for

UUID = re.compile(r'[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}')


def body(ctx):
    """The decoded request document (an object, or {} for any other JSON value)."""
    raw = ctx.req.body
    if not raw or not raw.strip():
        if ctx.req.method == 'DELETE' and ctx.route.field:
            raise JsonApiError(400, 'You need to provide a body for DELETE operations on a relationship (%s).'
                               % ctx.route.field)
        raise JsonApiError(400, 'Empty request body.')
    try:
        doc = json.loads(raw.decode('utf-8'))
    except (ValueError, UnicodeDecodeError):
        raise JsonApiError(400, 'Syntax error')
    return doc if isinstance(doc, dict) else {}


def resource_data(ctx):
    """data of a create or update document, checked as JsonApiDocumentTopLevelNormalizer's
    validateRequestBody does: relationships at the top level, then data.type."""
    doc = body(ctx)
    if doc.get('relationships'):
        raise JsonApiError(400, 'Found "relationships" within the document\'s top level. The "relationships" key '
                                'must be within resource object.')
    data = doc.get('data')
    if not isinstance(data, dict) or 'type' not in data:
        raise JsonApiError(400, 'Resource object must include a "type".')
    if 'relationships' in data and not isinstance(data['relationships'], dict):
        raise JsonApiError(400, 'The "relationships" member must be an object.')
    return data


def attribute_items(field, value):
    """Items of an attribute as JSON:API's FieldNormalizer reads them: a list is items whatever the
    field's cardinality (a Count violation later for a single-value field), anything else one item."""
    if value is None:
        return []
    values = value if isinstance(value, list) else [value]
    return [_item(field.kind, v) for v in values]


def _item(kind, v):
    if kind in ('text', 'text_summary'):
        v = v if isinstance(v, dict) else {'value': v}
        item = {'value': v.get('value'), 'format': v.get('format')}
        if kind == 'text_summary':
            item['summary'] = v.get('summary')
        return item
    if kind == 'path':
        v = v if isinstance(v, dict) else {'alias': v}
        return {'alias': v.get('alias'), 'pid': _int_or_none(v.get('pid')), 'langcode': v.get('langcode')}
    if kind == 'comment':
        return {'status': v.get('status') if isinstance(v, dict) else v}
    if kind == 'pass':
        return {k: v[k] for k in ('value', 'existing') if k in v} if isinstance(v, dict) else {'value': v}
    if kind == 'uri':
        return {'value': v.get('value') if isinstance(v, dict) else v}
    if kind == 'ts':
        return {'value': _timestamp(v)}
    if kind == 'bool':
        return {'value': bool(v) if not isinstance(v, str) else v not in ('', '0', 'false')}
    return {'value': v}


def resolve_identifier(ctx, field, ident):
    """The stored item for one resource identifier (its type and id checked by the caller)."""
    type_name, uuid = ident['type'], ident['id']
    rtype = TYPES.get(type_name)
    if rtype is None:
        raise JsonApiError(400, "Invalid type specified for related resource: '%s'" % type_name)
    not_found = JsonApiError(404, 'The resource identified by `%s:%s` (given as a relationship item) could '
                                  'not be found.' % (type_name, uuid))
    if rtype.config:
        ctype, name = config_by_uuid(uuid)
        if ctype is not rtype:
            raise not_found
        return {'target_id': name}
    target_id, target = jstate.find(ctx.store, rtype.entity_type, uuid)
    if target is None:
        raise not_found
    item = {'target_id': target_id}
    if field.kind == 'image':
        meta = ident.get('meta') if isinstance(ident.get('meta'), dict) else {}
        item.update({'alt': meta.get('alt'), 'title': meta.get('title')})
        if rtype.entity_type == 'file':
            item['width'], item['height'] = image_size(ctx.store.file_data.get(target['uri'][0]['value'],
                                                                                (None, b''))[1])
    return item


def document_relationship_items(ctx, field, relationship):
    """The items of a relationship in a create or update document, as
    JsonApiDocumentTopLevelNormalizer::denormalize reads them: a single identifier becomes a list
    of one whatever the field's cardinality; no data (or none at all) clears the field; the
    first identifier's id and type are checked; "virtual" (a term's root parent, 172) is skipped."""
    data = relationship.get('data') if isinstance(relationship, dict) else None
    if isinstance(data, dict) and data.get('type') and data.get('id'):
        data = [data]
    if not data:
        return []
    first = data[0] if isinstance(data, list) and isinstance(data[0], dict) else {}
    if not first.get('id'):
        raise JsonApiError(400, 'No ID specified for related resource')
    if not first.get('type'):
        raise JsonApiError(400, 'No type specified for related resource')
    if first['type'] not in TYPES:
        raise JsonApiError(400, "Invalid type specified for related resource: '%s'" % first['type'])
    # array_column keeps the items with an id; "virtual" names no entity and is skipped. More than
    # one for a to-one is stored, and validation finds the field's Count violation (cardinality.py).
    idents = [i for i in data if isinstance(i, dict) and i.get('id') and i['id'] != 'virtual']
    return [resolve_identifier(ctx, field, dict(i, type=i.get('type') or first['type'])) for i in idents]


def route_identifiers(field, doc):
    """The identifiers a relationship route's body names, as ResourceIdentifierNormalizer reads it
    (massageRelationshipInput): a list of identifiers for a to-many, one identifier or null for a
    to-one; any other shape is 'Invalid body payload for the relationship.' Each must be of a
    type the field takes (157). The entities are looked up later (resolve_identifiers)."""
    data = doc.get('data')
    invalid = JsonApiError(400, 'Invalid body payload for the relationship.')
    if field.multi:
        if not isinstance(data, list) or not all(isinstance(i, dict) and i.get('type') and i.get('id') for i in data):
            raise invalid
        idents = data
    elif data is None:
        return []
    elif isinstance(data, dict) and data.get('type') and data.get('id'):
        idents = [data]
    else:
        raise invalid
    for ident in idents:
        if ident['type'] not in field.targets:
            raise JsonApiError(400, 'The provided type (%s) does not match the destination resource types (%s).'
                               % (ident['type'], ', '.join(field.targets)))
    return idents


def resolve_identifiers(ctx, field, idents):
    return [resolve_identifier(ctx, field, i) for i in idents]


def fields_from(ctx, rtype, data):
    """{internal name: (items, 'attributes'|'relationships', public name)} from a resource object."""
    out = {}
    attributes = data.get('attributes') or {}
    if not isinstance(attributes, dict):
        raise JsonApiError(400, 'The "attributes" member must be an object.')
    as_attributes = [n for n in attributes if n in rtype.relationship_names]
    if as_attributes:
        raise JsonApiError(422, 'The following relationship fields were provided as attributes: [ %s ]'
                           % ', '.join(as_attributes), info=False)
    for name, value in attributes.items():
        field = rtype.writable_fields.get(name)
        if field is None or field.kind == 'display_name':
            raise JsonApiError(422, 'The attribute %s does not exist on the %s resource type.' % (name, rtype.name),
                               info=False)
        try:
            out[field.internal] = (attribute_items(field, value), 'attributes', name)
        except HttpError as e:
            raise JsonApiError(e.status, e.message, pointer='/data/attributes/' + name, info=False)
    for name, rel in (data.get('relationships') or {}).items():
        field = rtype.by_public.get(name)
        if field is None or not field.relationship:
            raise JsonApiError(422, 'The relationship %s does not exist on the %s resource type.'
                               % (name, rtype.name), info=False)
        out[field.internal] = (document_relationship_items(ctx, field, rel), 'relationships', name)
    return out


def check_field_access(ctx, rtype, fields, verb, entity=None):
    bundle_key = schema.TYPES[rtype.entity_type]['bundle_key']
    for internal, (items, where, public) in fields.items():
        if entity is not None and _same(items, entity.get(internal, [])):
            continue           # unchanged values pass, even for read-only fields
        if internal == bundle_key:
            if [i.get('target_id') for i in items] == [rtype.bundle]:
                continue       # naming the URL's own bundle (node_type) is harmless
            reason = ' The entity bundle cannot be changed.'
        else:
            reason = japi_access.field_edit(rtype.entity_type, internal, ctx.account)
        if reason is not None:
            raise JsonApiError(403, 'The current user is not allowed to %s the selected field (%s).%s'
                               % (verb, public, reason), pointer='/data/%s/%s' % (where, public))


def _same(submitted, stored):
    if len(submitted) != len(stored):
        return False
    return all(all(b.get(k) == v for k, v in a.items()) for a, b in zip(submitted, stored))


def violations(ctx, rtype, entity, changed):
    """422 Violations for the changed fields, in field order, pointers into /data/attributes (125, 126)."""
    lines = []
    if changed is None or 'langcode' in changed:
        for delta, item in enumerate(entity.get('langcode') or []):
            if item.get('value') not in jlang.langcodes(ctx.store):
                lines.append('langcode.%d: The value you selected is not a valid choice.' % delta)
    lines += validate(ctx.store, rtype.entity_type, rtype.bundle, entity, changed=changed)
    if not lines:
        return None
    order = {name: i for i, (name, _) in enumerate(fields_for(rtype.entity_type, rtype.bundle))}
    lines.sort(key=lambda l: order.get(re.split(r'[.:]', l, 1)[0], len(order)))
    items = []
    for line in lines:
        path = line.split(':', 1)[0]
        head, *rest = path.split('.')
        field = rtype.by_internal.get(head)
        public = field.public if field else head
        items.append((line, '/data/attributes/' + '/'.join([public] + rest)))
    return Violations(items)
