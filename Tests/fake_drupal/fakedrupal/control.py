"""Test-support endpoints under /__fake/ (not Drupal; no auth)."""
import base64
import json
import mimetypes
import re
import time

from . import settings
from .faults import MODES
from .responses import Response
from . import seed


def _json(status, data):
    return Response(status, json.dumps(data).encode(), 'application/json')


def _body(req):
    try:
        data = json.loads(req.body.decode('utf-8')) if req.body.strip() else {}
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _described(req):
    body = req.body or b''
    return {'method': req.method, 'target': req.target,
            'headers': [[name, value] for name, value in req.header_list],
            # The body as text (undecodable bytes replaced) and in base64, exactly.
            'body': body.decode('utf-8', 'replace'),
            'body_base64': base64.b64encode(body).decode('ascii'),
            'body_length': len(body)}


def handle(req, server):
    app, store, stats, faults = server.app, server.app.store, server.stats, server.faults
    path, method = req.path.rstrip('/'), req.method
    no_content = Response(204, b'')
    if path == '/__fake/reset' and method == 'POST':
        with store.lock:
            store.reset()
        faults.clear()
        stats.reset()
        server.last_request = None
        server.recent_requests.clear()
        return no_content
    if path == '/__fake/stats' and method == 'GET':
        with store.lock:
            # Token endpoint answers (any outcome), and successful ones per grant type.
            oauth = {'token_requests': store.oauth.requests, 'token_grants': dict(store.oauth.grants)}
        return _json(200, dict(stats.snapshot(), **oauth))
    if path == '/__fake/invalidate-csrf' and method == 'POST':
        with store.lock:
            store.invalidate_csrf()
        return no_content
    if path == '/__fake/bearer' and method == 'POST':
        data = _body(req)
        if not data or not isinstance(data.get('token'), str) or not isinstance(data.get('uid'), int):
            return _json(400, {'message': 'Expected {"token": "...", "uid": <int>}.'})
        with store.lock:
            store.bearer[data['token']] = data['uid']
        return no_content
    if path == '/__fake/oauth-expire' and method == 'POST':
        # Every access token issued so far expires now: a forced expiry, without the wait.
        with store.lock:
            expired = store.oauth.expire_all()
        return _json(200, {'expired': expired})
    if path == '/__fake/private-file' and method == 'POST':
        data = _body(req)
        name = data.get('name') if data else None
        if not isinstance(name, str) or not re.fullmatch(r'[A-Za-z0-9._-]+', name) or \
                not isinstance(data.get('uid', 1), int) or not isinstance(data.get('data_base64', ''), str):
            return _json(400, {'message': 'Expected {"name": "a.txt", "uid": <int>, "data_base64": "..."}.'})
        try:
            content = base64.b64decode(data.get('data_base64', ''), validate=True)
        except ValueError:
            return _json(400, {'message': 'data_base64 is not base64.'})
        with store.lock:
            uri = 'private://%s/%s' % (time.strftime('%Y-%m', time.gmtime()), name)
            mime = mimetypes.guess_type(name)[0] or 'application/octet-stream'
            fid = store.create_file(data.get('uid', 1), name, uri, mime, content)
            store.entities['file'][fid]['status'] = [{'value': True}]
        return _json(200, {'fid': fid, 'url': '/system/files/' + uri[len('private://'):]})
    if path == '/__fake/seed' and method == 'POST':
        data = _body(req)
        count = data.get('articles') if data else None
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= seed.MAX_ARTICLES:
            return _json(400, {'message': 'Expected {"articles": <0..%d>}.' % seed.MAX_ARTICLES})
        with store.lock:
            nids = seed.seed_articles(store, count)
        return _json(200, {'nids': [nids[0], nids[-1]] if nids else []})
    if path == '/__fake/faults':
        if method == 'DELETE':
            faults.clear()
            return no_content
        if method == 'GET':
            return _json(200, {'fault': faults.get()})
        if method == 'POST':
            data = _body(req)
            if not data or data.get('mode') not in MODES:
                return _json(400, {'message': 'Expected {"mode": one of %s, ...}.' % ', '.join(MODES)})
            faults.set(data)
            return no_content
    if path == '/__fake/last-request' and method == 'GET':
        # What the last Drupal request carried, e.g. to prove credentials did not follow a redirect.
        last = server.last_request
        return _json(200, _described(last) if last is not None else {})
    if path == '/__fake/requests' and method == 'GET':
        # The last 50 Drupal requests, oldest first (e.g. to prove nothing reached this server).
        return _json(200, {'requests': [_described(r) for r in list(server.recent_requests)]})
    if path == '/__fake/config' and method == 'POST':
        data = _body(req)
        if data is None:
            return _json(400, {'message': 'Expected a JSON object.'})
        problem = settings.apply(app, data)
        if problem:
            return _json(400, {'message': problem})
        return no_content
    if path == '/__fake/config' and method == 'GET':
        return _json(200, settings.current(app))
    return _json(404, {'message': 'Unknown control endpoint %s %s' % (method, req.path)})
