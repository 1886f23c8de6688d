#!/usr/bin/env python3
"""Fake Drupal 10 site for the drupalsdk test suites, examples, demo and benchmarks.

Usage: python3 fake_drupal.py [--host 127.0.0.1] [--port 0] [--delay-ms N]
                              [--login-message 10|11.4] [--site-name NAME] [--drupal 10|11]
                              [--site base|extended] [--oauth-access-ttl S]
                              [--flood-limit N] [--verbose]
Prints "LISTENING http(s)://HOST:PORT" once listening; runs until SIGTERM/SIGINT.
"""
import argparse
import os
import signal
import ssl
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fakedrupal.app import App, Config  # noqa: E402
from fakedrupal.httpserver import FakeDrupalServer  # noqa: E402
from fakedrupal.store import Store  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__.split('\n')[0],
        epilog='Accounts: admin/admin (administrator) and editor/editor (content_editor). With '
               '--site extended, OAuth consumers (POST /oauth/token): sdk-client/sdk-secret '
               '(client_credentials, password, refresh_token), sdk-symbols/"p+s/w=rd%21 x" '
               '(client_credentials), and for GET /oauth/authorize + authorization_code the public '
               'sdk-desktop (http://127.0.0.1:8765/callback, PKCE) and sdk-web/sdk-web-secret '
               '(http://127.0.0.1:8765/web-callback). Tests/fake_drupal/README.md tells the rest.')
    p.add_argument('--host', default='127.0.0.1')
    p.add_argument('--port', type=int, default=0, help='0 picks a free port')
    p.add_argument('--delay-ms', type=int, default=0, help='sleep this long before every Drupal answer')
    p.add_argument('--login-message', choices=['10', '11.4'], default='10',
                   help='bad-credentials wording: 10 (<= 11.3) or 11.4')
    p.add_argument('--site-name', default='RealDrupal', help='used in the Basic realm and HTML titles')
    # FAKE_DRUPAL_VERSION sets the default, so a test runner can put every suite's server in
    # Drupal 11 mode at once (scripts/test runs them in both).
    p.add_argument('--drupal', choices=['10', '11'], default=os.environ.get('FAKE_DRUPAL_VERSION') or '10',
                   help='answer like Drupal 10.3 (default, as recorded) or 11.2 (drupal11-transcripts); '
                        'the default comes from $FAKE_DRUPAL_VERSION when set')
    p.add_argument('--site', choices=['base', 'extended'], default='base',
                   help='base: the recorded core site; extended: + simple_oauth, French, decoupled_router')
    p.add_argument('--oauth-access-ttl', type=_seconds, default=300, help='access token lifetime, seconds')
    p.add_argument('--flood-limit', type=int, default=0,
                   help='failed logins per user+IP before 403 (0 = flood control off)')
    p.add_argument('--verbose', action='store_true', help='log each request to stderr')
    p.add_argument('--tls-cert', help='serve HTTPS with this PEM certificate (with --tls-key)')
    p.add_argument('--tls-key', help='the PEM private key of --tls-cert')
    p.add_argument('--exit-with-stdin', action='store_true',
                   help='stop when standard input closes (the parent died), so tests never leave servers behind')
    args = p.parse_args(argv)

    config = Config(site_name=args.site_name, login_message=args.login_message,
                    flood_limit=args.flood_limit, drupal=args.drupal, site=args.site,
                    oauth_access_ttl=args.oauth_access_ttl)
    app = App(Store(), config)
    tls_context = None
    if args.tls_cert:
        tls_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls_context.load_cert_chain(args.tls_cert, args.tls_key)
    server = FakeDrupalServer((args.host, args.port), app, delay_ms=args.delay_ms, verbose=args.verbose,
                              tls_context=tls_context)

    def stop(signum, frame):
        # Don't raise here: that can interrupt the main thread anywhere (even inside
        # Thread.start()). Ask the serve loop to finish from a helper thread instead.
        server.faults.stopping.set()
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.exit_with_stdin:
        threading.Thread(target=_stop_at_eof, args=(stop,), daemon=True).start()
    host, port = server.server_address[:2]
    shown = '[%s]' % host if ':' in host else host
    scheme = 'https' if tls_context else 'http'
    sys.stdout.write('LISTENING %s://%s:%d\n' % (scheme, shown, port))
    sys.stdout.flush()
    server.serve_forever(poll_interval=0.2)
    server.server_close()
    sys.stdout.flush()
    # Connection threads are daemons that may sit in recv(); leave without waiting.
    os._exit(0)


def _seconds(text):
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError('must be > 0')
    return int(value) if value.is_integer() else value


def _stop_at_eof(stop):
    while sys.stdin.buffer.read(4096):
        pass
    stop(None, None)


if __name__ == '__main__':
    sys.exit(main())
