"""decoupled_router 2.0.6 on the extended site:
GET /router/translate-path?path=...&_format=json (recordings 84, 84b, 84c).

Resolves entity paths (/node/N, /taxonomy/term/N, /user/N, /comment/N, with
an optional /fr prefix). As recorded, a prefixed path resolves to the
entity's default-language URL and label (84b). Path aliases (paths.py) are
not resolved: none is recorded, and the fake's routing ignores them too.
"""
import re
from urllib.parse import urlsplit

from . import access, languages, schema
from .denormalize import HttpError

PATTERNS = [(re.compile(r'/node/(\d+)'), 'node'), (re.compile(r'/taxonomy/term/(\d+)'), 'taxonomy_term'),
            (re.compile(r'/user/(\d+)'), 'user'), (re.compile(r'/comment/(\d+)'), 'comment')]
DEPRECATED = {'jsonapi.pathPrefix': 'This property has been deprecated and will be removed in the next '
                                    'version of Decoupled Router. Use basePath instead.'}


def _unresolved(path):
    return {'message': 'Unable to resolve path %s.' % path,
            'details': 'None of the available methods were able to find a match for this path.'}


def translate_path(ctx):
    raw = ctx.req.query.get('path')
    if not raw:
        raise HttpError(404, 'Unable to translate empty path. Please send a ?path query string parameter '
                             'with your request.')
    path = urlsplit(raw).path or '/'
    _, inner = languages.split_prefix(path.rstrip('/') or '/')
    found = None
    for pattern, entity_type in PATTERNS:
        m = pattern.fullmatch(inner)
        if m:
            entity = ctx.store.get(entity_type, int(m.group(1)))
            if entity is not None:
                found = (entity_type, int(m.group(1)), entity)
            break
    if found is None:
        return _cacheable(ctx.json(404, _unresolved(raw)))
    entity_type, entity_id, entity = found
    if access.view(entity_type, entity, ctx.account) is not None:
        return _cacheable(ctx.json(403, {
            'message': 'Access denied for entity.',
            'details': 'This user does not have access to view the resolved entity. '
                       'Please authenticate and try again.'}))
    bundle = schema.bundle_of(entity_type, entity)
    uuid = entity['uuid'][0]['value']
    canonical = ctx.base + schema.TYPES[entity_type]['canonical'].replace('{id}', str(entity_id))
    label_field = {'node': 'title', 'taxonomy_term': 'name', 'user': 'name', 'comment': 'subject'}[entity_type]
    label = entity[label_field][0]['value'] if entity.get(label_field) else ''
    return _cacheable(ctx.json(200, {
        'resolved': canonical, 'isExternal': False, 'isHomePath': False,
        'entity': {'canonical': canonical, 'type': entity_type, 'bundle': bundle, 'id': str(entity_id),
                   'uuid': uuid},
        'label': label,
        'jsonapi': {'individual': '%s/jsonapi/%s/%s/%s' % (ctx.base, entity_type, bundle, uuid),
                    'resourceName': '%s--%s' % (entity_type, bundle), 'pathPrefix': 'jsonapi',
                    'basePath': '/jsonapi', 'entryPoint': ctx.base + '/jsonapi'},
        'meta': {'deprecated': DEPRECATED},
    }))


def _cacheable(resp):
    resp.cacheability = 'cacheable'   # a CacheableJsonResponse, 404 included (84c: MISS)
    return resp
