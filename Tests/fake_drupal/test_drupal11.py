"""--drupal 11: the answers that differ on Drupal 11.2 (drupal11-transcripts), and the
cache headers of both versions."""
import pytest

from conftest import start_server, stop_server
from fakehttp import ADMIN, EDITOR, call, login

ARTICLE = {'type': 'article', 'title': [{'value': 'x'}]}


@pytest.fixture(scope='module')
def d11():
    s = start_server('--drupal', '11')
    yield s
    stop_server(s)


@pytest.fixture(autouse=True)
def reset_d11(request):
    if 'd11' in request.fixturenames:
        call(request.getfixturevalue('d11'), 'POST', '/__fake/reset')
    yield


def test_406_texts(server, d11):
    for s, xml, text in ((server, 'Not acceptable format: xml', 'Not acceptable format: hal_json'),
                         (d11, 'A route that returns a rendered array as its response only supports the HTML format.',
                          'A route that returns a rendered array as its response only supports the HTML format.')):
        r = call(s, 'GET', '/node/1?_format=xml')
        assert r.status == 406 and r.body.decode() == (
            '<?xml version="1.0"?>\n<response><message>%s</message></response>\n' % xml)
        r = call(s, 'GET', '/node/1?_format=hal_json')
        assert (r.status, r.media_type, r.body.decode()) == (406, 'text/plain', text)
    r = call(server, 'POST', '/node?_format=json', 'x', headers={'Authorization': ADMIN, 'Content-Type': 'text/plain'})
    assert r.json() == {'message': 'No route found for the specified format json. Supported formats: html.'}
    r = call(d11, 'POST', '/node?_format=json', 'x', headers={'Authorization': ADMIN, 'Content-Type': 'text/plain'})
    assert (r.status, r.json()) == (406, {'message': 'No route found for the specified format. Supported formats: html.'})


def test_generator(server, d11):
    assert call(server, 'GET', '/node/1?_format=json').header('X-Generator') == 'Drupal 10 (https://www.drupal.org)'
    r = call(d11, 'GET', '/node/1')
    assert r.header('X-Generator') == 'Drupal 11 (https://www.drupal.org)'
    assert b'Drupal 11 (https://www.drupal.org)' in r.body and b'Drupal 10' not in r.body


def caches(r):
    return r.header('X-Drupal-Cache'), r.header('X-Drupal-Dynamic-Cache')


def test_cache_headers_drupal10(server):
    assert caches(call(server, 'GET', '/node/1?_format=json')) == ('MISS', 'MISS')
    assert caches(call(server, 'GET', '/node/1?_format=json', headers={'Accept': 'text/html'})) == ('HIT', 'MISS')
    cookie, csrf = login(server)
    assert caches(call(server, 'GET', '/node/1?_format=json', headers={'Cookie': cookie})) == (None, 'MISS')
    assert caches(call(server, 'GET', '/node/1?_format=json', headers={'Authorization': ADMIN})) == (None, 'HIT')
    assert caches(call(server, 'GET', '/user/1?_format=json', headers={'Authorization': ADMIN})) == (None, 'MISS')
    assert caches(call(server, 'GET', '/user/2?_format=json', headers={'Authorization': EDITOR})) == (None, 'UNCACHEABLE')
    assert caches(call(server, 'GET', '/user/login_status?_format=json')) == (None, None)
    assert caches(call(server, 'GET', '/node/99?_format=json')) == (None, None)
    assert caches(call(server, 'GET', '/user/1?_format=json')) == ('MISS', None)   # 401
    # A successful write empties the caches; a write has no cache headers.
    r = call(server, 'PATCH', '/node/1?_format=json', {'type': 'article', 'title': [{'value': 'new'}]},
             headers={'Authorization': ADMIN})
    assert r.status == 200 and caches(r) == (None, None)
    r = call(server, 'GET', '/node/1?_format=json')
    assert caches(r) == ('MISS', 'MISS') and r.json()['title'] == [{'value': 'new'}]


def test_cache_headers_drupal11(d11):
    assert caches(call(d11, 'GET', '/node/1?_format=json')) == ('MISS', 'MISS')
    assert caches(call(d11, 'GET', '/node/1?_format=json')) == ('HIT', 'MISS')
    assert caches(call(d11, 'GET', '/node/1?_format=json', headers={'Authorization': EDITOR})) == (
        'UNCACHEABLE (request policy)', 'MISS')
    assert caches(call(d11, 'GET', '/user/login_status?_format=json')) == (
        'UNCACHEABLE (no cacheability)', 'UNCACHEABLE (no cacheability)')
    assert caches(call(d11, 'GET', '/user/1?_format=json')) == ('MISS', 'UNCACHEABLE (poor cacheability)')
    assert caches(call(d11, 'POST', '/node?_format=json', ARTICLE, headers={'Authorization': ADMIN})) == (None, None)


def test_config_switch_and_jsonapi_values(server):
    assert call(server, 'GET', '/__fake/config').json()['drupal'] == '10'
    assert call(server, 'POST', '/__fake/config', {'drupal': '11'}).status == 204
    try:
        assert call(server, 'GET', '/node/1?_format=hal_json').body.startswith(b'A route that returns')
        call(server, 'POST', '/__fake/reset')   # a reset keeps the settings
        assert call(server, 'GET', '/__fake/config').json()['drupal'] == '11'
    finally:
        assert call(server, 'POST', '/__fake/config', {'defaults': True}).status == 204
    assert call(server, 'GET', '/__fake/config').json()['drupal'] == '10'
    assert call(server, 'POST', '/__fake/config', {'drupal': '12'}).status == 400
    assert call(server, 'POST', '/__fake/config', {'nonsense': 1}).status == 400


def test_version_values_for_jsonapi():
    from fakedrupal.app import Config
    c10, c11 = Config(), Config(drupal='11')
    assert (c10.jsonapi_version, c11.jsonapi_version) == ('1.0', '1.1')
    assert c11.jsonapi_object == {'version': '1.1', 'meta': {'links': {'self': {'href': 'http://jsonapi.org/format/1.1/'}}}}
    assert c10.http_status_info('10.4.5') == 'http://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.5'
    assert c11.http_status_info('10.4.5').startswith('https://www.w3.org/')
    c10.jsonapi_version = '1.1'   # an explicit setting wins over the version's own
    assert c10.jsonapi_object['version'] == '1.1'
    c10.jsonapi_version = None
    assert c10.jsonapi_version == '1.0'


def test_jsonapi_settings(server):
    assert call(server, 'POST', '/__fake/config', {'jsonapi_version': '1.1', 'jsonapi_read_only': True}).status == 204
    try:
        cfg = call(server, 'GET', '/__fake/config').json()
        assert (cfg['jsonapi_version'], cfg['jsonapi_read_only']) == ('1.1', True)
    finally:
        call(server, 'POST', '/__fake/config', {'defaults': True})
    cfg = call(server, 'GET', '/__fake/config').json()
    assert (cfg['jsonapi_version'], cfg['jsonapi_read_only']) == ('1.0', False)
