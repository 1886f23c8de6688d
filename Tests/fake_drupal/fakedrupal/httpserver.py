"""Threaded HTTP/1.1 keep-alive server.

Hand-rolled rather than http.server so each response leaves in one send()
(headers + body in one buffer; with TCP_NODELAY that avoids Nagle /
delayed-ACK stalls) and so faults can act on the raw socket.
"""
import collections
import socket
import socketserver
import sys
import time

from . import control
from .faults import Faults
from .request import Request
from .responses import Response
from .stats import Stats

MAX_LINE = 65536
MAX_HEADERS = 200


class BadRequest(Exception):
    pass


def read_request(rfile, sock, client_ip, server_addr):
    line = rfile.readline(MAX_LINE + 1)
    while line in (b'\r\n', b'\n'):      # tolerate stray CRLF between requests
        line = rfile.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) > MAX_LINE:
        raise BadRequest('request line too long')
    try:
        method, target, version = line.decode('latin-1').split()
    except ValueError:
        raise BadRequest('bad request line')
    headers = []
    while True:
        h = rfile.readline(MAX_LINE + 1)
        if not h:
            return None
        if h in (b'\r\n', b'\n'):
            break
        if len(headers) >= MAX_HEADERS:
            raise BadRequest('too many headers')
        name, sep, value = h.decode('latin-1').partition(':')
        if not sep:
            raise BadRequest('bad header')
        headers.append((name.strip(), value.strip()))
    lower = {k.lower(): v for k, v in headers}
    if lower.get('expect', '').lower() == '100-continue':
        sock.sendall(b'HTTP/1.1 100 Continue\r\n\r\n')
    if 'chunked' in lower.get('transfer-encoding', '').lower():
        body = read_chunked(rfile)
    else:
        try:
            length = int(lower.get('content-length', '0') or 0)
        except ValueError:
            raise BadRequest('bad content-length')
        body = rfile.read(length) if length > 0 else b''
        if len(body) < length:
            return None
    req = Request(method.upper(), target, headers, body, client_ip, server_addr)
    conn_hdr = lower.get('connection', '').lower()
    if version == 'HTTP/1.0':
        req.keep_alive = 'keep-alive' in conn_hdr
    else:
        req.keep_alive = 'close' not in conn_hdr
    return req


def read_chunked(rfile):
    parts = []
    while True:
        size_line = rfile.readline(MAX_LINE)
        if not size_line:
            raise BadRequest('truncated chunked body')
        size = int(size_line.split(b';')[0].strip() or b'0', 16)
        if size == 0:
            while rfile.readline(MAX_LINE) not in (b'\r\n', b'\n', b''):
                pass  # trailers
            return b''.join(parts)
        parts.append(rfile.read(size))
        rfile.readline(MAX_LINE)


class Connection(socketserver.BaseRequestHandler):
    def setup(self):
        self.counted_epoch = None
        try:
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        self.server.stats.opened()

    def finish(self):
        self.server.stats.closed()

    def handle(self):
        sock = self.request
        rfile = sock.makefile('rb', 65536)
        server = self.server
        try:
            while True:
                try:
                    req = read_request(rfile, sock, self.client_address[0], server.server_address)
                except BadRequest as e:
                    sock.sendall(Response(400, str(e), 'text/plain').to_bytes())
                    return
                if req is None:
                    return
                if server.verbose:
                    sys.stderr.write('%s %s\n' % (req.method, req.target))
                if req.path.startswith('/__fake/'):
                    resp, keep = control.handle(req, server), True
                else:
                    resp, keep = self.drupal(req, sock)
                if resp is not None:
                    if not req.keep_alive:
                        resp.add_header('Connection', 'close')
                    sock.sendall(resp.to_bytes(head_only=req.method == 'HEAD'))
                if not keep or not req.keep_alive:
                    return
        except (ConnectionError, OSError):
            return
        finally:
            try:
                rfile.close()
            except OSError:
                pass

    def drupal(self, req, sock):
        server = self.server
        server.stats.drupal_request(self)
        server.last_request = req
        server.recent_requests.append(req)
        if server.delay_ms:
            server.faults.sleep(server.delay_ms / 1000.0)
        fault = server.faults.pick(req)
        if fault is None:
            return server.app.handle(req), True
        fault['accept_encoding'] = req.headers.get('accept-encoding', '')   # for the gzip mode
        return server.faults.run(fault, sock, lambda: server.app.handle(req))


class FakeDrupalServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 512

    def __init__(self, address, app, delay_ms=0, verbose=False, tls_context=None):
        self.tls_context = tls_context
        self.last_request = None   # for /__fake/last-request
        self.recent_requests = collections.deque(maxlen=50)   # for /__fake/requests
        self.app = app
        self.delay_ms = delay_ms
        self.verbose = verbose
        self.stats = Stats()
        self.faults = Faults()
        if ':' in address[0]:   # an IPv6 address such as ::1
            self.address_family = socket.AF_INET6
        super().__init__(address, Connection)

    def get_request(self):
        sock, address = super().get_request()
        if self.tls_context is not None:
            # The handshake happens on first read, in the connection's own thread.
            sock = self.tls_context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
        return sock, address

    def handle_error(self, request, client_address):
        if self.verbose:
            super().handle_error(request, client_address)
