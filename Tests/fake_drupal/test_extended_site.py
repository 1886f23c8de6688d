"""--site extended: simple_oauth (token endpoint, Bearer), French translations at /fr and
decoupled_router, as in drupal10-oauth-language-transcripts."""
import base64
import json
import threading
import time
from urllib.parse import urlencode

import pytest

from fakehttp import ADMIN, call

FORM = {'Content-Type': 'application/x-www-form-urlencoded'}
CLIENT = {'client_id': 'sdk-client', 'client_secret': 'sdk-secret'}
ARTICLE = {'type': [{'target_id': 'article'}], 'title': [{'value': 'Created via REST (bearer)'}]}


def token(server, headers=None, **params):
    return call(server, 'POST', '/oauth/token', urlencode(params), headers=dict(FORM, **(headers or {})))


def bearer(access):
    return {'Authorization': 'Bearer ' + access}


def claims(jwt):
    part = jwt.split('.')[1]
    return json.loads(base64.urlsafe_b64decode(part + '=' * (-len(part) % 4)))


# ----- token endpoint --------------------------------------------------------------
def test_client_credentials(ext):
    r = token(ext, grant_type='client_credentials', **CLIENT)
    assert r.status == 200 and r.header('Content-Type') == 'application/json; charset=UTF-8'
    assert r.header('Cache-Control') == 'no-store, private'
    doc = r.json()
    assert sorted(doc) == ['access_token', 'expires_in', 'token_type']
    assert (doc['token_type'], doc['expires_in']) == ('Bearer', 300)
    c = claims(doc['access_token'])
    assert c['aud'] == 'sdk-client' and c['scope'] == ['content_editor'] and 'sub' not in c
    assert c['exp'] - c['iat'] == pytest.approx(300, abs=1)
    basic = 'Basic ' + base64.b64encode(b'sdk-client:sdk-secret').decode()
    r = token(ext, headers={'Authorization': basic}, grant_type='client_credentials')
    assert r.status == 200 and r.json()['access_token'] != doc['access_token']


def test_password_and_refresh_rotation(ext):
    r = token(ext, grant_type='password', username='admin', password='admin', **CLIENT)
    first = r.json()
    assert r.status == 200 and claims(first['access_token'])['sub'] == '1' and first['refresh_token']
    assert call(ext, 'GET', '/user/1?_format=json', headers=bearer(first['access_token'])).status == 200
    r = token(ext, grant_type='refresh_token', refresh_token=first['refresh_token'], **CLIENT)
    second = r.json()
    assert r.status == 200 and second['refresh_token'] != first['refresh_token']
    assert call(ext, 'GET', '/user/1?_format=json', headers=bearer(second['access_token'])).status == 200
    # The old pair is revoked at once.
    r = token(ext, grant_type='refresh_token', refresh_token=first['refresh_token'], **CLIENT)
    assert (r.status, r.json()) == (400, {'error': 'invalid_grant', 'error_description': 'The refresh token is invalid.',
                                          'hint': 'Token has been revoked'})
    r = call(ext, 'GET', '/user/1?_format=json', headers=bearer(first['access_token']))
    assert r.status == 401 and 'error_description="Access token has been revoked"' in r.header('WWW-Authenticate')


@pytest.mark.parametrize('params, headers, status, error, description, hint', [
    ({'grant_type': 'client_credentials', 'client_id': 'sdk-client', 'client_secret': 'wrong'}, {}, 401,
     'invalid_client', 'Client authentication failed', None),
    ({'grant_type': 'client_credentials', 'client_id': 'no-such-client', 'client_secret': 'x'}, {}, 401,
     'invalid_client', 'Client authentication failed', None),
    ({'grant_type': 'password', 'username': 'admin', 'password': 'wrong', **CLIENT}, {}, 400,
     'invalid_grant', 'The user credentials were incorrect.', None),
    ({'grant_type': 'foo', **CLIENT}, {}, 400, 'unsupported_grant_type',
     'The authorization grant type is not supported by the authorization server.',
     'Check that all required parameters have been provided'),
    ({'grant_type': 'authorization_code', 'code': 'x', **CLIENT}, {}, 400, 'unsupported_grant_type',
     'The authorization grant type is not supported by the authorization server.',
     'Check that all required parameters have been provided'),
    (CLIENT, {}, 400, 'unsupported_grant_type',
     'The authorization grant type is not supported by the authorization server.',
     'Check that all required parameters have been provided'),
    ({'grant_type': 'client_credentials', 'scope': 'no_such_scope', **CLIENT}, {}, 400, 'invalid_scope',
     'The requested scope is invalid, unknown, or malformed', 'Check the `no_such_scope` scope'),
    ({'grant_type': 'refresh_token', 'refresh_token': 'garbage', **CLIENT}, {}, 400, 'invalid_grant',
     'The refresh token is invalid.', 'Cannot decrypt the refresh token'),
])
def test_token_errors(ext, params, headers, status, error, description, hint):
    r = token(ext, headers=headers, **params)
    doc = {'error': error, 'error_description': description}
    if hint:
        doc['hint'] = hint
    assert (r.status, r.media_type, r.json()) == (status, 'application/json', doc)
    assert r.header('WWW-Authenticate') is None


def test_token_request_shapes(ext):
    basic = 'Basic ' + base64.b64encode(b'sdk-client:wrong').decode()
    r = token(ext, headers={'Authorization': basic}, grant_type='client_credentials')
    assert r.status == 401 and r.header('WWW-Authenticate') == 'Basic realm="OAuth"'
    r = call(ext, 'POST', '/oauth/token', {'grant_type': 'client_credentials', **CLIENT})   # JSON body
    assert r.status == 400 and r.json()['error'] == 'invalid_request'
    assert r.json()['hint'] == 'Check the `client_id` parameter'
    r = call(ext, 'GET', '/oauth/token')
    assert (r.status, r.media_type, r.header('Allow')) == (405, 'text/html', 'POST')
    assert b'<title>Client error | RealDrupal</title>' in r.body


def test_short_lifetime_and_stats(ext):
    assert call(ext, 'POST', '/__fake/config', {'oauth_access_ttl': 0.3}).status == 204
    try:
        access = token(ext, grant_type='client_credentials', **CLIENT).json()['access_token']
        assert call(ext, 'GET', '/user/2?_format=json', headers=bearer(access)).status == 200
        time.sleep(0.4)
        r = call(ext, 'GET', '/node/1?_format=json', headers=bearer(access))
        assert r.status == 401
        assert 'error_description="Access token could not be verified"' in r.header('WWW-Authenticate')
    finally:
        call(ext, 'POST', '/__fake/config', {'defaults': True})
    st = call(ext, 'GET', '/__fake/stats').json()
    assert st['token_requests'] == 1 and st['token_grants'] == {'client_credentials': 1}


def test_concurrent_refresh_succeeds_once(ext):
    refresh = token(ext, grant_type='password', username='editor', password='editor', **CLIENT).json()['refresh_token']
    results = []

    def one():
        results.append(token(ext, grant_type='refresh_token', refresh_token=refresh, **CLIENT).status)
    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200] + [400] * 7
    st = call(ext, 'GET', '/__fake/stats').json()
    assert st['token_requests'] == 9 and st['token_grants'] == {'password': 1, 'refresh_token': 1}


# ----- Bearer on REST ----------------------------------------------------------------
def test_bearer_rest(ext):
    access = token(ext, grant_type='client_credentials', **CLIENT).json()['access_token']
    r = call(ext, 'POST', '/node?_format=json', ARTICLE, headers=bearer(access))   # no CSRF token
    assert r.status == 201 and r.json()['uid'][0]['target_id'] == 2
    assert (r.header('X-Consumer-ID'), r.header('Vary')) == ('sdk-client', 'X-Consumer-ID')
    r = call(ext, 'PATCH', '/node/1?_format=json', ARTICLE, headers=bearer(access))
    assert (r.status, r.json()) == (403, {'message': "The 'edit any article content' permission is required."})
    r = call(ext, 'GET', '/api/articles?_format=json', headers=bearer(access))
    assert (r.status, r.json()) == (403, {'message': 'The used authentication method is not allowed on this route.'})
    assert call(ext, 'DELETE', '/node/6?_format=json', headers=bearer(access)).status == 204
    assert call(ext, 'GET', '/node/1?_format=json').header('X-Consumer-ID') == 'default_consumer'


@pytest.mark.parametrize('value, why', [
    ('garbage', 'The JWT string must have two dots'),
    ('a.b', 'The JWT string must have two dots'),
    ('a!.b.c', 'Error while decoding from Base64Url, invalid base64 characters detected'),
    ('YQ.YQ.YQ', 'Error while decoding from JSON'),
    ('eyJ0eXAiOiJKV1QifQ.eyJhdWQiOiJ4In0.c2ln', 'Access token could not be verified'),
])
def test_bad_bearer_is_always_401(ext, value, why):
    challenge = 'Bearer realm="OAuth", error="access_denied", error_description="%s"' % why
    r = call(ext, 'GET', '/node/1?_format=json', headers=bearer(value))
    assert (r.status, r.json()) == (401, {'message': 'The resource owner or authorization server denied the request.'})
    assert r.header('WWW-Authenticate') == challenge
    r = call(ext, 'GET', '/jsonapi/node/article', headers=bearer(value))   # no _format: an HTML page
    assert (r.status, r.media_type, r.header('WWW-Authenticate')) == (401, 'text/html', challenge)
    assert b'<title>Unauthorized | RealDrupal</title>' in r.body


def test_bearer_failure_helpers():
    from fakedrupal.auth import AuthResult, bearer_401, bearer_failure
    result = AuthResult()
    assert bearer_failure(result) is None
    result.bearer_error = 'Access token has been revoked'
    resp = bearer_401(bearer_failure(result), 'html', 'RealDrupal')
    assert resp.status == 401 and resp.header('Content-Type').startswith('text/html')
    assert 'Access token has been revoked' in resp.header('WWW-Authenticate')


# ----- languages -----------------------------------------------------------------------
def test_french_reads(ext):
    r = call(ext, 'GET', '/fr/node/1?_format=json')
    node = r.json()
    assert r.header('Content-language') == 'fr'
    assert node['langcode'] == [{'value': 'fr'}] and node['title'] == [{'value': 'Article 1 FR'}]
    assert node['default_langcode'] == [{'value': False}] and node['content_translation_source'] == [{'value': 'en'}]
    assert node['body'][0]['value'] == "<p>Corps de l'article 1</p>" and node['comment'][0]['cid'] is None
    en = call(ext, 'GET', '/node/1?_format=json').json()
    assert en['title'] == [{'value': 'Article 1'}] and en['content_translation_source'] == [{'value': 'und'}]
    assert list(en).index('content_translation_source') == list(en).index('path') + 1
    r = call(ext, 'GET', '/fr/node/2?_format=json')   # no translation: the original, no 404
    assert r.status == 200 and r.json()['langcode'] == [{'value': 'en'}]
    assert b'Article 1 FR' in call(ext, 'GET', '/fr/node/1').body
    r = call(ext, 'GET', '/fr/no/such/page?_format=json')
    assert (r.status, r.json()) == (404, {'message': 'No route found for "GET %s/fr/no/such/page"' % ext.base})


def test_french_writes(ext):
    h = {'Authorization': ADMIN}
    r = call(ext, 'PATCH', '/fr/node/1?_format=json', {'type': [{'target_id': 'article'}],
                                                       'title': [{'value': 'Article 1 FR (modifié)'}]}, headers=h)
    assert r.status == 200 and r.json()['title'] == [{'value': 'Article 1 FR (modifié)'}]
    assert call(ext, 'GET', '/node/1?_format=json', headers=h).json()['title'] == [{'value': 'Article 1'}]
    r = call(ext, 'POST', '/fr/node?_format=json', {'type': [{'target_id': 'article'}],
                                                    'title': [{'value': 'Nouvel article'}]}, headers=h)
    assert r.status == 201 and r.json()['langcode'] == [{'value': 'en'}]
    assert r.header('Location') == ext.base + '/node/6'
    r = call(ext, 'POST', '/fr/node?_format=json', {'type': [{'target_id': 'article'}], 'nid': [{'value': 3}],
                                                    'title': [{'value': 'x'}]}, headers=h)
    assert (r.status, r.json()) == (403, {'message': "Access denied on creating field 'nid'."})
    uuid = call(ext, 'GET', '/node/3?_format=json').json()['uuid'][0]['value']
    r = call(ext, 'POST', '/fr/node?_format=json', {'type': [{'target_id': 'article'}], 'uuid': [{'value': uuid}],
                                                    'title': [{'value': 'x'}]}, headers=h)
    assert (r.status, r.media_type) == (500, 'text/plain')
    # PATCH with langcode under /fr on a node without a translation changes the ORIGINAL's language.
    r = call(ext, 'PATCH', '/fr/node/6?_format=json', {'type': [{'target_id': 'article'}],
                                                       'langcode': [{'value': 'fr'}]}, headers=h)
    assert r.status == 200
    again = call(ext, 'GET', '/node/6?_format=json', headers=h).json()
    assert again['langcode'] == [{'value': 'fr'}] and again['default_langcode'] == [{'value': True}]
    assert again['path'][0]['langcode'] == 'fr'
    # DELETE under /fr deletes the whole node.
    assert call(ext, 'DELETE', '/fr/node/1?_format=json', headers=h).status == 204
    assert call(ext, 'GET', '/node/1?_format=json', headers=h).status == 404
    assert call(ext, 'GET', '/fr/node/1?_format=json', headers=h).status == 404


def test_jsonapi_translation_refusals(ext):
    from fakedrupal import languages
    from fakedrupal.store import Store
    store = Store()
    store.site = 'extended'
    store.reset()
    n1, n2 = store.get('node', 1), store.get('node', 2)
    assert languages.jsonapi_refusal(store, 'node', 2, n2, 'PATCH', 'fr') == (
        405, 'The requested translation of the resource object does not exist, instead modify one of the '
             'translations that do exist: en.', 'GET')
    assert languages.jsonapi_refusal(store, 'node', 1, n1, 'PATCH', 'fr') is None
    assert languages.jsonapi_refusal(store, 'node', 1, n1, 'DELETE', 'fr')[0] == 405
    assert languages.jsonapi_refusal(store, 'node', 1, n1, 'DELETE', 'en') is None
    fr = languages.view(store, 'node', 1, n1, 'fr')
    assert fr['title'] == [{'value': 'Article 1 FR'}] and n1['title'] == [{'value': 'Article 1'}]


# ----- decoupled_router ------------------------------------------------------------------
def test_router(ext):
    r = call(ext, 'GET', '/router/translate-path?path=/node/1&_format=json')
    doc = r.json()
    uuid = call(ext, 'GET', '/node/1?_format=json').json()['uuid'][0]['value']
    assert doc['resolved'] == ext.base + '/node/1' and doc['label'] == 'Article 1'
    assert doc['entity'] == {'canonical': ext.base + '/node/1', 'type': 'node', 'bundle': 'article', 'id': '1',
                             'uuid': uuid}
    assert doc['jsonapi']['individual'] == ext.base + '/jsonapi/node/article/' + uuid
    assert call(ext, 'GET', '/router/translate-path?path=/fr/node/1&_format=json').json() == doc
    r = call(ext, 'GET', '/router/translate-path?path=/no/such/page&_format=json')
    assert (r.status, r.json()) == (404, {
        'message': 'Unable to resolve path /no/such/page.',
        'details': 'None of the available methods were able to find a match for this path.'})
    assert call(ext, 'GET', '/router/translate-path?path=/user/1&_format=json').status == 403


def test_users_still_register_and_reset(ext):
    r = call(ext, 'POST', '/user/register?_format=json', {'name': [{'value': 'new'}], 'mail': [{'value': 'n@x.org'}]})
    assert r.status == 200
    r = call(ext, 'POST', '/user/password?_format=json', {'name': 'editor'})
    assert (r.status, r.body) == (200, b'')


def test_base_site_has_none_of_it(server):
    assert call(server, 'GET', '/fr/node/1?_format=json').status == 404
    assert call(server, 'POST', '/oauth/token', urlencode({'grant_type': 'client_credentials', **CLIENT}),
                headers=FORM).status == 404
    assert call(server, 'GET', '/router/translate-path?path=/node/1&_format=json').status == 404
    assert 'content_translation_source' not in call(server, 'GET', '/node/1?_format=json').json()


def test_switching_site_at_run_time(server):
    assert call(server, 'POST', '/__fake/config', {'site': 'extended'}).status == 204
    try:
        assert call(server, 'GET', '/fr/node/1?_format=json').json()['title'] == [{'value': 'Article 1 FR'}]
        assert token(server, grant_type='client_credentials', **CLIENT).status == 200
    finally:
        call(server, 'POST', '/__fake/config', {'defaults': True})
    assert call(server, 'GET', '/fr/node/1?_format=json').status == 404


def test_forced_expiry(ext):
    """POST /__fake/oauth-expire: every access token is expired at once, refresh tokens stay."""
    doc = token(ext, grant_type='password', username='admin', password='admin', **CLIENT).json()
    assert call(ext, 'GET', '/user/1?_format=json', headers=bearer(doc['access_token'])).status == 200
    r = call(ext, 'POST', '/__fake/oauth-expire')
    assert r.status == 200 and r.json()['expired'] >= 1
    r = call(ext, 'GET', '/user/1?_format=json', headers=bearer(doc['access_token']))
    assert r.status == 401
    assert 'error_description="Access token could not be verified"' in r.header('WWW-Authenticate')
    fresh = token(ext, grant_type='refresh_token', refresh_token=doc['refresh_token'], **CLIENT)
    assert fresh.status == 200
    assert call(ext, 'GET', '/user/1?_format=json', headers=bearer(fresh.json()['access_token'])).status == 200


def test_private_files(ext):
    """Private files: /system/files/... for the owner (cookie or Bearer) and administrators only."""
    data = base64.b64encode(b'secret report').decode()
    made = call(ext, 'POST', '/__fake/private-file', {'name': 'report.txt', 'uid': 2, 'data_base64': data}).json()
    assert made['url'].startswith('/system/files/') and made['url'].endswith('/report.txt')
    entity = call(ext, 'GET', '/entity/file/%d?_format=json' % made['fid'], headers={'Authorization': ADMIN}).json()
    assert entity['uri'][0]['value'].startswith('private://') and entity['uri'][0]['url'] == made['url']
    assert call(ext, 'GET', made['url']).status == 403                       # anonymous
    access = token(ext, grant_type='client_credentials', **CLIENT).json()['access_token']   # editor, the owner
    r = call(ext, 'GET', made['url'], headers=bearer(access))
    assert (r.status, r.body, r.media_type) == (200, b'secret report', 'text/plain')
    other = token(ext, grant_type='password', username='admin', password='admin', **CLIENT).json()['access_token']
    assert call(ext, 'GET', made['url'], headers=bearer(other)).status == 200  # an administrator
    assert call(ext, 'GET', made['url'], headers={'Authorization': ADMIN}).status == 403   # Basic: not on this route
    assert call(ext, 'GET', '/system/files/nope.txt', headers=bearer(access)).status == 404
    assert call(ext, 'POST', '/__fake/private-file', {'name': '../x'}).status == 400


def test_jsonapi_filters_range_over_every_translation(ext):
    """An entity query's conditions range over the data table's rows, one per translation (no
    langcode condition unless the filter sends one): a filter matches an entity when one of its
    translations does, and the entity is then shown in the request's language. No recording
    filters on a translated field; Drupal's SQL entity query decides."""
    def titles(prefix, **filters):
        query = urlencode({'filter[%s]' % k: v for k, v in filters.items()})
        r = call(ext, 'GET', '%s/jsonapi/node/article?%s' % (prefix, query))
        assert r.status == 200
        return [item['attributes']['title'] for item in r.json()['data']]
    assert titles('/fr', langcode='fr') == ['Article 1 FR']          # French content, in French
    assert titles('', langcode='fr') == ['Article 1']                # the same node, in English
    assert titles('/fr', title='Article 1') == ['Article 1 FR']      # the English title matched
    assert titles('', title='Article 1 FR') == ['Article 1']
    assert titles('/fr', title='Article 2') == ['Article 2']         # untranslated: the original
    assert titles('', title='Nope') == []


def test_jsonapi_writes_only_the_translation_in_the_request_language(ext):
    """JSON:API's entity converter (EntityUuidConverter::convert) on a translatable entity: a PATCH
    is refused (405) unless the entity shown is in the request's content language, a DELETE unless
    it is also the default translation. So a French original is written under /fr and refused
    without a prefix; a bundle without translation (page) is not checked at all. Recordings 83 and
    83c show two of these cases; Drupal's source decides the others."""
    h = {'Authorization': ADMIN, 'Content-Type': 'application/vnd.api+json'}

    def send(method, path, body=None):
        return call(ext, method, path, json.dumps(body) if body else None, headers=h)

    def patch(prefix, type_, uuid):
        return send('PATCH', '%s/jsonapi/node/%s/%s' % (prefix, type_, uuid),
                    {'data': {'type': 'node--' + type_, 'id': uuid, 'attributes': {'title': 'changed'}}})
    r = send('POST', '/fr/jsonapi/node/article',
             {'data': {'type': 'node--article', 'attributes': {'title': 'Français', 'langcode': 'fr'}}})
    assert r.status == 201
    french = r.json()['data']['id']
    r = patch('', 'article', french)                        # shown in French, the request is in English
    assert (r.status, r.header('Allow')) == (405, 'GET')
    assert r.json()['errors'][0]['detail'] == ('The requested translation of the resource object does not '
                                               'exist, instead modify one of the translations that do exist: fr.')
    assert send('DELETE', '/jsonapi/node/article/' + french).status == 405
    assert patch('/fr', 'article', french).status == 200
    assert send('DELETE', '/fr/jsonapi/node/article/' + french).status == 204
    r = send('POST', '/jsonapi/node/page', {'data': {'type': 'node--page', 'attributes': {'title': 'Page'}}})
    assert r.status == 201
    page = r.json()['data']['id']
    assert patch('/fr', 'page', page).status == 200          # not translatable: no language check
    assert send('DELETE', '/fr/jsonapi/node/page/' + page).status == 204


def test_the_translation_check_comes_with_the_entity_before_access(ext):
    """The converter runs when the route's {entity} is converted: before access checks (an
    anonymous PATCH is a 405, not a 401), and on the relationship routes' PATCH and DELETE too
    (their POST is not checked)."""
    h = {'Content-Type': 'application/vnd.api+json'}
    article2 = call(ext, 'GET', '/jsonapi/node/article?filter[drupal_internal__nid]=2').json()['data'][0]['id']
    article1 = call(ext, 'GET', '/jsonapi/node/article?filter[drupal_internal__nid]=1').json()['data'][0]['id']
    doc = json.dumps({'data': {'type': 'node--article', 'id': article2, 'attributes': {'title': 'x'}}})
    assert call(ext, 'PATCH', '/fr/jsonapi/node/article/' + article2, doc, headers=h).status == 405
    tags = json.dumps({'data': []})
    admin = dict(h, Authorization=ADMIN)
    r = call(ext, 'PATCH', '/fr/jsonapi/node/article/%s/relationships/field_tags' % article2, tags, headers=admin)
    assert r.status == 405 and 'translations that do exist: en.' in r.json()['errors'][0]['detail']
    r = call(ext, 'DELETE', '/fr/jsonapi/node/article/%s/relationships/field_tags' % article1, tags, headers=admin)
    assert r.status == 405 and r.json()['errors'][0]['detail'].startswith('Deleting a resource object translation')
    r = call(ext, 'POST', '/fr/jsonapi/node/article/%s/relationships/field_tags' % article2, tags, headers=admin)
    assert r.status == 200      # not checked: the relationship as it now is
