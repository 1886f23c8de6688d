"""The path module: URL aliases (path_alias entities) and the computed `path` field of nodes and terms.

From Drupal's source (no recording shows a saved alias):
- PathItem::postSave: an item written with an alias creates a path_alias entity (in the item's
  langcode when it came with a pid, else the entity's language) when the entity is new or the
  item has no pid, and the item's pid becomes the alias id; with a pid, it renames that alias; an
  item with a pid and no alias deletes the alias. A pid that names no alias fails on a null
  (500). PathItem::preSave trims the alias; PathAlias::preSave also drops trailing slashes from
  the stored one.
- The write's answer shows the item as written plus that pid (its langcode as sent: null if
  none); a later read computes it (PathFieldItemList::computeValue): the newest alias of the
  system path in the item's language or 'und', as {alias, pid, langcode of the alias}, else
  {alias: null, pid: null, langcode: the entity's}.
- AliasPathProcessor: every request's path is looked up as an alias (RouteProvider, after the
  language prefix is taken off and trailing slashes trimmed) and routed as its system path, so
  `GET /hello?_format=json` is the node's REST read. AliasRepository::lookupByAlias matches with
  LIKE (case-insensitive), the URL language's alias before 'und', then the newest. Outbound, an
  entity's URL uses its alias in the entity's language (`aliased`).
"""
from . import languages, schema
from .denormalize import HttpError

WITH_PATH = ('node', 'taxonomy_term')


def _system_path(entity_type, entity_id):
    return schema.TYPES[entity_type]['canonical'].replace('{id}', str(entity_id))


def _truthy(alias):
    return alias not in (None, '', '0', 0, False)   # PHP's if ($alias)


def computed(store, entity_type, entity_id, langcode):
    path = _system_path(entity_type, entity_id)
    found = [(pid, a) for pid, a in store.aliases.items() if a['path'] == path and a['langcode'] in (langcode, 'und')]
    if not found:
        return [{'alias': None, 'pid': None, 'langcode': langcode}]
    pid, alias = _newest(found, langcode)     # AliasRepository::lookupBySystemPath
    return [{'alias': alias['alias'], 'pid': pid, 'langcode': alias['langcode']}]


def _newest(found, langcode):
    """AliasRepository's order: the language's own alias before 'und', then the newest."""
    return max(found, key=lambda pair: (pair[1]['langcode'] == langcode, pair[0])) if found else None


def system_path(store, path, langcode):
    """The system path an alias names (AliasPathProcessor::processInbound), else the path itself."""
    wanted = _ascii_lower(path)
    found = [(pid, a) for pid, a in store.aliases.items()
             if _ascii_lower(a['alias']) == wanted and a['langcode'] in (langcode, 'und')]
    best = _newest(found, langcode)
    return best[1]['path'] if best else path


def _ascii_lower(text):
    # LIKE folds ASCII letters on every database Drupal supports; SQLite's folds no others.
    return ''.join(c.lower() if c < '\x80' else c for c in text)


def aliased(store, entity_type, entity_id, langcode):
    """The entity's canonical path as Drupal writes it in a URL: its alias when it has one."""
    path = _system_path(entity_type, entity_id)
    if entity_type not in WITH_PATH:
        return path
    shown = computed(store, entity_type, entity_id, langcode)[0]['alias']
    return shown or path


def write(store, entity_type, entity_id, items, langcode, update):
    """PathItem::postSave for each item written; the items as the write's answer shows them."""
    out = []
    for item in items:
        item = dict(item)
        alias, pid = item.get('alias'), item.get('pid')
        if isinstance(alias, str):
            item['alias'] = alias = alias.strip()
        if _truthy(alias):
            if not update or not pid:
                pid = store.next_alias_id
                store.next_alias_id += 1
                store.aliases[pid] = {'path': _system_path(entity_type, entity_id), 'alias': _stored(alias),
                                      'langcode': item.get('langcode') if item.get('langcode') and item.get('pid')
                                      else langcode}
                item['pid'] = pid
            elif pid in store.aliases:
                store.aliases[pid]['alias'] = _stored(alias)
            else:
                raise HttpError(500)
        elif pid:
            if store.aliases.pop(pid, None) is None:
                raise HttpError(500)
        out.append(item)
    return out


def _stored(alias):
    return str(alias).rstrip('\\/')     # PathAlias::preSave


def refresh(store, entity_type, entity_id):
    """Stores the value a reload computes, for the entity and each of its translations."""
    if entity_type not in WITH_PATH:
        return
    entity = store.get(entity_type, entity_id)
    entity['path'] = computed(store, entity_type, entity_id, languages.langcode_of(entity))
    for langcode, fields in store.translations.get((entity_type, entity_id), {}).items():
        fields['path'] = computed(store, entity_type, entity_id, langcode)


def saved(store, entity_type, entity_id, view, items, update):
    """After a save of `view` (the entity, or its translation being written) with the path items
    written (None: the path was not written): the aliases, the stored value, and `view` as the
    write's answer shows it."""
    if entity_type not in WITH_PATH:
        return view
    langcode = languages.langcode_of(view)
    written = None if items is None else write(store, entity_type, entity_id, items, langcode, update)
    refresh(store, entity_type, entity_id)
    shown = written if written is not None else computed(store, entity_type, entity_id, langcode)
    return dict(view, path=shown)


def forget(store, entity_type, entity_id):
    """Deleting an entity deletes its aliases (PathFieldItemList::delete, for each translation)."""
    path = _system_path(entity_type, entity_id)
    for pid in [pid for pid, a in store.aliases.items() if a['path'] == path]:
        del store.aliases[pid]
