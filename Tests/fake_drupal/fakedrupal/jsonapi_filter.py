"""filter[...] and sort: paths, condition groups, operators, ordering.

Paths use public names and dots through relationships (uid.name,
field_tags.name), "id" for a UUID, "<rel>.meta.drupal_internal__target_id"
for the target id, and a property for multi-property fields (body.value; the
main property when left out). A condition on a multi-value path holds when any
value satisfies it, like the SQL joins of an entity query. Strings compare
case-insensitively, as Drupal's entity query does for string fields.
"""
import datetime
import re

from . import jsonapi_access as japi_access
from . import jsonapi_state as jstate
from .jsonapi_errors import JsonApiError
from .jsonapi_types import IMAGE_META, PROPERTIES, TYPES

OPERATORS = ('=', '<>', '>', '>=', '<', '<=', 'STARTS_WITH', 'CONTAINS', 'ENDS_WITH',
             'IN', 'NOT IN', 'BETWEEN', 'NOT BETWEEN', 'IS NULL', 'IS NOT NULL')
NO_VALUE = ('IS NULL', 'IS NOT NULL')
LISTS = ('IN', 'NOT IN', 'BETWEEN', 'NOT BETWEEN')


def bad(detail):
    return JsonApiError(400, detail)


def _no_field(name, path):
    return bad('Invalid nested filtering. The field `%s`, given in the path `%s`, does not exist.' % (name, path))


# ----- paths -----------------------------------------------------------------
def compile_path(ctx, rtypes, path, guarded):
    """(getter(entity) -> list of values, kind). guarded: skip related entities the
    query guard hides (filters only; sorts are not guarded)."""
    segments = path.split('.')
    if not path or '' in segments:
        raise _no_field(path, path)
    return _compile(ctx, rtypes, segments, path, guarded)


def _field(rtypes, name):
    for rt in rtypes:
        if not rt.config and name in rt.by_public:
            return rt.by_public[name]
    return None


def _compile(ctx, rtypes, segments, path, guarded):
    name, rest = segments[0], segments[1:]
    if name == 'id':
        if rest:
            raise _no_field(rest[0], path)
        return (lambda e: [jstate.uuid_of(e)]), 'uuid'
    field = _field(rtypes, name)
    if field is None:
        raise _no_field(name, path)
    internal = field.internal
    if not field.relationship:
        props = PROPERTIES.get(field.kind)
        if rest:
            if not props or rest[0] not in props or len(rest) > 1:
                raise bad('Invalid nested filtering. The property `%s`, given in the path `%s`, does not exist.'
                          % (rest[0], path))
            prop = rest[0]
        else:
            prop = props[0] if props else 'value'
        if field.kind == 'display_name':
            return (lambda e: [(e.get('name') or [{}])[0].get('value')] if e['uid'][0]['value'] else ['Anonymous']), 'str'
        if prop == 'processed':
            prop = 'value'
        if prop == 'url':
            return (lambda e: ['/sites/default/files/' + i['value'][len('public://'):] for i in e.get(internal) or []]), 'str'
        return (lambda e: [i.get(prop) for i in e.get(internal) or []]), field.kind
    # A relationship: its target id, its UUID, identifier meta, or a field of the target.
    if not rest:
        return (lambda e: [i.get('target_id') for i in e.get(internal) or []]), 'target'
    nxt = rest[0]
    if nxt == 'meta':
        key = rest[1] if len(rest) == 2 else None
        if key == 'drupal_internal__target_id':
            return (lambda e: [i.get('target_id') for i in e.get(internal) or []]), 'target'
        if field.kind == 'image' and key in IMAGE_META:
            return (lambda e: [i.get(key) for i in e.get(internal) or []]), 'int'
        raise _no_field(key or 'meta', path)
    if field.config:
        if nxt == 'id':
            from .store import config_uuid
            kind = field.config
            return (lambda e: [config_uuid(kind, i.get('target_id')) for i in e.get(internal) or []]), 'uuid'
        raise _no_field(nxt, path)
    if nxt == 'entity':            # Drupal also takes the internal "uid.entity.name"
        rest = rest[1:]
        if not rest:
            raise _no_field('entity', path)
    target_type = field.target_entity_type
    sub, kind = _compile(ctx, [TYPES[t] for t in field.targets], rest, path, guarded)
    store, acc = ctx.store, ctx.account

    def getter(e):
        out = []
        for item in e.get(internal) or []:
            target = jstate.get(store, target_type, item.get('target_id'))
            if target is None or (guarded and not japi_access.query_allows(target_type, target, acc)):
                continue
            out.extend(sub(target))
        return out
    return getter, kind


# ----- filter parameter -------------------------------------------------------
class _Condition:
    def __init__(self, path, operator, value, member_of):
        self.path, self.operator, self.value, self.member_of = path, operator, value, member_of
        self.test = None


class _Group:
    def __init__(self, conjunction, member_of):
        self.conjunction, self.member_of = conjunction, member_of
        self.children = []

    def matches(self, entity):
        results = (c.matches(entity) if isinstance(c, _Group) else c.test(entity) for c in self.children)
        return any(results) if self.conjunction == 'OR' else all(results)


def parse_filter(ctx, rtype, param):
    """A predicate(entity) for the filter parameter, with the query guard applied."""
    if not isinstance(param, dict):
        raise bad('Unexpected value for parameter "filter": expecting "array", got "string".')
    groups, conditions = {'@root': _Group('AND', None)}, []
    for key, item in param.items():
        key = str(key)
        if not isinstance(item, dict):
            conditions.append(_Condition(key, '=', item, None))
        elif 'condition' in item:
            c = item['condition'] if isinstance(item['condition'], dict) else {}
            conditions.append(_Condition(c.get('path'), c.get('operator', '='), c.get('value'), c.get('memberOf')))
        elif 'group' in item:
            g = item['group'] if isinstance(item['group'], dict) else {}
            conjunction = g.get('conjunction', 'AND')
            if conjunction not in ('AND', 'OR'):
                raise bad("The '%s' conjunction is not allowed in a filter group." % conjunction)
            groups[key] = _Group(conjunction, g.get('memberOf'))
        else:  # shorthand with operator: filter[title][operator]=..&filter[title][value]=.. (107)
            conditions.append(_Condition(item.get('path', key), item.get('operator', '='), item.get('value'),
                                         item.get('memberOf')))
    for c in conditions:
        if c.path is None or not isinstance(c.path, str):
            raise bad("Filter parameter is missing a 'path' key.")
        if c.value is None and c.operator not in NO_VALUE:
            raise bad("Filter parameter is missing a 'value' key.")
        if c.operator not in OPERATORS:
            raise bad("The '%s' operator is not allowed in a filter parameter." % c.operator)
        getter, kind = compile_path(ctx, [rtype], c.path, guarded=True)
        c.test = _tester(getter, kind, c.operator, c.value)
    for key, g in groups.items():
        if key != '@root':
            parent = groups.get(g.member_of) if g.member_of != key else None
            (parent or groups['@root']).children.append(g)
    for c in conditions:
        groups.get(c.member_of, groups['@root']).children.append(c)
    root, acc, et = groups['@root'], ctx.account, rtype.entity_type
    # TemporaryQueryGuard: a filtered query also gets the entity type's access conditions.
    return lambda e: japi_access.query_allows(et, e, acc) and root.matches(e)


def _operand(kind, raw):
    if isinstance(raw, dict):
        return [_operand(kind, v) for v in raw.values()]
    if kind == 'bool':
        return {'1': True, 'true': True, '0': False, 'false': False}.get(str(raw).lower(), raw)
    if kind in ('int', 'target', 'ts'):
        if re.fullmatch(r'-?\d+', str(raw)):
            return int(raw)
        if kind == 'ts':
            try:
                return int(datetime.datetime.fromisoformat(str(raw).replace('Z', '+00:00')).timestamp())
            except ValueError:
                pass
        return raw
    return raw


def _fold(v):
    return v.casefold() if isinstance(v, str) else v


def _tester(getter, kind, op, raw):
    operand = _operand(kind, raw)
    if op in LISTS:
        items = operand if isinstance(operand, list) else [operand]
        items = [_fold(x) for x in items]
    else:
        operand = _fold(operand)

    def cmp(f):
        def test(entity):
            for v in getter(entity):
                if v is None:
                    continue
                try:
                    if f(_fold(v)):
                        return True
                except TypeError:
                    continue
            return False
        return test

    text = str(operand).casefold() if not isinstance(operand, list) else ''
    if op == '=':
        return cmp(lambda v: v == operand)
    if op == '<>':
        return cmp(lambda v: v != operand)
    if op == '>':
        return cmp(lambda v: v > operand)
    if op == '>=':
        return cmp(lambda v: v >= operand)
    if op == '<':
        return cmp(lambda v: v < operand)
    if op == '<=':
        return cmp(lambda v: v <= operand)
    if op == 'STARTS_WITH':
        return cmp(lambda v: str(v).casefold().startswith(text))
    if op == 'CONTAINS':
        return cmp(lambda v: text in str(v).casefold())
    if op == 'ENDS_WITH':
        return cmp(lambda v: str(v).casefold().endswith(text))
    if op == 'IN':
        return cmp(lambda v: v in items)
    if op == 'NOT IN':
        return cmp(lambda v: v not in items)
    if op in ('BETWEEN', 'NOT BETWEEN'):
        if len(items) != 2:
            raise bad('The %s operator needs exactly two values.' % op)
        lo, hi = items
        if op == 'BETWEEN':
            return cmp(lambda v: lo <= v <= hi)
        return cmp(lambda v: not lo <= v <= hi)
    if op == 'IS NULL':
        return lambda e: all(v is None for v in getter(e))
    return lambda e: any(v is not None for v in getter(e))   # IS NOT NULL


# ----- sort -------------------------------------------------------------------
def parse_sort(ctx, rtype, param):
    """[(getter, descending)] from sort=a,-b or sort[k][path]/[direction]."""
    specs = []
    if isinstance(param, dict):
        for item in param.values():
            if isinstance(item, dict):
                specs.append((item.get('path') or '', str(item.get('direction', 'ASC')).upper() == 'DESC'))
            else:
                specs.append((str(item), False))
    else:
        for part in str(param).split(','):
            part = part.strip()
            if part:
                specs.append((part[1:], True) if part.startswith('-') else (part.lstrip('+'), False))
    return [(compile_path(ctx, [rtype], path, guarded=False)[0], desc) for path, desc in specs]


def sort_rows(rows, sorts):
    """rows: [(id, entity)]. Multi-value paths sort by their smallest (ASC) or largest
    (DESC) value; NULL sorts first ascending, as in SQL."""
    for getter, desc in reversed(sorts):
        def key(row, getter=getter, desc=desc):
            values = [_fold(v) for v in getter(row[1]) if v is not None]
            if not values:
                return (0, 0)
            try:
                return (1, max(values) if desc else min(values))
            except TypeError:
                return (1, str(values[0]))
        try:
            rows.sort(key=key, reverse=desc)
        except TypeError:
            rows.sort(key=lambda r: str(key(r)), reverse=desc)
    return rows
