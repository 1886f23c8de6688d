"""Headers added to every Drupal answer on its way out, after the controller:
the ones that depend on the site's modules rather than on the route."""
from .oauth_tokens import DEFAULT_CONSUMER


def finish(app, req, resp):
    auth = getattr(req, 'auth', None)
    if app.store.oauth_installed():
        # consumers module: the consumer behind the request, and a Vary for caches.
        resp.add_header('X-Consumer-ID', (auth and auth.consumer) or DEFAULT_CONSUMER)
        resp.add_header('Vary', 'X-Consumer-ID')
    return resp
