"""Where the ``drupal`` command gets credentials: options, environment variables, a netrc file.

Nothing is written to disk unless the user asks (``drupal login --save``), and then only to a
file of mode 0600. Secrets are never put on the command line (other users can read a process's
arguments), so passwords and tokens come from the environment or from files.
"""
from __future__ import annotations

import netrc
import os
import urllib.parse
from typing import NamedTuple, Optional, Tuple

from ._cli_secrets import read_secret_file, warn_if_shared


class Credentials(NamedTuple):
    user: Optional[str]
    password: Optional[str]
    token: Optional[str]
    source: str           # where they came from, for messages (never the secret itself)


def default_netrc() -> str:
    """The file ``drupal login --save`` writes: $XDG_CONFIG_HOME/drupalsdk/netrc."""
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "drupalsdk", "netrc")


def netrc_candidates(explicit: Optional[str]) -> Tuple[str, ...]:
    """The netrc files to read, first match wins: --netrc-file or $DRUPAL_NETRC alone if given,
    else the CLI's own file and then ~/.netrc (as curl --netrc and git do)."""
    chosen = explicit or os.environ.get("DRUPAL_NETRC")
    if chosen:
        return (chosen,)
    return default_netrc(), os.path.join(os.path.expanduser("~"), ".netrc")


def host_of(base_url: str) -> str:
    return urllib.parse.urlsplit(base_url).hostname or ""


def from_netrc(path: str, host: str) -> Optional[Tuple[str, str]]:
    """(login, password) for host from a netrc file, None if it has no entry (or no file)."""
    if not os.path.exists(path):
        return None
    warn_if_shared(path, "the netrc file")
    try:
        if _has_unclosed_quote(path):
            raise ValueError("cannot read the netrc file %s: an unclosed quote" % path)
        entry = netrc.netrc(path).authenticators(host)
    except netrc.NetrcParseError as error:
        # Its message quotes the token it choked on, which may be the password: the line only.
        where = " near line %d" % error.lineno if error.lineno else ""
        raise ValueError("cannot read the netrc file %s: a syntax error%s" % (path, where)) from None
    except UnicodeDecodeError:
        raise ValueError("cannot read the netrc file %s: it is not UTF-8" % path) from None
    except OSError as error:
        raise ValueError("cannot read the netrc file %s: %s" % (path, error)) from None
    if not entry:
        return None
    login, _account, password = entry
    password = password or ""
    # netrc reads an unclosed quote to the end of the file, newlines and all: refuse it rather
    # than send a login or password holding the rest of the file.
    if any(c in text for text in (login, password) for c in "\r\n"):
        raise ValueError("cannot read the netrc file %s: an unclosed quote in the entry for %s" % (path, host))
    return login, password


def resolve(base_url: str, user: Optional[str], netrc_file: Optional[str], token_file: Optional[str],
            auth: str = "auto") -> Credentials:
    """Options first, then DRUPAL_USER / DRUPAL_PASSWORD / DRUPAL_TOKEN, then a netrc file.

    ``auth`` is the ``--auth`` asked for (``cookie`` for ``drupal login``, which always wants a
    password): a netrc file is read only when its password could be used."""
    token = None
    if token_file:
        token = read_secret_file(token_file, "the token file").strip()
    token = token or os.environ.get("DRUPAL_TOKEN") or None
    user = user or os.environ.get("DRUPAL_USER") or None
    password = os.environ.get("DRUPAL_PASSWORD")
    if password is not None:
        return Credentials(user, password, token, "DRUPAL_PASSWORD")
    if auth == "none" or (token and auth in ("auto", "bearer")):
        return Credentials(user, None, token, "DRUPAL_TOKEN" if token else "none")
    for path in netrc_candidates(netrc_file):
        found = from_netrc(path, host_of(base_url))
        if found and (user is None or user == found[0]):
            return Credentials(found[0], found[1], token, "netrc file %s" % path)
    return Credentials(user, None, token, "none")


def _has_unclosed_quote(path: str) -> bool:
    """Whether a quoted token runs to the end of the file, which netrc reads without a word (the
    rest of the file, this host's entry included, becomes that token). Tokens as netrc splits
    them: a quote opens one only at its start, a backslash escapes, "#" starts a comment."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    i, n, space = 0, len(text), " \t\r\n"
    while i < n:
        if text[i] in space:
            i += 1
        elif text[i] == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif text[i] == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            if i >= n:
                return True
            i += 1
        else:
            while i < n and text[i] not in space:
                i += 2 if text[i] == "\\" else 1
    return False


def _entry_host(line: str) -> Optional[str]:
    words = line.split()
    return words[1] if len(words) >= 2 and words[0] == "machine" else None


def check_savable(user: str, password: str) -> None:
    """ValueError if a netrc line cannot hold them (checked before logging in)."""
    for value, what in ((user, "user name"), (password, "password")):
        if not value or any(c.isspace() or c in "\"'#\\" for c in value):
            raise ValueError("cannot save a %s with spaces, quotes, '#' or '\\' in a netrc file: "
                             "use DRUPAL_PASSWORD instead" % what)


def save(path: str, host: str, user: str, password: str) -> None:
    """Writes one ``machine HOST login USER password PASS`` line (replacing HOST's), mode 0600."""
    check_savable(user, password)
    lines = _lines_without(path, host)
    lines.append("machine %s login %s password %s\n" % (host, user, password))
    write_private(path, lines)


def forget(path: str, host: str) -> bool:
    """Removes HOST's line from the file; False if it had none."""
    if not os.path.exists(path):
        return False
    with open(path, encoding="utf-8") as f:
        before = f.readlines()
    after = _lines_without(path, host)
    if len(after) == len(before):
        return False
    write_private(path, after)
    return True


def _lines_without(path: str, host: str) -> list:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line for line in f if _entry_host(line) != host]


def write_private(path: str, lines: list) -> None:
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    # Created 0600 before anything is written, so the password is never readable by others.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.writelines(lines)
