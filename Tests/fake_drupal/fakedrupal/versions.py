"""What Drupal 11.2 answers differently from 10.3 (drupal11-transcripts).

Selected with --drupal 11 or POST /__fake/config {"drupal": "11"}. Texts only:
the routes, access rules and payloads are the same in both versions.
"""


def is11(config):
    return str(config.drupal).split('.')[0] == '11'


def generator(config):
    return 'Drupal %s (https://www.drupal.org)' % ('11' if is11(config) else '10')


def jsonapi_version(config):
    return '1.1' if is11(config) else '1.0'


def jsonapi_object(config):
    v = config.jsonapi_version   # the version's own unless set explicitly
    return {'version': v, 'meta': {'links': {'self': {'href': 'http://jsonapi.org/format/%s/' % v}}}}


def http_status_info(config, section):
    scheme = 'https' if is11(config) else 'http'
    return '%s://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec%s' % (scheme, section)


def render_array_not_html(config, fmt):
    """406 of an HTML-only (render array) route asked for another _format (14c, 14d)."""
    if is11(config):
        return 'A route that returns a rendered array as its response only supports the HTML format.'
    return 'Not acceptable format: %s' % fmt


def no_route_for_format(config, fmt, supported):
    """406 when no route on the path serves the _format (22, 22b)."""
    if is11(config):
        return 'No route found for the specified format. Supported formats: %s.' % supported
    return 'No route found for the specified format %s. Supported formats: %s.' % (fmt, supported)
