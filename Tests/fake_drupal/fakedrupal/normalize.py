"""Entity -> Drupal REST JSON ("json" format, not HAL), filtered by field view access."""
import datetime
import struct

from . import schema

TS_FORMAT = 'Y-m-d\\TH:i:sP'


def rfc3339(ts):
    return datetime.datetime.fromtimestamp(int(ts), datetime.timezone.utc).strftime(
        '%Y-%m-%dT%H:%M:%S+00:00')


def file_url(uri):
    # Private files are served by Drupal itself, at /system/files/ (with access checks).
    if uri.startswith('private://'):
        return '/system/files/' + uri[len('private://'):]
    return '/sites/default/files/' + uri[len('public://'):]


def image_size(data):
    """Width/height of a PNG or GIF, else (None, None)."""
    if data[:8] == b'\x89PNG\r\n\x1a\n' and len(data) >= 24:
        return struct.unpack('>II', data[16:24])
    if data[:6] in (b'GIF87a', b'GIF89a') and len(data) >= 10:
        return struct.unpack('<HH', data[6:10])
    return None, None


def hidden_fields(entity_type, entity, viewer):
    """Fields the viewer may not see; Drupal omits them from the output."""
    if entity_type == 'user':
        hidden = {'pass'}
        own = viewer.uid == entity['uid'][0]['value']
        if not viewer.is_admin:
            hidden |= {'status', 'access', 'login', 'init', 'roles'}
            if not own:
                hidden |= {'mail', 'timezone', 'preferred_langcode', 'preferred_admin_langcode'}
        return hidden
    if entity_type == 'node' and not viewer.has('view all revisions'):
        return {'revision_log'}
    if entity_type == 'comment' and not viewer.has('administer comments'):
        return {'mail'}
    if entity_type == 'taxonomy_term' and not viewer.is_admin:
        return {'revision_log_message'}
    return set()


class Normalizer:
    def __init__(self, store, base_url):
        self.store = store
        self.base_url = base_url

    def entity(self, entity_type, entity, viewer):
        bundle = schema.bundle_of(entity_type, entity)
        hidden = hidden_fields(entity_type, entity, viewer)
        out = {}
        for name, kind in schema.fields_for(entity_type, bundle):
            if name in hidden or name not in entity:
                continue
            out[name] = [self.item(kind, item, name) for item in entity[name]]
        return out

    def item(self, kind, item, name=None):
        if kind == 'ts':
            return {'value': rfc3339(item['value']), 'format': TS_FORMAT}
        if kind.startswith('cfg:'):
            return {'target_id': item['target_id'], 'target_type': kind[4:],
                    'target_uuid': self._config_uuid(kind[4:], item['target_id'])}
        if kind.startswith('ref:'):
            target_type = kind[4:]
            tid = item.get('target_id')
            if target_type == 'taxonomy_term' and name == 'parent' and not tid:
                return {'target_id': None}
            out = {'target_id': tid, 'target_type': target_type,
                   'target_uuid': self.store.uuid_of(target_type, tid)}
            out['url'] = schema.TYPES[target_type]['canonical'].replace('{id}', str(tid))
            return out
        if kind in ('text', 'text_summary'):
            value = item.get('value')
            out = {'value': value, 'format': item.get('format'),
                   'processed': value if value is not None else ''}
            if kind == 'text_summary':
                out['summary'] = item.get('summary')
            return out
        if kind == 'image':
            f = self.store.get('file', item.get('target_id'))
            out = {'target_id': item.get('target_id'), 'alt': item.get('alt'),
                   'title': item.get('title'), 'width': item.get('width'),
                   'height': item.get('height'), 'target_type': 'file',
                   'target_uuid': f['uuid'][0]['value'] if f else None,
                   'url': self.base_url + file_url(f['uri'][0]['value']) if f else None}
            return out
        if kind == 'uri':
            return {'value': item['value'], 'url': file_url(item['value'])}
        if kind in ('path', 'comment'):
            return dict(item)
        return {'value': item.get('value')}

    def _config_uuid(self, kind, name):
        from .store import config_uuid
        return config_uuid(kind, name)
