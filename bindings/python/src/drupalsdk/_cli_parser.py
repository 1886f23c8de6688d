"""The ``drupal`` command's argument parser: argparse's, except that its usage errors never quote
what was typed. A mistyped option's value is often a secret (``--hedaer 'Authorization: Bearer
...'``, ``-q token=...``), so an error names options (the words starting with ``-``, without an
``=value``) and leaves values out, as the command's own errors about ``-H`` and ``--query`` do.
And the options that name a file holding a secret are never taken from an abbreviation:
``--token S3CRET`` was read as ``--token-file S3CRET``, and the error about that missing file
quoted the secret.
"""
from __future__ import annotations

import argparse
import re
from typing import Any, List, NoReturn, Optional, Sequence

__all__ = ["Parser", "EXACT_ONLY"]

#: Options matched only when written in full (see above).
EXACT_ONLY = frozenset(("--token-file", "--netrc-file", "--oauth-secret-file"))

# argparse's messages that quote a value, and what is kept of each. The value is matched up to
# the last fixed text after it, so nothing a user typed there can end it early.
_QUOTING = (
    (re.compile(r"(invalid choice): .*( \(choose from .*\))$", re.S), r"\1\2"),
    (re.compile(r"(invalid \S+ value): .*$", re.S), r"\1"),
    (re.compile(r"(ignored explicit argument) .*$", re.S), r"\1"),
    (re.compile(r"(ambiguous option: [^=]*)=.*( could match .*)$", re.S), r"\1\2"),
)


def option_name(word: str) -> Optional[str]:
    """The option a word names (``--hedaer=x`` -> ``--hedaer``, ``-qtoken`` -> ``-q``), or None
    for a value."""
    if len(word) < 2 or not word.startswith("-"):
        return None
    if word.startswith("--"):
        return word.partition("=")[0]
    return word[:2]


class Parser(argparse.ArgumentParser):
    """An ArgumentParser (its subcommands' parsers are of this class too) whose usage errors
    name options and never quote values."""

    def parse_args(self, args: Optional[Sequence[str]] = None, namespace: Any = None) -> Any:  # type: ignore[override]
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            words: List[str] = [name for name in map(option_name, extras) if name]
            hidden = len(extras) - len(words)
            if hidden:
                words.append("(and %d value%s, not shown)" % (hidden, "" if hidden == 1 else "s"))
            self.error("unrecognized arguments: " + " ".join(words))
        return parsed

    def _get_option_tuples(self, option_string: str) -> Any:
        # argparse's prefix matches (a full match never comes here); each tuple's second item is
        # the option matched, in every Python version.
        return [match for match in super()._get_option_tuples(option_string)  # type: ignore[misc]
                if match[1] not in EXACT_ONLY]

    def error(self, message: str) -> NoReturn:
        for pattern, kept in _QUOTING:
            message = pattern.sub(kept, message)
        super().error(message)
