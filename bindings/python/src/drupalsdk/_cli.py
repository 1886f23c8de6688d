"""The ``drupal`` command (``python -m drupalsdk``): the library from the shell, for scripts and CI.

Results are JSON on stdout (one document, ``jq``-friendly; ``--ndjson`` streams rows); errors
are one line on stderr and an exit code by class (``EXIT_CODES``). Only the public
``drupalsdk`` API is used. Each subcommand is one entry of ``COMMANDS`` (its arguments and its
function), so a new one is one entry more (``jsonapi`` is in ``_cli_jsonapi``, ``upload`` and
``download`` in ``_cli_files``). The subcommands are in ``_cli_commands``, the entity bodies in
``_cli_bodies``, the exit codes in ``_cli_exits``, what may reach a terminal in
``_cli_terminal``, the parser that quotes no value in its errors in ``_cli_parser``; this module
builds the command line and runs it.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Tuple

import drupalsdk

from . import _cli_oauth, _clicreds
from ._cli_parser import Parser
from ._cli_terminal import shown
# Everything the command is made of stays importable from here (drupalsdk._cli.EXIT_USAGE, ...).
from ._cli_bodies import BUNDLE_FIELDS, LABEL_FIELDS, entity_body  # noqa: F401
from ._cli_commands import (COMMANDS, Command, Output, add_entity_body_options, args_create,  # noqa: F401
                            args_delete, args_get, args_login, args_request, args_update, args_view, cmd_create,
                            cmd_delete, cmd_get, cmd_login, cmd_logout, cmd_request, cmd_update, cmd_view,
                            prepare_body)
from ._cli_exits import (EXIT_AUTH, EXIT_CODES, EXIT_ERROR, EXIT_FORBIDDEN, EXIT_HTTP, EXIT_INTERRUPTED,  # noqa: F401
                         EXIT_INVALID, EXIT_NETWORK, EXIT_NOT_FOUND, EXIT_OK, EXIT_TIMEOUT, EXIT_USAGE, UsageError,
                         exit_code)


# ---- The parser and the run ---------------------------------------------------------------------

def add_common_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    # Accepted before and after the subcommand; defaults are set only once (on the top parser).
    d = (lambda value: value) if defaults else (lambda value: argparse.SUPPRESS)
    parser.add_argument("--url", default=d(None), help="the site's base URL (default $DRUPAL_BASE_URL)")
    parser.add_argument("--user", default=d(None), help="user name (default $DRUPAL_USER, or the netrc file's)")
    parser.add_argument("--auth", choices=("auto", "cookie", "basic", "bearer", "oauth", "none"),
                        default=d("auto"),
                        help="auto (default): bearer with a token, else oauth with a client id (or an --oauth "
                             "option), else a cookie login with a password, else none")
    parser.add_argument("--netrc-file", default=d(None), metavar="FILE",
                        help="credentials file (default $DRUPAL_NETRC, else ~/.config/drupalsdk/netrc, ~/.netrc)")
    parser.add_argument("--token-file", default=d(None), metavar="FILE",
                        help="a Bearer token (OAuth) from this file (default $DRUPAL_TOKEN)")
    _cli_oauth.add_options(parser, d)
    parser.add_argument("--language", default=d(None), metavar="LANGCODE",
                        help="work in this language: the calls go under its path prefix (fr: /fr/node/1), on the "
                             "same session and OAuth token (default $DRUPAL_LANGUAGE; '' is the default language)")
    parser.add_argument("--language-force", action="store_true", default=d(False),
                        help="with --language, also update an entity that has no translation in it (Drupal then "
                             "changes the original) and delete (every translation goes)")
    parser.add_argument("--timeout", type=float, default=d(None),
                        help="seconds for each request (default 60); for upload and download, seconds with no byte moving")
    parser.add_argument("--insecure", action="store_true", default=d(False), help="don't verify TLS certificates")
    parser.add_argument("--ca-file", default=d(None), metavar="PEM", help="trust these CA certificates instead of the system's (default $DRUPAL_CA_FILE)")
    parser.add_argument("--proxy", default=d(None), metavar="URL",
                        help="the proxy (default: $https_proxy / $http_proxy, as curl; '' for none); give "
                             "one that needs credentials in the environment, not here: others can read a command line")
    parser.add_argument("-H", "--header", action="append", default=d(None), metavar="'NAME: VALUE'",
                        help="an extra header for every request")
    parser.add_argument("--compact", action="store_true", default=d(False), help="JSON on one line")
    parser.add_argument("--progress", action="store_true", default=d(False), help="report progress on stderr")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="drupal", description="A Drupal 10/11 site from the shell (core REST, JSON:API, Views, any request). "
        "Prints JSON; exit codes: 0 ok, 1 error, 2 usage, 3 network, 4 timeout, 5 authentication, "
        "6 forbidden, 7 not found, 8 validation (422), 9 other HTTP error, 130 interrupted.",
        epilog="Credentials: DRUPAL_USER + DRUPAL_PASSWORD, DRUPAL_TOKEN, or a netrc file "
        "(machine HOST login USER password PASS); OAuth 2 (--auth oauth): DRUPAL_OAUTH_CLIENT_ID + "
        "DRUPAL_OAUTH_CLIENT_SECRET (or --oauth-secret-file) for client_credentials, with a user and "
        "password for the password grant. Passwords and secrets are never taken as options.")
    parser.add_argument("--version", action="version",
                        version="drupal (drupalsdk %s)" % drupalsdk.__version__)
    add_common_options(parser, defaults=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(p)
        add_common_options(p, defaults=False)
        p.set_defaults(command_entry=command)
    return parser


def make_client(args: argparse.Namespace) -> Tuple[drupalsdk.Client, bool]:
    """The client, authenticated as asked; True if it logged in (and must log out)."""
    client = drupalsdk.Client(args.url, timeout=args.timeout, verify=not args.insecure, ca_file=args.ca_file,
                              headers=[_header(h) for h in args.header or ()] or None, proxy=args.proxy)
    try:
        return client, _authenticate(client, args)
    except BaseException:
        client.close()   # now, not when collected: its thread and connections
        raise


def _authenticate(client: drupalsdk.Client, args: argparse.Namespace) -> bool:
    creds = args.credentials
    auth = args.auth
    if auth == "auto":
        auth = "bearer" if creds.token else "oauth" if _cli_oauth.configured(args) else \
            "cookie" if creds.user and creds.password is not None else "none"
        if auth == "none" and creds.user and args.command_entry.name != "login":
            # Probably a forgotten DRUPAL_PASSWORD: say so rather than fail later as anonymous.
            sys.stderr.write("drupal: warning: a user name is set (DRUPAL_USER or --user) but no password "
                             "(DRUPAL_PASSWORD or a netrc entry): sending no credentials\n")
    if args.command_entry.name == "login" or auth == "none":
        return False
    if auth == "oauth":
        grant = _cli_oauth.grant(args, creds.user, creds.password)
        _cli_oauth.apply(client, args, grant, creds.user, creds.password)
        return False
    if auth == "bearer":
        if not creds.token:
            raise UsageError("--auth bearer needs a token: set DRUPAL_TOKEN or give --token-file")
        client.set_bearer_token(creds.token)
        return False
    if not creds.user or creds.password is None:
        raise UsageError("--auth %s needs a user and a password: DRUPAL_USER and DRUPAL_PASSWORD, or a netrc "
                         "file (credentials looked up: %s)" % (auth, creds.source))
    if auth == "basic":
        client.set_basic_auth(creds.user, creds.password)
        return False
    client.login(creds.user, creds.password)
    return True


def _header(text: str) -> Tuple[str, str]:
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        # Not quoted: a header is where secrets travel (Authorization, X-Api-Key).
        raise UsageError("-H wants 'Name: value': one has no ':' after a name")
    return name.strip(), value.strip()


#: Why a token endpoint refuses a grant, which its message does not say.
UNSUPPORTED_GRANT_HINT = (
    "drupal:   the consumer does not allow this grant (--oauth-grant): a consumer takes only the grants it\n"
    "drupal:   lists, and simple_oauth 6 has the password grant only with its simple_oauth_password_grant\n"
    "drupal:   module; client_credentials needs a consumer with a secret and a default user\n")


def report(error: BaseException) -> None:
    if isinstance(error, drupalsdk.DrupalError):
        status = " (HTTP %d)" % error.status if error.status is not None else ""
        violations = getattr(error, "violations", None) or ()
        # With violations, the message's first line; they follow, one a line.
        message = error.message.splitlines()[0] if violations and error.message else error.message
        sys.stderr.write("drupal: %s%s: %s\n" % (error.code, status, message))
        for field, message in violations:   # the server's text, verbatim: shown, not obeyed
            sys.stderr.write("drupal:   %s: %s\n" % (shown(field), shown(message)))
        oauth_error = getattr(error, "oauth_error", None)
        if oauth_error is not None and oauth_error.error == "unsupported_grant_type":
            sys.stderr.write(UNSUPPORTED_GRANT_HINT)
    else:
        sys.stderr.write("drupal: %s\n" % error)


def run(args: argparse.Namespace) -> int:
    args.url = args.url or os.environ.get("DRUPAL_BASE_URL")
    args.ca_file = args.ca_file or os.environ.get("DRUPAL_CA_FILE") or None
    if not args.url:
        raise UsageError("no site: give --url or set DRUPAL_BASE_URL")
    entry: Command = args.command_entry
    out = Output(args)
    if entry.prepare is not None:
        entry.prepare(args)
    if not entry.needs_client:
        entry.run(None, args, out)
        return EXIT_OK
    try:
        auth = _credentials_wanted(args)
        args.credentials = _clicreds.resolve(args.url, args.user, args.netrc_file, args.token_file, auth)
    except (ValueError, OSError) as error:
        raise UsageError(str(error)) from None
    client, logged_in = make_client(args)
    with client:
        failure: Optional[BaseException] = None
        target = client
        try:
            target = _in_language(client, args)
            entry.run(target, args, out)
        except BaseException as error:
            failure = error
            raise
        finally:
            if target is not client:
                target.close()
            _cli_oauth.keep_session(client, args, failure)
            if logged_in and client.has_session:
                _logout_quietly(client)
    return EXIT_OK


def _in_language(client: drupalsdk.Client, args: argparse.Namespace) -> drupalsdk.Client:
    """The client the command's calls go through: a language view (the library's in_language: one
    session, the calls under the prefix, the token endpoint not) when one is asked for; login
    itself is the site's, whatever the language."""
    language = args.language if args.language is not None else os.environ.get("DRUPAL_LANGUAGE")
    if language is None or args.command_entry.name == "login":
        return client
    return client.in_language(language, force=args.language_force)


def _credentials_wanted(args: argparse.Namespace) -> str:
    """The --auth whose credentials are looked up. `login` checks the password with a cookie login,
    or the OAuth grant the other commands would use; it sets args.auth to the one it checks."""
    if args.command_entry.name == "login":
        args.auth = "oauth" if args.auth == "oauth" or (args.auth == "auto" and _cli_oauth.configured(args)) \
            else "cookie"
    oauth = args.auth == "oauth" or (args.auth == "auto" and _cli_oauth.configured(args))
    if oauth and args.oauth_grant in ("client_credentials", "authorization_code"):
        return "none"   # no password is used: no netrc file is read (a token still is)
    return args.auth


def _logout_quietly(client: drupalsdk.Client) -> None:
    # Ends the session the command opened. Best effort: a failure here must not hide the
    # command's own result or error (the session expires on the site anyway).
    try:
        client.logout()
    except drupalsdk.DrupalError:
        pass


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except UsageError as error:
        sys.stderr.write("drupal: %s\n" % error)
        return EXIT_USAGE
    except drupalsdk.DrupalError as error:
        report(error)
        if getattr(args, "session_ended", False):
            sys.stderr.write(_cli_oauth.SESSION_ENDED_HINT)
        return exit_code(error)
    except KeyboardInterrupt:
        sys.stderr.write("drupal: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader (head, jq -e ...) went away: not an error of ours.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return EXIT_OK
    except OSError as error:
        sys.stderr.write("drupal: %s\n" % error)
        return EXIT_ERROR
