"""simple_oauth's authorization code grant with PKCE: GET /oauth/authorize
(oauth2_token.authorize) and grant_type=authorization_code at /oauth/token.

No recording shows either, so this follows source:
- the authorize controller is simple_oauth's Oauth2AuthorizeController as of
  5.x (the copies in bradjones1/simple_oauth and a wechat_connect fork); the
  6.x controller could not be read. It looks up the consumer (none: league's
  invalid_client JSON), sends an anonymous user to the login page with a
  destination back, and for a consumer that is not third party lets league
  validate the request and approve it at once. Any league error from that
  validation is caught: Drupal logs it, shows "Fatal error. Unable to get the
  authorization server." and redirects to the front page. The fake says which
  error it was in X-Fake-OAuth-Error (what Drupal writes to its log).
- the checks and their texts are league/oauth2-server 9.x AuthCodeGrant's
  (validateAuthorizationRequest, respondToAccessTokenRequest,
  validateAuthorizationCode, validateCodeChallenge).
- the code lives as long as the consumer's access token (simple_oauth's
  AuthorizationCode plugin passes access_token_expiration as the code TTL),
  unless config oauth_code_ttl says otherwise.
"""
import base64
import hashlib
import hmac
import re
import secrets
import time
from urllib.parse import parse_qsl, quote, quote_plus

from .oauth import CONSUMERS, SCOPES, OAuthError, invalid_request, invalid_scope
from .responses import Response, json_response

# RFC 7636 4.1/4.2, as league checks both the challenge and the verifier.
PKCE_SHAPE = re.compile(r'[A-Za-z0-9\-._~]{43,128}')
METHODS = ('S256', 'plain')      # league's verifiers, in the order it lists them
FRONT_PAGE_MESSAGE = 'Fatal error. Unable to get the authorization server.'


class AuthCode:
    def __init__(self, client_id, uid, redirect_uri, scopes, challenge, method, expires):
        self.client_id, self.uid, self.redirect_uri = client_id, uid, redirect_uri
        self.scopes, self.challenge, self.method = scopes, challenge, method
        self.expires = expires
        self.revoked = False


def invalid_grant(hint):
    return OAuthError(400, 'invalid_grant', 'The provided authorization grant (e.g., authorization code, '
                      'resource owner credentials) or refresh token is invalid, expired, revoked, does not '
                      'match the redirection URI used in the authorization request, or was issued to another '
                      'client.', hint)


def _invalid_client():
    return OAuthError(401, 'invalid_client', 'Client authentication failed')


# ----- GET /oauth/authorize --------------------------------------------------------
def authorize(ctx):
    q = ctx.req.query
    consumer = CONSUMERS.get(q.get('client_id') or '')
    if consumer is None:
        # The controller answers league's document itself, before looking at the user.
        return _json_error(ctx, _invalid_client())
    if not ctx.account.authenticated:
        return _redirect(ctx, '/user/login?destination=' + _raw(_destination(ctx.req.query_string)))
    # Every consumer here is first party: Drupal approves at once (the consent form it shows
    # third-party consumers, Oauth2AuthorizeForm, is not modelled).
    try:
        request = _validate(q, consumer)
    except OAuthError as e:
        resp = _redirect(ctx, '/')
        resp.add_header('X-Fake-OAuth-Error', '%s: %s' % (e.error, e.hint or e.description))
        return resp
    redirect_uri, scopes, challenge, method = request
    ttl = ctx.config.oauth_code_ttl or ctx.config.oauth_access_ttl
    # league's codes are encrypted payloads (defuse/php-encryption: "def50200...").
    code = 'def50200' + secrets.token_hex(300)
    ctx.store.oauth.codes[code] = AuthCode(q['client_id'], ctx.account.uid, q.get('redirect_uri'), scopes,
                                           challenge, method, time.time() + ttl)
    params = [('code', code)] + ([('state', q['state'])] if 'state' in q else [])
    return _redirect(ctx, _make_redirect_uri(redirect_uri, params), trusted=True)


def _validate(q, consumer):
    """league's AuthCodeGrant::validateAuthorizationRequest, after simple_oauth
    picked the grant by response_type. Returns (redirect URI, scopes, challenge,
    method)."""
    if q.get('response_type') != 'code' or 'authorization_code' not in consumer['grants']:
        # No enabled grant can answer (AuthorizationServer::validateAuthorizationRequest).
        raise OAuthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the '
                         'authorization server.', 'Check that all required parameters have been provided')
    registered = consumer.get('redirects', [])
    redirect_uri = q.get('redirect_uri')
    if redirect_uri is not None:
        if redirect_uri not in registered:
            raise _invalid_client()
    elif len(registered) != 1:
        raise _invalid_client()
    final_uri = redirect_uri if redirect_uri is not None else registered[0]
    scopes = [s for s in q.get('scope', '').split(' ') if s]
    for scope in scopes:
        if scope not in SCOPES:
            raise invalid_scope(scope)
    challenge = q.get('code_challenge')
    method = None
    if challenge is not None:
        method = q.get('code_challenge_method', 'plain')
        if method not in METHODS:
            raise invalid_request('code_challenge_method', 'Code challenge method must be one of %s'
                                  % ', '.join('`%s`' % m for m in METHODS))
        if not PKCE_SHAPE.fullmatch(challenge):
            raise invalid_request('code_challenge', 'Code challenge must follow the specifications of RFC-7636.')
    elif consumer.get('pkce') and not consumer.get('secret'):
        # simple_oauth keeps league's requireCodeChallengeForPublicClients only for "pkce" consumers.
        raise invalid_request('code_challenge', 'Code challenge must be provided for public clients')
    return final_uri, scopes, challenge, method


# ----- POST /oauth/token grant_type=authorization_code -------------------------------
def exchange(ctx, params, client_id):
    """The client is known, may use the grant and is authenticated (oauth.py).
    Returns (uid, scopes) for the token pair."""
    value = params.get('code')
    if value is None:
        raise invalid_request('code')
    code = ctx.store.oauth.codes.get(value)
    if code is None:
        raise invalid_request('code', 'Issue decrypting the authorization code')
    if time.time() > code.expires:
        raise invalid_grant('Authorization code has expired')
    if code.revoked:
        raise invalid_grant('Authorization code has been revoked')
    if code.client_id != client_id:
        raise invalid_request('code', 'Authorization code was not issued to this client')
    redirect_uri = params.get('redirect_uri')
    if code.redirect_uri is not None and redirect_uri is None:
        raise invalid_request('redirect_uri')
    if redirect_uri is not None and redirect_uri != code.redirect_uri:
        raise invalid_request('redirect_uri', 'Invalid redirect URI')
    verifier = params.get('code_verifier')
    if code.challenge is None and verifier is not None:
        # Blocks a PKCE downgrade.
        raise invalid_request('code_challenge', 'code_verifier received when no code_challenge is present')
    if code.challenge is not None:
        if verifier is None:
            raise invalid_request('code_verifier')
        if not PKCE_SHAPE.fullmatch(verifier):
            raise invalid_request('code_verifier', 'Code Verifier must follow the specifications of RFC-7636.')
        if not hmac.compare_digest(_challenge_of(verifier, code.method), code.challenge):
            raise invalid_grant('Failed to verify `code_verifier`.')
    code.revoked = True     # only a successful exchange uses the code up, as in league
    return code.uid, code.scopes


def _challenge_of(verifier, method):
    if method == 'plain':
        return verifier
    digest = hashlib.sha256(verifier.encode('ascii')).digest()
    return base64.urlsafe_b64encode(digest).decode('ascii').rstrip('=')


# ----- answers -----------------------------------------------------------------------
def _json_error(ctx, e):
    doc = {'error': e.error, 'error_description': e.description}
    resp = json_response(e.status, doc)
    header = ctx.req.headers.get('authorization', '')
    if header:   # league 9 challenges only a request that carried an Authorization header
        scheme = 'Bearer' if header.startswith('Bearer') else 'Basic'
        resp.add_header('WWW-Authenticate', '%s realm="OAuth"' % scheme)
    return resp


def _redirect(ctx, target, trusted=False):
    """A 302 as Symfony's RedirectResponse makes it; Drupal makes a local target absolute."""
    url = target if trusted else ctx.base + target
    body = ('<!DOCTYPE html>\n<html>\n    <head>\n        <meta charset="UTF-8" />\n'
            '        <meta http-equiv="refresh" content="0;url=\'%s\'" />\n\n'
            '        <title>Redirecting to %s</title>\n    </head>\n    <body>\n'
            '        Redirecting to <a href="%s">%s</a>.\n    </body>\n</html>' % ((url,) * 4))
    return Response(302, body, 'text/html; charset=utf-8', [('Location', url)])


def _raw(text):
    """Drupal's UrlHelper::buildQuery value encoding: rawurlencode, but '/' kept."""
    return quote(text, safe='').replace('%2F', '/')


def _destination(query_string):
    """Url::fromRoute('oauth2_token.authorize', [], ['query' => parsed query])->toString()."""
    params = {}
    for k, v in parse_qsl(query_string, keep_blank_values=True):
        params[k] = v      # PHP: the last value wins, in the first one's place
    built = '&'.join('%s=%s' % (_raw(k), _raw(v)) for k, v in params.items())
    return '/oauth/authorize' + ('?' + built if built else '')


def _make_redirect_uri(uri, params):
    """AbstractAuthorizeGrant::makeRedirectUri with PHP's http_build_query."""
    query = '&'.join('%s=%s' % (_php_urlencode(k), _php_urlencode(v)) for k, v in params)
    return uri + ('&' if '?' in uri else '?') + query


def _php_urlencode(text):
    return quote_plus(text, safe='').replace('~', '%7E')
