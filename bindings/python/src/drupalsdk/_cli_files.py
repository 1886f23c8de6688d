"""The ``drupal upload`` and ``drupal download`` subcommands: a file streamed from disk to a file
field, and a file's content (by URL or by file entity) streamed to disk or to stdout."""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from typing import Any, Callable, Dict, Optional
from urllib.parse import unquote, urlsplit

import drupalsdk

from ._cli_exits import UsageError


def args_upload(p: argparse.ArgumentParser) -> None:
    p.add_argument("entity_type", help="the entity type the file field is on, e.g. node")
    p.add_argument("bundle", help="its bundle, e.g. article")
    p.add_argument("field", help="the file or image field, e.g. field_image")
    p.add_argument("file", help="the file to send (streamed, never read whole)")
    p.add_argument("--filename", help="the name Drupal stores (default: the file's own name)")


def args_download(p: argparse.ArgumentParser) -> None:
    p.add_argument("file_url", nargs="?", metavar="URL", help="the file's URL or path under the site "
                   "(/sites/default/files/..., /system/files/...)")
    p.add_argument("--file-id", metavar="ID", help="the file entity's id instead of a URL (its uri is read first)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="where to write it, replacing a file there (default: the URL's last segment, here, "
                   "if no such file exists yet); - for stdout")


def prepare_download(args: argparse.Namespace) -> None:
    # Checked before anything is sent, so a mistake costs no login.
    if (args.file_url is None) == (args.file_id is None):
        raise UsageError("download wants a URL or --file-id (one of them)")
    if args.output == "-" and sys.stdout.isatty():
        # A server's bytes would drive the terminal (escape sequences), as curl warns.
        raise UsageError("stdout is a terminal: pipe the file somewhere or give -o FILE")
    if args.output is None:
        if args.file_url is None:
            raise UsageError("download --file-id wants -o FILE (or -o - for stdout)")
        args.output = _default_name(args.file_url)
        if os.path.lexists(args.output):
            raise UsageError("%s exists here: give -o %s to replace it" % (args.output, args.output))


def _default_name(url: str) -> str:
    """The URL's last path segment, decoded, as a file name here (as wget names what it saves)."""
    name = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    if name in ("", ".", "..") or "/" in name or "\0" in name or name.startswith("-"):
        # The URL itself is not quoted: it may carry a secret (a token in its query, user info).
        raise UsageError("the URL's last segment is no file name: give -o FILE")
    return name


class _ProgressLine:
    """``--progress`` for a transfer: bytes so far on stderr, at most twice a second and at the end
    (the callback runs on a library thread)."""

    def __init__(self, verb: str, report: Callable[[str], None]) -> None:
        self.verb, self.report = verb, report
        self.lock = threading.Lock()
        self.last = 0.0

    def __call__(self, done: int, total: Optional[int]) -> bool:
        now = time.monotonic()
        with self.lock:
            finished = total is not None and done == total
            if done == 0 or not finished and now - self.last < 0.5:
                return True
            self.last = now
        self.report("%s %d%s bytes" % (self.verb, done, "" if total is None else " of %d" % total))
        return True


def prepare_upload(args: argparse.Namespace) -> None:
    # Checked before anything is sent, so a mistake costs no login.
    if not os.path.isfile(args.file):
        raise UsageError("%s: %s" % ("not a regular file" if os.path.exists(args.file) else "no such file", args.file))


def cmd_upload(client: drupalsdk.Client, args: argparse.Namespace, out: Any) -> None:
    progress = _ProgressLine("upload:", out.progress) if out.progress_on else None
    out.json(client.upload_file_path(args.entity_type, args.bundle, args.field, args.file,
                                     filename=args.filename, progress=progress))


def cmd_download(client: drupalsdk.Client, args: argparse.Namespace, out: Any) -> None:
    progress = _ProgressLine("download:", out.progress) if out.progress_on else None
    to_stdout = _StdoutWriter() if args.output == "-" else None
    target: Dict[str, Any] = {"write": to_stdout} if to_stdout else {"path": args.output}
    try:
        if args.file_id is not None:
            response = client.download_file(args.file_id, progress=progress, **target)
        else:
            response = client.download(args.file_url, progress=progress, **target)
    except drupalsdk.CancelledError:
        if to_stdout and to_stdout.reader_gone:
            raise BrokenPipeError() from None   # `drupal download URL -o - | head`: not an error
        raise
    if to_stdout:
        sys.stdout.buffer.flush()
        return
    out.json({"saved_to": args.output, "bytes": os.path.getsize(args.output), "status": response.status,
              "content_type": response.headers.get("Content-Type")})


class _StdoutWriter:
    """The content to stdout as it arrives; stops the download when the reader went away."""

    def __init__(self) -> None:
        self.reader_gone = False

    def __call__(self, chunk: bytes) -> bool:
        try:
            sys.stdout.buffer.write(chunk)
        except BrokenPipeError:
            self.reader_gone = True
            return False
        return True
