"""JSON:API file uploads (application/octet-stream + Content-Disposition).

- POST /jsonapi/{type}/{bundle}/{file field}: 201, a temporary file
  (status false), no Location, links.self the file's URL (160).
- POST /jsonapi/{type}/{bundle}/{uuid}/{file field}: uploads and attaches;
  200, the file is permanent, links.self the request URL (161). The host is
  saved without a new revision (162).
Errors as recorded: 415 (163), 422 extensions (164), 400 without
Content-Disposition (165), 500 for a field that exists but holds no files (166).
"""
import mimetypes
import time

from . import jsonapi_access as japi_access
from . import jsonapi_state as jstate
from .jsonapi_errors import JsonApiError, document, jsonapi_member
from .jsonapi_normalize import resource_object, resource_url
from .jsonapi_types import TYPES
from .jsonapi_write import _save, mark_files_permanent
from .normalize import image_size
from .uploads import FILE_FIELDS, _unique_uri, filename_from


def _file_field(ctx, name):
    rtype = ctx.rtype
    allowed = FILE_FIELDS.get((rtype.entity_type, rtype.bundle, name))
    if allowed is None:
        if name in rtype.by_public:
            # Symfony's file AccessDeniedException escapes as a 500 (166).
            raise JsonApiError(500, 'The file "%s" is not a file field could not be accessed' % name)
        raise JsonApiError(404, 'Field "%s" does not exist' % name)
    field = rtype.by_public[name]
    denied = japi_access.field_edit(rtype.entity_type, field.internal, ctx.account)
    if denied is not None:
        raise JsonApiError(403, 'The current user is not allowed to upload a file for this field.%s' % denied)
    return field, allowed


def _store_file(ctx, allowed):
    name = filename_from(ctx.req.headers.get('content-disposition'))
    ext = name.rsplit('.', 1)[-1].lower() if '.' in name else ''
    if ext not in allowed.split():
        raise JsonApiError(422, 'Unprocessable Entity: file validation failed.\n'
                                'Only files with the following extensions are allowed: %s.' % allowed, info=False)
    uri = _unique_uri(ctx.store, 'public://' + time.strftime('%Y-%m', time.gmtime()), name)
    mime = mimetypes.guess_type(name)[0] or 'application/octet-stream'
    fid = ctx.store.create_file(ctx.account.uid, uri.rsplit('/', 1)[1], uri, mime, ctx.req.body)
    return fid, ctx.store.get('file', fid)


def upload_new(ctx):
    rtype = ctx.rtype
    reason = japi_access.create(rtype.entity_type, rtype.bundle, ctx.account)
    if reason is not None:
        ctx.deny(reason)
    field, allowed = _file_field(ctx, ctx.route.field)
    _, file_entity = _store_file(ctx, allowed)
    ftype = TYPES['file--file']
    doc = {'jsonapi': jsonapi_member(ctx.config), 'data': resource_object(ctx, ftype, file_entity),
           'links': {'self': {'href': resource_url(ctx, ftype, file_entity)}}}
    return document(201, doc)


def upload_to_entity(ctx):
    rtype, entity = ctx.rtype, ctx.entity
    reason = japi_access.update(rtype.entity_type, entity, ctx.account)
    if reason is not None:
        ctx.deny(reason)
    field, allowed = _file_field(ctx, ctx.route.field)
    fid, file_entity = _store_file(ctx, allowed)
    width, height = image_size(ctx.req.body)
    item = {'target_id': fid, 'alt': None, 'title': None, 'width': width, 'height': height}
    items = (entity.get(field.internal) or []) + [item] if field.multi else [item]
    entity[field.internal] = items
    mark_files_permanent(ctx.store, [item])
    _save(ctx, entity, new_revision=False)
    ftype = TYPES['file--file']
    files = [jstate.get(ctx.store, 'file', i.get('target_id')) for i in items]
    data = [resource_object(ctx, ftype, f) for f in files if f is not None]
    doc = {'jsonapi': jsonapi_member(ctx.config), 'data': data if field.multi else data[-1],
           'links': {'self': {'href': ctx.url}}}
    return document(200, doc)
