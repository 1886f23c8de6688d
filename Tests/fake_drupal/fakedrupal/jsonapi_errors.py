"""JSON:API documents on the wire: the "jsonapi" member, error documents and
responses labelled application/vnd.api+json.

Error objects are {title, status (a string), detail, links{via, info}, source}.
links.via is the request URL; links.info an RFC 2616 section (none for 422,
which RFC 2616 lacks). Validation errors (422) carry source.pointer and no
links at all (44d, 125, 126).
"""
from . import jsonenc, responses
from .responses import Response

MEDIA_TYPE = 'application/vnd.api+json'
SECTIONS = {400: '10.4.1', 401: '10.4.2', 403: '10.4.4', 404: '10.4.5', 405: '10.4.6', 406: '10.4.7',
            409: '10.4.10', 410: '10.4.11', 412: '10.4.13', 415: '10.4.16', 500: '10.5.1',
            501: '10.5.2', 503: '10.5.4'}
# responses.REASONS is the status-line table; JSON:API also answers 501.
responses.REASONS.setdefault(501, 'Not Implemented')


def version(config):
    """The JSON:API version string: "1.0" on Drupal 10 and up to 11.1, "1.1" from 11.2."""
    return getattr(config, 'jsonapi_version', '1.0')


def jsonapi_member(config):
    v = version(config)
    return {'version': v, 'meta': {'links': {'self': {'href': 'http://jsonapi.org/format/%s/' % v}}}}


def info_href(config, status):
    section = SECTIONS.get(status)
    if section is None:
        return None
    # Drupal 11.2 (JSON:API 1.1) switched these links to https.
    scheme = 'http' if version(config) == '1.0' else 'https'
    return '%s://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec%s' % (scheme, section)


class JsonApiError(Exception):
    """One error object. info=False leaves links.info out; info='<url>' sets it."""

    def __init__(self, status, detail, pointer=None, headers=None, info=True, via=True):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.pointer = pointer
        self.headers = headers or []
        self.info = info
        self.via = via


class Violations(Exception):
    """422 with one error object per violation: [(detail, pointer)]."""

    def __init__(self, items):
        super().__init__('; '.join(d for d, _ in items))
        self.items = items


def document(status, doc, headers=None):
    return Response(status, jsonenc.dumps_bytes(doc), MEDIA_TYPE, headers)


def error_response(config, via_url, exc):
    if isinstance(exc, Violations):
        errors = [{'title': responses.REASONS.get(422), 'status': '422', 'detail': detail,
                   'source': {'pointer': pointer}} for detail, pointer in exc.items]
        return document(422, {'jsonapi': jsonapi_member(config), 'errors': errors})
    status = exc.status
    err = {'title': responses.REASONS.get(status, 'Error'), 'status': str(status), 'detail': exc.detail}
    links = {}
    if exc.via:
        links['via'] = {'href': via_url}
    info = exc.info if isinstance(exc.info, str) else (info_href(config, status) if exc.info else None)
    if info:
        links['info'] = {'href': info}
    if links:
        err['links'] = links
    if exc.pointer is not None:
        err['source'] = {'pointer': exc.pointer}
    return document(status, {'jsonapi': jsonapi_member(config), 'errors': [err]}, exc.headers)
