"""The run-time settings behind GET/POST /__fake/config: names, checks, and
what changing one does. A reset (POST /__fake/reset) keeps them; the start-up
values come back with POST /__fake/config {"defaults": true}."""

# name -> (check, meaning of a bad value)
CHECKS = {
    'site_name': (lambda v: isinstance(v, str), 'a string'),
    'login_message': (lambda v: v in ('10', '11.4'), '"10" or "11.4"'),
    'flood_limit': (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0, 'an integer >= 0'),
    'drupal': (lambda v: str(v) in ('10', '11'), '"10" or "11"'),
    'site': (lambda v: v in ('base', 'extended'), '"base" or "extended"'),
    'oauth_access_ttl': (lambda v: _positive(v), 'a number of seconds > 0'),
    'oauth_refresh_ttl': (lambda v: _positive(v), 'a number of seconds > 0'),
    # Authorization code lifetime; null: the access token's, as simple_oauth sets it.
    'oauth_code_ttl': (lambda v: v is None or _positive(v), 'a number of seconds > 0 or null'),
    # JSON:API (jsonapi_*.py): the version in its documents (null: the Drupal version's own)
    # and its read-only mode.
    'jsonapi_version': (lambda v: v in (None, '1.0', '1.1'), '"1.0", "1.1" or null'),
    'jsonapi_read_only': (lambda v: isinstance(v, bool), 'true or false'),
    # The page size cap (core: 50; contrib jsonapi_page_limit can change it).
    'jsonapi_max_page': (lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0, 'an integer > 0'),
}


def _positive(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0


def use_site(app, site):
    """The base site, or the extended one (simple_oauth, languages, decoupled_router).
    Switching restores the baseline data of the new site."""
    store = app.store
    with store.lock:
        app.config.site = site
        store.site = site
        store.oauth_site = site == 'extended'
        store.reset()


def current(app):
    return {name: getattr(app.config, name) for name in CHECKS}


def apply(app, data):
    """Applies the known keys of data; returns an error text or None."""
    if data.get('defaults'):
        for name, value in app.defaults.items():
            setattr(app.config, name, value)   # (_jsonapi_version included)
        if app.store.site != app.config.site:
            use_site(app, app.config.site)
    for name, value in data.items():
        if name == 'defaults':
            continue
        if name not in CHECKS:
            return 'Unknown setting %r; known: %s.' % (name, ', '.join(sorted(CHECKS)))
        ok, meaning = CHECKS[name]
        if not ok(value):
            return 'Setting %r must be %s.' % (name, meaning)
    for name, value in data.items():
        if name == 'site':
            if value != app.store.site:
                use_site(app, value)
        elif name in CHECKS:
            setattr(app.config, name, str(value) if name == 'drupal' else value)
    return None
