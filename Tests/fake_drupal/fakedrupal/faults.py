"""Fault injection for client robustness tests.

A fault comes from the per-request header "X-Fake-Fault: mode;key=value..."
or from the global fault set with POST /__fake/faults. Modes: stall, reset,
status, malformed, huge, delay, slow_body, redirect (redirect;to=URL;code=302).
"""
import socket
import struct
import threading
import time

from .responses import GENERIC_5XX, Response, JSON, TEXT

MODES = ('stall', 'reset', 'status', 'malformed', 'huge', 'delay', 'slow_body', 'redirect')
TRUNCATED_JSON = b'{"nid":[{"value":1}],"uuid":[{"value":"d1c4e6a0-trunc'


def parse_header(value):
    parts = [p.strip() for p in value.split(';') if p.strip()]
    fault = {'mode': parts[0].lower() if parts else ''}
    for p in parts[1:]:
        key, _, val = p.partition('=')
        fault[key.strip()] = val.strip()
    return fault


def _num(fault, key, default):
    try:
        return float(fault.get(key, default))
    except (TypeError, ValueError):
        return float(default)


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
            return dict(f)

    def sleep(self, seconds):
        """Sleep, but wake up early when the server is stopping."""
        self.stopping.wait(seconds)

    def run(self, fault, sock, produce):
        """Apply a fault. produce() builds the normal response. Returns
        (response_or_None, keep_connection)."""
        mode = fault['mode']
        if mode == 'delay':
            self.sleep(_num(fault, 'ms', 1000) / 1000.0)
            return produce(), True
        if mode == 'status':
            code = int(_num(fault, 'code', 503))
            if code >= 500:
                resp = Response(code, GENERIC_5XX, TEXT)
            else:
                resp = Response(code, b'{"message":"Fake fault."}', JSON)
            if code in (503, 429):
                resp.add_header('Retry-After', '1')
            return resp, True
        if mode == 'malformed':
            return Response(200, TRUNCATED_JSON, JSON), True
        if mode == 'redirect':
            resp = Response(int(_num(fault, 'code', 302)), b'', TEXT)
            resp.add_header('Location', fault.get('to', '/'))
            return resp, True
        if mode == 'stall':
            self.sleep(_num(fault, 'seconds', 30))
            return None, False
        if mode == 'reset':
            data = produce().to_bytes()
            head_end = data.find(b'\r\n\r\n')
            body_len = len(data) - head_end - 4
            cut = head_end + 4 + body_len // 2 if body_len > 1 else max(1, head_end // 2)
            try:
                sock.sendall(data[:cut])
            except OSError:
                pass
            abort(sock)
            return None, False
        if mode == 'huge':
            stream_huge(sock, int(_num(fault, 'bytes', 100 * 1024 * 1024)))
            return None, True
        if mode == 'slow_body':
            resp = produce()
            body = resp.body
            try:
                sock.sendall(resp.head_bytes())
                pieces = max(1, min(20, len(body)))
                step = -(-len(body) // pieces) if body else 0
                pause = _num(fault, 'seconds', 5) / pieces
                for i in range(pieces):
                    self.sleep(pause)
                    if body:
                        sock.sendall(body[i * step:(i + 1) * step])
            except OSError:
                return None, False
            return None, True
        # Unknown mode: say so rather than silently succeeding.
        return Response(400, b'{"message":"Unknown fake fault mode."}', JSON), True


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
    chunk = b'x' * 65536
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
