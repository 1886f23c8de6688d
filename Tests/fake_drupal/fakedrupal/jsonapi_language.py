"""Translations in JSON:API, for a fake that models the language module
(languages.py, the extended site of drupal10-oauth-language-transcripts).
Without that module every function here leaves the entity alone.

What the recordings show (80-83e): under /fr the documents show the French
translation, or the original when there is none, and all links keep the
prefix (81-81d); PATCH of a translation edits it (83b), but JSON:API refuses
to create one (405, 83) or to delete one (405, 83c); POST makes a new node in
the language sent (83d).
"""
try:
    from . import languages
except ImportError:          # a fake without languages: a single-language site
    languages = None

BASE_LANGCODES = ('en', 'und', 'zxx')


def prefix(req):
    """The language path prefix the core pipeline took off req.path ('/fr'), else ''."""
    prefixed = getattr(req, 'prefixed_path', None)
    if not prefixed or not prefixed.endswith(req.path):
        return ''
    return prefixed[:len(prefixed) - len(req.path)]


def view(ctx, entity_type, entity_id, entity):
    if languages is None or not ctx.langcode:
        return entity
    return languages.view(ctx.store, entity_type, entity_id, entity, ctx.langcode)


def matches(ctx, entity_type, entity_id, entity, predicate):
    """Whether a filter matches the entity or one of its translations (an entity query has no
    langcode condition unless the filter sends one)."""
    if languages is None:
        return predicate(entity)
    return any(predicate(e) for e in languages.every_translation(ctx.store, entity_type, entity_id, entity))


def refuse_write(ctx, method):
    """405 for a write JSON:API cannot do in this language (83, 83c); without a prefix too."""
    if languages is None:
        return None
    return languages.jsonapi_refusal(ctx.store, ctx.rtype.entity_type, ctx.entity_id, ctx.entity, method,
                                     ctx.langcode)


def save(ctx, original, edited):
    if languages is not None and ctx.langcode:
        languages.save(ctx.store, ctx.rtype.entity_type, ctx.entity_id, original, edited, ctx.langcode)


def deleted(ctx):
    if languages is not None:
        languages.forget(ctx.store, ctx.rtype.entity_type, ctx.entity_id)


def langcodes(store):
    if languages is None or getattr(store, 'site', 'base') != 'extended':
        return BASE_LANGCODES
    return BASE_LANGCODES + tuple(languages.PREFIXES.values())
