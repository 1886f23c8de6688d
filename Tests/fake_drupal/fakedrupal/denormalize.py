"""Request body -> stored field items, plus entity validation (422 messages)."""
import datetime
import re

from . import cardinality, schema


class HttpError(Exception):
    """Raised by handlers; the pipeline renders it in the request format."""

    def __init__(self, status, message='', headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or []


def unprocessable(lines):
    return HttpError(422, 'Unprocessable Entity: validation failed.\n' + ''.join(l + '\n' for l in lines))


def extract_bundle(entity_type, data):
    key = schema.TYPES[entity_type]['bundle_key']
    if key is None:
        return entity_type
    if key not in data:
        raise HttpError(422, 'Could not determine entity type bundle: "%s" field is missing.' % key)
    raw = data[key]
    if isinstance(raw, list):
        raw = raw[0] if raw else None
    if isinstance(raw, dict):
        raw = raw.get('target_id', raw.get('value'))
    bundle = raw if isinstance(raw, str) else None
    if bundle not in schema.TYPES[entity_type]['bundles']:
        raise HttpError(422, '"%s" is not a valid bundle type for denormalization.' % raw)
    return bundle


def _timestamp(value):
    if isinstance(value, bool):
        value = None
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, str):
        if re.fullmatch(r'-?\d+', value):
            return int(value)
        try:
            return int(datetime.datetime.fromisoformat(value.replace('Z', '+00:00')).timestamp())
        except ValueError:
            pass
    raise HttpError(422, 'The specified date "%s" is not in an accepted format: "Y-m-d\\TH:i:sP" '
                         '(RFC 3339), "Y-m-d\\TH:i:sO" (ISO 8601), "U" (UNIX timestamp).' % value)


def _int_or_none(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return v


def _bool(v):
    if isinstance(v, str):
        return v not in ('', '0', 'false')
    return bool(v)


def clean_item(store, kind, item, name):
    """Reduce a submitted item to the properties the store keeps."""
    if kind == 'ts':
        return {'value': _timestamp(item.get('value'))}
    if kind.startswith('cfg:'):
        return {'target_id': item.get('target_id')}
    if kind.startswith('ref:') or kind == 'image':
        target_type = 'file' if kind == 'image' else kind[4:]
        tid = item.get('target_id')
        if tid is None and item.get('target_uuid'):
            tid = _find_uuid(store, target_type, item['target_uuid'])
            if tid is None:
                raise HttpError(422, 'No "%s" entity found with UUID "%s" for field "%s".'
                                % (target_type, item['target_uuid'], name))
        out = {'target_id': _int_or_none(tid)}
        if kind == 'image':
            for k in ('alt', 'title'):
                if k in item:
                    out[k] = item[k]
        return out
    if kind in ('text', 'text_summary'):
        out = {'value': item.get('value'), 'format': item.get('format')}
        if kind == 'text_summary':
            out['summary'] = item.get('summary')
        return out
    if kind == 'bool':
        return {'value': _bool(item.get('value'))}
    if kind == 'int':
        return {'value': _int_or_none(item.get('value'))}
    if kind == 'path':
        # Kept as sent: the write's answer shows them so (paths.py).
        return {'alias': item.get('alias'), 'pid': _int_or_none(item.get('pid')), 'langcode': item.get('langcode')}
    if kind == 'comment':
        return {k: item.get(k) for k in ('status',) if k in item}
    if kind == 'pass':
        return {k: item[k] for k in ('value', 'existing') if k in item}
    return {'value': item.get('value')}


def _find_uuid(store, entity_type, uuid):
    for eid, e in store.entities[entity_type].items():
        if e['uuid'][0]['value'] == uuid:
            return eid
    return None


def denormalize(store, entity_type, data):
    """Returns (bundle, {field: [items]}); raises HttpError like Drupal's serializer."""
    if not isinstance(data, dict):
        raise HttpError(400, 'Syntax error')
    bundle = extract_bundle(entity_type, data)
    kinds = schema.kinds_for(entity_type, bundle)
    bundle_key = schema.TYPES[entity_type]['bundle_key']
    fields = {}
    for name, value in data.items():
        if name == bundle_key:
            continue
        if name not in kinds:
            # Drupal's entity API throws an uncaught InvalidArgumentException here.
            raise HttpError(500)
        if not isinstance(value, list):
            raise HttpError(422, 'Field values for "%s" must use an array structure' % name)
        kind = kinds[name]
        items = []
        for item in value:
            if not isinstance(item, dict):
                item = {schema.main_property(kind): item}
            items.append(clean_item(store, kind, item, name))
        fields[name] = items
    return bundle, fields


def same_items(submitted, stored):
    """True when every submitted property equals the stored one (PATCH no-op check)."""
    if len(submitted) != len(stored):
        return False
    for a, b in zip(submitted, stored):
        for k, v in a.items():
            if b.get(k) != v:
                return False
    return True


def validate(store, entity_type, bundle, entity, changed=None):
    """Lines of '<property path>: <message>' for the (changed) fields."""
    lines = []
    check = set(changed) if changed is not None else None

    def wants(name):
        return check is None or name in check

    # The fields' Count constraints come before their items' constraints.
    lines += cardinality.violations(entity_type, bundle, entity, wants)

    def required(name):
        items = entity.get(name) or []
        if wants(name) and (not items or items[0].get('value') in (None, '')):
            lines.append('%s: This value should not be null.' % name)
            return False
        return True

    def refs(name, target_type):
        if not wants(name):
            return
        for delta, item in enumerate(entity.get(name) or []):
            tid = item.get('target_id')
            if tid is not None and store.get(target_type, tid) is None:
                lines.append('%s.%d.target_id: The referenced entity (%s: %s) does not exist.'
                             % (name, delta, target_type, tid))

    if entity_type == 'node':
        if required('title') and wants('title'):
            if len(str(entity['title'][0]['value'])) > 255:
                lines.append('title.0.value: Title: may not be longer than 255 characters.')
        refs('uid', 'user')
        if bundle == 'article':
            refs('field_tags', 'taxonomy_term')
            refs('field_image', 'file')
    elif entity_type == 'comment':
        if wants('entity_id') and not entity.get('entity_id'):
            lines.append('entity_id: This value should not be null.')
        refs('entity_id', 'node')
        refs('pid', 'comment')
    elif entity_type == 'taxonomy_term':
        required('name')
        if wants('parent'):
            for delta, item in enumerate(entity.get('parent') or []):
                if item.get('target_id') and store.get('taxonomy_term', item['target_id']) is None:
                    lines.append('parent.%d.target_id: The referenced entity (taxonomy_term: %s) '
                                 'does not exist.' % (delta, item['target_id']))
    elif entity_type == 'user':
        uid = entity.get('uid', [{}])[0].get('value') if entity.get('uid') else None
        name = (entity.get('name') or [{}])[0].get('value')
        mail = (entity.get('mail') or [{}])[0].get('value')
        if wants('name'):
            if not name:
                lines.append('name: You must enter a username.')
            else:
                other = store.user_by_name(name)
                if other is not None and other != uid:
                    lines.append('name: The username %s is already taken.' % name)
        if wants('mail'):
            if not mail:
                lines.append('mail: Email field is required.')
            elif not re.fullmatch(r'[^@\s]+@[^@\s]+', mail):
                lines.append('mail.0.value: This value is not a valid email address.')
            else:
                other = store.user_by_mail(mail)
                if other is not None and other != uid:
                    lines.append('mail: The email address %s is already taken.' % mail)
    return lines
