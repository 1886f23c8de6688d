"""Query strings the way PHP and Drupal read and rebuild them.

parse() gives PHP's nested arrays (dicts in first-seen order; "a[]" appends
with integer keys). Drupal rebuilds the query in two ways, and clients see
both in one document (100, 104b, 108):
- self_query(): Symfony's Request::getUri(): top-level keys sorted, RFC 3986
  encoding (commas %2C, spaces %20, lists numbered a[0], a[1]).
- pager_query(): Drupal's UrlHelper::buildQuery() on the request's query with
  "page" put last as page[offset], page[limit]; slashes stay unencoded.
"""
import re
from urllib.parse import quote, unquote_plus

_GROUPS = re.compile(r'\[([^\[\]]*)\]')
_LEADING_GROUPS = re.compile(r'(?:\[[^\[\]]*\])+')


def _key(k):
    return int(k) if k.isdigit() and (k == '0' or not k.startswith('0')) else k


def _next_index(d):
    ints = [k for k in d if isinstance(k, int)]
    return max(ints) + 1 if ints else 0


def parse(query_string):
    out = {}
    for part in query_string.split('&'):
        if not part:
            continue
        raw_key, _, raw_value = part.partition('=')
        key, value = unquote_plus(raw_key), unquote_plus(raw_value)
        bracket = key.find('[')
        base, subs = key, []
        if bracket > 0:
            m = _LEADING_GROUPS.match(key, bracket)
            if m:  # PHP drops anything after the last complete [..] group
                base, subs = key[:bracket], _GROUPS.findall(m.group(0))
        if not base:
            continue
        keys = [base] + subs
        cur = out
        for k in keys[:-1]:
            k = _next_index(cur) if k == '' else _key(k)
            if not isinstance(cur.get(k), dict):
                cur[k] = {}
            cur = cur[k]
        last = keys[-1]
        cur[_next_index(cur) if last == '' else _key(last)] = value
    return out


def _pairs(value, prefix, enc_value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _pairs(v, prefix + quote('[%s]' % k, safe='-_.~'), enc_value)
    else:
        yield '%s=%s' % (prefix, enc_value(str(value)))


def _raw(s):
    return quote(s, safe='-_.~')


def build(query, sort_keys=False, keep_slashes=False):
    keys = sorted(query, key=str) if sort_keys else list(query)

    def enc(v):
        text = _raw(v)
        return text.replace('%2F', '/') if keep_slashes else text
    return '&'.join(p for k in keys for p in _pairs(query[k], _raw(str(k)), enc))


def self_query(query):
    return build(query, sort_keys=True)


def pager_query(query, offset, limit):
    q = {k: v for k, v in query.items() if k != 'page'}
    q['page'] = {'offset': offset, 'limit': limit}
    return build(q, keep_slashes=True)


def with_query(url, query_text):
    return url + ('?' + query_text if query_text else '')
