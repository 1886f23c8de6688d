"""language + content_translation on the extended site: English (default, no
prefix) and French at the /fr path prefix; articles are translatable and
Article 1 has a French translation.

Translations live beside the entity, in store.translations[(type, id)][lang]
= {field: items} for the translatable fields only. What the recordings show
(drupal10-oauth-language-transcripts 80-85):
- a language-prefixed read shows the translation, or the original when there
  is none (no 404);
- PATCH under /fr edits an existing translation, but on a node without one it
  edits the original, so a "langcode" in the body changes the ORIGINAL's
  language (82g, 82h);
- POST always creates a new node in the site default language (82c);
- DELETE under /fr deletes the whole node (85).
"""
PREFIXES = {'fr': 'fr'}      # path prefix -> langcode
DEFAULT = 'en'

# Node base fields that content_translation makes per language.
TRANSLATABLE = ('langcode', 'status', 'uid', 'title', 'created', 'changed', 'promote', 'sticky',
                'default_langcode', 'revision_translation_affected', 'path',
                'content_translation_source', 'content_translation_outdated', 'body')


def langcode_of(entity):
    """An entity's language: its langcode field, else the default."""
    return entity['langcode'][0]['value'] if entity.get('langcode') else DEFAULT


def split_prefix(path):
    """(langcode or None, path without the prefix). Only call on the extended site."""
    for prefix, lang in PREFIXES.items():
        if path == '/' + prefix:
            return lang, '/'
        if path.startswith('/' + prefix + '/'):
            return lang, path[len(prefix) + 1:]
    return None, path


def source_fields(node):
    """The fields content_translation adds to a translatable (article) node."""
    node['content_translation_source'] = [{'value': 'und'}]
    node['content_translation_outdated'] = [{'value': False}]


def seed(store):
    """Article 1's French translation (the extended site's baseline)."""
    node = store.entities['node'][1]
    fr = {name: [dict(i) for i in node[name]] for name in TRANSLATABLE if name in node}
    fr.update({
        'langcode': [{'value': 'fr'}], 'default_langcode': [{'value': False}],
        'title': [{'value': 'Article 1 FR'}],
        'body': [{'value': "<p>Corps de l'article 1</p>", 'format': 'basic_html', 'summary': ''}],
        'changed': [{'value': node['changed'][0]['value'] + 3}],
        'path': [{'alias': None, 'pid': None, 'langcode': 'fr'}],
        'content_translation_source': [{'value': 'en'}],
        'content_translation_outdated': [{'value': False}],
    })
    store.translations[('node', 1)] = {'fr': fr}


def translation(store, entity_type, entity_id, langcode):
    """The stored translation's fields, or None."""
    if not langcode or langcode == DEFAULT:
        return None
    return store.translations.get((entity_type, entity_id), {}).get(langcode)


def view(store, entity_type, entity_id, entity, langcode):
    """The entity as seen in langcode: a merged copy when a translation exists,
    else the entity itself (the original, whatever its language)."""
    fields = translation(store, entity_type, entity_id, langcode)
    if fields is None:
        return entity
    merged = dict(entity)
    merged.update(fields)
    if entity.get('comment'):
        # Comment statistics belong to the default translation only.
        merged['comment'] = [{'status': entity['comment'][0]['status'], 'cid': None,
                              'last_comment_timestamp': None, 'last_comment_name': None,
                              'last_comment_uid': None, 'comment_count': None}]
    return merged


def every_translation(store, entity_type, entity_id, entity):
    """The entity and each of its translations, whole: what an entity query's conditions range
    over (the data table has a row per translation), so a filter matches when one does."""
    langcodes = sorted(store.translations.get((entity_type, entity_id), {}))
    return [entity] + [view(store, entity_type, entity_id, entity, lang) for lang in langcodes]


def save(store, entity_type, entity_id, entity, edited, langcode):
    """Writes an edited view() back: translatable fields to the translation, the
    others to the entity. A no-op when the view was the entity itself. (The path
    field is then recomputed by paths.saved.)"""
    if edited is entity:
        return
    fields = translation(store, entity_type, entity_id, langcode)
    for name, items in edited.items():
        if name in TRANSLATABLE:
            fields[name] = items
        elif name != 'comment':
            entity[name] = items


def forget(store, entity_type, entity_id):
    """Deleting an entity deletes all of its translations."""
    store.translations.pop((entity_type, entity_id), None)


def translatable(store, entity_type, entity):
    """ContentEntityBase::isTranslatable: a bundle with translation on (the extended site's
    articles), in a language that is not locked (und, zxx)."""
    original = langcode_of(entity)
    return (getattr(store, 'site', 'base') == 'extended' and entity_type == 'node'
            and entity.get('type', [{}])[0].get('target_id') == 'article' and original not in ('und', 'zxx'))


def jsonapi_refusal(store, entity_type, entity_id, entity, method, langcode):
    """JSON:API's entity converter (EntityUuidConverter::convert) on a translatable entity: None,
    or (405, detail, Allow) for a PATCH of an entity not shown in the request's language
    (``langcode``, the default without a prefix), or a DELETE of one that is, moreover, not its
    default translation (83, 83c). The list names the translations, the site's languages' order."""
    if method not in ('PATCH', 'DELETE') or not translatable(store, entity_type, entity):
        return None
    current = langcode or DEFAULT
    shown_translation = translation(store, entity_type, entity_id, current) is not None
    original = langcode_of(entity)
    shown = current if shown_translation else original
    if method == 'DELETE' and (shown_translation or shown != current):
        return (405, 'Deleting a resource object translation is not yet supported. See '
                     'https://www.drupal.org/docs/8/modules/jsonapi/translations.', 'GET')
    if method == 'PATCH' and shown != current:
        existing = {original} | set(store.translations.get((entity_type, entity_id), {}))
        order = [DEFAULT] + list(PREFIXES.values())
        return (405, 'The requested translation of the resource object does not exist, instead modify one of '
                     'the translations that do exist: %s.' % ', '.join(l for l in order if l in existing), 'GET')
    return None
