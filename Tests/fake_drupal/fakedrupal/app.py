"""The Drupal request pipeline: route match, 405 -> 415 -> 406 filters,
parameter conversion (404), auth-provider filter, access/CSRF, controller.
"""
import re
import traceback
from urllib.parse import quote

from . import languages, outgoing, pagecache, paths, responses, versions
from .auth import authenticate, bearer_401, session_cookie_name
from .denormalize import HttpError
from .normalize import Normalizer
from .responses import Response

SAFE_METHODS = ('GET', 'HEAD', 'OPTIONS', 'TRACE')
DELETE_COOKIE = '%s=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly'
NOT_ALLOWED = 'The used authentication method is not allowed on this route.'


class Config:
    def __init__(self, site_name='RealDrupal', login_message='10', flood_limit=0, drupal='10',
                 site='base', oauth_access_ttl=300, oauth_refresh_ttl=1209600):
        self.site_name = site_name
        self.login_message = login_message
        self.flood_limit = flood_limit
        self.drupal = drupal          # '10' (10.3, as recorded) or '11' (11.2): see versions.py
        self.site = site              # 'base' or 'extended' (settings.use_site)
        self.oauth_access_ttl = oauth_access_ttl      # simple_oauth token lifetimes, seconds
        self.oauth_refresh_ttl = oauth_refresh_ttl
        self.oauth_code_ttl = None       # authorization codes: None = oauth_access_ttl (oauth_code.py)
        self.jsonapi_read_only = False   # JSON:API's read_only setting (the recorded site turned it off)
        self.jsonapi_max_page = 50       # JSON:API's page size cap (core's; contrib can change it)
        self._jsonapi_version = None     # None: the version's own (see jsonapi_version)

    # What differs between the two versions lives in versions.py.
    @property
    def jsonapi_version(self):
        """"1.0" (10.3) or "1.1" (11.2), unless set explicitly."""
        return self._jsonapi_version or versions.jsonapi_version(self)

    @jsonapi_version.setter
    def jsonapi_version(self, value):
        self._jsonapi_version = value

    @property
    def jsonapi_object(self):
        """The top-level "jsonapi" member of every JSON:API document."""
        return versions.jsonapi_object(self)

    def http_status_info(self, section):
        """links.info.href of a JSON:API error, e.g. section '10.4.5' for a 404."""
        return versions.http_status_info(self, section)

    @property
    def bad_credentials(self):
        if self.login_message == '11.4':
            return 'Unrecognized username or password.'
        return 'Sorry, unrecognized username or password.'


class Route:
    """One Drupal route. formats=None marks an HTML route without a _format
    requirement (always kept as a fallback by the format filter)."""

    def __init__(self, name, methods, handler, formats=None, content_types=None,
                 rest=False, csrf=False, entity=None, access=None, param_path=None, oauth2=None,
                 when=None):
        self.name = name
        self.methods = methods
        self.handler = handler
        self.formats = formats
        self.content_types = content_types
        self.rest = rest              # REST resource / view: basic_auth allowed too
        self.csrf = csrf              # _csrf_request_header_token
        self.entity = entity          # entity type loaded from the first path group
        self.access = access          # fn(ctx) -> None | reason
        self.param_path = param_path  # e.g. '/node/{node}' for the 404 message
        # Bearer (simple_oauth's global "oauth2" provider): allowed unless the route's _auth
        # leaves it out (the view and user_registration REST config do).
        self.oauth2 = True if oauth2 is None else oauth2
        self.when = when              # fn(store) -> bool: the module providing the route is installed


class Context:
    def __init__(self, app, req, auth, route, fmt, match):
        self.app = app
        self.req = req
        self.store = app.store
        self.config = app.config
        self.auth = auth
        self.account = auth.account
        self.route = route
        self.fmt = fmt
        self.match = match
        self.entity = None
        self.entity_id = None
        self.cache_hint = None    # cacheability of an access refusal (pagecache.py)
        self.langcode = getattr(req, 'langcode', None) or 'en'   # from the /fr prefix
        self.base = req.base_url
        self.normalizer = Normalizer(app.store, req.base_url)

    def error(self, status, message, headers=None):
        return responses.error(status, message, self.fmt, self.config.site_name, headers)

    def json(self, status, data, headers=None):
        return responses.json_response(status, data, headers)

    def html(self, status, title, text, headers=None):
        resp = responses.html_page(status, title, text, self.config.site_name, headers)
        resp.cacheability = 'cacheable'
        return resp

    def cookie_name(self):
        return self.auth.cookie_name or session_cookie_name(self.req.host)


class App:
    def __init__(self, store, config):
        self.store = store
        self.config = config
        self.defaults = dict(vars(config))   # for POST /__fake/config {"defaults": true}
        if config.site != store.site:
            from .settings import use_site
            use_site(self, config.site)
        from .routes import build_routes
        self.routes = [(re.compile(p), rs) for p, rs in build_routes()]

    def handle(self, req):
        try:
            with self.store.lock:
                return outgoing.finish(self, req, self._handle(req))
        except Exception:
            traceback.print_exc()
            return responses.server_error(req.query.get('_format') or 'html')

    def _handle(self, req):
        from .routes import static_file
        path = req.path.rstrip('/') or '/'
        fmt_param = req.query.get('_format') or None
        err_fmt = fmt_param or 'html'
        site = self.config.site_name
        if path.startswith('/sites/default/files/') and req.method in ('GET', 'HEAD'):
            return static_file(self.store, path, site)
        if self.store.site == 'extended':
            # language's path prefix negotiation: /fr/node/1 is /node/1 in French. From here
            # on req.path is the unprefixed path (req.target keeps the prefix, for links).
            lang, unprefixed = languages.split_prefix(req.path)
            if lang:
                req.langcode, req.prefixed_path, req.path = lang, req.path, unprefixed
                path = unprefixed.rstrip('/') or '/'
        # The path module: an alias routes as its system path (paths.py); messages keep the URL asked.
        shown_path = getattr(req, 'prefixed_path', req.path)
        system = paths.system_path(self.store, path, getattr(req, 'langcode', None) or 'en')
        if system != path:
            req.path, path = system, system

        # Authentication runs before routing (kernel.request, priority 300): a refused
        # Bearer token is a 401 on any path, even a public or unknown one.
        auth = authenticate(req, self.store, self.basic_flood_ok,
                            ignore_basic=path == '/oauth/token' and self.store.oauth_installed())
        req.auth = auth
        if auth.bearer_error:
            return bearer_401(auth.bearer_error, err_fmt, site)

        routes, match = None, None
        for regex, candidates in self.routes:
            match = regex.fullmatch(path)
            if match:
                routes = [r for r in candidates if r.when is None or r.when(self.store)] or None
                if routes:
                    break
        absolute = req.base_url + quote(shown_path, safe='/:@!$&\'()*+,;=-._~%')
        if routes is None:
            from . import jsonapi  # JSON:API has its own routes and error documents
            resp = jsonapi.handle(self, req)
            if resp is not None:
                return resp
            return responses.error(404, 'No route found for "%s %s"' % (req.method, absolute),
                                   err_fmt, site)

        method = 'GET' if req.method == 'HEAD' else req.method
        allowed = []
        for r in routes:
            allowed.extend(m for m in r.methods if m not in allowed)
        if req.method == 'OPTIONS':
            # Symfony labels the empty answer by the request format (182).
            ctype = {'json': responses.JSON, 'xml': responses.XML}.get(fmt_param, responses.HTML)
            return Response(200, b'', ctype, [('Allow', ', '.join(allowed))])
        candidates = [r for r in routes if method in r.methods]
        if not candidates:
            # MethodFilter: a route that allows GET also allows HEAD (180).
            allowed = []
            for r in routes:
                allowed.extend(m for m in list(r.methods) + (['HEAD'] if 'GET' in r.methods else []) if m not in allowed)
            return responses.error(405, 'No route found for "%s %s": Method Not Allowed (Allow: %s)'
                                   % (req.method, absolute, ', '.join(allowed)), err_fmt, site,
                                   [('Allow', ', '.join(allowed))])

        if method not in SAFE_METHODS and method != 'DELETE':
            ctype = req.content_type
            kept = [r for r in candidates if r.content_types is None or ctype in r.content_types]
            if not kept:
                if not req.headers.get('content-type'):
                    msg = 'No "Content-Type" request header specified'
                else:
                    msg = 'No route found that matches "Content-Type: %s"' % req.headers['content-type']
                return responses.error(415, msg, err_fmt, site)
            candidates = kept

        route, fmt, failure = self._negotiate(candidates, fmt_param, req, path)
        if failure:
            return failure

        ctx = Context(self, req, auth, route, fmt, match)
        try:
            resp = self._run(ctx, route, method)
        except HttpError as e:
            resp = ctx.error(e.status, e.message, e.headers)
            resp.exception = True
            resp.cacheability = ctx.cache_hint
        if auth.stale_cookie and not resp.header('Set-Cookie'):
            resp.add_header('Set-Cookie', DELETE_COOKIE % auth.cookie_name)
        return resp

    def _negotiate(self, candidates, fmt, req, path):
        """Drupal's RequestFormatRouteFilter: _format decides; without it a
        unanimous single format is the default, otherwise html."""
        if fmt is None:
            reqs = {tuple(r.formats) if r.formats else None for r in candidates}
            only = reqs.pop() if len(reqs) == 1 else None
            fmt = only[0] if only and len(only) == 1 else 'html'
        specific = [r for r in candidates if r.formats and fmt in r.formats]
        fallback = [r for r in candidates if r.formats is None]
        chosen = specific + fallback
        if chosen:
            return chosen[0], fmt, None
        supported = []
        for r in candidates:
            supported.extend(f for f in (r.formats or ['html']) if f not in supported)
        mimes = {'html': 'text/html', 'json': 'application/json', 'xml': 'text/xml'}
        links = [('Link', '<%s%s?_format=%s>; rel="alternate"; type="%s"'
                  % (req.base_url, path, f, mimes.get(f, 'application/octet-stream')))
                 for f in supported]
        msg = versions.no_route_for_format(self.config, fmt, ', '.join(supported))
        return None, fmt, responses.error(406, msg, fmt, self.config.site_name, links)

    def _run(self, ctx, route, method):
        if route.entity:
            ctx.entity_id = int(ctx.match.group(1))
            ctx.entity = self.store.get(route.entity, ctx.entity_id)
            if ctx.entity is None:
                if route.param_path:
                    param = route.param_path.split('{')[1].rstrip('}')
                    raise HttpError(404, 'The "%s" parameter was not converted for the path "%s" '
                                         '(route name: "%s")' % (param, route.param_path, route.name))
                raise HttpError(404, 'The requested page could not be found.')

        auth = ctx.auth
        if auth.provider == 'basic' and not route.rest:
            raise HttpError(403, NOT_ALLOWED)
        if auth.provider == 'bearer' and not route.oauth2:
            raise HttpError(403, NOT_ALLOWED)

        if route.csrf and method not in SAFE_METHODS and ctx.account.authenticated and auth.has_cookie:
            token = ctx.req.headers.get('x-csrf-token')
            if token is None:
                raise HttpError(403, 'X-CSRF-Token request header is missing')
            if not auth.csrf_valid(token):
                raise HttpError(403, 'X-CSRF-Token request header is invalid')

        if route.access:
            reason = route.access(ctx)
            if reason is not None:
                # Entity access refusals are cacheable responses (page_cache stores them).
                ctx.cache_hint = pagecache.entity_hint(route.entity, ctx.entity, ctx.account) \
                    if route.entity or route.rest else None
                if auth.provider is None and route.rest:
                    realm = self.config.site_name or 'Access restricted'
                    raise HttpError(401, 'No authentication credentials provided.',
                                    [('WWW-Authenticate', 'Basic realm="%s"' % realm)])
                raise HttpError(403, reason)
        return route.handler(ctx)

    # Flood control shared with /user/login (off unless --flood-limit is set).
    def basic_flood_ok(self, uid, req):
        limit = self.config.flood_limit
        return not limit or self.store.flood.get((uid, req.client_ip), 0) < limit
