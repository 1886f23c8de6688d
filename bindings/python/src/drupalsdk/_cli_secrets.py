"""The files the ``drupal`` command reads secrets from (a netrc file, ``--token-file``,
``--oauth-secret-file``): a warning on stderr when the group or others can read one.

A warning, not a refusal: the command has always read these files as they are, and a refusal
would break scripts that work today; ``login --save`` writes its netrc file 0600. The warning
names the file and its mode, never what is in it (as curl and ftp do).
"""
from __future__ import annotations

import os
import stat
import sys

__all__ = ["warn_if_shared", "read_secret_file"]


def warn_if_shared(path: str, what: str) -> None:
    """Warns when the group or others may read ``path`` (``what`` names it: "the netrc file")."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return   # reading it fails next, with its own message
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        who = "its group and others" if mode & stat.S_IROTH and mode & stat.S_IRGRP else \
            "others" if mode & stat.S_IROTH else "its group"
        sys.stderr.write("drupal: warning: %s %s is readable by %s (mode %04o): chmod 600 it\n"
                         % (what, path, who, mode))


def read_secret_file(path: str, what: str) -> str:
    """The text of a file holding a secret, after the warning above; OSError names the file (the
    path was given for this option, so it is no secret), never the content."""
    warn_if_shared(path, what)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError:
        raise OSError("cannot read %s %s: it is not UTF-8" % (what, path)) from None
    except OSError as error:
        raise OSError("cannot read %s %s: %s" % (what, path, error.strerror or error)) from None
