"""Fault injection for client robustness and security tests.

A fault comes from the per-request header "X-Fake-Fault: mode;key=value;flag"
or from the global fault set with POST /__fake/faults (JSON, same keys).
Values in the header form may be percent-encoded (a ';' as %3B). The modes
and their keys are listed in MODES and documented in the README's fault table.
Modes that break the HTTP framing write to the socket themselves and then
close the connection, since nothing sane can follow on it.
"""
import gzip
import socket
import struct
import threading
from urllib.parse import unquote

from .responses import GENERIC_5XX, REASONS, Response, JSON, TEXT

MODES = ('stall', 'reset', 'status', 'malformed', 'huge', 'delay', 'slow_body', 'redirect',
         'trickle', 'bad_length', 'bad_chunked', 'garbage', 'bad_status', 'endless', 'huge_header',
         'endless_headers', 'setcookie', 'gzip', 'trailer', 'folded')
TRUNCATED_JSON = b'{"nid":[{"value":1}],"uuid":[{"value":"d1c4e6a0-trunc'
GARBAGE = 'SSH-2.0-OpenSSH_9.6 this is not an HTTP server\r\n'
# Broken status lines (bad_status;kind=...).
STATUS_LINES = {
    'code': b'HTTP/1.1 OK OK\r\n',          # no number
    'big': b'HTTP/1.1 2000 OK\r\n',         # four digits
    'version': b'HTTQ/1.1 200 OK\r\n',      # not HTTP
    'missing': b'',                          # straight to the headers
    'lf': b'HTTP/1.1 200 OK\n',             # bare LF
}
CHUNK = 65536
ENDLESS_CAP = 64 * 1024 ** 3   # "endless": stop after 64 GiB anyway


def parse_header(value):
    parts = [p.strip() for p in value.split(';') if p.strip()]
    fault = {'mode': parts[0].lower() if parts else ''}
    for p in parts[1:]:
        key, _, val = p.partition('=')
        fault[key.strip().lower()] = unquote(val.strip())
    return fault


def _num(fault, key, default):
    try:
        return float(fault.get(key, default))
    except (TypeError, ValueError):
        return float(default)


def head_bytes(resp, status_line=None, length=None, extra=(), chunked=False):
    """Status line and headers. length=None: the true Content-Length; False: none."""
    if status_line is None:
        status_line = ('HTTP/1.1 %d %s\r\n' % (resp.status, REASONS.get(resp.status, 'Unknown'))).encode()
    lines = ['%s: %s' % kv for kv in resp.headers]
    lines.extend('%s: %s' % kv for kv in extra)
    if chunked:
        lines.append('Transfer-Encoding: chunked')
    if length is not False:
        lines.append('Content-Length: %d' % (len(resp.body) if length is None else length))
    return status_line + ('\r\n'.join(lines) + '\r\n\r\n').encode('latin-1')


def add_cookies(resp, fault):
    """The fault's Set-Cookie headers on resp."""
    for value in set_cookie_values(fault):
        resp.add_header('Set-Cookie', value)


def set_cookie_values(fault):
    """Set-Cookie values of a setcookie fault (or a redirect's or a status fault's cookie=...)."""
    raw = fault.get('raw', fault.get('cookie'))
    if raw is not None:
        return list(raw) if isinstance(raw, list) else [str(raw)]
    value = '%s=%s' % (fault.get('name', 'fake_cookie'), fault.get('value', '1'))
    for key, attr in (('domain', 'Domain'), ('path', 'Path'), ('max_age', 'Max-Age'),
                      ('expires', 'Expires'), ('samesite', 'SameSite')):
        if key in fault:
            value += '; %s=%s' % (attr, fault[key])
    for key, attr in (('secure', 'Secure'), ('httponly', 'HttpOnly')):
        if key in fault and str(fault[key]).lower() not in ('0', 'false'):
            value += '; ' + attr
    return [value]


class Faults:
    def __init__(self):
        self.lock = threading.Lock()
        self.current = None
        self.stopping = threading.Event()

    def set(self, fault):
        with self.lock:
            self.current = dict(fault)

    def clear(self):
        with self.lock:
            self.current = None

    def get(self):
        with self.lock:
            return dict(self.current) if self.current else None

    def pick(self, req):
        header = req.headers.get('x-fake-fault')
        if header:
            return parse_header(header)
        with self.lock:
            f = self.current
            if not f or not req.path.startswith(f.get('path_prefix') or '/'):
                return None
            if f.get('count') is not None:
                f['count'] = int(f['count']) - 1
                if f['count'] <= 0:
                    self.current = None
            chosen = dict(f)
            if isinstance(f.get('body'), list) and f['body']:
                # Bodies served in turn (e.g. pages whose links make a cycle).
                chosen['body'] = f['body'][0]
                f['body'] = f['body'][1:] + f['body'][:1]
            return chosen

    def sleep(self, seconds):
        """Sleep, but wake up early when the server is stopping."""
        self.stopping.wait(seconds)

    def run(self, fault, sock, produce):
        """Apply a fault. produce() builds the normal response. Returns
        (response_or_None, keep_connection)."""
        mode = fault['mode']
        handler = getattr(self, '_' + mode, None) if mode in MODES else None
        if handler is None:
            # Unknown mode: say so rather than silently succeeding.
            return Response(400, b'{"message":"Unknown fake fault mode."}', JSON), True
        try:
            return handler(fault, sock, produce)
        except OSError:
            return None, False    # the client hung up: fine

    # ----- answers that are valid HTTP -------------------------------------------
    def _delay(self, fault, sock, produce):
        self.sleep(_num(fault, 'ms', 1000) / 1000.0)
        return produce(), True

    def _status(self, fault, sock, produce):
        code = int(_num(fault, 'code', 503))
        if 'body' in fault:   # a chosen body (JSON-labelled), e.g. an empty or `null` 200
            resp = Response(code, str(fault['body']).encode(), JSON)
        elif code >= 500:
            resp = Response(code, GENERIC_5XX, TEXT)
        else:
            resp = Response(code, b'{"message":"Fake fault."}', JSON)
        if 'retry_after' in fault:   # verbatim, e.g. an HTTP-date
            resp.add_header('Retry-After', str(fault['retry_after']))
        elif code in (503, 429):
            resp.add_header('Retry-After', '1')
        if 'cookie' in fault:   # e.g. a lying login answer that also starts a session
            add_cookies(resp, fault)
        return resp, True

    def _malformed(self, fault, sock, produce):
        return Response(200, TRUNCATED_JSON, JSON), True

    def _redirect(self, fault, sock, produce):
        resp = Response(int(_num(fault, 'code', 302)), b'', TEXT)
        resp.add_header('Location', fault.get('to', '/'))
        if 'cookie' in fault:
            add_cookies(resp, fault)
        return resp, True

    def _setcookie(self, fault, sock, produce):
        """The normal answer plus Set-Cookie headers chosen by the test (e.g. on a second
        fake server acting as another origin, with a Domain naming the first one)."""
        resp = produce()
        add_cookies(resp, fault)
        return resp, True

    def _gzip(self, fault, sock, produce):
        """The normal answer gzip-compressed, as nginx with `gzip on` sends it, when the request's
        Accept-Encoding allows gzip (else as it is). bomb=N: instead a JSON string of N spaces,
        compressed whatever the request allows (a decompression bomb, about 1000:1). broken:
        labelled gzip, but not gzip at all. labelled: the normal answer as it is, labelled gzip
        whatever the request allows, as Apache with `AddEncoding x-gzip .gz` serves a .gz file.
        trailing: bytes after the end of the gzip stream (an echo after the compressed output).
        cut: only the first half of the gzip stream, in a whole HTTP answer."""
        if 'labelled' in fault:
            resp = produce()
            resp.add_header('Content-Encoding', 'gzip')
            return resp, True
        if 'broken' in fault:
            resp = Response(200, b'{"this is": "not gzip"}', JSON)
            resp.add_header('Content-Encoding', 'gzip')
            return resp, True
        if 'bomb' in fault:
            resp = Response(200, b'"' + b' ' * int(_num(fault, 'bomb', 1 << 20)) + b'"', JSON)
        else:
            resp = produce()
            if not resp.body or 'gzip' not in fault.get('accept_encoding', '').lower():
                return resp, True
        resp.body = gzip.compress(resp.body, compresslevel=9, mtime=0)
        if 'trailing' in fault:
            resp.body += b'<!-- after the gzip stream -->'
        if 'cut' in fault:
            # The first half of the gzip stream only (the HTTP framing whole: Content-Length counts it).
            resp.body = resp.body[:len(resp.body) // 2]
        resp.add_header('Content-Encoding', 'gzip')
        resp.add_header('Vary', 'Accept-Encoding')
        return resp, True

    def _huge(self, fault, sock, produce):
        stream_huge(sock, int(_num(fault, 'bytes', 100 * 1024 * 1024)))
        return None, True

    def _huge_header(self, fault, sock, produce):
        """The normal answer with one enormous header line (default 1 MiB)."""
        resp = produce()
        resp.add_header('X-Fake-Huge', 'h' * int(_num(fault, 'bytes', 1024 * 1024)))
        return resp, True

    def _slow_body(self, fault, sock, produce):
        resp = produce()
        body = resp.body
        sock.sendall(resp.head_bytes())
        pieces = max(1, min(20, len(body)))
        step = -(-len(body) // pieces) if body else 0
        pause = _num(fault, 'seconds', 5) / pieces
        for i in range(pieces):
            self.sleep(pause)
            if body:
                sock.sendall(body[i * step:(i + 1) * step])
        return None, True

    def _trickle(self, fault, sock, produce):
        """One byte at a time, ms apart (default 10): the whole answer, or with
        part=body the head at once and then the body."""
        data = produce().to_bytes()
        pause = _num(fault, 'ms', 10) / 1000.0
        start = 0
        if fault.get('part') == 'body':
            start = data.find(b'\r\n\r\n') + 4
            sock.sendall(data[:start])
        for i in range(start, len(data)):
            if self.stopping.is_set():
                return None, False
            sock.sendall(data[i:i + 1])
            self.sleep(pause)
        return None, True

    # ----- answers that stop or break the connection -------------------------------------------
    def _stall(self, fault, sock, produce):
        """Sends nothing (or, with after=headers, only the head) for S seconds, then closes."""
        if fault.get('after') == 'headers':
            sock.sendall(produce().head_bytes())
        self.sleep(_num(fault, 'seconds', 30))
        return None, False

    def _reset(self, fault, sock, produce):
        """TCP RST: at=start before anything, at=headers after the head, at=body (default)
        half-way through the body."""
        at = fault.get('at', 'body')
        if at != 'start':
            data = produce().to_bytes()
            head_end = data.find(b'\r\n\r\n') + 4
            body_len = len(data) - head_end
            if at == 'headers':
                cut = head_end
            else:
                cut = head_end + body_len // 2 if body_len > 1 else max(1, head_end // 2)
            sock.sendall(data[:cut])
        abort(sock)
        return None, False

    def _bad_length(self, fault, sock, produce):
        """Content-Length off by delta (default +10: longer than the body; negative:
        shorter, the rest of the body follows as junk). Closes after `hold` seconds (0)."""
        resp = produce()
        delta = int(_num(fault, 'delta', 10))
        sock.sendall(head_bytes(resp, length=max(0, len(resp.body) + delta)) + resp.body)
        self.sleep(_num(fault, 'hold', 0))
        return None, False

    def _trailer(self, fault, sock, produce):
        """The normal answer, chunked, with a trailer field after the body: name=N (default
        Set-Cookie), value=V. Valid HTTP/1.1 (RFC 9112 §7.1.2); the connection stays open."""
        resp = produce()
        name, value = fault.get('name', 'Set-Cookie'), fault.get('value', 'SESSplanted=trailer; Path=/')
        head = head_bytes(resp, length=False, chunked=True, extra=(('Trailer', name),))
        body = resp.body
        sock.sendall(head + (b'%x\r\n' % len(body) + body + b'\r\n' if body else b'')
                     + b'0\r\n' + ('%s: %s\r\n' % (name, value)).encode('latin-1') + b'\r\n')
        return None, True

    def _folded(self, fault, sock, produce):
        """The normal answer with one header field folded over several lines (obs-fold, RFC 9112
        §5.2: a line that starts with a space or tab continues the field before it): name=N
        (default X-Folded), value=V with a '|' where each fold goes (default 'first|second').
        gzip: the body gzip-compressed whatever the request allows (for a folded
        Content-Encoding)."""
        resp = produce()
        if 'gzip' in fault:
            resp.body = gzip.compress(resp.body, mtime=0)
        resp.add_header(fault.get('name', 'X-Folded'), '\r\n\t'.join(fault.get('value', 'first|second').split('|')))
        return resp, True

    def _bad_chunked(self, fault, sock, produce):
        """Transfer-Encoding: chunked, broken: kind=size (a chunk size that is not hex,
        default), truncated (a chunk shorter than its size), noend (no last chunk),
        overflow (a size beyond 64 bits), both (chunked AND a Content-Length)."""
        resp = produce()
        body, kind = resp.body, fault.get('kind', 'size')
        if kind == 'both':
            head = head_bytes(resp, length=len(body), chunked=True)
        else:
            head = head_bytes(resp, length=False, chunked=True)
        size = b'%x' % len(body)
        framed = {
            'size': b'zz\r\n' + body + b'\r\n0\r\n\r\n',
            'truncated': b'%x\r\n' % (len(body) + 100) + body,
            'noend': size + b'\r\n' + body + b'\r\n',
            'overflow': b'fffffffffffffffffffff\r\n' + body + b'\r\n0\r\n\r\n',
            'both': size + b'\r\n' + body + b'\r\n0\r\n\r\n',
        }.get(kind)
        if framed is None:
            return Response(400, b'{"message":"Unknown bad_chunked kind."}', JSON), True
        sock.sendall(head + framed)
        return None, False

    def _garbage(self, fault, sock, produce):
        """Not HTTP at all: `text` (default an SSH banner), then close."""
        sock.sendall(str(fault.get('text', GARBAGE)).encode('utf-8'))
        return None, False

    def _bad_status(self, fault, sock, produce):
        """The normal headers and body behind a broken status line (kind=code, big,
        version, missing, lf)."""
        resp = produce()
        line = STATUS_LINES.get(fault.get('kind', 'code'))
        if line is None:
            return Response(400, b'{"message":"Unknown bad_status kind."}', JSON), True
        sock.sendall(head_bytes(resp, status_line=line) + resp.body)
        return None, False

    def _endless(self, fault, sock, produce):
        """200 application/json whose body never ends: no Content-Length and
        Connection: close, or chunked=1 for chunks forever. Stops when the client
        hangs up (or after 64 GiB)."""
        chunked = str(fault.get('chunked', '0')) not in ('0', '', 'false')
        resp = Response(200, b'', JSON, [('Connection', 'close')] if not chunked else None)
        sock.sendall(head_bytes(resp, length=False, chunked=chunked))
        piece = b'[' + b'0,' * (CHUNK // 2 - 1)
        if chunked:
            piece = b'%x\r\n' % len(piece) + piece + b'\r\n'
        pause = _num(fault, 'ms', 0) / 1000.0
        sent = 0
        while sent < ENDLESS_CAP and not self.stopping.is_set():
            sock.sendall(piece)
            sent += len(piece)
            if pause:
                self.sleep(pause)
        return None, False

    def _endless_headers(self, fault, sock, produce):
        """A status line and then header lines that never end (until the client hangs up)."""
        sock.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n')
        n = sent = 0
        while sent < ENDLESS_CAP and not self.stopping.is_set():
            block = b''.join(b'X-Fake-Endless-%d: %s\r\n' % (n + i, b'e' * 40) for i in range(1000))
            sock.sendall(block)
            n, sent = n + 1000, sent + len(block)
        return None, False


def abort(sock):
    """Close with RST instead of FIN."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
        sock.close()
    except OSError:
        pass


def stream_huge(sock, size):
    """200 application/json with a body of exactly `size` bytes, sent in chunks."""
    head = Response(200, b'', JSON).head_bytes(content_length=size)
    chunk = b'x' * CHUNK
    try:
        sock.sendall(head)
        remaining = size
        if remaining >= 2:
            sock.sendall(b'"')
            remaining -= 1
        while remaining > 1:
            n = min(remaining - 1, len(chunk))
            sock.sendall(chunk[:n])
            remaining -= n
        if remaining:
            sock.sendall(b'"')
    except OSError:
        pass  # client hung up: fine
