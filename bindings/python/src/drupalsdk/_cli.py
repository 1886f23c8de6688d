"""The ``drupal`` command (``python -m drupalsdk``): the library from the shell, for scripts and CI.

Results are JSON on stdout (one document, ``jq``-friendly; ``--ndjson`` streams rows); errors
are one line on stderr and an exit code by class (``EXIT_CODES``). Only the public
``drupalsdk`` API is used. Each subcommand is one entry of ``COMMANDS`` (its arguments and its
function), so new ones (``jsonapi`` once the library has JSON:API) are one entry more.
"""
from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Tuple

import drupalsdk

from . import _clicreds

# ---- Exit codes ---------------------------------------------------------------------------------

EXIT_OK = 0
EXIT_ERROR = 1          # any other failure (decode, too large, internal, a bad netrc file...)
EXIT_USAGE = 2          # bad arguments, or a request refused before sending (InvalidArgumentError)
EXIT_NETWORK = 3        # connect failure, reset, DNS, TLS
EXIT_TIMEOUT = 4
EXIT_AUTH = 5           # 401, or a failed login (wrong name or password)
EXIT_FORBIDDEN = 6      # 403 (note: wrong Basic credentials are answered as anonymous: 403, not 401)
EXIT_NOT_FOUND = 7      # 404
EXIT_INVALID = 8        # 422 (the violations are printed)
EXIT_HTTP = 9           # any other status >= 400
EXIT_INTERRUPTED = 130  # Ctrl-C

#: Exception class -> exit code, most specific first.
EXIT_CODES: Tuple[Tuple[type, int], ...] = (
    (drupalsdk.ValidationError, EXIT_INVALID),
    (drupalsdk.NotFoundError, EXIT_NOT_FOUND),
    (drupalsdk.AuthorizationError, EXIT_FORBIDDEN),
    (drupalsdk.AuthenticationError, EXIT_AUTH),
    (drupalsdk.HTTPError, EXIT_HTTP),
    (drupalsdk.DrupalTimeoutError, EXIT_TIMEOUT),
    (drupalsdk.NetworkError, EXIT_NETWORK),
    (drupalsdk.InvalidArgumentError, EXIT_USAGE),
)


class UsageError(Exception):
    """A mistake in the command line that argparse cannot see (exit 2)."""


def exit_code(error: BaseException) -> int:
    for cls, code in EXIT_CODES:
        if isinstance(error, cls):
            return code
    return EXIT_ERROR


# ---- Entity bodies ------------------------------------------------------------------------------

#: The bundle field of core entity types with bundles (a body must name its bundle there).
BUNDLE_FIELDS = {"node": "type", "taxonomy_term": "vid", "comment": "comment_type", "media": "bundle",
                 "block_content": "type", "menu_link_content": "bundle", "contact_message": "contact_form"}
#: The label field of core entity types, for --title.
LABEL_FIELDS = {"node": "title", "taxonomy_term": "name", "user": "name", "media": "name", "comment": "subject",
                "block_content": "info", "menu_link_content": "title", "file": "filename"}


def _json_argument(text: str, what: str) -> Any:
    """JSON given inline, as @FILE, or as - (stdin)."""
    if text == "-":
        text = sys.stdin.read()
    elif text.startswith("@"):
        with open(text[1:], encoding="utf-8") as f:
            text = f.read()
    try:
        return json.loads(text)
    except ValueError as error:
        raise UsageError("%s is not JSON: %s" % (what, error)) from None


def _field_value(value: Any) -> List[Any]:
    """Drupal's field shape: a list of items; a scalar is the main property."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return [value]
    return [{"value": value}]


def _pair(text: str, option: str) -> Tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise UsageError("%s wants NAME=VALUE, got %r" % (option, text))
    return name, value


def entity_body(args: argparse.Namespace, entity_type: str, bundle: Optional[str]) -> Dict[str, Any]:
    body: Dict[str, Any] = {}
    if args.json is not None:
        body = _json_argument(args.json, "--json")
        if not isinstance(body, dict):
            raise UsageError("--json must be a JSON object (the entity's fields)")
    if bundle is not None:
        key = BUNDLE_FIELDS.get(entity_type)
        if key is None:
            raise UsageError("no known bundle field for %r: leave the bundle out and give it with --set FIELD=%s"
                             % (entity_type, bundle))
        body[key] = [{"target_id": bundle}]
    if args.title is not None:
        key = LABEL_FIELDS.get(entity_type)
        if key is None:
            raise UsageError("no known label field for %r: use --set FIELD=VALUE" % entity_type)
        body[key] = [{"value": args.title}]
    for item in args.set or ():
        name, value = _pair(item, "--set")
        body[name] = [{"value": value}]
    for item in args.set_json or ():
        name, value = _pair(item, "--set-json")
        body[name] = _field_value(_json_argument(value, "--set-json " + name))
    return body


# ---- Output -------------------------------------------------------------------------------------

class Output:
    def __init__(self, args: argparse.Namespace) -> None:
        self.indent = None if args.compact else 2
        self.progress_on = args.progress

    def json(self, value: Any, *, compact: bool = False) -> None:
        sys.stdout.write(json.dumps(value, indent=None if compact else self.indent, ensure_ascii=False) + "\n")

    def progress(self, text: str) -> None:
        if self.progress_on:
            sys.stderr.write("drupal: %s\n" % text)
            sys.stderr.flush()


def _response_value(response: drupalsdk.Response) -> Any:
    """The body as JSON when it is JSON, else as text."""
    try:
        return response.json()
    except Exception:  # not JSON (HTML, plain text, empty): shown as it is
        return response.text


# ---- Commands -----------------------------------------------------------------------------------

def cmd_get(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    entities = []
    for number, entity_id in enumerate(args.id, 1):
        entities.append(client.get(args.entity_type, entity_id))
        out.progress("get %s %s (%d/%d)" % (args.entity_type, entity_id, number, len(args.id)))
    out.json(entities[0] if len(entities) == 1 else entities)


def prepare_body(args: argparse.Namespace) -> None:
    # Built before anything is sent, so a mistake in it costs no login.
    args.body = entity_body(args, args.entity_type, args.bundle)


def cmd_create(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    if args.input is None:
        out.json(client.create(args.entity_type, args.body))
        return
    # Bulk: one JSON object a line (NDJSON); the options are applied to each.
    stream = sys.stdin if args.input == "-" else open(args.input, encoding="utf-8")
    created = 0
    try:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            base = dict(args.body)
            try:
                item = json.loads(line)
            except ValueError as error:
                raise UsageError("%s line %d is not JSON: %s" % (args.input, number, error)) from None
            if not isinstance(item, dict):
                raise UsageError("%s line %d is not a JSON object" % (args.input, number))
            base.update(item)
            out.json(client.create(args.entity_type, base), compact=True)
            created += 1
            out.progress("created %d" % created)
    finally:
        if stream is not sys.stdin:
            stream.close()


def cmd_update(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    body = args.body
    key = BUNDLE_FIELDS.get(args.entity_type)
    if key is not None and key not in body:
        # Drupal wants the bundle field on PATCH too: take it from the entity.
        body[key] = client.get(args.entity_type, args.id).get(key)
    out.json(client.update(args.entity_type, args.id, body))


def cmd_delete(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    deleted = []
    for number, entity_id in enumerate(args.id, 1):
        client.delete(args.entity_type, entity_id)
        deleted.append(entity_id)
        out.progress("deleted %s %s (%d/%d)" % (args.entity_type, entity_id, number, len(args.id)))
    out.json({"deleted": deleted})


def _query(args: argparse.Namespace) -> List[Tuple[str, str]]:
    return [_pair(item, "--query") for item in args.query or ()]


def cmd_view(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    query = _query(args)
    if args.page is not None:
        query.append(("page", str(args.page)))   # with --all: the first page to fetch
    if not args.all:
        rows: Iterable[Dict[str, Any]] = client.view(args.path, query)
    else:
        rows = _counted(client.view_all(args.path, query, max_pages=args.max_pages), out)
    if args.ndjson:
        for row in rows:
            out.json(row, compact=True)
    else:
        out.json(list(rows))


def _counted(rows: Iterable[Dict[str, Any]], out: Output) -> Iterable[Dict[str, Any]]:
    count = 0
    for row in rows:
        count += 1
        if count % 50 == 0:
            out.progress("view: %d rows" % count)
        yield row
    out.progress("view: %d rows, done" % count)


def cmd_request(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    body = None
    if args.data == "-":
        body = sys.stdin.buffer.read()
    elif args.data is not None and args.data.startswith("@"):
        with open(args.data[1:], "rb") as f:
            body = f.read()
    elif args.data is not None:
        body = args.data.encode()
    response = client.request(args.method.upper(), args.path, query=_query(args), body=body,
                              format=not args.no_format, raise_for_status=False)
    if args.include:
        headers: Dict[str, Any] = {}
        for name, value in response.headers.items_raw():
            key = name.lower()
            headers[key] = value if key not in headers else (
                headers[key] + [value] if isinstance(headers[key], list) else [headers[key], value])
        out.json({"status": response.status, "headers": headers, "body": _response_value(response)})
    elif response.content:
        value = _response_value(response)
        if isinstance(value, str):
            sys.stdout.write(value if value.endswith("\n") else value + "\n")
        else:
            out.json(value)
    response.raise_for_status()   # the answer was shown; the exit code still tells the class


def cmd_login(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    creds = args.credentials
    user = creds.user
    if user is None:
        raise UsageError("no user name: give --user or set DRUPAL_USER")
    password = creds.password
    if password is None:
        if not sys.stdin.isatty():
            raise UsageError("no password: set DRUPAL_PASSWORD, use a netrc file, or run on a terminal to be asked")
        password = getpass.getpass("Password for %s at %s: " % (user, args.url))
    if args.save:
        try:
            _clicreds.check_savable(user, password)
        except ValueError as error:
            raise UsageError(str(error)) from None
    answer = client.login(user, password)   # raises AuthenticationError for a wrong name or password
    client.logout()
    # Only the user, never the tokens: the session ends with this process anyway.
    result: Dict[str, Any] = {"base_url": args.url, "current_user": answer.get("current_user")}
    if args.save:
        path = args.netrc_file or os.environ.get("DRUPAL_NETRC") or _clicreds.default_netrc()
        try:
            _clicreds.save(path, _clicreds.host_of(args.url), user, password)
        except ValueError as error:
            raise UsageError(str(error)) from None
        result["saved_to"] = path
    out.json(result)


def cmd_logout(client: Optional[drupalsdk.Client], args: argparse.Namespace, out: Output) -> None:
    path = args.netrc_file or os.environ.get("DRUPAL_NETRC") or _clicreds.default_netrc()
    removed = _clicreds.forget(path, _clicreds.host_of(args.url))
    out.json({"base_url": args.url, "forgotten": removed, "netrc_file": path})


def add_entity_body_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--title", help="the label field (title for nodes, name for terms and users, ...)")
    parser.add_argument("--set", action="append", metavar="FIELD=VALUE", help="a field's value, as a string")
    parser.add_argument("--set-json", action="append", metavar="FIELD=JSON",
                        help="a field's value as JSON: an object is one item, a list all items, a scalar the value")
    parser.add_argument("--json", metavar="BODY", help="the body as a JSON object, @FILE or - (stdin); "
                        "--title/--set apply on top")


def args_get(p: argparse.ArgumentParser) -> None:
    p.add_argument("entity_type")
    p.add_argument("id", nargs="+", help="one id prints the entity; several print a list")


def args_create(p: argparse.ArgumentParser) -> None:
    p.add_argument("entity_type")
    p.add_argument("bundle", nargs="?", help="e.g. article (sets type, vid, bundle... as the entity type wants)")
    add_entity_body_options(p)
    p.add_argument("--input", metavar="FILE", help="bulk: one JSON object a line (- for stdin), each created "
                   "with the options above applied; prints one created entity a line")


def args_update(p: argparse.ArgumentParser) -> None:
    p.add_argument("entity_type")
    p.add_argument("id")
    p.add_argument("--bundle", help="the bundle (else read from the entity first)")
    add_entity_body_options(p)


def args_delete(p: argparse.ArgumentParser) -> None:
    p.add_argument("entity_type")
    p.add_argument("id", nargs="+")


def args_view(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="the Views REST export's path, e.g. /api/articles")
    p.add_argument("--query", action="append", metavar="NAME=VALUE", help="exposed filters, sorts...")
    p.add_argument("--page", type=int, help="this page only (default 0); with --all, the first page")
    p.add_argument("--all", action="store_true", help="every page, until the pages end (the library's pager)")
    p.add_argument("--max-pages", type=int, default=1000, help="with --all: stop after this many (default 1000)")
    p.add_argument("--ndjson", action="store_true", help="one row a line, as they arrive")


def args_request(p: argparse.ArgumentParser) -> None:
    p.add_argument("method", help="GET, POST, PATCH, DELETE, ...")
    p.add_argument("path", help="a path under the site (may carry ?query), or an absolute URL under it")
    p.add_argument("--query", action="append", metavar="NAME=VALUE")
    p.add_argument("--data", metavar="BODY", help="the body, sent as it is: inline text, @FILE or - (stdin)")
    p.add_argument("--no-format", action="store_true",
                   help="don't add ?_format=json (JSON:API: drupal request GET /jsonapi/node/article --no-format)")
    p.add_argument("--include", action="store_true", help="print {status, headers, body}")


def args_login(p: argparse.ArgumentParser) -> None:
    p.add_argument("--save", action="store_true",
                   help="store the user name and password in the netrc file (mode 0600) for later commands")


class Command(NamedTuple):
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[..., None]
    needs_client: bool = True
    prepare: Optional[Callable[[argparse.Namespace], None]] = None   # checks before any request


COMMANDS: Tuple[Command, ...] = (
    Command("get", "read entities: drupal get node 1", args_get, cmd_get),
    Command("create", "create an entity: drupal create node article --title X", args_create, cmd_create,
            prepare=prepare_body),
    Command("update", "change fields: drupal update node 1 --title Y", args_update, cmd_update,
            prepare=prepare_body),
    Command("delete", "delete entities: drupal delete node 1 2", args_delete, cmd_delete),
    Command("view", "rows of a Views REST export: drupal view /api/articles --all", args_view, cmd_view),
    Command("request", "any request: drupal request GET /jsonapi/node/article --no-format", args_request,
            cmd_request),
    Command("login", "check credentials (and --save them); the session itself ends with the command",
            args_login, cmd_login),
    Command("logout", "forget the credentials `login --save` stored for this site", lambda p: None, cmd_logout,
            needs_client=False),
)


# ---- The parser and the run ---------------------------------------------------------------------

def add_common_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    # Accepted before and after the subcommand; defaults are set only once (on the top parser).
    d = (lambda value: value) if defaults else (lambda value: argparse.SUPPRESS)
    parser.add_argument("--url", default=d(None), help="the site's base URL (default $DRUPAL_BASE_URL)")
    parser.add_argument("--user", default=d(None), help="user name (default $DRUPAL_USER, or the netrc file's)")
    parser.add_argument("--auth", choices=("auto", "cookie", "basic", "bearer", "none"), default=d("auto"),
                        help="auto (default): bearer with a token, else a cookie login with a password, else none")
    parser.add_argument("--netrc-file", default=d(None), metavar="FILE",
                        help="credentials file (default $DRUPAL_NETRC, else ~/.config/drupalsdk/netrc, ~/.netrc)")
    parser.add_argument("--token-file", default=d(None), metavar="FILE",
                        help="a Bearer token (OAuth) from this file (default $DRUPAL_TOKEN)")
    parser.add_argument("--timeout", type=float, default=d(None), help="seconds for each request (default 60)")
    parser.add_argument("--insecure", action="store_true", default=d(False), help="don't verify TLS certificates")
    parser.add_argument("--ca-file", default=d(None), metavar="PEM", help="trust these CA certificates instead")
    parser.add_argument("-H", "--header", action="append", default=d(None), metavar="'NAME: VALUE'",
                        help="an extra header for every request")
    parser.add_argument("--compact", action="store_true", default=d(False), help="JSON on one line")
    parser.add_argument("--progress", action="store_true", default=d(False), help="report progress on stderr")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="drupal", description="A Drupal 10/11 site from the shell (core REST, Views, any request). "
        "Prints JSON; exit codes: 0 ok, 1 error, 2 usage, 3 network, 4 timeout, 5 authentication, "
        "6 forbidden, 7 not found, 8 validation (422), 9 other HTTP error, 130 interrupted.",
        epilog="Credentials: DRUPAL_USER + DRUPAL_PASSWORD, DRUPAL_TOKEN, or a netrc file "
        "(machine HOST login USER password PASS). Passwords are never taken as options.")
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
    creds = args.credentials
    client = drupalsdk.Client(args.url, timeout=args.timeout, verify=not args.insecure, ca_file=args.ca_file,
                              headers=[_header(h) for h in args.header or ()] or None)
    auth = args.auth
    if auth == "auto":
        auth = "bearer" if creds.token else "cookie" if creds.user and creds.password is not None else "none"
    if args.command_entry.name == "login" or auth == "none":
        return client, False
    if auth == "bearer":
        if not creds.token:
            raise UsageError("--auth bearer needs a token: set DRUPAL_TOKEN or give --token-file")
        client.set_bearer_token(creds.token)
        return client, False
    if not creds.user or creds.password is None:
        raise UsageError("--auth %s needs a user and a password: DRUPAL_USER and DRUPAL_PASSWORD, or a netrc "
                         "file (credentials looked up: %s)" % (auth, creds.source))
    if auth == "basic":
        client.set_basic_auth(creds.user, creds.password)
        return client, False
    client.login(creds.user, creds.password)
    return client, True


def _header(text: str) -> Tuple[str, str]:
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        raise UsageError("-H wants 'Name: value', got %r" % text)
    return name.strip(), value.strip()


def report(error: BaseException) -> None:
    if isinstance(error, drupalsdk.DrupalError):
        status = " (HTTP %d)" % error.status if error.status is not None else ""
        violations = getattr(error, "violations", None) or ()
        # With violations, the message's first line; they follow, one a line.
        message = error.message.splitlines()[0] if violations and error.message else error.message
        sys.stderr.write("drupal: %s%s: %s\n" % (error.code, status, message))
        for field, message in violations:
            sys.stderr.write("drupal:   %s: %s\n" % (field, message))
    else:
        sys.stderr.write("drupal: %s\n" % error)


def run(args: argparse.Namespace) -> int:
    args.url = args.url or os.environ.get("DRUPAL_BASE_URL")
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
        args.credentials = _clicreds.resolve(args.url, args.user, args.netrc_file, args.token_file)
    except (ValueError, OSError) as error:
        raise UsageError(str(error)) from None
    client, logged_in = make_client(args)
    with client:
        try:
            entry.run(client, args, out)
        finally:
            if logged_in and client.has_session:
                _logout_quietly(client)
    return EXIT_OK


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
