"""X-Drupal-Cache (page_cache, anonymous pages) and X-Drupal-Dynamic-Cache
(dynamic_page_cache, per permission set) as the recordings show them.

Nothing is served from these caches: answers are always computed afresh, and
the caches only remember which URLs would have been stored, to say HIT or
MISS. Any successful write empties both (Drupal invalidates by cache tag;
emptying everything is coarser but never shows a stale HIT).

A response says how cacheable it is in resp.cacheability:
  None         not a cacheable response (plain Response: login_status, 404 of
               an unknown id, 406...)
  'cacheable'  entity/view/HTML answers whose cache contexts are coarse
  'poor'       answers that vary per user (cache context "user": another
               user's account, an editor's own unpublished node...)
and resp.exception is True for answers made from an exception (errors).
"""
import threading

from .versions import is11 as version_is11

SAFE = ('GET', 'HEAD')


class Caches:
    def __init__(self):
        self.lock = threading.Lock()
        self.pages = {}        # URL -> X-Drupal-Dynamic-Cache value stored with the page
        self.dynamic = set()   # (URL, permission set)

    def clear(self):
        with self.lock:
            self.pages.clear()
            self.dynamic.clear()


def entity_hint(entity_type, entity, account):
    """Cacheability of viewing an entity (or of being refused it)."""
    if entity_type == 'user':
        # UserAccessControlHandler: only 'administer users' gives a per-permission result.
        return 'cacheable' if account.has('administer users') else 'poor'
    if entity_type == 'node' and entity is not None and entity.get('status') \
            and not entity['status'][0]['value']:
        if not account.has('bypass node access') and account.has('view own unpublished content'):
            return 'poor'   # the owner check
    if entity_type == 'file' and account.authenticated and not account.is_admin:
        return 'poor'
    return 'cacheable'


def _page_policy_denies(req, store):
    """page_cache request policies: a session cookie (NoSessionOpen), a Basic
    header (basic_auth), a Bearer header once simple_oauth is installed."""
    if any(n.startswith('SESS') or n.startswith('SSESS') for n in req.cookies):
        return True
    scheme = req.headers.get('authorization', '').split(' ', 1)[0].lower()
    return scheme == 'basic' or (scheme == 'bearer' and store.oauth_installed())


def _dynamic(is11, caches, req, resp, account):
    kind = resp.cacheability
    if kind is None:
        return 'UNCACHEABLE (no cacheability)' if is11 else None
    if kind == 'poor':
        if is11:
            return 'UNCACHEABLE (poor cacheability)'
        if not resp.exception:
            return 'UNCACHEABLE'
        # 10.3 shows it on some error answers only: HTML error pages (73j, 76b) and a
        # 403 to an anonymous user (12c), not 24g (editor) nor 34b (401).
        html = (resp.header('Content-Type') or '').startswith('text/html')
        return 'UNCACHEABLE' if html or (resp.status == 403 and not account.authenticated) else None
    if resp.exception:
        return None          # cacheable error answers are not stored (24f)
    key = (req.target, account.roles if account.authenticated else 'anonymous')
    with caches.lock:
        if key in caches.dynamic:
            return 'HIT'
        caches.dynamic.add(key)
    return 'MISS'


def annotate(app, req, resp, account):
    is11 = version_is11(app.config)
    caches = app.store.caches
    method = 'GET' if req.method == 'HEAD' else req.method
    if method not in SAFE:
        if resp.status < 400:
            caches.clear()
        return
    if resp.exception and resp.cacheability is None and \
            (resp.header('Content-Type') or '').startswith('text/html'):
        resp.cacheability = 'poor'   # HTML error pages are rendered in a sub-request
    if _page_policy_denies(req, app.store):
        page = 'UNCACHEABLE (request policy)' if is11 else None
        dynamic = _dynamic(is11, caches, req, resp, account)
    else:
        url = req.host + req.target
        with caches.lock:
            stored = caches.pages.get(url, False)
        if stored is not False:
            page, dynamic = 'HIT', stored     # the cached page keeps its old headers
        else:
            dynamic = _dynamic(is11, caches, req, resp, account)
            if resp.cacheability:
                with caches.lock:
                    caches.pages[url] = dynamic
                page = 'MISS'
            else:
                page = 'UNCACHEABLE (no cacheability)' if is11 else None
    if dynamic:
        resp.add_header('X-Drupal-Dynamic-Cache', dynamic)
    if page:
        resp.add_header('X-Drupal-Cache', page)
