"""JSON:API reads: entry point, collections, individuals, related resources,
relationship linkage, revisions.

Collections: page[limit] defaults to and is capped at 50 without an error
(190); next only while more rows exist, first and prev only past offset 0,
never last or meta.count (100-102). Without sort, rows come in storage order
(jsonapi_state.saved). Entities the query finds but the viewer may not see are
listed under meta.omitted, so pages can be short: follow links.next.
"""
import base64
import hashlib
import re

from . import jsonapi_access as japi_access
from . import jsonapi_language as jlang
from . import jsonapi_state as jstate
from .jsonapi_errors import JsonApiError, document, jsonapi_member
from .jsonapi_filter import parse_filter, parse_sort, sort_rows
from .jsonapi_include import included, parse_paths
from .jsonapi_normalize import (config_object, relationship_data, resource_object, resource_url,
                                version_query, view_level)
from .jsonapi_query import pager_query, with_query
from .jsonapi_types import ENTRY_POINT_TYPES, TYPES, of_entity
from .normalize import hidden_fields
from .schema import bundle_of

MAX_PAGE = 50
NOT_ALLOWED_GET = 'The current user is not allowed to GET the selected resource.'
COLLECTION_VERSIONS = ('rel:latest-version', 'rel:working-copy')


def _doc(ctx, data, included_objects=(), omitted=(), links=None):
    doc = {'jsonapi': jsonapi_member(ctx.config), 'data': data}
    if included_objects:
        doc['included'] = list(included_objects)
    if omitted:
        doc['meta'] = {'omitted': omitted_meta(ctx, omitted)}
    doc['links'] = links if links is not None else {'self': {'href': ctx.url}}
    return doc


def _denied(reason):
    return NOT_ALLOWED_GET + (' ' + reason if reason else '')


def omitted_meta(ctx, omitted):
    links = {'help': {'href': 'https://www.drupal.org/docs/8/modules/json-api/filtering#filters-access-control'}}
    for rtype, entity, reason in omitted:
        href = resource_url(ctx, rtype, entity)
        key = 'item--' + base64.urlsafe_b64encode(hashlib.sha256(href.encode()).digest()).decode()[:7]
        links[key] = {'href': href, 'meta': {'rel': 'item', 'detail': _denied(reason)}}
    return {'detail': 'Some resources have been omitted because of insufficient authorization.', 'links': links}


def _php_int(value, default):
    if value is None:
        return default
    m = re.match(r'\s*([+-]?\d+)', str(value))
    return int(m.group(1)) if m else 0


# ----- revisions ------------------------------------------------------------
def load_version(ctx, rtype, entity, param):
    """(entity or old revision snapshot, is an older revision) for ?resourceVersion (142-148)."""
    if param is None:
        return entity, False
    if not rtype.versionable:
        raise JsonApiError(501, 'Resource versioning is not yet supported for this resource type.')
    param = str(param)
    if not re.fullmatch(r'[a-z]+:[a-zA-Z0-9\-]+', param):
        raise JsonApiError(400, 'A resource version identifier was provided in an invalid format: `%s`' % param)
    kind, _, value = param.partition(':')
    if kind == 'rel' and value in ('latest-version', 'working-copy'):
        return entity, False       # no drafts on the recorded site: both are the default revision
    if kind == 'id':
        if value == str(entity[rtype.revision_key][0]['value']):
            return entity, False
        old = jstate.old_revision(ctx.store, rtype.entity_type, ctx.entity_id, int(value)) if value.isdigit() else None
        if old is not None:
            return old, True
        raise JsonApiError(404, 'The requested version, identified by `%s`, could not be found.' % param)
    raise JsonApiError(400, 'An invalid resource version identifier, `%s`, was provided.' % param)


# ----- controllers ------------------------------------------------------------
def entry_point(ctx):
    links = {name: {'href': '%s/jsonapi/%s' % (ctx.base, name.replace('--', '/'))} for name in ENTRY_POINT_TYPES}
    links['self'] = {'href': ctx.base + '/jsonapi'}
    doc = {'jsonapi': jsonapi_member(ctx.config), 'data': []}
    if ctx.account.authenticated:
        user = ctx.store.get('user', ctx.account.uid)
        uuid = jstate.uuid_of(user)
        doc['meta'] = {'links': {'me': {'meta': {'id': uuid}, 'href': '%s/jsonapi/user/user/%s' % (ctx.base, uuid)}}}
    doc['links'] = {k: links[k] for k in sorted(links)}
    return document(200, doc)


def _page(ctx):
    page = ctx.query.get('page', {})
    if not isinstance(page, dict):
        raise JsonApiError(400, 'Unexpected value for parameter "page": expecting "array", got "string".')
    offset = max(0, _php_int(page.get('offset'), 0))
    # Core's cap is 50; a site with contrib jsonapi_page_limit may have another (config).
    cap = getattr(ctx.config, 'jsonapi_max_page', MAX_PAGE)
    limit = _php_int(page.get('limit'), cap)
    if limit <= 0:
        raise JsonApiError(400, 'The page size needs to be a positive integer.')
    return offset, min(limit, cap)


def collection(ctx):
    rtype, q, store = ctx.rtype, ctx.query, ctx.store
    version = q.get('resourceVersion')
    if version is not None:
        if not rtype.versionable:
            raise JsonApiError(501, 'Resource versioning is not yet supported for this resource type.')
        if version not in COLLECTION_VERSIONS:
            raise JsonApiError(400, 'Collection resources only support the following resource version '
                                    'identifiers: %s' % ', '.join(COLLECTION_VERSIONS))
    predicate = parse_filter(ctx, rtype, q['filter']) if 'filter' in q else None
    sorts = parse_sort(ctx, rtype, q['sort']) if 'sort' in q else None
    offset, limit = _page(ctx)
    paths = parse_paths([rtype], q.get('include'))
    et, bundle = rtype.entity_type, rtype.bundle
    rows = [(i, e) for i, e in jstate.entities(store, et)
            if bundle_of(et, e) == bundle and (predicate is None or jlang.matches(ctx, et, i, e, predicate))]
    if sorts:
        sort_rows(rows, sorts)
    window = rows[offset:offset + limit]
    data, omitted, shown = [], [], []
    for entity_id, entity in window:
        entity = jlang.view(ctx, et, entity_id, entity)
        level = view_level(ctx, et, entity)
        if level in ('full', 'label'):
            data.append(resource_object(ctx, rtype, entity, level))
            shown.append((rtype, entity))
        else:
            omitted.append((rtype, entity, level))
    inc = included(ctx, shown, paths, omitted)
    links = {'self': {'href': ctx.url}}
    here = ctx.base + ctx.raw_path
    if len(rows) > offset + limit:
        links['next'] = {'href': with_query(here, pager_query(q, offset + limit, limit))}
    if offset > 0:
        links['first'] = {'href': with_query(here, pager_query(q, 0, limit))}
        links['prev'] = {'href': with_query(here, pager_query(q, max(0, offset - limit), limit))}
    return document(200, _doc(ctx, data, inc, omitted, {k: links[k] for k in sorted(links)}))


def _viewable_version(ctx):
    rtype = ctx.rtype
    entity, old = load_version(ctx, rtype, ctx.entity, ctx.query.get('resourceVersion'))
    if not old:
        entity = jlang.view(ctx, rtype.entity_type, ctx.entity_id, entity)
    check = japi_access.view_revision if old else japi_access.view
    level = check(rtype.entity_type, entity, ctx.account)
    if level not in ('full', 'label'):
        ctx.deny(_denied(level), pointer='/data')
    return entity, old, level


def individual(ctx):
    entity, old, level = _viewable_version(ctx)
    paths = parse_paths([ctx.rtype], ctx.query.get('include'))
    omitted = []
    inc = included(ctx, [(ctx.rtype, entity)], paths, omitted)
    data = resource_object(ctx, ctx.rtype, entity, level, old_revision=old)
    return document(200, _doc(ctx, data, inc, omitted))


def _field_or_403(ctx, entity):
    field = ctx.rtype.by_public[ctx.route.field]
    if field.internal in hidden_fields(ctx.rtype.entity_type, entity, ctx.account):
        ctx.deny('The current user is not allowed to view this relationship.', pointer='/data')
    return field


def related(ctx):
    """GET /{id}/{relationship}: the related resource(s) themselves (150)."""
    entity, _, level = _viewable_version(ctx)
    if level != 'full':
        ctx.deny(_denied(''), pointer='/data')
    field = _field_or_403(ctx, entity)
    data, shown, omitted = [], [], []
    for item in entity.get(field.internal) or []:
        target_id = item.get('target_id')
        if target_id is None:
            continue
        if field.config:
            ctype = TYPES[field.targets[0]]
            if target_id in ctype.items:
                data.append(config_object(ctx, ctype, target_id))
            continue
        target = jstate.get(ctx.store, field.target_entity_type, target_id)
        if target is None:
            continue
        target = jlang.view(ctx, field.target_entity_type, target_id, target)
        trt = of_entity(field.target_entity_type, target)
        tlevel = view_level(ctx, trt.entity_type, target)
        if tlevel in ('full', 'label'):
            data.append(resource_object(ctx, trt, target, tlevel))
            shown.append((trt, target))
        else:
            omitted.append((trt, target, tlevel))
    targets = [TYPES[t] for t in field.targets]
    inc = included(ctx, shown, parse_paths(targets, ctx.query.get('include')), omitted)
    if not field.multi:
        data = data[0] if data else None
    return document(200, _doc(ctx, data, inc, omitted))


def relationship_document(ctx, entity, field):
    links = {'related': {'href': '%s/%s%s' % (resource_url(ctx, ctx.rtype, entity), field.public,
                                              version_query(ctx.rtype, entity))},
             'self': {'href': ctx.url}}
    return {'jsonapi': jsonapi_member(ctx.config),
            'data': relationship_data(ctx, field, entity.get(field.internal)), 'links': links}


def relationship(ctx):
    """GET /{id}/relationships/{field}: resource identifiers (151)."""
    entity, _, level = _viewable_version(ctx)
    if level != 'full':
        ctx.deny(_denied(''), pointer='/data')
    field = _field_or_403(ctx, entity)
    return document(200, relationship_document(ctx, entity, field))


def config_collection(ctx):
    ctype = ctx.rtype
    return document(200, _doc(ctx, [config_object(ctx, ctype, name) for name in ctype.items]))


def config_individual(ctx):
    return document(200, _doc(ctx, config_object(ctx, ctx.rtype, ctx.entity)))


def unmodelled_collection(ctx):
    """A type the entry point lists but the fake does not model: always empty."""
    return document(200, _doc(ctx, []))
