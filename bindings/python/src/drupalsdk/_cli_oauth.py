"""OAuth 2 for the ``drupal`` command (``--auth oauth``): the options, where the consumer's secret
comes from, and which grant is used. The protocol is the library's (``Client.set_oauth``: the
token request, refreshes, retries after a 401); this module only gathers its arguments.

The client id, scope and token path are options (or environment variables); the client secret,
like a password, never is: ``DRUPAL_OAUTH_CLIENT_SECRET`` or ``--oauth-secret-file`` (others can
read a command line). The user and password of the password grant come from where a cookie
login takes them (``DRUPAL_USER`` / ``--user``, ``DRUPAL_PASSWORD``, a netrc file).

The authorization code grant is a person's approval in a browser (``drupal login --oauth-grant
authorization_code``, _cli_browser); with ``--save`` its refresh token is kept (_cli_sessions) and
later commands start from it, each refreshing it under the sessions file's lock and writing back
the newest (``keep_session``).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable, Optional

import drupalsdk

from . import _cli_browser, _cli_sessions
from ._cli_exits import UsageError
from ._cli_secrets import read_secret_file

__all__ = ["add_options", "configured", "grant", "apply", "keep_session", "SESSION_ENDED_HINT"]

GRANTS = ("auto", "client_credentials", "password", "authorization_code")
DEFAULT_REDIRECT_URI = "http://127.0.0.1:8765/callback"
#: How long `login` waits for the person to approve in the browser.
APPROVAL_SECONDS = 300

SESSION_ENDED_HINT = ("drupal:   the saved OAuth session has ended (the site refused its refresh token) and is "
                      "forgotten:\ndrupal:   run `drupal login --oauth-grant authorization_code --save` again\n")


def add_options(parser: argparse.ArgumentParser, d: Callable[[Any], Any]) -> None:
    """The OAuth options (``d`` gives each default, as for the other common options)."""
    parser.add_argument("--oauth-client-id", default=d(None), metavar="ID",
                        help="the OAuth consumer's client id (default $DRUPAL_OAUTH_CLIENT_ID); with one, "
                             "--auth auto uses OAuth")
    parser.add_argument("--oauth-secret-file", default=d(None), metavar="FILE",
                        help="the consumer's client secret, from this file of one line (default "
                             "$DRUPAL_OAUTH_CLIENT_SECRET; never an option: others can read a command line)")
    parser.add_argument("--oauth-grant", choices=GRANTS, default=d("auto"),
                        help="auto (default): the session `login --oauth-grant authorization_code --save` "
                             "kept, else password with a user and a password, else client_credentials")
    parser.add_argument("--oauth-redirect-uri", default=d(None), metavar="URI",
                        help="the consumer's redirect URI for authorization_code, where `login` listens for the "
                             "browser (default $DRUPAL_OAUTH_REDIRECT_URI, else %s)" % DEFAULT_REDIRECT_URI)
    parser.add_argument("--oauth-scope", action="append", default=d(None), metavar="SCOPE",
                        help="a scope to ask for (repeatable; default $DRUPAL_OAUTH_SCOPE, space-separated, "
                             "else the consumer's)")
    parser.add_argument("--oauth-token-path", default=d(None), metavar="PATH",
                        help="the token endpoint (default $DRUPAL_OAUTH_TOKEN_PATH, else /oauth/token)")
    parser.add_argument("--oauth-client-auth", choices=("body", "basic"), default=d("body"),
                        help="send the client id and secret as form fields (default) or in a Basic header")


def client_id(args: argparse.Namespace) -> Optional[str]:
    return args.oauth_client_id or os.environ.get("DRUPAL_OAUTH_CLIENT_ID") or None


def configured(args: argparse.Namespace) -> bool:
    """Whether ``--auth auto`` uses OAuth: a client id is set, or an OAuth option was given (which
    then must not be ignored silently: without a client id it is a usage error)."""
    return client_id(args) is not None or bool(args.oauth_secret_file or args.oauth_scope or
                                                args.oauth_token_path or args.oauth_grant != "auto" or
                                                args.oauth_redirect_uri)


def saved_session(args: argparse.Namespace) -> Optional[str]:
    """The refresh token `login --save` kept for this site and consumer, if any."""
    cid = client_id(args)
    try:
        return _cli_sessions.load(args.url, cid) if cid else None
    except OSError as error:
        raise UsageError(str(error)) from None


def grant(args: argparse.Namespace, user: Optional[str], password: Optional[str]) -> str:
    """The grant to use: ``--oauth-grant``, or the saved session (the refresh_token grant, its token
    kept in ``args.saved_session``), or the password grant when a user and a password are known,
    else client_credentials. Outside `login`, authorization_code means its saved session."""
    if args.command_entry.name != "login" and args.oauth_grant in ("auto", "authorization_code"):
        args.saved_session = saved_session(args)
        if args.saved_session is not None:
            return "refresh_token"
        if args.oauth_grant == "authorization_code":
            raise UsageError("no saved OAuth session for this site and consumer: run `drupal login "
                             "--oauth-grant authorization_code --save` first")
    if args.oauth_grant != "auto":
        return args.oauth_grant
    if user and password is not None:
        return "password"
    if user:
        # Probably a forgotten DRUPAL_PASSWORD: say so rather than act as the consumer's user.
        sys.stderr.write("drupal: warning: a user name is set (DRUPAL_USER or --user) but no password "
                         "(DRUPAL_PASSWORD or a netrc entry): using the client_credentials grant\n")
    return "client_credentials"


def apply(client: drupalsdk.Client, args: argparse.Namespace, chosen: str, user: Optional[str],
          password: Optional[str]) -> None:
    """Sets the client to OAuth with the ``chosen`` grant (nothing is sent yet)."""
    cid = client_id(args)
    if cid is None:
        raise UsageError("--auth oauth needs a client id: give --oauth-client-id or set DRUPAL_OAUTH_CLIENT_ID")
    secret = _client_secret(args)
    if chosen == "client_credentials" and secret is None:
        # RFC 6749 4.4: only a confidential client (one with a secret) may use this grant.
        raise UsageError("the client_credentials grant needs the consumer's secret: set "
                         "DRUPAL_OAUTH_CLIENT_SECRET or give --oauth-secret-file")
    if chosen == "password" and (not user or password is None):
        raise UsageError("the password grant needs a user and a password: DRUPAL_USER and DRUPAL_PASSWORD, "
                         "or a netrc file")
    scope = " ".join(args.oauth_scope) if args.oauth_scope else os.environ.get("DRUPAL_OAUTH_SCOPE") or None
    token_path = args.oauth_token_path or os.environ.get("DRUPAL_OAUTH_TOKEN_PATH") or None
    if chosen == "authorization_code":
        _authorize(client, args, cid, secret, scope, token_path)
        return
    if chosen == "refresh_token":
        _start_saved_session(client, args, cid, secret, scope, token_path)
        return
    client.set_oauth(cid, secret, username=user if chosen == "password" else None,
                     password=password if chosen == "password" else None, grant=chosen,
                     scope=scope, token_path=token_path, client_auth=args.oauth_client_auth)


def _start_saved_session(client: drupalsdk.Client, args: argparse.Namespace, cid: str, secret: Optional[str],
                         scope: Optional[str], token_path: Optional[str]) -> None:
    """Refreshes the saved session now, holding the sessions file's lock: the token read under it
    is the newest (another command may have rotated the one `grant` saw), and the one the site
    gives back is saved before the next command reads. A refused one is forgotten."""
    with _cli_sessions.locked():
        current = saved_session(args)
        if current is None:
            raise UsageError("the saved OAuth session for this site and consumer is gone (another command "
                             "ended it): run `drupal login --oauth-grant authorization_code --save` again")
        client.set_oauth(cid, secret, refresh_token=current, grant="refresh_token", scope=scope,
                         token_path=token_path, client_auth=args.oauth_client_auth)
        args.saved_session = current
        try:
            client.oauth_authenticate()
        except drupalsdk.AuthenticationError as error:
            keep_session(client, args, error)
            args.saved_session = None   # dealt with: the end of the command leaves the file alone
            raise
        keep_session(client, args, None)


def _authorize(client: drupalsdk.Client, args: argparse.Namespace, cid: str, secret: Optional[str],
               scope: Optional[str], token_path: Optional[str]) -> None:
    """The person approves in the browser; the client is then on OAuth with the code."""
    redirect_uri = args.oauth_redirect_uri or os.environ.get("DRUPAL_OAUTH_REDIRECT_URI") or DEFAULT_REDIRECT_URI
    listener = _cli_browser.LoopbackListener(redirect_uri)
    try:
        with client.oauth_authorization(cid, redirect_uri, secret, scope=scope, token_path=token_path,
                                        client_auth=args.oauth_client_auth) as authorization:
            authorization.finish(_cli_browser.approve(authorization.url, listener, APPROVAL_SECONDS))
    finally:
        listener.close()


def keep_session(client: drupalsdk.Client, args: argparse.Namespace, failure: Optional[BaseException]) -> None:
    """After a refresh of a saved session (``args.saved_session``, the token this command left in
    the file): saves the site's newest refresh token, or forgets the session once the site refused
    it (``args.session_ended``, for the hint); either only if the file still holds this command's
    token, not one another command saved since."""
    left = getattr(args, "saved_session", None)
    if left is None:
        return
    newest = client.oauth_refresh_token()
    refused = isinstance(failure, drupalsdk.AuthenticationError) and \
        getattr(failure.oauth_error, "error", None) == "invalid_grant"
    cid = client_id(args)
    assert cid is not None   # a session was loaded for it
    try:
        if newest is not None and newest != left:
            if _cli_sessions.replace(args.url, cid, left, newest):
                args.saved_session = newest
        elif newest is None and refused:
            args.session_ended = _cli_sessions.replace(args.url, cid, left, None)
    except (OSError, ValueError) as error:
        sys.stderr.write("drupal: warning: cannot update the OAuth sessions file: %s\n" % error)


def _client_secret(args: argparse.Namespace) -> Optional[str]:
    """The file's one line (its line end dropped), else $DRUPAL_OAUTH_CLIENT_SECRET, else None
    (a public consumer)."""
    if args.oauth_secret_file:
        try:
            text = read_secret_file(args.oauth_secret_file, "the client secret file")
        except OSError as error:
            raise UsageError(str(error)) from None
        secret = text.split("\n", 1)[0].rstrip("\r")
        if text[len(secret):].strip():
            raise UsageError("the client secret file %s holds more than one line" % args.oauth_secret_file)
        if not secret:
            raise UsageError("the client secret file %s is empty" % args.oauth_secret_file)
        return secret
    return os.environ.get("DRUPAL_OAUTH_CLIENT_SECRET") or None
