"""Headers added to every Drupal answer on its way out, after the controller:
the ones that depend on the site (version, modules) rather than on the route."""
from . import pagecache, versions
from .oauth_tokens import DEFAULT_CONSUMER
from .permissions import ANON

GENERATOR_10 = 'Drupal 10 (https://www.drupal.org)'   # what responses.py writes


def finish(app, req, resp):
    auth = getattr(req, 'auth', None)
    account = auth.account if auth else ANON
    if resp.status >= 400 and not resp.cacheability:
        resp.exception = True     # the pipeline's own errors (404 route, 405, 406, 415...)
    generator = versions.generator(app.config)
    if generator != GENERATOR_10:
        resp.headers = [(k, generator if k == 'X-Generator' else v) for k, v in resp.headers]
        if (resp.header('Content-Type') or '').startswith('text/html'):
            resp.body = resp.body.replace(GENERATOR_10.encode(), generator.encode())
    resp.add_header('Content-language', getattr(req, 'langcode', None) or 'en')
    pagecache.annotate(app, req, resp, account)
    if app.store.oauth_installed():
        # consumers module: the consumer behind the request, and a Vary for caches.
        resp.add_header('X-Consumer-ID', (auth and auth.consumer) or DEFAULT_CONSUMER)
        resp.add_header('Vary', 'X-Consumer-ID')
    return resp
