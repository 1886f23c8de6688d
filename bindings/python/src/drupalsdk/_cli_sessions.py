"""OAuth sessions the ``drupal`` command keeps (``drupal login --oauth-grant authorization_code
--save``): one refresh token per site and consumer, in ``$XDG_CONFIG_HOME/drupalsdk/oauth-sessions``
(mode 0600), a line each: ``<base URL> <client id> <refresh token>``.

Drupal rotates the refresh token on every refresh and revokes the one before, so commands on one
session take turns (``locked``): each reads the saved token, refreshes it and writes the newest
back while it holds the lock, and a command that ends writes back or forgets only the token it
left there (``replace``), never one another command saved since.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
from typing import Iterator, List, Optional

from ._clicreds import write_private
from ._cli_secrets import warn_if_shared

__all__ = ["default_path", "locked", "load", "save", "replace", "forget", "check_savable"]

#: How deep this process holds the lock (flock would block on a second open of the lock file).
_held = 0


def default_path() -> str:
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "drupalsdk", "oauth-sessions")


@contextlib.contextmanager
def locked(path: Optional[str] = None) -> Iterator[None]:
    """Holds the sessions file's lock (flock on "<file>.lock" beside it) for the block: other
    commands wait. Re-entrant within the process."""
    global _held
    if _held:
        _held += 1
        try:
            yield
        finally:
            _held -= 1
        return
    path = path or default_path()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    # Not through a symlink: the lock is ours, beside our file.
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _held = 1
        yield
    finally:
        _held = 0
        os.close(fd)   # releases the lock


def _site(base_url: str) -> str:
    return base_url.rstrip("/")


def check_savable(base_url: str, client_id: str) -> None:
    """ValueError when a line of the file cannot hold them (checked before the person is asked)."""
    for value, what in ((base_url, "site URL"), (client_id, "client id")):
        if not value or any(c.isspace() for c in value):
            raise ValueError("cannot save an OAuth session for a %s with spaces in it" % what)


def _entries(path: str) -> List[List[str]]:
    if not os.path.exists(path):
        return []
    warn_if_shared(path, "the OAuth sessions file")
    try:
        with open(path, encoding="utf-8") as f:
            return [parts for parts in (line.split() for line in f) if len(parts) == 3]
    except UnicodeDecodeError:
        raise OSError("cannot read the OAuth sessions file %s: it is not UTF-8" % path) from None


def _write(path: str, entries: List[List[str]]) -> None:
    write_private(path, [" ".join(e) + "\n" for e in entries])


def load(base_url: str, client_id: str, path: Optional[str] = None) -> Optional[str]:
    """The refresh token saved for this site and consumer, or None."""
    for site, cid, token in _entries(path or default_path()):
        if site == _site(base_url) and cid == client_id:
            return token
    return None


def save(base_url: str, client_id: str, refresh_token: str, path: Optional[str] = None) -> str:
    """Saves (or replaces) the site's and consumer's refresh token; the file's path."""
    path = path or default_path()
    check_savable(base_url, client_id)
    if not refresh_token or any(c.isspace() for c in refresh_token):
        raise ValueError("the site gave a refresh token that cannot be saved (empty, or with spaces)")
    with locked(path):
        kept = [e for e in _entries(path) if (e[0], e[1]) != (_site(base_url), client_id)]
        kept.append([_site(base_url), client_id, refresh_token])
        _write(path, kept)
    return path


def replace(base_url: str, client_id: str, expected: str, newest: Optional[str], path: Optional[str] = None) -> bool:
    """If the saved token is still ``expected``: saves ``newest`` in its place, or forgets the
    session (``newest`` None). False when another command changed it meanwhile (its token wins)."""
    with locked(path):
        if load(base_url, client_id, path) != expected:
            return False
        if newest is None:
            return forget(base_url, client_id, path)
        save(base_url, client_id, newest, path)
        return True


def forget(base_url: str, client_id: Optional[str] = None, path: Optional[str] = None) -> bool:
    """Removes the site's sessions (of one consumer, or all); False if there were none."""
    path = path or default_path()
    if not os.path.exists(path):
        return False
    with locked(path):
        entries = _entries(path)
        kept = [e for e in entries if not (e[0] == _site(base_url) and client_id in (None, e[1]))]
        if len(kept) == len(entries):
            return False
        _write(path, kept)
    return True
