"""XML the way Drupal's serializer (Symfony's XmlEncoder) reads and writes it, for the user routes,
which take every serializer format, xml included (serialization's UserRouteAlterSubscriber).

- decode: the root element's children become a dict (a repeated name a list, an element with
  children a dict, text a string); an empty body, a document type or bad XML is an error, which
  the user controllers do not catch (500).
- encode: `<?xml version="1.0"?>\\n<response>...</response>\\n`, lists as repeated elements,
  true/false as 1/0, text with < > & inside CDATA.
"""
import xml.etree.ElementTree as ElementTree
from xml.sax.saxutils import escape


class DecodeError(ValueError):
    pass


def decode(raw):
    text = raw.decode('utf-8') if isinstance(raw, bytes) else raw
    if not text.strip():
        raise DecodeError('Invalid XML data, it cannot be empty.')
    if '<!DOCTYPE' in text.upper():
        raise DecodeError('Document types are not allowed.')
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as e:
        raise DecodeError(str(e))
    return _value(root)


def _value(element):
    if len(element) == 0:
        return element.text or ''
    out = {}
    for child in element:
        value = _value(child)
        if child.tag not in out:
            out[child.tag] = value
        elif isinstance(out[child.tag], list):
            out[child.tag].append(value)
        else:
            out[child.tag] = [out[child.tag], value]
    return out


def encode(data):
    return '<?xml version="1.0"?>\n<response>%s</response>\n' % _children(data)


def _children(data):
    parts = []
    for key, value in data.items():
        for item in (value if isinstance(value, list) else [value]):
            parts.append('<%s>%s</%s>' % (key, _text(item), key))
    return ''.join(parts)


def _text(value):
    if isinstance(value, dict):
        return _children(value)
    if isinstance(value, bool):
        return '1' if value else '0'
    if value is None:
        return ''
    text = str(value)
    return '<![CDATA[%s]]>' % text if any(c in text for c in '<>&') else escape(text)
