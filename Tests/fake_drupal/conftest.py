"""Starts fake_drupal.py as a subprocess for the tests in this directory."""
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, 'fake_drupal.py')


class Running:
    def __init__(self, proc, base):
        self.proc = proc
        self.base = base
        m = re.match(r'http://([^:]+):(\d+)$', base)
        self.host, self.port = m.group(1), int(m.group(2))


def start_server(*args):
    proc = subprocess.Popen([sys.executable, SERVER, '--port', '0'] + list(args),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.fullmatch(r'LISTENING (http://127\.0\.0\.1:\d+)\n', line)
    if not m:
        proc.kill()
        raise RuntimeError('bad start-up line %r; stderr: %s' % (line, proc.stderr.read()))
    return Running(proc, m.group(1))


def stop_server(server):
    server.proc.terminate()
    try:
        server.proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        server.proc.kill()


@pytest.fixture(scope='session')
def server():
    s = start_server()
    yield s
    stop_server(s)


@pytest.fixture(autouse=True)
def fresh_state(request):
    if 'server' in request.fixturenames:
        import http.client
        s = request.getfixturevalue('server')
        c = http.client.HTTPConnection(s.host, s.port, timeout=10)
        c.request('POST', '/__fake/reset')
        assert c.getresponse().status == 204
        c.close()
    yield


@pytest.fixture(scope='module')
def ext():
    """The fake as the extended site (simple_oauth, French at /fr, decoupled_router), one per
    test module that asks for it."""
    s = start_server('--site', 'extended')
    yield s
    stop_server(s)


@pytest.fixture(autouse=True)
def reset_ext(request):
    """The extended site as seeded, settings included, before each test that uses it."""
    if 'ext' in request.fixturenames:
        from fakehttp import call
        s = request.getfixturevalue('ext')
        call(s, 'POST', '/__fake/reset')
        call(s, 'POST', '/__fake/config', {'defaults': True})
    yield

