"""What the ``drupal`` command writes to a terminal: a server's text with its control characters
shown (``\\u{1b}``, as the library writes them in messages), never obeyed."""
from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str, keep_lines: bool = False) -> str:
    """Text with every C0 and C1 control character and DEL as ``\\u{hex}``; with ``keep_lines``,
    line feeds and tabs stay (a body's layout)."""
    pattern = _CONTROL_BUT_LINES if keep_lines else _CONTROL
    return pattern.sub(lambda match: "\\u{%x}" % ord(match.group()), text)
