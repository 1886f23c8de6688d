"""Fixtures for the Python binding's tests.

- Locates libdrupalsdk (``$DRUPALSDK_LIBRARY``, else the checkout's ``build/lib``, building it with
  ``scripts/build-lib`` when missing) and exports ``DRUPALSDK_LIBRARY`` so subprocesses (the
  examples) find the same library; puts ``bindings/python/src`` first on ``sys.path``.
- Starts the fake Drupal server once per session (``--exit-with-stdin``: it dies with us) and
  resets it before every test that uses it.
"""
from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Dict, Iterator, Optional

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE_SRC = os.path.join(ROOT, "bindings", "python", "src")
SERVER_SCRIPT = os.path.join(ROOT, "Tests", "fake_drupal", "fake_drupal.py")
CHECKOUT_LIBRARY = os.path.join(ROOT, "build", "lib", "libdrupalsdk.so")


def _locate_library() -> str:
    explicit = os.environ.get("DRUPALSDK_LIBRARY")
    if explicit:
        return explicit
    if not os.path.exists(CHECKOUT_LIBRARY):
        subprocess.run([os.path.join(ROOT, "scripts", "build-lib")], cwd=ROOT, check=True)
    return CHECKOUT_LIBRARY


os.environ["DRUPALSDK_LIBRARY"] = _locate_library()
if PACKAGE_SRC not in sys.path:
    sys.path.insert(0, PACKAGE_SRC)
# Subprocesses (examples) import the same source tree.
os.environ["PYTHONPATH"] = PACKAGE_SRC + os.pathsep + os.environ.get("PYTHONPATH", "")


class FakeDrupal:
    """The running fake server: base URL plus its control API."""

    def __init__(self, process: subprocess.Popen, base_url: str) -> None:
        self.process = process
        self.base_url = base_url
        match = re.match(r"http://(\[[0-9a-f:]+\]|[^:/]+):(\d+)$", base_url)
        assert match, base_url
        self.host, self.port = match.group(1).strip("[]"), int(match.group(2))

    def control(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
        try:
            data = None if body is None else json.dumps(body).encode()
            headers = {"Content-Type": "application/json"} if data is not None else {}
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            payload = response.read()
            assert response.status < 300, (method, path, response.status, payload)
            return json.loads(payload) if payload else None
        finally:
            connection.close()

    def reset(self) -> None:
        self.control("POST", "/__fake/reset")

    def stats(self) -> Dict[str, int]:
        return self.control("GET", "/__fake/stats")


def _start_fake(*arguments: str) -> FakeDrupal:
    process = subprocess.Popen([sys.executable, SERVER_SCRIPT, "--port", "0", "--exit-with-stdin", *arguments],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()  # type: ignore[union-attr]
    match = re.fullmatch(r"LISTENING (http://(?:127\.0\.0\.1|\[::1\]):\d+)\n", line)
    if not match:
        process.kill()
        raise RuntimeError("fake Drupal did not start: %r %s" % (line, process.stderr.read()))  # type: ignore[union-attr]
    return FakeDrupal(process, match.group(1))


def _stop_fake(server: FakeDrupal) -> None:
    process = server.process
    process.stdin.close()  # type: ignore[union-attr]
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def fake_drupal() -> Iterator[FakeDrupal]:
    server = _start_fake()
    yield server
    _stop_fake(server)


@pytest.fixture(scope="session")
def extended_drupal() -> Iterator[FakeDrupal]:
    """The fake as the extended site: simple_oauth, French at /fr, decoupled_router."""
    server = _start_fake("--site", "extended")
    yield server
    _stop_fake(server)


@pytest.fixture(scope="session")
def https_site() -> Iterator[Any]:
    """(base URL, CA file) of the fake server on HTTPS with a certificate of a private CA (a
    self-signed one for 127.0.0.1), which the system's store does not trust."""
    if not shutil.which("openssl"):
        pytest.skip("openssl is needed to make a certificate")
    directory = tempfile.mkdtemp(prefix="drupalsdk-ca-")
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-keyout", key, "-out", cert, "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    process = subprocess.Popen([sys.executable, SERVER_SCRIPT, "--port", "0", "--exit-with-stdin",
                                "--tls-cert", cert, "--tls-key", key],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()  # type: ignore[union-attr]
    assert line.startswith("LISTENING https://"), line
    yield line.split()[1], cert
    process.stdin.close()  # type: ignore[union-attr]
    process.wait(timeout=10)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def extended(extended_drupal: FakeDrupal) -> FakeDrupal:
    """The extended fake site, reset to its seed data for this test."""
    extended_drupal.reset()
    return extended_drupal


@pytest.fixture
def server(fake_drupal: FakeDrupal) -> FakeDrupal:
    """The fake server, reset to its seed data for this test."""
    fake_drupal.reset()
    return fake_drupal


@pytest.fixture
def base_url(server: FakeDrupal) -> str:
    return server.base_url


@pytest.fixture
def client(base_url: str) -> Iterator[Any]:
    import drupalsdk
    with drupalsdk.Client(base_url, timeout=20) as c:
        yield c


@pytest.fixture
def admin(client: Any) -> Any:
    client.login("admin", "admin")
    return client


def article(title: str, body: Optional[str] = None) -> Dict[str, Any]:
    """A node body for an article."""
    entity: Dict[str, Any] = {"type": [{"target_id": "article"}], "title": [{"value": title}]}
    if body is not None:
        entity["body"] = [{"value": body, "format": "basic_html"}]
    return entity
