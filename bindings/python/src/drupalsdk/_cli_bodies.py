"""The entity body of ``drupal create`` / ``drupal update``: ``--json``, ``--field``, ``--title`` and the
bundle, in the field shape Drupal expects."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Tuple

from ._cli_exits import UsageError


# ---- Entity bodies ------------------------------------------------------------------------------

#: The bundle field of core entity types with bundles (a body must name its bundle there).
BUNDLE_FIELDS = {"node": "type", "taxonomy_term": "vid", "comment": "comment_type", "media": "bundle",
                 "block_content": "type", "menu_link_content": "bundle", "contact_message": "contact_form"}
#: The label field of core entity types, for --title.
LABEL_FIELDS = {"node": "title", "taxonomy_term": "name", "user": "name", "media": "name", "comment": "subject",
                "block_content": "info", "menu_link_content": "title", "file": "filename"}


def parse_json(data: "str | bytes", what: str) -> Any:
    """JSON text (bytes: UTF-8) a user gave, or a UsageError saying what is wrong with it."""
    try:
        return json.loads(data.decode("utf-8") if isinstance(data, bytes) else data)
    except UnicodeDecodeError as error:
        raise UsageError("%s is not UTF-8 (an invalid byte at offset %d)" % (what, error.start)) from None
    except ValueError as error:
        raise UsageError("%s is not JSON: %s" % (what, error)) from None
    except RecursionError:   # the decoder recurses per nesting level
        raise UsageError("%s is JSON nested too deeply" % what) from None


def _json_argument(text: str, what: str) -> Any:
    """JSON given inline, as @FILE, or as - (stdin)."""
    data: "str | bytes" = text
    if text == "-":
        data = sys.stdin.buffer.read()
    elif text.startswith("@"):
        with open(text[1:], "rb") as f:
            data = f.read()
    return parse_json(data, what)


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
        # Not quoted: the value may be a secret (--query token=...).
        raise UsageError("%s wants NAME=VALUE: one has no '=' after a name" % option)
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
