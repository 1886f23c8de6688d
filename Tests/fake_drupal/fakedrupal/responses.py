"""Response objects and the error bodies Drupal produces for each format."""
import html

from . import jsonenc

GENERIC_5XX = 'The website encountered an unexpected error. Try again later.'

REASONS = {
    100: 'Continue', 200: 'OK', 201: 'Created', 204: 'No Content',
    301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 307: 'Temporary Redirect',
    308: 'Permanent Redirect',
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
    405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict',
    413: 'Payload Too Large', 415: 'Unsupported Media Type',
    422: 'Unprocessable Content', 429: 'Too Many Requests',
    500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
    504: 'Gateway Timeout',
}

# Headers every Drupal response carries (trimmed to the ones clients may look at).
BASE_HEADERS = [
    ('Cache-Control', 'must-revalidate, no-cache, private'),
    ('X-Content-Type-Options', 'nosniff'),
    ('X-Generator', 'Drupal 10 (https://www.drupal.org)'),
]

JSON = 'application/json'
TEXT = 'text/plain; charset=UTF-8'
HTML = 'text/html; charset=UTF-8'
XML = 'text/xml; charset=UTF-8'


class Response:
    cacheability = None   # None, 'cacheable' or 'poor': see pagecache.py
    exception = False     # made from an exception (an error answer)

    def __init__(self, status, body=b'', content_type=None, headers=None):
        self.status = status
        self.body = body if isinstance(body, bytes) else body.encode('utf-8')
        self.headers = list(BASE_HEADERS)
        if content_type:
            self.headers.append(('Content-Type', content_type))
        if headers:
            self.headers.extend(headers)

    def add_header(self, name, value):
        self.headers.append((name, value))

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None

    def head_bytes(self, content_length=None):
        """Status line and headers, ready to send, always with a Content-Length."""
        length = len(self.body) if content_length is None else content_length
        lines = ['HTTP/1.1 %d %s' % (self.status, REASONS.get(self.status, 'Unknown'))]
        lines.extend('%s: %s' % kv for kv in self.headers)
        if self.status != 204:  # 204 has no body and must not carry a length (RFC 9110)
            lines.append('Content-Length: %d' % length)
        return ('\r\n'.join(lines) + '\r\n\r\n').encode('latin-1')

    def to_bytes(self, head_only=False):
        head = self.head_bytes()
        return head if head_only else head + self.body


def json_response(status, data, headers=None):
    return Response(status, jsonenc.dumps_bytes(data), JSON, headers)


def html_page(status, title, text, site_name, headers=None):
    body = ('<!DOCTYPE html>\n<html lang="en" dir="ltr">\n<head>\n<meta charset="utf-8" />\n'
            '<meta name="Generator" content="Drupal 10 (https://www.drupal.org)" />\n'
            '<title>%s | %s</title>\n</head>\n<body>\n<main>\n<h1>%s</h1>\n%s\n</main>\n</body>\n</html>\n'
            % (html.escape(title), html.escape(site_name), html.escape(title), text))
    return Response(status, body, HTML, headers)


def error(status, message, fmt, site_name='Drupal', headers=None):
    """An HttpException rendered the way Drupal renders it for the request format."""
    if status >= 500:
        if fmt in (None, 'html'):
            return html_page(status, 'Error', '<p>%s</p>' % GENERIC_5XX, site_name, headers)
        return Response(status, GENERIC_5XX, TEXT, headers)
    if fmt == 'json':
        return json_response(status, {'message': message}, headers)
    if fmt == 'xml':
        body = ('<?xml version="1.0"?>\n<response><message>%s</message></response>\n'
                % html.escape(message, quote=False))
        return Response(status, body, XML, headers)
    if fmt in (None, 'html'):
        # Drupal's routes system.401/403/404; every other 4xx renders system.4xx.
        title = {401: 'Unauthorized', 403: 'Access denied', 404: 'Page not found'}.get(status, 'Client error')
        return html_page(status, title, '<p>%s</p>' % html.escape(message), site_name, headers)
    return Response(status, message, TEXT, headers)


def server_error(fmt='json'):
    return error(500, GENERIC_5XX, fmt)
