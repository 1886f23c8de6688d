"""JSON encoding the way Drupal's serializer writes it.

PHP's json_encode with JSON_HEX_TAG|APOS|AMP|QUOT escapes < > ' & " as \\u00XX
and escapes "/" as "\\/". Clients must cope with that, so the fake does it too.
"""
import json
import re

_ESCAPED_QUOTE = re.compile(r'\\(.)')
_HEX = str.maketrans({
    '/': '\\/',
    '<': '\\u003C',
    '>': '\\u003E',
    "'": '\\u0027',
    '&': '\\u0026',
})


def _quote_fix(match):
    # Only the escaped double quote changes; \\ \n \uXXXX etc. stay as they are.
    return '\\u0022' if match.group(1) == '"' else match.group(0)


def dumps(obj):
    text = json.dumps(obj, separators=(',', ':'))
    if '\\"' in text:
        text = _ESCAPED_QUOTE.sub(_quote_fix, text)
    return text.translate(_HEX)


def dumps_bytes(obj):
    return dumps(obj).encode('ascii')
