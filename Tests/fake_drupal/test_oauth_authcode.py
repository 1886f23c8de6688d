"""--site extended: simple_oauth's authorization code grant with PKCE (oauth_code.py):
GET /oauth/authorize and grant_type=authorization_code. No recording shows it; the
expectations are league/oauth2-server 9.x's texts and simple_oauth's controller."""
import base64
import hashlib
import json
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from fakehttp import ADMIN, call, login

FORM = {'Content-Type': 'application/x-www-form-urlencoded'}
DESKTOP = 'sdk-desktop'
CALLBACK = 'http://127.0.0.1:8765/callback'
WEB = {'client_id': 'sdk-web', 'client_secret': 'sdk-web-secret'}
WEB_CALLBACK = 'http://127.0.0.1:8765/web-callback'
VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'      # RFC 7636 appendix B
CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'
INVALID_REQUEST = ('The request is missing a required parameter, includes an invalid parameter value, '
                   'includes a parameter more than once, or is otherwise malformed.')
INVALID_GRANT = ('The provided authorization grant (e.g., authorization code, resource owner credentials) or '
                 'refresh token is invalid, expired, revoked, does not match the redirection URI used in the '
                 'authorization request, or was issued to another client.')


def authorize_query(**overrides):
    params = {'response_type': 'code', 'client_id': DESKTOP, 'redirect_uri': CALLBACK,
              'scope': 'content_editor', 'state': 'xyz', 'code_challenge': CHALLENGE,
              'code_challenge_method': 'S256'}
    params.update(overrides)
    return '/oauth/authorize?' + urlencode({k: v for k, v in params.items() if v is not None})


def authorize(server, cookie, **overrides):
    return call(server, 'GET', authorize_query(**overrides), headers={'Cookie': cookie})


def callback_params(resp):
    assert resp.status == 302, resp.body
    return {k: v[0] for k, v in parse_qs(urlsplit(resp.header('Location')).query, keep_blank_values=True).items()}


def get_code(server, cookie, **overrides):
    return callback_params(authorize(server, cookie, **overrides))['code']


def token(server, headers=None, **params):
    return call(server, 'POST', '/oauth/token', urlencode(params), headers=dict(FORM, **(headers or {})))


def exchange(server, code_value, **overrides):
    params = {'grant_type': 'authorization_code', 'client_id': DESKTOP, 'code': code_value,
              'redirect_uri': CALLBACK, 'code_verifier': VERIFIER}
    params.update(overrides)
    return token(server, **{k: v for k, v in params.items() if v is not None})


def claims(jwt):
    part = jwt.split('.')[1]
    return json.loads(base64.urlsafe_b64decode(part + '=' * (-len(part) % 4)))


def error_doc(error, description, hint=None):
    doc = {'error': error, 'error_description': description}
    if hint:
        doc['hint'] = hint
    return doc


# ----- the flow --------------------------------------------------------------------------
def test_happy_path_login_authorize_exchange_use_refresh(ext):
    cookie, _ = login(ext, 'editor')
    r = authorize(ext, cookie)
    assert r.status == 302 and r.header('Location').startswith(CALLBACK + '?code=def50200')
    got = callback_params(r)
    assert sorted(got) == ['code', 'state'] and got['state'] == 'xyz'
    r = exchange(ext, got['code'])
    assert r.status == 200 and r.header('Cache-Control') == 'no-store, private'
    doc = r.json()
    assert sorted(doc) == ['access_token', 'expires_in', 'refresh_token', 'token_type']
    assert (doc['token_type'], doc['expires_in']) == ('Bearer', 300)
    c = claims(doc['access_token'])
    assert (c['sub'], c['aud'], c['scope']) == ('2', DESKTOP, ['content_editor'])   # the user who authorized
    r = call(ext, 'GET', '/user/2?_format=json', headers={'Authorization': 'Bearer ' + doc['access_token']})
    assert r.status == 200 and r.json()['name'][0]['value'] == 'editor'
    assert r.header('X-Consumer-ID') == DESKTOP
    # A public client refreshes with its client_id alone.
    r = token(ext, grant_type='refresh_token', client_id=DESKTOP, refresh_token=doc['refresh_token'])
    assert r.status == 200 and claims(r.json()['access_token'])['sub'] == '2'
    r = call(ext, 'GET', '/user/2?_format=json', headers={'Authorization': 'Bearer ' + doc['access_token']})
    assert r.status == 401   # the refresh revoked the first pair
    st = call(ext, 'GET', '/__fake/stats').json()
    assert st['token_grants'] == {'authorization_code': 1, 'refresh_token': 1}


@pytest.mark.parametrize('state', ['xyz', 'a b+c/d?e=f&g~h%20', 'é', ''])
def test_state_is_echoed_exactly(ext, state):
    cookie, _ = login(ext)
    assert callback_params(authorize(ext, cookie, state=state))['state'] == state


def test_no_state_no_state_parameter(ext):
    cookie, _ = login(ext)
    assert sorted(callback_params(authorize(ext, cookie, state=None))) == ['code']


def test_plain_challenge_and_admin(ext):
    cookie, _ = login(ext, 'admin')
    code = get_code(ext, cookie, code_challenge=VERIFIER, code_challenge_method='plain')
    r = exchange(ext, code)
    assert r.status == 200 and claims(r.json()['access_token'])['sub'] == '1'


def test_method_defaults_to_plain(ext):
    cookie, _ = login(ext)
    code = get_code(ext, cookie, code_challenge=VERIFIER, code_challenge_method=None)
    assert exchange(ext, code).status == 200


def test_redirect_uri_may_be_left_out(ext):
    """One registered URI: league uses it, and the code then needs no redirect_uri."""
    cookie, _ = login(ext)
    r = authorize(ext, cookie, redirect_uri=None)
    assert r.header('Location').startswith(CALLBACK + '?code=')
    code = callback_params(r)['code']
    assert exchange(ext, code, redirect_uri=None).status == 200


def test_bearer_user_may_authorize_but_basic_is_not_allowed(ext):
    cookie, _ = login(ext, 'editor')
    access = exchange(ext, get_code(ext, cookie)).json()['access_token']
    r = call(ext, 'GET', authorize_query(), headers={'Authorization': 'Bearer ' + access})
    assert r.status == 302 and 'code=' in r.header('Location')
    r = call(ext, 'GET', authorize_query(), headers={'Authorization': ADMIN})
    assert (r.status, r.media_type) == (403, 'text/html')   # the route has no basic_auth


def test_confidential_consumer(ext):
    cookie, _ = login(ext, 'editor')
    code = get_code(ext, cookie, client_id='sdk-web', redirect_uri=WEB_CALLBACK, code_challenge=None,
                    code_challenge_method=None)
    r = exchange(ext, code, code_verifier=None, redirect_uri=WEB_CALLBACK, client_id='wrong')
    assert r.status == 401
    r = exchange(ext, code, code_verifier=None, redirect_uri=WEB_CALLBACK, client_id='sdk-web',
                 client_secret='wrong')
    assert (r.status, r.json()) == (401, error_doc('invalid_client', 'Client authentication failed'))
    basic = 'Basic ' + base64.b64encode(b'sdk-web:sdk-web-secret').decode()
    r = token(ext, headers={'Authorization': basic}, grant_type='authorization_code', code=code,
              redirect_uri=WEB_CALLBACK)
    assert r.status == 200 and claims(r.json()['access_token'])['aud'] == 'sdk-web'


def test_consumers_without_the_grant(ext):
    """73f: sdk-client lacks authorization_code."""
    r = token(ext, grant_type='authorization_code', client_id='sdk-client', client_secret='sdk-secret',
              code='x', redirect_uri=CALLBACK)
    assert (r.status, r.json()) == (400, error_doc(
        'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.',
        'Check that all required parameters have been provided'))
    r = token(ext, grant_type='password', client_id=DESKTOP, username='admin', password='admin')
    assert r.status == 400 and r.json()['error'] == 'unsupported_grant_type'


# ----- /oauth/authorize: who and which errors --------------------------------------------
def test_anonymous_goes_to_login_with_destination(ext):
    q = authorize_query(state='s t')
    r = call(ext, 'GET', q)
    assert r.status == 302
    assert r.header('Location') == (
        ext.base + '/user/login?destination=/oauth/authorize%3Fresponse_type%3Dcode%26client_id%3Dsdk-desktop'
        '%26redirect_uri%3Dhttp%253A//127.0.0.1%253A8765/callback%26scope%3Dcontent_editor%26state%3Ds%2520t'
        '%26code_challenge%3D' + CHALLENGE + '%26code_challenge_method%3DS256')
    # The login page is not checked first: a bad request still goes to the login page.
    r = call(ext, 'GET', authorize_query(redirect_uri='http://evil.example/cb'))
    assert r.status == 302 and '/user/login?destination=' in r.header('Location')


@pytest.mark.parametrize('query', [{'client_id': 'no-such-client'}, {'client_id': None}, {'client_id': ''}])
def test_unknown_client_is_a_json_401(ext, query):
    for headers in ({}, {'Cookie': login(ext)[0]}):
        r = call(ext, 'GET', authorize_query(**query), headers=headers)
        assert (r.status, r.media_type, r.json()) == (401, 'application/json',
                                                      error_doc('invalid_client', 'Client authentication failed'))
        assert r.header('WWW-Authenticate') is None


@pytest.mark.parametrize('overrides, why', [
    ({'redirect_uri': 'http://127.0.0.1:8765/other'}, 'invalid_client: Client authentication failed'),
    ({'response_type': 'token'}, 'unsupported_grant_type: Check that all required parameters have been provided'),
    ({'response_type': None}, 'unsupported_grant_type: Check that all required parameters have been provided'),
    ({'scope': 'no_such_scope'}, 'invalid_scope: Check the `no_such_scope` scope'),
    ({'code_challenge': None}, 'invalid_request: Code challenge must be provided for public clients'),
    ({'code_challenge_method': 'S512'}, 'invalid_request: Code challenge method must be one of `S256`, `plain`'),
    ({'code_challenge': 'too-short'}, 'invalid_request: Code challenge must follow the specifications of RFC-7636.'),
    ({'code_challenge': CHALLENGE + '!'},
     'invalid_request: Code challenge must follow the specifications of RFC-7636.'),
    ({'client_id': 'sdk-client'}, 'unsupported_grant_type: Check that all required parameters have been provided'),
])
def test_authorize_errors_go_to_the_front_page(ext, overrides, why):
    """simple_oauth catches league's error: logged, message, redirect to <front>."""
    cookie, _ = login(ext)
    r = authorize(ext, cookie, **overrides)
    assert (r.status, r.header('Location'), r.header('X-Fake-OAuth-Error')) == (302, ext.base + '/', why)


def test_authorize_route_is_simple_oauths(server):
    r = call(server, 'GET', authorize_query())
    assert r.status == 404   # the base site has no simple_oauth


# ----- the token request -----------------------------------------------------------------
@pytest.mark.parametrize('overrides, status, error, hint', [
    ({'code': None}, 400, 'invalid_request', 'Check the `code` parameter'),
    ({'code': 'def50200garbage'}, 400, 'invalid_request', 'Issue decrypting the authorization code'),
    ({'code_verifier': 'x' * 43}, 400, 'invalid_grant', 'Failed to verify `code_verifier`.'),
    ({'code_verifier': None}, 400, 'invalid_request', 'Check the `code_verifier` parameter'),
    ({'code_verifier': 'short'}, 400, 'invalid_request', 'Code Verifier must follow the specifications of RFC-7636.'),
    ({'redirect_uri': 'http://127.0.0.1:8765/other'}, 400, 'invalid_request', 'Invalid redirect URI'),
    ({'redirect_uri': None}, 400, 'invalid_request', 'Check the `redirect_uri` parameter'),
])
def test_exchange_errors(ext, overrides, status, error, hint):
    cookie, _ = login(ext)
    r = exchange(ext, get_code(ext, cookie), **overrides)
    description = INVALID_GRANT if error == 'invalid_grant' else INVALID_REQUEST
    assert (r.status, r.media_type, r.json()) == (status, 'application/json', error_doc(error, description, hint))


def test_code_is_single_use(ext):
    cookie, _ = login(ext)
    code = get_code(ext, cookie)
    assert exchange(ext, code).status == 200
    r = exchange(ext, code)
    assert (r.status, r.json()) == (400, error_doc('invalid_grant', INVALID_GRANT,
                                                   'Authorization code has been revoked'))


def test_failed_exchange_does_not_use_the_code(ext):
    """league revokes the code only after a successful exchange."""
    cookie, _ = login(ext)
    code = get_code(ext, cookie)
    assert exchange(ext, code, code_verifier='y' * 43).status == 400
    assert exchange(ext, code).status == 200


def test_code_of_another_client(ext):
    cookie, _ = login(ext)
    code = get_code(ext, cookie)
    r = exchange(ext, code, redirect_uri=CALLBACK, code_verifier=VERIFIER, **WEB)
    assert (r.status, r.json()) == (400, error_doc('invalid_request', INVALID_REQUEST,
                                                   'Authorization code was not issued to this client'))


def test_verifier_without_challenge(ext):
    cookie, _ = login(ext)
    code = get_code(ext, cookie, client_id='sdk-web', redirect_uri=WEB_CALLBACK, code_challenge=None)
    r = exchange(ext, code, redirect_uri=WEB_CALLBACK, **WEB)
    assert (r.status, r.json()) == (400, error_doc('invalid_request', INVALID_REQUEST,
                                                   'code_verifier received when no code_challenge is present'))


def test_expired_code(ext):
    assert call(ext, 'POST', '/__fake/config', {'oauth_code_ttl': 0.3}).status == 204
    cookie, _ = login(ext)
    code = get_code(ext, cookie)
    time.sleep(0.4)
    r = exchange(ext, code)
    assert (r.status, r.json()) == (400, error_doc('invalid_grant', INVALID_GRANT, 'Authorization code has expired'))


def test_code_lifetime_follows_the_access_token_lifetime(ext):
    assert call(ext, 'POST', '/__fake/config', {'oauth_access_ttl': 0.3}).status == 204
    cookie, _ = login(ext)
    code = get_code(ext, cookie)
    time.sleep(0.4)
    assert exchange(ext, code).json()['hint'] == 'Authorization code has expired'
    assert call(ext, 'POST', '/__fake/config', {'oauth_code_ttl': 'x'}).status == 400


def test_s256_is_computed_from_the_verifier(ext):
    verifier = 'A' * 43 + '-._~' + 'z' * 20
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip('=')
    cookie, _ = login(ext)
    code = get_code(ext, cookie, code_challenge=challenge)
    assert exchange(ext, code, code_verifier=verifier).status == 200
