"""decoupled_router 2.0.6 on the extended site:
GET /router/translate-path?path=...&_format=json (recordings 84, 84b, 84c).

Resolves entity paths (/node/N, /taxonomy/term/N, /user/N, /comment/N, with
an optional /fr prefix). As recorded, a prefixed path resolves to the
entity's default-language URL and label (84b). A path alias (paths.py) resolves
as the router matches it (RouteProvider's inbound processing, in the prefix's
language), and the URLs given back use the entity's alias, as Drupal writes an
entity's URL (no recording saves an alias; decoupled_router's source decides).
"""
import re
from urllib.parse import quote, unquote, urlsplit

from . import access, languages, paths, schema
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
    path = '/' + unquote(urlsplit(raw).path).lstrip('/')     # the controller's sprintf('/%s', ltrim(...))
    langcode, inner = languages.split_prefix(path.rstrip('/') or '/')
    inner = paths.system_path(ctx.store, inner.rstrip('/') or '/', langcode or languages.DEFAULT)
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
    entity_langcode = languages.langcode_of(entity)
    # UrlGenerator: rawurlencode, then these characters put back.
    canonical = ctx.base + quote(paths.aliased(ctx.store, entity_type, entity_id, entity_langcode), safe="/@:;,=+!*|")
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
