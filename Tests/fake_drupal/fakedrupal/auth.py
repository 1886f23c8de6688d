"""Authentication providers in Drupal's order: Basic > Bearer > cookie.

Only the first provider that applies is tried. Failed Basic credentials make
the request anonymous (no fallback to the next provider). The Bearer provider
(simple_oauth's "oauth2") exists only when simple_oauth is installed
(store.oauth_installed()): without it an Authorization: Bearer header is
ignored like any unknown header; with it a bad token is a 401 (bearer_error).
"""
import base64
import hashlib
import hmac
from urllib.parse import unquote

from .permissions import ANON
from .store import CSRF_KEYS


def session_cookie_name(host):
    # Drupal: 'SESS' + first 32 hex chars of sha256 of the cookie domain/host.
    hostname = host.split(':')[0] if not host.startswith('[') else host.split(']')[0] + ']'
    return 'SESS' + hashlib.sha256(hostname.encode()).hexdigest()[:32]


class AuthResult:
    def __init__(self):
        self.provider = None        # 'basic', 'bearer', 'cookie' or None
        self.account = ANON
        self.cookie_name = None     # name of the session cookie the client sent
        self.session_id = None      # its (decoded) value
        self.session = None         # the live Session, if any
        self.stale_cookie = False   # cookie sent but no such session
        self.bearer_error = None    # why simple_oauth refused the Bearer token (answer 401)
        self.consumer = None        # consumer (client_id) of a valid Bearer token

    @property
    def has_cookie(self):
        return self.session_id is not None

    def csrf_valid(self, token):
        if not self.session or not token:
            return False
        return any(hmac.compare_digest(token, self.session.token(k)) for k in CSRF_KEYS)


def _basic_credentials(header):
    try:
        raw = base64.b64decode(header.split(None, 1)[1].strip(), validate=True).decode('utf-8')
    except Exception:
        return None
    if ':' not in raw:
        return None
    return raw.split(':', 1)


def bearer_token(req):
    """The token of an `Authorization: Bearer` header, else None."""
    header = req.headers.get('authorization', '').strip()
    scheme, _, token = header.partition(' ')
    return token.strip() if scheme.lower() == 'bearer' else None


def bearer_failure(result):
    """None, or the error_description of a refused Bearer token. JSON:API (and
    anything else) must answer bearer_401(...) then, whatever the route."""
    return result.bearer_error


def bearer_challenge(description):
    return ('WWW-Authenticate', 'Bearer realm="OAuth", error="access_denied", error_description="%s"'
            % description)


def authenticate(req, store, flood=None, ignore_basic=False):
    """ignore_basic: the Basic header carries OAuth client credentials
    (simple_oauth takes it off the token request before basic_auth sees it)."""
    result = AuthResult()
    for name, value in req.cookies.items():
        if name.startswith('SESS') or name.startswith('SSESS'):
            result.cookie_name = name
            result.session_id = unquote(value)
            break
    if result.session_id is not None:
        result.session = store.sessions.get(result.session_id)
        result.stale_cookie = result.session is None

    header = req.headers.get('authorization', '')
    scheme = header.split(None, 1)[0].lower() if header else ''
    if scheme == 'basic' and not ignore_basic:
        creds = _basic_credentials(header)
        if creds is not None:
            result.provider = 'basic'
            uid = store.check_password(*creds)
            if uid is not None and (flood is None or flood(uid, req)):
                result.account = store.account(uid)
            return result
    if scheme == 'bearer' and store.oauth_installed():
        result.provider = 'bearer'
        verdict = store.oauth.verify(bearer_token(req) or '', store.bearer)
        if verdict.error:
            result.bearer_error = verdict.error
        else:
            result.account = store.account(verdict.uid)
            result.consumer = verdict.consumer
        return result
    if result.session_id is not None:
        result.provider = 'cookie'
        if result.session is not None:
            result.account = store.account(result.session.uid)
    return result


def bearer_401(description, fmt, site_name):
    """simple_oauth's answer to a refused token: 401 in the request format
    (an HTML page when the format is not known yet, e.g. JSON:API)."""
    from . import responses
    return responses.error(401, 'The resource owner or authorization server denied the request.',
                           fmt, site_name, [bearer_challenge(description)])
