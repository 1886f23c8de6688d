"""JSON:API (core jsonapi module) under /jsonapi: its own routes and pipeline.

The app hands over every /jsonapi path that no core route owns. Order, as
recorded: route match (no route: the site's HTML 404, 158) -> 405 with Allow
(158b; read-only mode first) -> 415 (44b, 129, 163) -> _format (406 core-style
for other formats, 130c; 400 for api_json, 130d) -> query parameter names ->
resourceVersion on writes (146) -> entity by UUID (404, 141) -> CSRF (44e)
-> access (401 for anonymous callers, 44c) -> controller. Every error after
route matching is a JSON:API error document. Accept is ignored (130, 130b).
"""
import re
import traceback

from . import jsonapi_files, jsonapi_read, jsonapi_write, responses
from . import jsonapi_language as jlang
from . import jsonapi_state as jstate
from .auth import authenticate
from .denormalize import HttpError
from .jsonapi_errors import JsonApiError, Violations, error_response
from .jsonapi_normalize import config_by_uuid
from .jsonapi_query import build, parse, self_query, with_query
from .jsonapi_types import BY_PATH, UNMODELLED
from .responses import Response
from .schema import bundle_of

API = 'application/vnd.api+json'
OCTET = 'application/octet-stream'
SPEC_PARAMS = ('filter', 'sort', 'page', 'fields', 'include')
WRITES = ('POST', 'PATCH', 'DELETE')
DELETE_COOKIE = '%s=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly'
READ_ONLY = ('JSON:API is configured to accept only read operations. Site administrators can configure '
             'this at %s/admin/config/services/jsonapi.')


class Route:
    """What a /jsonapi path matched: kind, resource type, path pieces and
    {method: (controller, required Content-Type or None)}."""

    def __init__(self, kind, rtype, methods, uuid=None, field=None, template=None, names=None):
        self.kind, self.rtype, self.methods = kind, rtype, methods
        self.uuid, self.field = uuid, field          # field: the last path piece (relationship / file field)
        self.template = template                      # e.g. /jsonapi/node/article/{entity}
        self.names = names or {}                      # method -> Drupal route name (404 details)


def match(path):
    if path == '/jsonapi':
        return Route('entry', None, {'GET': (jsonapi_read.entry_point, None)})
    parts = path.split('/')              # ['', 'jsonapi', type, bundle, ...]
    if len(parts) < 4:
        return None
    base = '/'.join(parts[:4])
    rest = parts[4:]
    rtype = BY_PATH.get(base)
    if rtype is None:
        name = '%s--%s' % (parts[2], parts[3])
        if name in UNMODELLED and not rest:
            return Route('collection', None, {'GET': (jsonapi_read.unmodelled_collection, None)})
        return None
    prefix = 'jsonapi.%s.' % rtype.name
    if rtype.config:
        if not rest:
            return Route('collection', rtype, {'GET': (jsonapi_read.config_collection, None)})
        if len(rest) == 1:
            return Route('individual', rtype, {'GET': (jsonapi_read.config_individual, None)}, uuid=rest[0],
                         template=base + '/{entity}', names={'GET': prefix + 'individual'})
        return None
    if not rest:
        return Route('collection', rtype, {'GET': (jsonapi_read.collection, None),
                                           'POST': (jsonapi_write.create, API)})
    if len(rest) == 1:
        return Route('individual', rtype, {
            'GET': (jsonapi_read.individual, None), 'PATCH': (jsonapi_write.update, API),
            'DELETE': (jsonapi_write.delete, None), 'POST': (jsonapi_files.upload_new, OCTET)},
            uuid=rest[0], field=rest[0], template=base + '/{entity}',
            names={'GET': prefix + 'individual', 'PATCH': prefix + 'individual.update',
                   'DELETE': prefix + 'individual.delete'})
    uuid = rest[0]
    if len(rest) == 2:
        upload = (jsonapi_files.upload_to_entity, OCTET)
        if rest[1] in rtype.relationship_names:
            return Route('related', rtype, {'GET': (jsonapi_read.related, None), 'POST': upload},
                         uuid=uuid, field=rest[1], template='%s/{entity}/%s' % (base, rest[1]),
                         names={'GET': prefix + rest[1] + '.related',
                                'POST': prefix + rest[1] + '.file_upload'})
        return Route('upload', rtype, {'POST': upload}, uuid=uuid, field=rest[1],
                     template=base + '/{entity}/{file_field_name}', names={'POST': prefix + 'file_upload'})
    if len(rest) == 3 and rest[1] == 'relationships' and rest[2] in rtype.relationship_names:
        rel = rest[2]
        return Route('relationship', rtype, {
            'GET': (jsonapi_read.relationship, None), 'POST': (jsonapi_write.relationship_add, API),
            'PATCH': (jsonapi_write.relationship_replace, API), 'DELETE': (jsonapi_write.relationship_remove, None)},
            uuid=uuid, field=rel, template='%s/{entity}/relationships/%s' % (base, rel),
            names={m: prefix + rel + '.relationship.' + m.lower() for m in ('GET', 'POST', 'PATCH', 'DELETE')})
    return None


class Context:
    def __init__(self, app, req, route, method):
        self.app, self.req, self.route, self.method = app, req, route, method
        self.store, self.config = app.store, app.config
        # Under a language prefix (/fr) every link keeps it: it goes into the base.
        lang_prefix = jlang.prefix(req)
        self.langcode = getattr(req, 'langcode', None) if lang_prefix else None
        self.base = req.base_url + lang_prefix
        self.rtype = route.rtype
        self.query = parse(req.query_string)
        self.raw_path = req.target.split('?', 1)[0][len(lang_prefix):]
        self.url = with_query(self.base + self.raw_path, self_query(self.query))   # links.self / links.via
        self.auth = None
        self.account = None
        self.entity_id = self.entity = None
        self.sparse = {}

    def authenticate(self):
        auth = getattr(self.req, 'auth', None)      # the core pipeline may have done it already
        self.auth = auth or authenticate(self.req, self.store, self.app.basic_flood_ok)
        self.account = self.auth.account

    def deny(self, reason, pointer=None):
        """An access refusal (the route's or the entity's: both are an AccessDeniedHttpException):
        401 with a Basic challenge when no credentials came, as basic_auth on every JSON:API route
        answers them (44c; 24f for core REST's entity-level refusal)."""
        if self.auth.provider is None:
            realm = self.config.site_name or 'Access restricted'
            raise JsonApiError(401, 'No authentication credentials provided.',
                               headers=[('WWW-Authenticate', 'Basic realm="%s"' % realm)])
        raise JsonApiError(403, reason or '', pointer=pointer)


def owns(path):
    return path == '/jsonapi' or path.startswith('/jsonapi/')


def handle(app, req):
    """The JSON:API answer for req, or None when no JSON:API route matches."""
    path = req.path.rstrip('/') or '/'
    if not owns(path):
        return None
    route = match(path)
    if route is None:
        return None
    method = 'GET' if req.method == 'HEAD' else req.method
    ctx = Context(app, req, route, method)
    try:
        resp = _run(ctx)
    except (JsonApiError, Violations) as e:
        resp = error_response(ctx.config, ctx.url, e)
    except HttpError as e:  # from helpers shared with core REST (uploads, dates)
        resp = error_response(ctx.config, ctx.url, JsonApiError(e.status, e.message, headers=e.headers,
                                                                  info=e.status != 422))
    except Exception:
        traceback.print_exc()
        resp = error_response(ctx.config, ctx.url, JsonApiError(500, responses.GENERIC_5XX))
    if ctx.auth is not None and ctx.auth.stale_cookie and not resp.header('Set-Cookie'):
        resp.add_header('Set-Cookie', DELETE_COOKIE % ctx.auth.cookie_name)
    return resp


def _run(ctx):
    req, route, method = ctx.req, ctx.route, ctx.method
    methods = dict(route.methods)
    read_only = getattr(ctx.config, 'jsonapi_read_only', False)
    if read_only:
        methods = {m: v for m, v in methods.items() if m not in WRITES}
    allow = ', '.join(methods)
    if req.method == 'OPTIONS':
        return Response(200, b'', 'text/html; charset=UTF-8', [('Allow', allow)])
    if method not in methods:
        if read_only and method in route.methods:
            raise JsonApiError(405, READ_ONLY % ctx.base, headers=[('Allow', allow)])
        # As core's MethodFilter: a GET route also allows HEAD.
        allow = ', '.join(m for n in methods for m in ((n, 'HEAD') if n == 'GET' else (n,)))
        raise JsonApiError(405, 'No route found for "%s %s": Method Not Allowed (Allow: %s)'
                           % (req.method, ctx.base + ctx.raw_path, allow), headers=[('Allow', allow)])
    controller, content_type = methods[method]
    if content_type and method in ('POST', 'PATCH') and req.content_type != content_type:
        if not req.headers.get('content-type'):
            raise JsonApiError(415, 'No "Content-Type" request header specified')
        raise JsonApiError(415, 'No route found that matches "Content-Type: %s"' % req.headers['content-type'])
    failure = _check_query(ctx)
    if failure is not None:
        return failure
    ctx.authenticate()
    if route.uuid is not None and controller is not jsonapi_files.upload_new:
        _load_entity(ctx)
    if method in WRITES and ctx.account.authenticated and ctx.auth.has_cookie:
        token = req.headers.get('x-csrf-token')
        if token is None:
            raise JsonApiError(403, 'X-CSRF-Token request header is missing')
        if not ctx.auth.csrf_valid(token):
            raise JsonApiError(403, 'X-CSRF-Token request header is invalid')
    return controller(ctx)


def _check_query(ctx):
    fmt = ctx.req.query.get('_format')
    if fmt is not None and fmt != 'api_json':
        # The format route filter answers before JSON:API does, as core REST would (130c).
        alternate = dict(ctx.query)
        alternate['_format'] = 'api_json'
        link = '<%s?%s>; rel="alternate"; type="%s"' % (ctx.base + ctx.raw_path, build(alternate), API)
        return responses.error(406, 'No route found for the specified format %s. Supported formats: api_json.'
                               % fmt, fmt, ctx.config.site_name, [('Link', link)])
    if fmt is not None:
        here = ctx.base + ctx.raw_path
        raise JsonApiError(400, "JSON:API does not need that ugly '_format' query string! \U0001f918 "
                                "Use the URL provided in 'links' \U0001f64f", headers=[('Link', here)], info=here)
    # Custom parameter names must hold a character outside a-z; the others are reserved.
    wrong = [k for k in ctx.query if k not in SPEC_PARAMS and re.fullmatch(r'[a-z]+', str(k))]
    if wrong:
        info = 'http://jsonapi.org/format/#query-parameters'
        raise JsonApiError(400, "The following query parameters violate the JSON:API spec: '%s'."
                           % "', '".join(wrong), headers=[('Link', info)], info=info)
    if 'resourceVersion' in ctx.query and ctx.method in WRITES:
        raise JsonApiError(400, '%s requests with a `resourceVersion` query parameter are not supported.'
                           % ctx.method)
    fields = ctx.query.get('fields')
    if fields is not None:
        if not isinstance(fields, dict):
            raise JsonApiError(400, 'Unexpected value for parameter "fields": expecting "array", got "string".')
        ctx.sparse = {str(t): {f.strip() for f in str(v).split(',')} for t, v in fields.items()}
    return None


def _load_entity(ctx):
    route = ctx.route
    if route.rtype.config:
        ctype, name = config_by_uuid(route.uuid)
        if ctype is route.rtype:
            ctx.entity_id, ctx.entity = name, name
            return
    else:
        entity_id, entity = jstate.find(ctx.store, route.rtype.entity_type, route.uuid)
        if entity is not None and _bundle_ok(route.rtype, entity):
            ctx.entity_id, ctx.entity = entity_id, entity
            return
    raise JsonApiError(404, 'The "entity" parameter was not converted for the path "%s" (route name: "%s")'
                       % (route.template, route.names.get(ctx.method, '')))


def _bundle_ok(rtype, entity):
    return bundle_of(rtype.entity_type, entity) == rtype.bundle
