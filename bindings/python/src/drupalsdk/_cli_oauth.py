"""OAuth 2 for the ``drupal`` command (``--auth oauth``): the options, where the consumer's secret
comes from, and which grant is used. The protocol is the library's (``Client.set_oauth``: the
token request, refreshes, retries after a 401); this module only gathers its arguments.

The client id, scope and token path are options (or environment variables); the client secret,
like a password, never is: ``DRUPAL_OAUTH_CLIENT_SECRET`` or ``--oauth-secret-file`` (others can
read a command line). The user and password of the password grant come from where a cookie
login takes them (``DRUPAL_USER`` / ``--user``, ``DRUPAL_PASSWORD``, a netrc file).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable, Optional

import drupalsdk

from ._cli_exits import UsageError
from ._cli_secrets import read_secret_file

__all__ = ["add_options", "configured", "grant", "apply"]

GRANTS = ("auto", "client_credentials", "password")


def add_options(parser: argparse.ArgumentParser, d: Callable[[Any], Any]) -> None:
    """The OAuth options (``d`` gives each default, as for the other common options)."""
    parser.add_argument("--oauth-client-id", default=d(None), metavar="ID",
                        help="the OAuth consumer's client id (default $DRUPAL_OAUTH_CLIENT_ID); with one, "
                             "--auth auto uses OAuth")
    parser.add_argument("--oauth-secret-file", default=d(None), metavar="FILE",
                        help="the consumer's client secret, from this file of one line (default "
                             "$DRUPAL_OAUTH_CLIENT_SECRET; never an option: others can read a command line)")
    parser.add_argument("--oauth-grant", choices=GRANTS, default=d("auto"),
                        help="auto (default): password with a user and a password, else client_credentials")
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
                                                args.oauth_token_path or args.oauth_grant != "auto")


def grant(args: argparse.Namespace, user: Optional[str], password: Optional[str]) -> str:
    """The grant to use: ``--oauth-grant``, or the password grant when a user and a password are
    known, else client_credentials."""
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
    client.set_oauth(cid, secret, username=user if chosen == "password" else None,
                     password=password if chosen == "password" else None, grant=chosen, scope=scope,
                     token_path=token_path, client_auth=args.oauth_client_auth)


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
