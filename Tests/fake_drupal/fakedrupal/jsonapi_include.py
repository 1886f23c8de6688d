"""include=a,b.c: the "included" member.

Each include path is followed over all primary resources in turn, so the
order is path by path, then resource by resource (104: admin, beta, alpha).
A resource appears once, and not at all when it is already primary data.
include works for relationships a sparse fieldset leaves out (104). Targets
the viewer may not see go to meta.omitted instead.
"""
from . import jsonapi_language as jlang
from . import jsonapi_state as jstate
from .jsonapi_errors import JsonApiError
from .jsonapi_normalize import config_object, resource_object, view_level
from .jsonapi_types import TYPES, of_entity
from .normalize import hidden_fields


def parse_paths(rtypes, param):
    """[[field name, ...]] validated against the resource types; 400 for a bad name (117)."""
    if param is None:
        return []
    paths = []
    for raw in str(param).split(','):
        raw = raw.strip()
        if not raw:
            continue
        segments = raw.split('.')
        current = rtypes
        for seg in segments:
            names = []
            for rt in current:
                names += [n for n in rt.relationship_names if n not in names]
            if seg not in names:
                raise JsonApiError(400, '`%s` is not a valid relationship field name. Possible values: %s.'
                                   % (seg, ', '.join(names)))
            targets = []
            for rt in current:
                field = rt.by_public.get(seg)
                if field is not None and field.relationship:
                    targets += [TYPES[t] for t in field.targets if TYPES[t] not in targets]
            current = targets
        paths.append(segments)
    return paths


def included(ctx, primaries, paths, omitted):
    """primaries: [(resource type, entity)] already in data. Returns the included objects;
    appends (resource type, entity or config name, reason) to omitted."""
    out = []
    seen = {(rt.name, jstate.uuid_of(e)) for rt, e in primaries if not rt.config}
    for path in paths:
        current = [(rt, e) for rt, e in primaries if not rt.config]
        for seg in path:
            following = []
            for rt, entity in current:
                field = rt.by_public.get(seg)
                if field is None or not field.relationship:
                    continue
                if field.internal in hidden_fields(rt.entity_type, entity, ctx.account):
                    continue
                for item in entity.get(field.internal) or []:
                    target_id = item.get('target_id')
                    if target_id is None:
                        continue
                    if field.config:
                        ctype = TYPES[field.targets[0]]
                        key = (ctype.name, target_id)
                        if key not in seen and target_id in ctype.items:
                            seen.add(key)
                            out.append(config_object(ctx, ctype, target_id))
                        continue
                    target = jstate.get(ctx.store, field.target_entity_type, target_id)
                    if target is None:
                        continue
                    target = jlang.view(ctx, field.target_entity_type, target_id, target)
                    trt = of_entity(field.target_entity_type, target)
                    level = view_level(ctx, trt.entity_type, target)
                    key = (trt.name, jstate.uuid_of(target))
                    if key not in seen:
                        seen.add(key)
                        if level in ('full', 'label'):
                            out.append(resource_object(ctx, trt, target, level))
                        else:
                            omitted.append((trt, target, level))
                    if level in ('full', 'label'):
                        following.append((trt, target))
            current = following
    return out
