"""A small HTTP client for the tests of this directory (standard library only)."""
import base64
import http.client
import json

ADMIN = 'Basic ' + base64.b64encode(b'admin:admin').decode()
EDITOR = 'Basic ' + base64.b64encode(b'editor:editor').decode()


class Resp:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers      # list of (name, value)
        self.body = body

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None

    def all(self, name):
        return [v for k, v in self.headers if k.lower() == name.lower()]

    @property
    def media_type(self):
        ct = self.header('Content-Type')
        return ct.split(';')[0].strip().lower() if ct else None

    def json(self):
        return json.loads(self.body)


def call(server, method, path, body=None, headers=None, timeout=10):
    conn = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    headers = dict(headers or {})
    if isinstance(body, (dict, list)):
        body = json.dumps(body)
        headers.setdefault('Content-Type', 'application/json')
    try:
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        return Resp(r.status, r.getheaders(), r.read())
    finally:
        conn.close()


def login(server, name='admin', password=None):
    r = call(server, 'POST', '/user/login?_format=json', {'name': name, 'pass': password or name})
    assert r.status == 200, r.body
    return r.header('Set-Cookie').split(';')[0], r.json()['csrf_token']
