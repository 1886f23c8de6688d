"""Test-support endpoints under /__fake/ (not Drupal; no auth)."""
import json

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


def handle(req, server):
    app, store, stats, faults = server.app, server.app.store, server.stats, server.faults
    path, method = req.path.rstrip('/'), req.method
    no_content = Response(204, b'')
    if path == '/__fake/reset' and method == 'POST':
        with store.lock:
            store.reset()
        faults.clear()
        stats.reset()
        return no_content
    if path == '/__fake/stats' and method == 'GET':
        return _json(200, stats.snapshot())
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
        if last is None:
            return _json(200, {})
        return _json(200, {'method': last.method, 'target': last.target,
                           'headers': [[name, value] for name, value in last.header_list]})
    if path == '/__fake/config' and method == 'POST':
        data = _body(req)
        if data is None:
            return _json(400, {'message': 'Expected a JSON object.'})
        cfg = app.config
        for key in ('site_name', 'login_message', 'flood_limit', 'jsonapi_version', 'jsonapi_read_only'):
            if key in data:
                setattr(cfg, key, data[key])
        return no_content
    if path == '/__fake/config' and method == 'GET':
        cfg = app.config
        return _json(200, {'site_name': cfg.site_name, 'login_message': cfg.login_message,
                           'flood_limit': cfg.flood_limit,
                           # JSON:API's defaults live in jsonapi_errors.version / jsonapi._run.
                           'jsonapi_version': getattr(cfg, 'jsonapi_version', '1.0'),
                           'jsonapi_read_only': getattr(cfg, 'jsonapi_read_only', False)})
    return _json(404, {'message': 'Unknown control endpoint %s %s' % (method, req.path)})
