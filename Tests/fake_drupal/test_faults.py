"""The fault modes for the clients' security and robustness tests, checked on the raw socket."""
import http.client
import json
import socket
import time

import pytest

from conftest import start_server, stop_server
from fakehttp import ADMIN, call

REQUEST = 'GET /node/1?_format=json HTTP/1.1\r\nHost: x\r\nX-Fake-Fault: %s\r\n%s\r\n'


def raw(server, fault, limit=1 << 20, timeout=5, close=False):
    """Everything the server sends (up to limit bytes) until it closes; and whether it closed.
    close: ask for Connection: close (for faults that leave the connection usable)."""
    sock = socket.create_connection((server.host, server.port), timeout=timeout)
    sock.sendall((REQUEST % (fault, 'Connection: close\r\n' if close else '')).encode())
    data, closed = b'', False
    try:
        while len(data) < limit:
            piece = sock.recv(65536)
            if not piece:
                closed = True
                break
            data += piece
    except ConnectionResetError:
        closed = 'reset'
    except socket.timeout:
        pass
    sock.close()
    return data, closed


def split(data):
    head, _, body = data.partition(b'\r\n\r\n')
    return head.decode('latin-1'), body


def normal_body(server):
    return call(server, 'GET', '/node/1?_format=json').body


def test_reset_at_start_headers_and_body(server):
    assert raw(server, 'reset;at=start') == (b'', 'reset')
    data, closed = raw(server, 'reset;at=headers')
    head, body = split(data)
    assert closed == 'reset' and head.startswith('HTTP/1.1 200') and body == b''
    data, closed = raw(server, 'reset')
    head, body = split(data)
    assert closed == 'reset' and 0 < len(body) < int(dict(
        l.split(': ', 1) for l in head.split('\r\n')[1:])['Content-Length'])


def test_stall_after_headers(server):
    t0 = time.monotonic()
    data, closed = raw(server, 'stall;seconds=0.5;after=headers')
    head, body = split(data)
    assert head.startswith('HTTP/1.1 200') and body == b'' and closed is True
    assert time.monotonic() - t0 >= 0.45


def test_trickle(server):
    sock = socket.create_connection((server.host, server.port), timeout=5)
    sock.sendall((REQUEST % ('trickle;ms=5', '')).encode())
    first = sock.recv(65536)
    assert len(first) <= 2  # one byte (perhaps two) at a time
    sock.close()
    t0 = time.monotonic()
    r = call(server, 'GET', '/user/login_status?_format=json', headers={'X-Fake-Fault': 'trickle;ms=2;part=body'})
    assert r.status == 200 and r.body == b'0'
    r = call(server, 'GET', '/node/1?_format=json', headers={'X-Fake-Fault': 'trickle;ms=0'})
    assert r.json()['nid'] == [{'value': 1}] and time.monotonic() - t0 < 10


@pytest.mark.parametrize('delta', [-10, 25])
def test_bad_length(server, delta):
    expected = normal_body(server)
    data, closed = raw(server, 'bad_length;delta=%d' % delta)
    head, body = split(data)
    assert closed is True and body == expected
    assert 'Content-Length: %d' % (len(expected) + delta) in head


def test_bad_length_hold_keeps_the_client_waiting(server):
    conn = http.client.HTTPConnection(server.host, server.port, timeout=0.3)
    conn.request('GET', '/node/1?_format=json', headers={'X-Fake-Fault': 'bad_length;delta=5;hold=2'})
    r = conn.getresponse()
    with pytest.raises(socket.timeout):
        r.read()


@pytest.mark.parametrize('kind, check', [
    ('size', lambda body, expected: body.startswith(b'zz\r\n')),
    ('truncated', lambda body, expected: body == b'%x\r\n' % (len(expected) + 100) + expected),
    ('noend', lambda body, expected: body == b'%x\r\n' % len(expected) + expected + b'\r\n'),
    ('overflow', lambda body, expected: body.startswith(b'fffffffffffffffffffff\r\n')),
    ('both', lambda body, expected: body.endswith(b'\r\n0\r\n\r\n')),
])
def test_bad_chunked(server, kind, check):
    expected = normal_body(server)
    data, closed = raw(server, 'bad_chunked;kind=' + kind)
    head, body = split(data)
    assert closed is True and 'Transfer-Encoding: chunked' in head
    assert ('Content-Length' in head) == (kind == 'both')
    assert check(body, expected)
    with pytest.raises((http.client.HTTPException, OverflowError)):   # a client's parser must refuse (or at least not finish) it
        conn = http.client.HTTPConnection(server.host, server.port, timeout=5)
        conn.request('GET', '/node/1?_format=json', headers={'X-Fake-Fault': 'bad_chunked;kind=' + kind})
        r = conn.getresponse()
        if kind == 'both':
            raise http.client.HTTPException('both headers')   # http.client prefers chunked: fine
        r.read()


def test_garbage_and_bad_status(server):
    assert raw(server, 'garbage') == (b'SSH-2.0-OpenSSH_9.6 this is not an HTTP server\r\n', True)
    assert raw(server, 'garbage;text=hello%0D%0A') == (b'hello\r\n', True)
    for kind, line in (('code', b'HTTP/1.1 OK OK\r\n'), ('big', b'HTTP/1.1 2000 OK\r\n'),
                       ('version', b'HTTQ/1.1 200 OK\r\n'), ('lf', b'HTTP/1.1 200 OK\n')):
        data, closed = raw(server, 'bad_status;kind=' + kind)
        assert data.startswith(line) and b'Content-Type: application/json' in data and closed is True
    data, _ = raw(server, 'bad_status;kind=missing')
    assert data.startswith(b'Cache-Control:')
    with pytest.raises(http.client.HTTPException):
        call(server, 'GET', '/node/1?_format=json', headers={'X-Fake-Fault': 'bad_status'})


def test_endless_body(server):
    for fault in ('endless', 'endless;chunked=1'):
        data, closed = raw(server, fault, limit=3 << 20)
        head, body = split(data)
        assert closed is False and len(body) > 2 << 20 and 'Content-Length' not in head
        assert ('Transfer-Encoding: chunked' in head) == fault.endswith('=1')
    assert call(server, 'GET', '/node/1?_format=json').status == 200   # the server is fine afterwards


def test_huge_and_endless_headers(server):
    data, closed = raw(server, 'huge_header', limit=3 << 20, close=True)
    head, body = split(data)
    line = [l for l in head.split('\r\n') if l.startswith('X-Fake-Huge: ')][0]
    assert len(line) == len('X-Fake-Huge: ') + 1024 * 1024 and json.loads(body)['nid'] == [{'value': 1}]
    data, closed = raw(server, 'huge_header;bytes=10', limit=3 << 20, close=True)
    assert b'X-Fake-Huge: hhhhhhhhhh\r\n' in data
    data, closed = raw(server, 'endless_headers', limit=2 << 20)
    assert closed is False and b'\r\n\r\n' not in data and data.count(b'X-Fake-Endless-') > 10000


@pytest.mark.parametrize('code', [301, 302, 303, 307, 308])
def test_redirect_codes(server, code):
    r = call(server, 'GET', '/node/1?_format=json',
             headers={'X-Fake-Fault': 'redirect;to=http://other.example/x;code=%d' % code})
    assert r.status == code and r.header('Location') == 'http://other.example/x' and r.body == b''
    data, _ = raw(server, 'redirect;code=%d' % code, close=True)
    assert data.split(b'\r\n')[0] == b'HTTP/1.1 %d %s' % (code, {
        301: b'Moved Permanently', 302: b'Found', 303: b'See Other', 307: b'Temporary Redirect',
        308: b'Permanent Redirect'}[code])


def test_redirect_with_a_cookie(server):
    r = call(server, 'GET', '/node/1', headers={
        'X-Fake-Fault': 'redirect;to=/node/2;cookie=evil%3D1%3B Domain%3D127.0.0.1%3B Path%3D/'})
    assert r.status == 302 and r.header('Set-Cookie') == 'evil=1; Domain=127.0.0.1; Path=/'


def test_status_with_a_cookie(server):
    r = call(server, 'POST', '/user/login?_format=json', headers={
        'X-Fake-Fault': 'status;code=200;body={}; cookie=SESSlie%3D1%3B Path%3D/'})
    assert r.status == 200 and r.body == b'{}' and r.header('Set-Cookie') == 'SESSlie=1; Path=/'


@pytest.fixture(scope='module')
def other():
    s = start_server()
    yield s
    stop_server(s)


def test_other_origin_sets_cookies_and_records_requests(server, other):
    """The recipe for "credentials must not follow a redirect to another origin"."""
    call(other, 'POST', '/__fake/reset')
    assert call(other, 'POST', '/__fake/faults', {
        'mode': 'setcookie', 'raw': ['stolen=1; Domain=127.0.0.1; Path=/', 'second=2; Path=/node'],
        'count': 1}).status == 204
    assert call(server, 'POST', '/__fake/faults', {
        'mode': 'redirect', 'code': 307, 'to': other.base + '/node?_format=json', 'count': 1}).status == 204
    # What a careless client would do: follow the 307 keeping method, body and credentials.
    r = call(server, 'POST', '/node?_format=json', {'type': 'article', 'title': [{'value': 'secret'}]},
             headers={'Authorization': ADMIN})
    assert r.status == 307 and r.header('Location') == other.base + '/node?_format=json'
    r = call(other, 'POST', '/node?_format=json', {'type': 'article', 'title': [{'value': 'secret'}]},
             headers={'Authorization': ADMIN})
    assert r.all('Set-Cookie') == ['stolen=1; Domain=127.0.0.1; Path=/', 'second=2; Path=/node']
    seen = call(other, 'GET', '/__fake/last-request').json()
    assert seen['method'] == 'POST' and seen['target'] == '/node?_format=json'
    assert ['Authorization', ADMIN] in seen['headers']
    assert json.loads(seen['body'])['title'] == [{'value': 'secret'}] and seen['body_length'] == len(seen['body'])
    assert len(call(other, 'GET', '/__fake/requests').json()['requests']) == 1
    # Named attributes instead of a raw value.
    r = call(other, 'GET', '/node/1?_format=json', headers={
        'X-Fake-Fault': 'setcookie;name=sid;value=abc;domain=example.com;path=/;secure;httponly;samesite=None'})
    assert r.status == 200 and r.header('Set-Cookie') == 'sid=abc; Domain=example.com; Path=/; SameSite=None; Secure; HttpOnly'
    call(other, 'POST', '/__fake/reset')
    assert call(other, 'GET', '/__fake/last-request').json() == {}


def test_unknown_fault_mode(server):
    r = call(server, 'GET', '/node/1?_format=json', headers={'X-Fake-Fault': 'nonsense'})
    assert r.status == 400
    assert call(server, 'POST', '/__fake/faults', {'mode': 'nonsense'}).status == 400


def test_status_retry_after_is_passed_verbatim(server):
    date = 'Tue, 01 Dec 2026 15:30:00 GMT'
    r = call(server, 'GET', '/node/1?_format=json', headers={'X-Fake-Fault': 'status;code=503;retry_after=' + date})
    assert r.status == 503 and r.all('Retry-After') == [date]
    assert call(server, 'POST', '/__fake/faults', {'mode': 'status', 'code': 503, 'retry_after': '2', 'count': 1}).status == 204
    r = call(server, 'GET', '/node/1?_format=json')
    assert r.status == 503 and r.all('Retry-After') == ['2']
    r = call(server, 'GET', '/node/1?_format=json', headers={'X-Fake-Fault': 'status;code=503'})
    assert r.all('Retry-After') == ['1']
