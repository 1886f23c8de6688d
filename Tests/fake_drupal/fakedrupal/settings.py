"""The run-time settings behind GET/POST /__fake/config: names, checks, and
what changing one does. A reset (POST /__fake/reset) keeps them; the start-up
values come back with POST /__fake/config {"defaults": true}."""

# name -> (check, meaning of a bad value)
CHECKS = {
    'site_name': (lambda v: isinstance(v, str), 'a string'),
    'login_message': (lambda v: v in ('10', '11.4'), '"10" or "11.4"'),
    'flood_limit': (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0, 'an integer >= 0'),
    'drupal': (lambda v: str(v) in ('10', '11'), '"10" or "11"'),
}


def current(app):
    return {name: getattr(app.config, name) for name in CHECKS}


def apply(app, data):
    """Applies the known keys of data; returns an error text or None."""
    if data.get('defaults'):
        for name, value in app.defaults.items():
            setattr(app.config, name, value)
    for name, value in data.items():
        if name == 'defaults':
            continue
        if name not in CHECKS:
            return 'Unknown setting %r; known: %s.' % (name, ', '.join(sorted(CHECKS)))
        ok, meaning = CHECKS[name]
        if not ok(value):
            return 'Setting %r must be %s.' % (name, meaning)
    for name, value in data.items():
        if name in CHECKS:
            setattr(app.config, name, str(value) if name == 'drupal' else value)
    return None
