#!/usr/bin/env python3
"""Logging a person in from a desktop tool: OAuth 2's authorization code grant with PKCE
(simple_oauth). The tool opens the site's authorize page in the person's browser, listens on a
loopback address for the redirect that brings the code back, and from then on acts for that
person with tokens the library refreshes. The tool never sees the password.

    DRUPAL_BASE_URL=http://127.0.0.1:8080 python3 oauth_desktop.py [--remember FILE]

With --remember FILE the person stays signed in across runs: the refresh token the client holds
at the end is kept in FILE (created mode 0600: it is a secret; a real tool would use the
system's keyring), and the next run starts from it without the browser. When the site refuses
it (revoked, expired), the run asks the person again.

The consumer is DRUPAL_OAUTH_CLIENT_ID (default sdk-desktop, the fake's: a public consumer with
the authorization_code and refresh_token grants) and its redirect URI DRUPAL_OAUTH_REDIRECT_URI
(default http://127.0.0.1:8765/callback), which must be the one registered on the consumer: this
program listens there for the redirect. The browser is Python's `webbrowser` (the BROWSER
environment variable chooses another command).

Exit codes: 0 success, 1 a Drupal or network error, or no redirect within 5 minutes, 2 bad
configuration.
"""
import argparse
import http.server
import os
import sys
import threading
import time
import urllib.parse
import webbrowser

import drupalsdk

WAIT_SECONDS = 300


class RedirectListener:
    """A one-shot HTTP server on the redirect URI's loopback address and port: the URL the
    browser was sent to, once it comes with the request's state (any other caller, such as
    another program on this machine, gets a 400 and the wait goes on)."""

    def __init__(self, redirect_uri):
        parts = urllib.parse.urlsplit(redirect_uri)
        if parts.scheme != "http" or parts.hostname not in ("127.0.0.1", "localhost", "::1") or not parts.port:
            raise ValueError("the redirect URI must be http on a loopback address with a port")
        self.received = None
        self.state = None
        self.arrived = threading.Event()
        listener = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                target = urllib.parse.urlsplit(self.path)
                if target.path != parts.path:
                    self.send_error(404)
                    return
                if dict(urllib.parse.parse_qsl(target.query)).get("state") != listener.state:
                    self.send_error(400, "Not the answer to this request")
                    return
                listener.received = "%s://%s%s" % (parts.scheme, parts.netloc, self.path)
                body = b"You are logged in to the tool. You can close this window.\n"
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                listener.arrived.set()

            def log_message(self, *args):   # the query holds the code: not for the terminal
                pass

        # Bound before the browser opens: the redirect cannot come before the listener.
        self.server = http.server.HTTPServer((parts.hostname, parts.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, seconds):
        arrived = self.arrived.wait(seconds)
        self.server.shutdown()
        self.server.server_close()
        return self.received if arrived else None


def authorize(client, client_id, redirect_uri):
    """Asks the person in the browser: 0 once they approved, else the exit code."""
    try:
        listener = RedirectListener(redirect_uri)
    except (ValueError, OSError) as error:
        print("oauth_desktop: cannot listen for %s: %s" % (redirect_uri, error), file=sys.stderr)
        return 2
    # 1. The request: a random state and PKCE verifier, kept by the library.
    with client.oauth_authorization(client_id, redirect_uri) as authorization:
        print("Opening the site's authorize page in your browser (if it does not open, visit it):")
        print("  " + authorization.url)
        listener.state = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(authorization.url).query))["state"]
        webbrowser.open(authorization.url)
        # 2. The person logs in and approves; the site sends the browser to the listener.
        started = time.monotonic()
        redirected = listener.wait(WAIT_SECONDS)
        if redirected is None:
            print("oauth_desktop: no answer from the browser within %d s" % WAIT_SECONDS, file=sys.stderr)
            return 1
        print("approved after %.1f s" % (time.monotonic() - started))
        # 3. The code is read (its state checked) and the client put on OAuth with it.
        authorization.finish(redirected)
    return 0


def remembered(path):
    try:
        with open(path) as f:
            return f.read().strip() or None
    except FileNotFoundError:
        return None


def remember(path, refresh_token):
    # Written to a new file made 0600, then moved over the old one.
    temporary = path + ".new"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(refresh_token + "\n")
    os.replace(temporary, path)


def main() -> int:
    parser = argparse.ArgumentParser(description="Log a person in from a desktop tool (OAuth code grant).")
    parser.add_argument("--remember", metavar="FILE", help="keep the refresh token in FILE across runs")
    args = parser.parse_args()
    base_url = os.environ.get("DRUPAL_BASE_URL")
    if not base_url:
        print("oauth_desktop: set DRUPAL_BASE_URL (e.g. http://127.0.0.1:8080)", file=sys.stderr)
        return 2
    client_id = os.environ.get("DRUPAL_OAUTH_CLIENT_ID", "sdk-desktop")
    redirect_uri = os.environ.get("DRUPAL_OAUTH_REDIRECT_URI", "http://127.0.0.1:8765/callback")
    try:
        with drupalsdk.Client(base_url, timeout=30, ca_file=os.environ.get("DRUPAL_CA_FILE") or None) as client:
            kept = remembered(args.remember) if args.remember else None
            signed_in = False
            if kept:
                # The last run's refresh token: no browser, unless the site refuses it.
                client.set_oauth(client_id, refresh_token=kept)
                try:
                    client.oauth_authenticate()
                    signed_in = True
                    print("signed in with the remembered session")
                except drupalsdk.AuthenticationError:
                    print("the remembered session has ended: asking again")
            if not signed_in:
                failed = authorize(client, client_id, redirect_uri)
                if failed:
                    return failed
            # The first request exchanges the code; later ones refresh the token as needed.
            print("token (none printed):", client.oauth_authenticate())
            node = client.get("node", 1)
            print("read node 1 as the person who approved: %r" % node["title"][0]["value"])
            created = client.create("node", {"type": [{"target_id": "article"}],
                                             "title": [{"value": "Written from the desktop tool"}]})
            print("created node %s, owned by user %s" % (created["nid"][0]["value"], created["uid"][0]["target_id"]))
            client.delete("node", created["nid"][0]["value"])
            print("deleted it again")
            if args.remember:
                # The site's newest (it rotates them): kept for the next run.
                refresh_token = client.oauth_refresh_token()
                if refresh_token:
                    remember(args.remember, refresh_token)
                    print("session remembered in %s" % args.remember)
    except drupalsdk.AuthenticationError as error:
        print("oauth_desktop: not authorized: %s" % error, file=sys.stderr)
        return 1
    except drupalsdk.DrupalError as error:
        print("oauth_desktop: %s" % error, file=sys.stderr)
        return 1
    print("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
