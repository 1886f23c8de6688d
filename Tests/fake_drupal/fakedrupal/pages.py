"""Minimal HTML routes sharing paths with REST, so requests without
?_format=json get HTML back exactly like on a real site."""
import html

from . import access, languages, versions
from .denormalize import HttpError
from .responses import Response


def _not_html(ctx):
    # RenderArrayNonHtmlSubscriber: render-array routes only speak HTML.
    if ctx.fmt != 'html':
        raise HttpError(406, versions.render_array_not_html(ctx.config, ctx.fmt))


def entity_page(ctx):
    _not_html(ctx)
    et = ctx.route.entity
    e = languages.view(ctx.store, et, ctx.entity_id, ctx.entity, ctx.langcode)
    label_field = {'node': 'title', 'comment': 'subject', 'taxonomy_term': 'name', 'user': 'name'}[et]
    label = e[label_field][0]['value'] if e.get(label_field) else ''
    text = ''
    for body_field in ('body', 'comment_body', 'description'):
        if e.get(body_field):
            text = e[body_field][0].get('value') or ''
    return ctx.html(200, label, '<article>%s</article>' % text)


def entity_page_access(ctx):
    reason = access.view(ctx.route.entity, ctx.entity, ctx.account)
    return None if reason is None else (reason or 'You are not authorized to access this page.')


def front_page(ctx):
    _not_html(ctx)
    items = []
    for nid in sorted(ctx.store.entities['node']):
        n = ctx.store.entities['node'][nid]
        if n['status'][0]['value'] and n['promote'][0]['value']:
            items.append('<li><a href="/node/%d">%s</a></li>' % (nid, html.escape(n['title'][0]['value'])))
    return ctx.html(200, 'Welcome', '<ul>%s</ul>' % ''.join(items))


def form(title, fields):
    def controller(ctx):
        _not_html(ctx)
        inputs = ''.join('<label>%s <input name="%s" /></label>' % (f, f) for f in fields)
        return ctx.html(200, title, '<form method="post">%s<input type="submit" /></form>' % inputs)
    return controller


def static_file(store, path, site):
    from .responses import error
    uri = 'public://' + path[len('/sites/default/files/'):]
    if uri not in store.file_data:
        return error(404, 'The requested page could not be found.', 'html', site)
    mime, data = store.file_data[uri]
    return Response(200, data, mime)


def private_file(ctx):
    """system.files: GET /system/files/{path}, a private:// file served by Drupal itself with
    file_file_download's access rule (here: the file's owner, or an administrator)."""
    mime, data = ctx.store.file_data['private://' + ctx.match.group(1)]
    return Response(200, data, mime, [('Content-Disposition', 'attachment')])


def private_file_access(ctx):
    uri = 'private://' + ctx.match.group(1)
    if uri not in ctx.store.file_data:
        raise HttpError(404, 'The requested page could not be found.')
    owner = next((f['uid'][0]['target_id'] for f in ctx.store.entities['file'].values()
                  if f['uri'][0]['value'] == uri), None)
    if ctx.account.is_admin or (ctx.account.authenticated and ctx.account.uid == owner):
        return None
    return 'You are not authorized to access this page.'
