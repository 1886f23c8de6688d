"""The Python examples run against the fake server, so they can never rot."""
import os
import subprocess
import sys

from conftest import ROOT

EXAMPLES = os.path.join(ROOT, "examples", "python")


def run(script, base_url, *args, **env_overrides):
    env = dict(os.environ, DRUPAL_BASE_URL=base_url, **env_overrides)
    result = subprocess.run([sys.executable, os.path.join(EXAMPLES, script)] + list(args),
                            capture_output=True, env=env, timeout=120)
    # Bytes, decoded by hand: text mode would turn the progress line's "\r" into "\n".
    result.stdout = result.stdout.decode()
    result.stderr = result.stderr.decode()
    return result


def test_tour(server):
    result = run("tour.py", server.base_url)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for line in ("logged in as admin (uid 1)", "created node 6", "read node 6: 'Hello from Python'",
                 "updated node 6: 'Hello again from Python'", "view /api/articles: 6 rows",
                 "deleted node 6", "logged out", "tour complete"):
        assert line in out, (line, out)
    assert "Article 5" in out


def test_tour_reports_bad_credentials(server):
    result = run("tour.py", server.base_url, DRUPAL_USER="admin", DRUPAL_PASSWORD="wrong")
    assert result.returncode == 1
    assert "login refused" in result.stderr
    assert "Traceback" not in result.stderr


def test_tour_reports_unreachable_site():
    result = run("tour.py", "http://127.0.0.1:9")
    assert result.returncode == 1
    assert "cannot reach" in result.stderr


def test_bulk_import_creates_and_deletes(server):
    result = run("bulk_import.py", server.base_url, "--count", "60", "--concurrency", "8")
    assert result.returncode == 0, result.stderr
    assert "\rcreated 60/60 (0 failed)" in result.stdout
    assert "created 60 articles in" in result.stdout and "/s)" in result.stdout
    assert "deleted 60 articles in" in result.stdout
    from drupalsdk import Client
    with Client(server.base_url) as client:
        assert len(list(client.view_all("/api/articles"))) == 5  # all deleted again


def test_bulk_import_keep(server):
    result = run("bulk_import.py", server.base_url, "--count", "7", "--concurrency", "3", "--keep")
    assert result.returncode == 0, result.stderr
    assert "kept 7 articles" in result.stdout
    from drupalsdk import Client
    with Client(server.base_url) as client:
        assert len(list(client.view_all("/api/articles"))) == 12


def test_jsonapi_walk(server):
    result = run("jsonapi_walk.py", server.base_url)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for line in ("page 1: 2 article(s)", "Article 1                by admin    tags: beta",
                 "Article 5                by editor   tags: beta", "4 article(s)", "created ", "deleted "):
        assert line in out, (line, out)
    assert "Article 4" not in out  # by editor, tagged alpha


def test_jsonapi_walk_reports_unreachable_site():
    result = run("jsonapi_walk.py", "http://127.0.0.1:9")
    assert result.returncode == 1 and "cannot reach" in result.stderr


def test_oauth_french(extended):
    result = run("oauth_french.py", extended.base_url, "--force-expiry")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for line in ("forced expiry:", "GET /node/1 -> 401: refresh the token, retry once",
                 "token requests so far:             2", "node 1: 'Article 1 FR' (langcode fr)",
                 "node 2: 'Article 2' (langcode en)", "node 1: 'Article 1 FR (modifié depuis Python)' (langcode fr)",
                 "node 1: 'Article 1' (langcode en)", "DRUPAL_E_STATE: /fr/node/2 has no fr translation", "done"):
        assert line in out, (line, out)
    assert "eyJ" not in out and "sdk-secret" not in out
    assert extended.stats()["token_grants"] == {"password": 1, "refresh_token": 1}


def test_oauth_french_reports_bad_credentials(extended):
    result = run("oauth_french.py", extended.base_url, DRUPAL_OAUTH_CLIENT_SECRET="wrong")
    assert result.returncode == 1
    assert "refused the OAuth credentials" in result.stderr and "invalid_client" in result.stderr
    assert "Traceback" not in result.stderr


def test_files(server):
    result = run("files.py", server.base_url)
    assert result.returncode == 0, result.stderr
    for line in ("sent 300000 of 300000 bytes", "downloaded to a path: same bytes", "streamed: same bytes",
                 "done"):
        assert line in result.stdout, (line, result.stdout)


def _articles(base_url):
    from drupalsdk import Client
    with Client(base_url) as client:
        return [row["title"] for row in client.view_all("/api/articles")]


def test_tour_deletes_its_article_when_a_step_fails(server):
    server.control("POST", "/__fake/faults", {"mode": "status", "code": 404, "path_prefix": "/api/articles"})
    result = run("tour.py", server.base_url)
    server.control("DELETE", "/__fake/faults")
    assert result.returncode == 1, result.stdout
    assert "deleted node 6" in result.stdout, result.stdout
    assert len(_articles(server.base_url)) == 5, "the tour's article was left behind"


def test_files_deletes_its_article_when_a_download_fails(server):
    server.control("POST", "/__fake/faults", {"mode": "status", "code": 403, "path_prefix": "/sites/default/files"})
    result = run("files.py", server.base_url)
    server.control("DELETE", "/__fake/faults")
    assert result.returncode == 1 and "403" in result.stderr, result.stderr
    assert not [t for t in _articles(server.base_url) if "With an image" in t], "the article was left behind"


def test_examples_trust_the_ca_in_drupal_ca_file(https_site):
    base_url, cert = https_site
    result = run("tour.py", base_url)
    assert result.returncode == 1 and "certificate" in result.stderr, result.stderr
    for script in ("tour.py", "files.py", "jsonapi_walk.py"):
        result = run(script, base_url, DRUPAL_CA_FILE=cert)
        assert result.returncode == 0, (script, result.stderr)


def test_oauth_french_without_an_expiry_does_not_claim_one(extended):
    result = run("oauth_french.py", extended.base_url)
    assert result.returncode == 0, result.stderr
    assert "after the expiry" not in result.stdout and "one refresh" not in result.stdout, result.stdout
    assert "token requests so far:             1 (the password grant)" in result.stdout, result.stdout


def test_oauth_desktop_logs_a_person_in_through_the_browser(extended):
    # The "browser" logs in as the editor and approves; the example's listener gets the code.
    browser = "%s %s %%s" % (sys.executable, os.path.join(ROOT, "Tests", "python", "browser_approves.py"))
    result = run("oauth_desktop.py", extended.base_url, BROWSER=browser)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "/oauth/authorize?response_type=code&client_id=sdk-desktop&" in out
    assert "owned by user 2" in out and "deleted it again" in out and out.endswith("done\n"), out
    assert "code=" not in out, "the code is never printed"


def test_oauth_desktop_remembers_the_session_across_runs(extended, tmp_path):
    approves = "%s %s %%s" % (sys.executable, os.path.join(ROOT, "Tests", "python", "browser_approves.py"))
    kept = tmp_path / "session"
    first = run("oauth_desktop.py", extended.base_url, "--remember", str(kept), BROWSER=approves)
    assert first.returncode == 0 and "session remembered" in first.stdout, first.stderr
    assert oct(kept.stat().st_mode & 0o777) == "0o600"
    token = kept.read_text().strip()
    assert token and token not in first.stdout + first.stderr
    # The next run starts from it: no browser (one that fails would end the run).
    second = run("oauth_desktop.py", extended.base_url, "--remember", str(kept), BROWSER="false %s")
    assert second.returncode == 0, second.stderr
    assert "signed in with the remembered session" in second.stdout and "/oauth/authorize" not in second.stdout
    assert "owned by user 2" in second.stdout
    assert kept.read_text().strip() != token, "the site's newest (rotated) token is kept"
    # A token the site refuses: the person is asked again.
    kept.write_text("def50200revoked\n")
    third = run("oauth_desktop.py", extended.base_url, "--remember", str(kept), BROWSER=approves)
    assert third.returncode == 0, third.stderr
    assert "the remembered session has ended: asking again" in third.stdout and "/oauth/authorize" in third.stdout

