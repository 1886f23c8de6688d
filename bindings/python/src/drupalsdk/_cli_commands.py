"""The subcommands of the ``drupal`` command: each one's arguments and function (``COMMANDS``), and
the JSON output they write (``Output``)."""
from __future__ import annotations

import argparse
import contextlib
import getpass
import json
import os
import re
import sys
import urllib.parse
from typing import Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple

import drupalsdk

from . import _cli_oauth, _cli_sessions, _clicreds
from ._cli_bodies import BUNDLE_FIELDS, _pair, entity_body, parse_json
from ._cli_exits import UsageError
from ._cli_files import args_download, args_upload, cmd_download, cmd_upload, prepare_download, prepare_upload
from ._cli_jsonapi import args_jsonapi, cmd_jsonapi
from ._cli_terminal import shown


# ---- Output -------------------------------------------------------------------------------------

# DEL and C1 controls (see Output.json), and lone surrogates: a server's "\ud800" decodes to
# one, which no UTF-8 stream can write.
_ESCAPED = re.compile("[\x7f-\x9f\ud800-\udfff]")


class Output:
    def __init__(self, args: argparse.Namespace) -> None:
        self.indent = None if args.compact else 2
        self.progress_on = args.progress

    def json(self, value: Any, *, compact: bool = False) -> None:
        text = json.dumps(value, indent=None if compact else self.indent, ensure_ascii=False)
        # JSON escapes C0 controls but lets DEL and the C1 controls through, and a terminal acts on
        # C1's CSI (U+009B) as on ESC [: a server's strings are written as JSON escapes instead.
        sys.stdout.write(_ESCAPED.sub(lambda match: "\\u%04x" % ord(match.group()), text) + "\n")

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
        with _stopping_at("get " + args.entity_type, args.id, number, "nothing printed"):
            entities.append(client.get(args.entity_type, entity_id))
        out.progress("get %s %s (%d/%d)" % (args.entity_type, entity_id, number, len(args.id)))
    out.json(entities[0] if len(entities) == 1 else entities)


def cmd_resolve(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    answers = []
    for number, path in enumerate(args.path, 1):
        with _stopping_at("resolve", args.path, number, "nothing printed"):
            resolved = client.resolve_path(path)
            if args.entity:
                entity = resolved.get("entity") or {}
                if not entity.get("type") or not entity.get("id"):
                    # An external URL, say: decoupled_router names no entity.
                    raise UsageError("%s shows no entity" % shown(path))
                resolved = client.get(str(entity["type"]), str(entity["id"]))
            answers.append(resolved)
        out.progress("resolve %s (%d/%d)" % (shown(path), number, len(args.path)))
    out.json(answers[0] if len(answers) == 1 else answers)


@contextlib.contextmanager
def _stopping_at(verb: str, items: List[str], number: int, done: str) -> Iterator[None]:
    """With several items (``verb`` names what is done to them: "get node"), a failure first
    names the item and what was done before it; its own error (and exit code) follows."""
    try:
        yield
    except (drupalsdk.DrupalError, UsageError):
        if len(items) > 1:
            rest = [shown(item) for item in items[number:]]
            sys.stderr.write("drupal: %s %s (%d of %d) failed; %s; not tried: %s\n" % (
                verb, shown(items[number - 1]), number, len(items), done, ", ".join(rest) if rest else "none"))
        raise


def prepare_body(args: argparse.Namespace) -> None:
    # Built before anything is sent, so a mistake in it costs no login.
    args.body = entity_body(args, args.entity_type, args.bundle)


def cmd_create(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    if args.input is None:
        out.json(client.create(args.entity_type, args.body))
        return
    # Bulk: one REST body a line (NDJSON); the options are applied to each.
    # Read as bytes, so that a line that is not UTF-8 is named as parse_json names it.
    stream = sys.stdin.buffer if args.input == "-" else open(args.input, "rb")
    created = 0
    try:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                base = dict(args.body)
                item = parse_json(line, "%s line %d" % (args.input, number))
                if not isinstance(item, dict):
                    raise UsageError("%s line %d is not a JSON object" % (args.input, number))
                base.update(item)
                entity = client.create(args.entity_type, base)
            except (drupalsdk.DrupalError, UsageError):
                # Its own error (and exit code) follows: first where the run stopped.
                sys.stderr.write("drupal: %s line %d not created; %d created before it (printed on stdout); "
                                 "the lines after it not tried\n" % (args.input, number, created))
                raise
            out.json(entity, compact=True)
            created += 1
            out.progress("created %d" % created)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def cmd_update(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    body = args.body
    key = BUNDLE_FIELDS.get(args.entity_type)
    if key is not None and key not in body:
        # Drupal wants the bundle field on PATCH too: take it from the entity.
        body[key] = client.get(args.entity_type, args.id).get(key)
    out.json(client.update(args.entity_type, args.id, body))


def cmd_delete(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    deleted: List[str] = []
    for number, entity_id in enumerate(args.id, 1):
        with _stopping_at("delete " + args.entity_type, args.id, number,
                          "deleted before it: %s" % (", ".join(deleted) or "none")):
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
                              headers=_request_headers(args, body),
                              format=not args.no_format and not _is_jsonapi(args.path), raise_for_status=False)
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
            text = value if value.endswith("\n") else value + "\n"
            # As it came for a pipe or a file; a terminal gets the control characters shown.
            sys.stdout.write(shown(text, keep_lines=True) if sys.stdout.isatty() else text)
        else:
            out.json(value)
    response.raise_for_status()   # the answer was shown; the exit code still tells the class


def _is_jsonapi(path: str) -> bool:
    """A JSON:API path: it takes no ?_format (406) and wants its own Content-Type (415)."""
    return "jsonapi" in urllib.parse.urlsplit(path).path.split("/")


def _request_headers(args: argparse.Namespace, body: Optional[bytes]) -> Optional[Dict[str, str]]:
    """Content-Type: application/vnd.api+json for a body to a JSON:API path (Drupal answers 415 to
    the library's application/json there), unless -H gave a Content-Type."""
    if body is None or any(h.partition(":")[0].strip().lower() == "content-type" for h in args.header or ()):
        return None
    if not _is_jsonapi(args.path):
        return None
    return {"Content-Type": "application/vnd.api+json"}


def cmd_login(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    creds = args.credentials
    user, password = creds.user, creds.password
    # With --auth oauth (or a client id): the grant the other commands would use.
    grant = _cli_oauth.grant(args, user, password) if args.auth == "oauth" else None
    if grant in (None, "password"):
        if user is None:
            raise UsageError("no user name: give --user or set DRUPAL_USER")
        if password is None:
            if not sys.stdin.isatty():
                raise UsageError("no password: set DRUPAL_PASSWORD, use a netrc file, or run on a terminal to be "
                                 "asked")
            password = getpass.getpass("Password for %s at %s: " % (user, args.url))
    if args.save:
        if grant == "client_credentials":
            raise UsageError("login --save stores a user's password, and the client_credentials grant has none: "
                             "keep the client secret in DRUPAL_OAUTH_CLIENT_SECRET or --oauth-secret-file")
        try:
            if grant == "authorization_code":
                _cli_sessions.check_savable(args.url, _cli_oauth.client_id(args) or "")
            else:
                _clicreds.check_savable(user, password)  # type: ignore[arg-type]
        except ValueError as error:
            raise UsageError(str(error)) from None
    result: Dict[str, Any] = {"base_url": args.url}
    if grant is not None:
        _cli_oauth.apply(client, args, grant, user, password)
        # What was obtained, never the token: {"token_type": "Bearer", "has_refresh_token": ...}.
        result["oauth"] = dict(client.oauth_authenticate(), grant=grant)
        if grant == "authorization_code" and args.save:
            refresh_token = client.oauth_refresh_token()
            if refresh_token is None:
                raise UsageError("the site gave no refresh token with the code: there is no session to save")
            try:
                result["saved_to"] = _cli_sessions.save(args.url, _cli_oauth.client_id(args) or "", refresh_token)
            except ValueError as error:
                raise UsageError(str(error)) from None
            out.json(result)
            return
    else:
        answer = client.login(user, password)  # type: ignore[arg-type]  # AuthenticationError if wrong
        client.logout()
        # Only the user, never the tokens: the session ends with this process anyway.
        result["current_user"] = answer.get("current_user")
    if args.save:
        path = args.netrc_file or os.environ.get("DRUPAL_NETRC") or _clicreds.default_netrc()
        try:
            _clicreds.save(path, _clicreds.host_of(args.url), user, password)  # type: ignore[arg-type]
        except ValueError as error:
            raise UsageError(str(error)) from None
        result["saved_to"] = path
    out.json(result)


def cmd_logout(client: Optional[drupalsdk.Client], args: argparse.Namespace, out: Output) -> None:
    path = args.netrc_file or os.environ.get("DRUPAL_NETRC") or _clicreds.default_netrc()
    removed = _clicreds.forget(path, _clicreds.host_of(args.url))
    # And the OAuth sessions `login --oauth-grant authorization_code --save` kept for the site.
    sessions = _cli_sessions.forget(args.url)
    out.json({"base_url": args.url, "forgotten": removed or sessions, "netrc_file": path,
              "oauth_sessions_forgotten": sessions})


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
    p.add_argument("--input", metavar="FILE", help="bulk: one entity a line (- for stdin), each line a whole "
                   "REST body as for --json ('{\"title\": [{\"value\": \"x\"}]}'; flat values are refused "
                   "with 422), with the options above applied; prints one created entity a line, and stops at the "
                   "first line that fails, naming it")


def args_update(p: argparse.ArgumentParser) -> None:
    p.add_argument("entity_type")
    p.add_argument("id")
    p.add_argument("--bundle", help="the bundle (else read from the entity first)")
    add_entity_body_options(p)


def args_delete(p: argparse.ArgumentParser) -> None:
    p.add_argument("entity_type")
    p.add_argument("id", nargs="+")


def args_resolve(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="+", help="a path or alias of the site, e.g. /about-us or /node/1")
    p.add_argument("--entity", action="store_true", help="print the entity the path shows (its core REST read)")


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
    p.add_argument("--data", metavar="BODY", help="the body, sent as it is: inline text, @FILE or - (stdin); "
                   "as application/json, or application/vnd.api+json to a /jsonapi/ path (-H 'Content-Type: ...' "
                   "for another)")
    p.add_argument("--no-format", action="store_true",
                   help="don't add ?_format=json (a /jsonapi/ path never gets it)")
    p.add_argument("--include", action="store_true", help="print {status, headers, body}")


def args_login(p: argparse.ArgumentParser) -> None:
    p.add_argument("--save", action="store_true",
                   help="store the user name and password in the netrc file (mode 0600) for later commands; "
                        "with --oauth-grant authorization_code, the session (its refresh token) in the OAuth "
                        "sessions file (mode 0600)")


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
    Command("jsonapi", "JSON:API reads: drupal jsonapi node--article --filter title:CONTAINS=Art --all",
            args_jsonapi, cmd_jsonapi),
    Command("upload", "send a file to a file field: drupal upload node article field_image photo.png",
            args_upload, cmd_upload, prepare=prepare_upload),
    Command("download", "save a file: drupal download /sites/default/files/2026-12/photo.png (or --file-id 3 -o F)",
            args_download, cmd_download, prepare=prepare_download),
    Command("request", "any request: drupal request GET /jsonapi/node/article", args_request,
            cmd_request),
    Command("resolve", "what a path or alias shows (contrib decoupled_router): drupal resolve /about-us "
            "[--entity]", args_resolve, cmd_resolve),
    Command("login", "check credentials (and --save them): a cookie login, or the OAuth grant with --auth oauth "
            "or a client id (authorization_code: approve in the browser); the session or token ends with the "
            "command unless saved",
            args_login, cmd_login),
    Command("logout", "forget the credentials `login --save` stored for this site", lambda p: None, cmd_logout,
            needs_client=False),
)
