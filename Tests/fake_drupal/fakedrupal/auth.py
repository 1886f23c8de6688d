"""Authentication providers in Drupal's order: Basic > Bearer > cookie.

Only the first provider that applies is tried; failed credentials make the
request anonymous (no fallback to the next provider).
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


def authenticate(req, store, flood=None):
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
    if scheme == 'basic':
        creds = _basic_credentials(header)
        if creds is not None:
            result.provider = 'basic'
            uid = store.check_password(*creds)
            if uid is not None and (flood is None or flood(uid, req)):
                result.account = store.account(uid)
            return result
    if scheme == 'bearer':
        result.provider = 'bearer'
        token = header.split(None, 1)[1].strip() if ' ' in header.strip() else ''
        uid = store.bearer.get(token)
        if uid is not None:
            result.account = store.account(uid)
        return result
    if result.session_id is not None:
        result.provider = 'cookie'
        if result.session is not None:
            result.account = store.account(result.session.uid)
    return result
