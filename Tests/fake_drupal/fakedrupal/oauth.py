"""simple_oauth 6.0.9's token endpoint, POST /oauth/token (with
simple_oauth_password_grant), answering with league/oauth2-server's
documents as recorded (drupal10-oauth-language-transcripts 70-73, 77c).
The authorization code grant (not recorded) is in oauth_code.py.

Only application/x-www-form-urlencoded parameters are read (a JSON body has
no client_id: 400 invalid_request). The client may authenticate in the body
or with a Basic header. Tokens act as their user with the user's roles;
scopes are checked and carried in the token but do not narrow permissions.
"""
import json
import time
from urllib.parse import parse_qsl

from .auth import _basic_credentials
from .permissions import ANON
from .responses import Response

# The one consumer of the recorded site, and the fake's own. A consumer without a secret is
# public (not "confidential"): its client is not authenticated. The authorization code
# consumers (oauth_code.py) are first party ("third_party" off) and have redirect URIs; "pkce"
# is simple_oauth 6's consumer setting that makes a code challenge required of public clients.
CONSUMERS = {
    'sdk-client': {'secret': 'sdk-secret', 'grants': ('client_credentials', 'password', 'refresh_token'),
                   'user': 2, 'scopes': ('content_editor',)},
    'sdk-desktop': {'secret': None, 'grants': ('authorization_code', 'refresh_token'), 'pkce': True,
                    'redirects': ['http://127.0.0.1:8765/callback'], 'scopes': ('content_editor',)},
    'sdk-web': {'secret': 'sdk-web-secret', 'grants': ('authorization_code', 'refresh_token'),
                'redirects': ['http://127.0.0.1:8765/web-callback'], 'scopes': ('content_editor',)},
    # A secret with the characters form encoding changes: simple_oauth's BasicAuthSwap takes a
    # Basic header's credentials as they are, never percent-decoded.
    'sdk-symbols': {'secret': 'p+s/w=rd%21 x', 'grants': ('client_credentials',),
                    'user': 2, 'scopes': ('content_editor',)},
}
SCOPES = {'content_editor'}

SUCCESS_TYPE = 'application/json; charset=UTF-8'
ERROR_TYPE = 'application/json'


class OAuthError(Exception):
    """league's OAuthServerException: status, error, description, hint."""

    def __init__(self, status, error, description, hint=None, challenge=False):
        super().__init__(description)
        self.status, self.error, self.description, self.hint = status, error, description, hint
        self.challenge = challenge


def invalid_request(param, hint=None):
    return OAuthError(400, 'invalid_request', 'The request is missing a required parameter, includes an '
                      'invalid parameter value, includes a parameter more than once, or is otherwise '
                      'malformed.', hint or 'Check the `%s` parameter' % param)


def invalid_client(basic_used):
    # league adds the challenge only when the client came in an Authorization header (73c).
    return OAuthError(401, 'invalid_client', 'Client authentication failed', challenge=basic_used)


def unsupported_grant():
    return OAuthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the '
                      'authorization server.', 'Check that all required parameters have been provided')


def invalid_scope(scope):
    return OAuthError(400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed',
                      'Check the `%s` scope' % scope)


def invalid_refresh(hint):
    return OAuthError(400, 'invalid_grant', 'The refresh token is invalid.', hint)


def _error_response(e):
    doc = {'error': e.error, 'error_description': e.description}
    if e.hint:
        doc['hint'] = e.hint
    resp = Response(e.status, json.dumps(doc).encode(), ERROR_TYPE)
    if e.challenge:
        resp.add_header('WWW-Authenticate', 'Basic realm="OAuth"')
    return resp


def _params(req):
    if req.content_type != 'application/x-www-form-urlencoded':
        return {}
    try:
        text = req.body.decode('utf-8')
    except UnicodeDecodeError:
        return {}
    return dict(parse_qsl(text, keep_blank_values=True))   # PHP: the last value wins


def token(ctx):
    """The oauth2_token.token route."""
    tokens = ctx.store.oauth
    tokens.requests += 1
    try:
        grant, doc = _token(ctx)
    except OAuthError as e:
        return _error_response(e)
    tokens.grants[grant] = tokens.grants.get(grant, 0) + 1
    resp = Response(200, json.dumps(doc).encode(), SUCCESS_TYPE)
    resp.headers = [(k, v) for k, v in resp.headers if k != 'Cache-Control']
    resp.headers += [('Pragma', 'no-cache'), ('Cache-Control', 'no-store, private')]
    return resp


def _token(ctx):
    params = _params(ctx.req)
    header = ctx.req.headers.get('authorization', '')
    basic = _basic_credentials(header) if header[:6].lower() == 'basic ' else None
    client_id = params.get('client_id') or (basic[0] if basic else None)
    secret = params.get('client_secret', basic[1] if basic else None)
    # simple_oauth picks the consumer (and its grants) before league looks at anything.
    if not client_id:
        raise invalid_request('client_id')
    consumer = CONSUMERS.get(client_id)
    if consumer is None:
        raise invalid_client(basic is not None)
    grant = params.get('grant_type')
    if grant not in consumer['grants']:
        raise unsupported_grant()
    if consumer['secret'] is not None and secret != consumer['secret']:
        raise invalid_client(basic is not None)   # a public client's secret is not checked
    # The code grant takes its scopes from the code; the others from the request.
    requested = params.get('scope', '').split() if grant != 'authorization_code' else []
    for scope in requested:
        if scope not in SCOPES:
            raise invalid_scope(scope)
    cfg = ctx.config
    if grant == 'client_credentials':
        scopes = requested or list(consumer['scopes'])
        access, _ = ctx.store.oauth.issue(client_id, consumer['user'], scopes, cfg.oauth_access_ttl,
                                          subject=False, issuer=_issuer(ctx))
        return grant, _document(cfg, access)
    if grant == 'refresh_token':
        return grant, _refresh(ctx, params, client_id, requested)
    if grant == 'password':
        uid = _check_user(ctx, params)
    else:
        from .oauth_code import exchange   # (that module imports this one)
        uid, requested = exchange(ctx, params, client_id)
    access, refresh = ctx.store.oauth.issue(client_id, uid, requested, cfg.oauth_access_ttl,
                                            cfg.oauth_refresh_ttl, issuer=_issuer(ctx))
    return grant, _document(cfg, access, refresh)


def _check_user(ctx, params):
    name, password = params.get('username'), params.get('password')
    if name is None:
        raise invalid_request('username')
    if password is None:
        raise invalid_request('password')
    uid = ctx.store.check_password(name, password)
    if uid is None or ctx.store.account(uid) is ANON:
        raise OAuthError(400, 'invalid_grant', 'The user credentials were incorrect.')
    return uid


def _refresh(ctx, params, client_id, requested):
    value = params.get('refresh_token')
    if value is None:
        raise invalid_request('refresh_token')
    tokens = ctx.store.oauth
    record = tokens.refresh.get(value)
    if record is None:
        raise invalid_refresh('Cannot decrypt the refresh token')
    if record.access.client_id != client_id:
        raise invalid_refresh('Token is not linked to client')
    if time.time() >= record.expires:
        raise invalid_refresh('Token has expired')
    if record.revoked:
        raise invalid_refresh('Token has been revoked')
    for scope in requested:
        if scope not in record.access.scopes:
            raise invalid_scope(scope)
    old = tokens.rotate(value)   # both old tokens are revoked at once (72b, 72c)
    cfg = ctx.config
    access, refresh = tokens.issue(client_id, old.uid, requested or old.scopes, cfg.oauth_access_ttl,
                                   cfg.oauth_refresh_ttl, issuer=_issuer(ctx))
    return _document(cfg, access, refresh)


def _document(cfg, access, refresh=None):
    ttl = cfg.oauth_access_ttl
    doc = {'token_type': 'Bearer', 'expires_in': int(ttl) if float(ttl).is_integer() else ttl,
           'access_token': access}
    if refresh:
        doc['refresh_token'] = refresh
    return doc


def _issuer(ctx):
    return 'https://%s/' % ctx.req.host.rsplit(':', 1)[0]
