"""simple_oauth's token storage: JWT-looking access tokens, refresh tokens,
revocation, and the checks (with league/oauth2-server's wording) that a
presented Bearer token goes through.

Tokens are not really signed: the fake remembers every token it issued and
a token it did not issue is "not verified", exactly what a forged signature
gives on the real site.
"""
import base64
import json
import re
import secrets
import time

B64URL = re.compile(r'[A-Za-z0-9_-]*')
DEFAULT_CONSUMER = 'default_consumer'
SEAM_CONSUMER = 'sdk-client'   # tokens registered with POST /__fake/bearer


def _b64(data):
    return base64.urlsafe_b64encode(data).decode('ascii').rstrip('=')


def _unb64(text):
    return base64.urlsafe_b64decode(text + '=' * (-len(text) % 4))


class AccessToken:
    def __init__(self, jti, client_id, uid, scopes, expires):
        self.jti = jti
        self.client_id = client_id
        self.uid = uid
        self.scopes = list(scopes)
        self.expires = expires
        self.revoked = False


class RefreshToken:
    def __init__(self, access, expires):
        self.access = access          # the AccessToken issued with it
        self.expires = expires
        self.revoked = False


class Verdict:
    """The outcome of checking a Bearer token: a uid, or why it failed."""

    def __init__(self, uid=None, consumer=None, error=None):
        self.uid = uid
        self.consumer = consumer
        self.error = error


class TokenStore:
    def __init__(self):
        self.access = {}       # token string -> AccessToken
        self.refresh = {}      # refresh token string -> RefreshToken
        self.codes = {}        # authorization code -> oauth_code.AuthCode
        self.requests = 0      # POST /oauth/token answered (any outcome)
        self.grants = {}       # grant_type -> successful token answers

    # ----- issuing ------------------------------------------------------------
    def issue(self, client_id, uid, scopes, access_ttl, refresh_ttl=None, subject=True,
              issuer='https://127.0.0.1/'):
        """A new access token (and a refresh token when refresh_ttl is given).
        subject=False for client_credentials: its JWT has no "sub" claim."""
        now = time.time()
        jti = secrets.token_hex(40)
        header = {'typ': 'JWT', 'alg': 'RS256', 'jti': jti}
        claims = {'aud': client_id, 'jti': jti, 'iat': int(now), 'nbf': int(now),
                  'exp': round(now + access_ttl, 6), 'scope': list(scopes)}
        if subject:
            claims['sub'] = str(uid)
        claims['iss'] = issuer
        token = '.'.join([_b64(json.dumps(header, separators=(',', ':')).encode()),
                          _b64(json.dumps(claims, separators=(',', ':')).encode()),
                          _b64(secrets.token_bytes(256))])   # the size of an RS256 signature
        record = AccessToken(jti, client_id, uid, scopes, now + access_ttl)
        self.access[token] = record
        refresh = None
        if refresh_ttl is not None:
            # league's refresh tokens are encrypted payloads starting with "def50200".
            refresh = 'def50200' + secrets.token_hex(480)
            self.refresh[refresh] = RefreshToken(record, now + refresh_ttl)
        return token, refresh

    def rotate(self, refresh_token):
        """Revokes a refresh token and its access token (refresh_token grant)."""
        old = self.refresh[refresh_token]
        old.revoked = True
        old.access.revoked = True
        return old.access

    def expire_all(self):
        """Every access token issued so far expires now (refresh tokens stay valid): what
        waiting out the lifetime gives, without the wait (POST /__fake/oauth-expire)."""
        now = time.time()
        for record in self.access.values():
            record.expires = min(record.expires, now)
        return len(self.access)

    # ----- checking -------------------------------------------------------------
    def verify(self, token, seam):
        """Verdict for `Authorization: Bearer <token>`. seam: {token: uid}."""
        if token in seam:
            return Verdict(seam[token], SEAM_CONSUMER)
        # The order of lcobucci/jwt's parser, then league's BearerTokenValidator.
        parts = token.split('.')
        if len(parts) != 3:
            return Verdict(error='The JWT string must have two dots')
        if not all(B64URL.fullmatch(p) for p in parts):
            return Verdict(error='Error while decoding from Base64Url, invalid base64 characters detected')
        for part in parts[:2]:
            try:
                if not isinstance(json.loads(_unb64(part)), dict):
                    raise ValueError
            except ValueError:
                return Verdict(error='Error while decoding from JSON')
        record = self.access.get(token)
        # An unknown signature and an expired token read the same.
        if record is None or time.time() >= record.expires:
            return Verdict(error='Access token could not be verified')
        if record.revoked:
            return Verdict(error='Access token has been revoked')
        return Verdict(record.uid, record.client_id)

