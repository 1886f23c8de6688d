"""The person's approval for ``drupal login --oauth-grant authorization_code``: the site's authorize
page opened in their browser, and a one-shot listener on the consumer's loopback redirect URI for
the URL the site sends the browser back to (RFC 8252's loopback redirect). The request, its state
and verifier, and the reading of that URL are the library's (``Client.oauth_authorization``).
"""
from __future__ import annotations

import http.server
import socket
import sys
import threading
import urllib.parse
import webbrowser
from typing import Optional

from ._cli_exits import UsageError

__all__ = ["LoopbackListener", "approve"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


class _IPv6Server(http.server.HTTPServer):
    address_family = socket.AF_INET6


class LoopbackListener:
    """Listens on the redirect URI's loopback address and port (bound before the browser opens, so
    the redirect cannot come first); ``wait`` gives the URL the browser was sent to. Once ``state``
    is set, a request that does not carry it (another program on this machine, a stale tab) is
    answered 400 and the listener waits on."""

    def __init__(self, redirect_uri: str) -> None:
        parts = urllib.parse.urlsplit(redirect_uri)
        if parts.scheme != "http" or parts.hostname not in LOOPBACK_HOSTS or not parts.port:
            raise UsageError("the redirect URI must be http://127.0.0.1:PORT/... (a loopback address and a port) "
                             "for the command to receive it: %s" % redirect_uri)
        self.received: Optional[str] = None
        self.state: Optional[str] = None
        self.arrived = threading.Event()
        listener, path = self, parts.path or "/"

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                target = urllib.parse.urlsplit(self.path)
                if target.path != path:
                    self.send_error(404)
                    return
                if listener.state is not None and \
                        dict(urllib.parse.parse_qsl(target.query)).get("state") != listener.state:
                    self.send_error(400, "Not the answer to this request")
                    return
                listener.received = "%s://%s%s" % (parts.scheme, parts.netloc, self.path)
                body = b"The drupal command is signed in. You can close this window.\n"
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                listener.arrived.set()

            def log_message(self, *args: object) -> None:   # the query holds the code
                pass

        server_class = _IPv6Server if ":" in parts.hostname else http.server.HTTPServer
        try:
            self.server = server_class((parts.hostname, parts.port), Handler)
        except OSError as error:
            raise UsageError("cannot listen on %s for the redirect: %s" % (redirect_uri, error.strerror or error)) \
                from None
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, seconds: float) -> Optional[str]:
        return self.received if self.arrived.wait(seconds) else None

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def approve(url: str, listener: LoopbackListener, seconds: float) -> str:
    """Opens ``url`` in the browser (printing it, for when none opens) and waits for the redirect
    that carries its state."""
    listener.state = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query)).get("state")
    sys.stderr.write("drupal: opening the site's authorize page in your browser; if none opens, visit:\n"
                     "drupal:   %s\n" % url)
    webbrowser.open(url)
    redirected = listener.wait(seconds)
    if redirected is None:
        raise TimeoutError("no answer from the browser within %d s" % seconds)   # exits 1
    return redirected
