"""user module JSON routes: login, login_status, logout, password, register,
plus /session/token and the HTML logout route."""
import email.utils
import secrets
import time

from . import access, responses, xmlenc
from .body import json_body, user_body_or_500
from .denormalize import HttpError, denormalize, unprocessable, validate
from .responses import Response, TEXT, JSON
from .store import CSRF_KEYS, LOGOUT_KEY, urlsafe_token
from .app import DELETE_COOKIE

SESSION_LIFETIME = 2000000


def only_anonymous(ctx):
    if ctx.account.authenticated:
        return 'This route can only be accessed by anonymous users.'
    return None


def only_authenticated(ctx):
    if not ctx.account.authenticated:
        return 'This route can only be accessed by authenticated users.'
    return None


def session_cookie(ctx, sid):
    expires = email.utils.formatdate(time.time() + SESSION_LIFETIME, usegmt=True)
    # PHP url-encodes the value: ',' becomes %2C (clients must send it back as is).
    value = sid.replace(',', '%2C')
    return ('Set-Cookie', '%s=%s; expires=%s; Max-Age=%d; path=/; HttpOnly; SameSite=Lax'
            % (ctx.cookie_name(), value, expires, SESSION_LIFETIME))


def login(ctx):
    data = user_body_or_500(ctx)
    if not isinstance(data, dict):
        data = {}
    name, password = data.get('name'), data.get('pass')
    if name is None and password is None:
        raise HttpError(400, 'Missing credentials.')
    if name is None:
        raise HttpError(400, 'Missing credentials.name.')
    if password is None:
        raise HttpError(400, 'Missing credentials.pass.')
    store, ip = ctx.store, ctx.req.client_ip
    limit = ctx.config.flood_limit
    if limit and store.flood.get(('ip', ip), 0) >= limit * 10:
        raise HttpError(403, 'Access is blocked because of IP based flood prevention.')
    uid = store.user_by_name(name) if isinstance(name, str) else None
    if uid is not None and not store.get('user', uid)['status'][0]['value']:
        raise HttpError(400, 'The user has not been activated or is blocked.')
    if uid is not None and limit and store.flood.get((uid, ip), 0) >= limit:
        raise HttpError(403, 'Too many failed login attempts from your IP address. '
                             'This IP address is temporarily blocked.')
    if uid is None or store.passwords.get(uid) != password:
        store.flood[('ip', ip)] = store.flood.get(('ip', ip), 0) + 1
        if uid is not None:
            store.flood[(uid, ip)] = store.flood.get((uid, ip), 0) + 1
        raise HttpError(400, ctx.config.bad_credentials)
    store.flood.pop((uid, ip), None)
    # Session id is regenerated on login (session->migrate()).
    if ctx.auth.session_id:
        store.sessions.pop(ctx.auth.session_id, None)
    sid = store.new_session(uid)
    session = store.sessions[sid]
    user = store.get('user', uid)
    now = int(time.time())
    user['login'] = [{'value': now}]
    user['access'] = [{'value': now}]
    account = store.account(uid)
    current = {'uid': str(uid)}
    if account.has('administer users'):
        current['roles'] = ['authenticated'] + [r['target_id'] for r in user['roles']]
    current['name'] = user['name'][0]['value']
    body = {'current_user': current, 'csrf_token': session.token(CSRF_KEYS[1]),
            'logout_token': session.token(LOGOUT_KEY)}
    # The controller encodes in the request's format; Symfony labels it by that format.
    if ctx.fmt == 'xml':
        return Response(200, xmlenc.encode(body), responses.XML, [session_cookie(ctx, sid)])
    return ctx.json(200, body, [session_cookie(ctx, sid)])


def login_status(ctx):
    return Response(200, '1' if ctx.account.authenticated else '0', TEXT)


def session_token(ctx):
    if ctx.auth.session:
        token = ctx.auth.session.token(CSRF_KEYS[0])
    else:
        token = urlsafe_token(secrets.token_bytes(32))  # no session: useless but well-formed
    return Response(200, token, TEXT)


def logout_token_check(ctx):
    token = ctx.req.query.get('token')
    if token is None:
        return "'csrf_token' URL query argument is missing."
    s = ctx.auth.session
    if not s or not secrets.compare_digest(token, s.token(LOGOUT_KEY)):
        return "'csrf_token' URL query argument is invalid."
    return only_authenticated(ctx)


def _end_session(ctx):
    ctx.store.sessions.pop(ctx.auth.session_id, None)
    return ('Set-Cookie', DELETE_COOKIE % ctx.cookie_name())


def logout(ctx):
    return Response(204, b'', None, [_end_session(ctx)])


def logout_html(ctx):
    """HTML user.logout: a valid token logs out and redirects; otherwise confirm page."""
    token = ctx.req.query.get('token')
    s = ctx.auth.session
    headers = []
    if s and token and secrets.compare_digest(token, s.token(LOGOUT_KEY)):
        headers.append(_end_session(ctx))
        target = ctx.base + '/?check_logged_in=1'
    else:
        target = ctx.base + '/user/logout/confirm'
    body = ('<!DOCTYPE html>\n<html>\n    <head>\n        <meta charset="UTF-8" />\n'
            '        <meta http-equiv="refresh" content="0;url=\'%s\'" />\n\n'
            '        <title>Redirecting to %s</title>\n    </head>\n    <body>\n'
            '        Redirecting to <a href="%s">%s</a>.\n    </body>\n</html>' % ((target,) * 4))
    headers.append(('Location', target))
    return Response(302, body, 'text/html; charset=utf-8', headers)


def password(ctx):
    data = user_body_or_500(ctx)
    if not isinstance(data, dict):
        data = {}
    if not data.get('name') and not data.get('mail'):
        raise HttpError(400, 'Missing credentials.name or credentials.mail')
    # Always 200 with an empty body (no user enumeration); the mail is "sent".
    return Response(200, b'', responses.XML if ctx.fmt == 'xml' else JSON)


def register_access(ctx):
    if not ctx.account.has('restful post user_registration'):
        return "The 'restful post user_registration' permission is required."
    return None


def register(ctx):
    if ctx.account.authenticated:
        raise HttpError(403, 'Only anonymous users can register a user.')
    data = json_body(ctx, 'No user account data for registration received.')
    _, fields = denormalize(ctx.store, 'user', data)
    if 'uid' in fields:
        raise HttpError(400, 'An ID has been set and only new user accounts can be registered.')
    for name in fields:
        if name in ('roles', 'status') or name in access.READ_ONLY and name != 'uuid':
            raise HttpError(403, "Access denied on creating field '%s'." % name)
    if 'pass' in fields:
        # verify_mail is on for the recorded site.
        raise HttpError(422, 'A Password cannot be specified. It will be generated on login.')
    lines = validate(ctx.store, 'user', 'user', fields)
    if lines:
        raise unprocessable(lines)
    # register: visitors_admin_approval -> the new account starts blocked.
    uid = ctx.store.create_user(fields, status=False)
    return ctx.json(200, ctx.normalizer.entity('user', ctx.store.get('user', uid), ctx.account))
