"""file:upload REST resource: POST /file/upload/{entity_type}/{bundle}/{field}."""
import mimetypes
import os
import re
import time

from . import access
from .denormalize import HttpError

# File fields that exist on the recorded site, with their allowed extensions.
FILE_FIELDS = {
    ('node', 'article', 'field_image'): 'png gif jpg jpeg webp',
    ('user', 'user', 'user_picture'): 'png gif jpg jpeg webp',
}
OTHER_FIELDS = {
    ('node', 'article'): {'title', 'body', 'field_tags', 'comment', 'status', 'uid'},
    ('node', 'page'): {'title', 'body', 'status', 'uid'},
    ('user', 'user'): {'name', 'mail'},
}
NEED = 'A file name in the format "filename=FILENAME" must be provided.'


def upload_access(ctx):
    et, bundle, field = ctx.match.groups()
    if et == 'node':
        return access.create_bundle('node', bundle, ctx.account) and ''
    if et == 'user':
        return None if ctx.account.authenticated else ''
    return ''


def filename_from(header):
    if header is None:
        raise HttpError(400, '"Content-Disposition" header is required. ' + NEED)
    # PHP sees the header's raw bytes and Drupal reads them as UTF-8 (the server parsed them as
    # latin-1): a raw UTF-8 name is kept as it was sent.
    header = header.encode('latin-1').decode('utf-8', 'replace')
    if 'filename*' in header:
        raise HttpError(400, 'The extended "filename*" format is currently not supported in the '
                             '"Content-Disposition" header.')
    m = re.search(r'filename\s*=\s*"([^"]+)"', header)
    if not m:
        raise HttpError(400, 'No filename found in "Content-Disposition" header. ' + NEED)
    name = os.path.basename(m.group(1).replace('\\', '/'))
    if not name or name in ('.', '..'):
        raise HttpError(400, 'No filename found in "Content-Disposition" header. ' + NEED)
    return name


def upload(ctx):
    et, bundle, field = ctx.match.groups()
    allowed = FILE_FIELDS.get((et, bundle, field))
    if allowed is None:
        if field in OTHER_FIELDS.get((et, bundle), ()):
            raise HttpError(403, '"%s" is not a file field' % field)
        raise HttpError(404, 'Field "%s" does not exist' % field)
    name = filename_from(ctx.req.headers.get('content-disposition'))
    ext = name.rsplit('.', 1)[-1].lower() if '.' in name else ''
    if ext not in allowed.split():
        raise HttpError(422, 'Unprocessable Entity: file validation failed.\n'
                             'Only files with the following extensions are allowed: %s.' % allowed)
    directory = 'public://' + time.strftime('%Y-%m', time.gmtime())
    uri = _unique_uri(ctx.store, directory, name)
    mime = mimetypes.guess_type(name)[0] or 'application/octet-stream'
    fid = ctx.store.create_file(ctx.account.uid, uri.rsplit('/', 1)[1], uri, mime, ctx.req.body)
    body = ctx.normalizer.entity('file', ctx.store.get('file', fid), ctx.account)
    return ctx.json(201, body)  # no Location header for uploads


def _unique_uri(store, directory, name):
    """Name clashes are renamed like Drupal: a.png, a_0.png, a_1.png ..."""
    stem, dot, ext = name.rpartition('.')
    if not dot:
        stem, ext = name, ''
    uri = '%s/%s' % (directory, name)
    n = 0
    while uri in store.file_data:
        uri = '%s/%s_%d%s%s' % (directory, stem, n, dot, ext)
        n += 1
    return uri
