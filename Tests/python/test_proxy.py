"""Proxies: like curl, the library takes its proxy from the environment (``http_proxy``,
``https_proxy``, ``no_proxy``), looked at when a client is made, unless the ``proxy`` option
names one (or ``""``, none). Over loopback, through a small forwarding proxy that records the request
targets it was asked for."""
import socket
import subprocess
import sys
import threading
from urllib.parse import urlsplit

import drupalsdk
import pytest


class ForwardingProxy:
    """An HTTP proxy for plain http: takes the absolute-form request, sends it on to the origin
    with "Connection: close", relays the whole answer, closes."""

    def __init__(self):
        self.targets = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._forward, args=(connection,), daemon=True).start()

    def _forward(self, connection):
        with connection:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                head += chunk
            head, body = head.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            method, target, version = lines[0].split(" ")
            self.targets.append(target)
            headers = [line for line in lines[1:] if not line.lower().startswith(("proxy-", "connection:"))]
            length = next((int(line.split(":", 1)[1]) for line in headers if line.lower().startswith("content-length:")), 0)
            while len(body) < length:
                body += connection.recv(65536)
            parts = urlsplit(target)
            origin_form = parts.path + ("?" + parts.query if parts.query else "")
            request = "\r\n".join([f"{method} {origin_form} {version}", *headers, "Connection: close", "", ""])
            with socket.create_connection((parts.hostname, parts.port)) as upstream:
                upstream.sendall(request.encode("latin-1") + body)
                while True:
                    chunk = upstream.recv(65536)
                    if not chunk:
                        break
                    connection.sendall(chunk)

    def close(self):
        self.listener.close()


@pytest.fixture
def proxy(monkeypatch):
    forwarding = ForwardingProxy()
    for name in ("no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{forwarding.port}")
    yield forwarding
    forwarding.close()


def test_requests_go_through_the_proxy_of_the_environment(server, proxy):
    with drupalsdk.Client(server.base_url, timeout=20) as client:
        client.set_basic_auth("admin", "admin")
        node = client.get("node", "1")
        assert node["nid"][0]["value"] == 1
        assert client.request("GET", "/node/1").status == 200
    assert proxy.targets == [f"{server.base_url}/node/1?_format=json", f"{server.base_url}/node/1?_format=json"]


def test_no_proxy_sends_the_site_direct(server, proxy, monkeypatch):
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    with drupalsdk.Client(server.base_url, timeout=20) as client:
        assert client.get("node", "1")["nid"][0]["value"] == 1
    assert proxy.targets == []


def test_a_client_made_without_proxy_variables_ignores_one_set_later(server, monkeypatch):
    # The environment is read when the client is made (libcurl would read it at every request).
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                 "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    with drupalsdk.Client(server.base_url, timeout=20, retries=0) as client:
        monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")   # nothing listens there
        assert client.get("node", "1")["nid"][0]["value"] == 1
        assert client.request("GET", "/node/2").status == 200


def test_the_proxy_option_wins_over_the_environment(server, monkeypatch):
    chosen = ForwardingProxy()
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")   # nothing listens there
    try:
        with drupalsdk.Client(server.base_url, timeout=20, proxy=f"http://127.0.0.1:{chosen.port}") as client:
            assert client.get("node", "1")["nid"][0]["value"] == 1
        with drupalsdk.Client(server.base_url, timeout=20, proxy="") as client:
            assert client.get("node", "2")["nid"][0]["value"] == 2
    finally:
        chosen.close()
    assert chosen.targets == [f"{server.base_url}/node/1?_format=json"]


def test_a_bad_proxy_is_refused_without_its_credentials(server):
    for proxy in ("proxy.example:3128", "ftp://user:s3cret@proxy.example", "http://user:s3cret@", "http://a b"):
        with pytest.raises(drupalsdk.InvalidArgumentError) as caught:
            drupalsdk.Client(server.base_url, proxy=proxy)
        assert "s3cret" not in str(caught.value)
    with pytest.raises(drupalsdk.InvalidArgumentError):
        drupalsdk.Client(server.base_url, proxy="http://proxy\x00.example")


def test_the_drupal_command_takes_a_proxy(server, monkeypatch):
    chosen = ForwardingProxy()
    monkeypatch.delenv("no_proxy", raising=False)
    try:
        done = subprocess.run([sys.executable, "-m", "drupalsdk", "--url", server.base_url, "--auth", "none",
                               "--proxy", f"http://127.0.0.1:{chosen.port}", "get", "node", "1"],
                              capture_output=True, text=True, timeout=60)
    finally:
        chosen.close()
    assert done.returncode == 0, done.stderr
    assert chosen.targets == [f"{server.base_url}/node/1?_format=json"]


def test_a_failing_proxy_is_not_quoted_with_its_credentials():
    for proxy in ("http://user:s3cret@127.0.0.1:9", "http://user:s3cret@nosuch.invalid:3128",
                  "socks5h://user:s3cret@127.0.0.1:9"):
        with drupalsdk.Client("http://drupal.invalid", proxy=proxy, retries=0) as client:
            with pytest.raises(drupalsdk.NetworkError) as caught:
                client.get("node", "1")
        assert "s3cret" not in str(caught.value) and "user:" not in str(caught.value), str(caught.value)
