"""The api_articles view: REST export at /api/articles, data_field rows,
full pager (2 a page, ?page=N), exposed "title" filter (contains); and the same
rows at /api/articles-all, a display with no pager (every row; ?page is ignored,
as Drupal ignores it for "none" and "some" pagers)."""
import html

from .normalize import rfc3339

ITEMS_PER_PAGE = 2


def view_access(ctx):
    return None if ctx.account.has('access content') else "The 'access content' permission is required."


def api_articles(ctx):
    q = ctx.req.query
    try:
        page = max(0, int(q.get('page', '0')))
    except ValueError:
        page = 0
    rows = _published_articles(ctx)
    start = page * ITEMS_PER_PAGE
    return _cacheable(ctx.json(200, [_row(n) for n in rows[start:start + ITEMS_PER_PAGE]]))


def api_articles_all(ctx):
    return _cacheable(ctx.json(200, [_row(n) for n in _published_articles(ctx)]))


def _cacheable(resp):
    resp.cacheability = 'cacheable'
    return resp


def _published_articles(ctx):
    q = ctx.req.query
    needle = (q.get('title') or '').lower()
    rows = []
    for nid in sorted(ctx.store.entities['node']):
        node = ctx.store.entities['node'][nid]
        if node['type'][0]['target_id'] != 'article' or not node['status'][0]['value']:
            continue
        title = node['title'][0]['value'] if node['title'] else ''
        if needle and needle not in title.lower():
            continue
        rows.append(node)
    return rows


def _row(node):
    created = rfc3339(node['created'][0]['value'])
    body = node['body'][0].get('value') if node.get('body') else ''
    return {
        'nid': str(node['nid'][0]['value']),
        'uuid': node['uuid'][0]['value'],
        'title': html.escape(node['title'][0]['value'] if node['title'] else '', quote=False),
        'created': '<time datetime="%s">%s</time>\n' % (created, created),
        'body': body or '',
    }
