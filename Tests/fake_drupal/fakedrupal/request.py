"""A parsed HTTP request, reduced to what the Drupal pipeline needs."""
from urllib.parse import parse_qsl, unquote, urlsplit


class Request:
    def __init__(self, method, target, header_list, body, client_ip, server_addr):
        self.method = method
        self.target = target
        parts = urlsplit(target)
        self.path = unquote(parts.path) or '/'
        self.query_string = parts.query
        # PHP semantics: the last occurrence of a key wins.
        self.query = dict(parse_qsl(parts.query, keep_blank_values=True))
        self.header_list = header_list
        headers = {}
        for name, value in header_list:
            key = name.lower()
            if key in headers:
                headers[key] += ('; ' if key == 'cookie' else ', ') + value
            else:
                headers[key] = value
        self.headers = headers
        self.body = body
        self.client_ip = client_ip
        self.host = headers.get('host') or '%s:%d' % server_addr
        self.base_url = 'http://' + self.host
        self.cookies = {}
        for part in headers.get('cookie', '').split(';'):
            name, sep, value = part.strip().partition('=')
            if sep and name not in self.cookies:
                self.cookies[name] = value

    @property
    def content_type(self):
        return self.headers.get('content-type', '').split(';')[0].strip().lower()
