"""OAuth sessions the ``drupal`` command keeps (``drupal login --oauth-grant authorization_code
--save``): one refresh token per site and consumer, in ``$XDG_CONFIG_HOME/drupalsdk/oauth-sessions``
(mode 0600), a line each: ``<base URL> <client id> <refresh token>``.

Drupal rotates the refresh token on every refresh and revokes the one before, so a command that
starts from a saved session writes the newest back when it ends, and forgets the session when the
site refused it. Two commands on one session at the same time would race (the one that refreshes
second holds a revoked token): run them one after the other.
"""
from __future__ import annotations

import os
from typing import List, Optional

from ._clicreds import write_private
from ._cli_secrets import warn_if_shared

__all__ = ["default_path", "load", "save", "forget", "check_savable"]


def default_path() -> str:
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "drupalsdk", "oauth-sessions")


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
            return [line.split() for line in f if len(line.split()) == 3]
    except UnicodeDecodeError:
        raise OSError("cannot read the OAuth sessions file %s: it is not UTF-8" % path) from None


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
    kept = [e for e in _entries(path) if (e[0], e[1]) != (_site(base_url), client_id)]
    kept.append([_site(base_url), client_id, refresh_token])
    write_private(path, [" ".join(e) + "\n" for e in kept])
    return path


def forget(base_url: str, client_id: Optional[str] = None, path: Optional[str] = None) -> bool:
    """Removes the site's sessions (of one consumer, or all); False if there were none."""
    path = path or default_path()
    entries = _entries(path)
    kept = [e for e in entries if not (e[0] == _site(base_url) and client_id in (None, e[1]))]
    if len(kept) == len(entries):
        return False
    write_private(path, [" ".join(e) + "\n" for e in kept])
    return True
