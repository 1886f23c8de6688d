"""The `drupal` command (drupalsdk._cli) against the fake Drupal server: JSON out, exit codes by
error class, credentials from the environment and netrc files, bulk work with --progress."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from drupalsdk import _cli, _cli_oauth


@pytest.fixture
def drupal(base_url, monkeypatch, tmp_path, capsys):
    """Runs the command in-process as admin; returns (exit code, parsed stdout or text, stderr)."""
    monkeypatch.setenv("DRUPAL_BASE_URL", base_url)
    monkeypatch.setenv("DRUPAL_USER", "admin")
    monkeypatch.setenv("DRUPAL_PASSWORD", "admin")
    monkeypatch.delenv("DRUPAL_TOKEN", raising=False)
    monkeypatch.delenv("DRUPAL_NETRC", raising=False)
    for name in ("CLIENT_ID", "CLIENT_SECRET", "SCOPE", "TOKEN_PATH"):
        monkeypatch.delenv("DRUPAL_OAUTH_" + name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))            # no ~/.netrc of the machine's
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))

    def run(*argv):
        capsys.readouterr()
        code = _cli.main(list(argv))
        captured = capsys.readouterr()
        try:
            out = json.loads(captured.out)
        except ValueError:
            out = captured.out
        return code, out, captured.err
    return run


def title(entity):
    return entity["title"][0]["value"]


def test_get_prints_the_entity_as_json(drupal):
    code, node, _ = drupal("get", "node", "1")
    assert code == 0
    assert title(node) == "Article 1"


def test_get_several_prints_a_list_and_progress(drupal):
    code, nodes, err = drupal("get", "node", "1", "2", "--progress")
    assert code == 0
    assert [title(n) for n in nodes] == ["Article 1", "Article 2"]
    assert "(2/2)" in err


def test_create_update_delete(drupal):
    code, node, _ = drupal("create", "node", "article", "--title", "From the CLI",
                           "--set-json", 'body={"value": "<p>Hi</p>", "format": "basic_html"}')
    assert code == 0, node
    nid = str(node["nid"][0]["value"])
    assert title(node) == "From the CLI"
    assert node["body"][0]["value"] == "<p>Hi</p>"
    # update takes the bundle from the entity (Drupal wants it on PATCH).
    code, node, _ = drupal("update", "node", nid, "--title", "Changed")
    assert code == 0 and title(node) == "Changed"
    code, out, _ = drupal("delete", "node", nid)
    assert code == 0 and out == {"deleted": [nid]}
    code, _, err = drupal("get", "node", nid)
    assert code == _cli.EXIT_NOT_FOUND
    assert "HTTP 404" in err


def test_create_from_json_body_options_on_top(drupal):
    body = json.dumps({"type": [{"target_id": "article"}], "title": [{"value": "from json"}]})
    code, node, _ = drupal("create", "node", "--json", body, "--title", "title wins")
    assert code == 0 and title(node) == "title wins"


def test_bulk_create_from_ndjson(drupal, tmp_path, capsys):
    rows = tmp_path / "rows.ndjson"
    rows.write_text("".join(json.dumps({"title": [{"value": "Bulk %d" % i}]}) + "\n" for i in range(3)))
    code, out, err = drupal("create", "node", "article", "--input", str(rows), "--progress")
    assert code == 0
    created = [json.loads(line) for line in out.splitlines()]
    assert [title(n) for n in created] == ["Bulk 0", "Bulk 1", "Bulk 2"]
    assert "created 3" in err


def test_validation_error_exit_code_and_violations(drupal):
    code, out, err = drupal("create", "node", "article")
    assert code == _cli.EXIT_INVALID
    assert out == ""
    assert "title: This value should not be null." in err


def test_a_servers_control_characters_are_shown_not_obeyed(drupal, server, capsys):
    def lie(code, body):   # the next answer under /node only (logging in is not touched)
        server.control("POST", "/__fake/faults",
                       {"mode": "status", "code": code, "body": body, "path_prefix": "/node", "count": 1})
    # A violation is the server's text verbatim; the command shows it on one terminal line.
    lie(422, '{"message": "Unprocessable Entity: validation failed.\\ntitle: evil\\u001b[2J\\u009b1m\\n"}')
    code, out, err = drupal("create", "node", "article", "--title", "x")
    assert code == _cli.EXIT_INVALID, err
    assert "title: evil\\u{1b}[2J\\u{9b}1m" in err, err
    assert "\x1b" not in err and "\x9b" not in err
    # JSON output escapes C0 controls by itself; DEL and C1 (CSI, U+009B) are escaped too.
    for compact in ([], ["--compact"]):
        lie(200, '{"title": [{"value": "a\\u009b2J\\u007fb\\u001bc"}]}')
        capsys.readouterr()
        code = _cli.main(compact + ["get", "node", "1"])
        raw = capsys.readouterr().out
        assert code == 0
        assert "\x9b" not in raw and "\x7f" not in raw and "\x1b" not in raw, repr(raw)
        assert "\\u009b" in raw and "\\u007f" in raw
        assert title(json.loads(raw)) == "a\x9b2J\x7fb\x1bc", "the value is unchanged"


def test_view_one_page_and_all_pages(drupal):
    code, rows, _ = drupal("view", "/api/articles")
    assert code == 0 and [r["nid"] for r in rows] == ["1", "2"]
    code, rows, _ = drupal("view", "/api/articles", "--page", "1")
    assert [r["nid"] for r in rows] == ["3", "4"]
    code, rows, err = drupal("view", "/api/articles", "--all", "--progress")
    assert code == 0 and [r["nid"] for r in rows] == ["1", "2", "3", "4", "5"]
    assert "5 rows, done" in err
    code, rows, _ = drupal("view", "/api/articles", "--all", "--page", "1")
    assert [r["nid"] for r in rows] == ["3", "4", "5"]


def test_headers_go_on_every_request_once(drupal):
    code, doc, _ = drupal("-H", "X-Test: 1", "request", "GET", "/node/1", "--include")
    assert code == 0 and doc["status"] == 200


def test_view_all_ends_on_a_display_without_pager(drupal):
    code, rows, _ = drupal("view", "/api/articles-all", "--all")
    assert code == 0 and len(rows) == 5


def test_view_ndjson_and_query(drupal):
    code, out, _ = drupal("view", "/api/articles", "--all", "--ndjson", "--query", "title=3")
    assert code == 0
    assert out == {"nid": "3", **out} and isinstance(out, dict)   # one row: one line, one document
    code, out, _ = drupal("view", "/api/articles", "--all", "--ndjson")
    assert [json.loads(line)["nid"] for line in out.splitlines()] == ["1", "2", "3", "4", "5"]


def test_request_prints_the_body_and_exit_code_follows_the_status(drupal):
    code, doc, _ = drupal("request", "GET", "/jsonapi/node/article", "--no-format")
    assert code == 0 and doc["data"][0]["type"] == "node--article"
    code, doc, _ = drupal("request", "GET", "/node/424242", "--include")
    assert code == _cli.EXIT_NOT_FOUND
    assert doc["status"] == 404 and "message" in doc["body"]


def test_wrong_password_is_an_authentication_error(drupal, monkeypatch):
    monkeypatch.setenv("DRUPAL_PASSWORD", "wrong")
    code, out, err = drupal("get", "node", "1")
    assert code == _cli.EXIT_AUTH
    assert "wrong" not in err          # never the secret
    assert out == ""


def test_network_error_exit_code(drupal):
    code, _, err = drupal("--url", "http://127.0.0.1:1", "get", "node", "1")
    assert code == _cli.EXIT_NETWORK
    assert "DRUPAL_E_NETWORK" in err


def test_usage_errors(drupal, monkeypatch):
    monkeypatch.delenv("DRUPAL_BASE_URL")
    code, _, err = drupal("get", "node", "1")
    assert code == _cli.EXIT_USAGE and "DRUPAL_BASE_URL" in err
    code, _, err = drupal("--url", "http://x", "create", "widget", "b")
    assert code == _cli.EXIT_USAGE and "bundle" in err
    code, _, err = drupal("--url", "http://x", "--auth", "bearer", "get", "node", "1")
    assert code == _cli.EXIT_USAGE and "DRUPAL_TOKEN" in err
    with pytest.raises(SystemExit) as exited:
        _cli.main(["get"])
    assert exited.value.code == 2


def test_anonymous_with_auth_none(drupal, monkeypatch):
    code, node, _ = drupal("--auth", "none", "get", "node", "1")
    assert code == 0 and title(node) == "Article 1"
    code, _, _ = drupal("--auth", "none", "create", "node", "article", "--title", "x")
    assert code in (_cli.EXIT_AUTH, _cli.EXIT_FORBIDDEN)


def test_basic_auth(drupal):
    code, node, _ = drupal("--auth", "basic", "create", "node", "article", "--title", "basic")
    assert code == 0 and title(node) == "basic"


def test_login_prints_the_user_not_the_tokens_and_saves_only_when_asked(drupal, tmp_path):
    code, out, _ = drupal("login")
    assert code == 0
    assert out["current_user"]["name"] == "admin"
    assert "csrf_token" not in json.dumps(out) and "logout_token" not in json.dumps(out)
    assert not (tmp_path / "config").exists()     # nothing written

    code, out, _ = drupal("login", "--save")
    netrc = tmp_path / "config" / "drupalsdk" / "netrc"
    assert code == 0 and out["saved_to"] == str(netrc)
    assert stat.S_IMODE(os.stat(netrc).st_mode) == 0o600
    assert "login admin password admin" in netrc.read_text()


def test_credentials_from_the_netrc_file(drupal, monkeypatch, tmp_path):
    monkeypatch.delenv("DRUPAL_USER")
    monkeypatch.delenv("DRUPAL_PASSWORD")
    code, _, _ = drupal("create", "node", "article", "--title", "anon")
    assert code in (_cli.EXIT_AUTH, _cli.EXIT_FORBIDDEN)      # anonymous: no credentials anywhere
    netrc = tmp_path / "my-netrc"
    netrc.write_text("machine 127.0.0.1 login editor password editor\n")
    code, node, _ = drupal("--netrc-file", str(netrc), "create", "node", "article", "--title", "netrc")
    assert code == 0, node
    assert title(node) == "netrc"
    # login --save, then logout forgets it again.
    monkeypatch.setenv("DRUPAL_NETRC", str(netrc))
    code, out, _ = drupal("logout")
    assert code == 0 and out["forgotten"] is True
    assert "127.0.0.1" not in netrc.read_text()


def test_python_dash_m_and_exit_code(base_url):
    env = dict(os.environ, DRUPAL_BASE_URL=base_url, DRUPAL_USER="admin", DRUPAL_PASSWORD="admin")
    result = subprocess.run([sys.executable, "-m", "drupalsdk", "--compact", "get", "node", "2"],
                            capture_output=True, text=True, env=env, timeout=30)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["nid"][0]["value"] == 2
    result = subprocess.run([sys.executable, "-m", "drupalsdk", "get", "node", "999"],
                            capture_output=True, text=True, env=env, timeout=30)
    assert result.returncode == _cli.EXIT_NOT_FOUND
    assert "Traceback" not in result.stderr


def test_save_refuses_what_a_netrc_line_cannot_hold(drupal, monkeypatch, tmp_path):
    monkeypatch.setenv("DRUPAL_PASSWORD", "two words")
    code, out, err = drupal("login", "--save")
    assert code == _cli.EXIT_USAGE and "DRUPAL_PASSWORD" in err
    assert "two words" not in err
    assert not (tmp_path / "config" / "drupalsdk" / "netrc").exists()


def test_jsonapi_one_page_every_page_and_one_resource(drupal):
    code, page, _ = drupal("jsonapi", "node--article", "--limit", "2", "--sort", "drupal_internal__nid",
                           "--fields", "node--article=title")
    assert code == 0 and [r["attributes"]["title"] for r in page] == ["Article 1", "Article 2"]
    code, out, err = drupal("jsonapi", "node--article", "--all", "--limit", "2", "--filter", "title:CONTAINS=Article",
                            "--sort=-drupal_internal__nid", "--ndjson", "--progress", "--fields", "node--article=title")
    titles = [json.loads(line)["attributes"]["title"] for line in out.splitlines()]
    assert code == 0 and titles == ["Article 5", "Article 4", "Article 3", "Article 2", "Article 1"]
    assert "5 resources, done" in err
    code, doc, _ = drupal("jsonapi", "node--article", page[0]["id"], "--include", "uid", "--fields", "user--user=name",
                          "--document")
    assert code == 0 and doc["data"]["attributes"]["title"] == "Article 1"
    assert [u["attributes"] for u in doc["included"]] == [{"name": "admin"}]


def test_jsonapi_filters_through_relationships_and_lists(drupal):
    code, rows, _ = drupal("jsonapi", "node/article", "--filter", "uid.name=editor", "--sort", "drupal_internal__nid")
    assert code == 0 and [r["attributes"]["title"] for r in rows] == ["Article 4", "Article 5"]
    code, rows, _ = drupal("jsonapi", "node--article", "--filter", "drupal_internal__nid:IN=1,3",
                           "--sort", "drupal_internal__nid", "--all", "--concurrency", "4")
    assert code == 0 and [r["attributes"]["drupal_internal__nid"] for r in rows] == [1, 3]


def test_jsonapi_usage_and_not_found(drupal):
    code, _, err = drupal("jsonapi", "node--article", "--filter", "nonsense")
    assert code == _cli.EXIT_USAGE and "PATH=VALUE" in err
    code, _, err = drupal("jsonapi", "node--article", "--filter", "title:LIKE=x")   # refused by the builder
    assert code == _cli.EXIT_USAGE and "LIKE" in err
    code, _, _ = drupal("jsonapi", "node--article", "00000000-0000-0000-0000-000000000000")
    assert code == _cli.EXIT_NOT_FOUND


def test_upload_then_download_by_url_and_by_file_id(drupal, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = b"\x89PNG\r\n\x1a\n" + bytes((i * 7) & 0xFF for i in range(100_000))
    (tmp_path / "cli-photo.png").write_bytes(data)
    code, file, err = drupal("upload", "node", "article", "field_image", "cli-photo.png", "--progress")
    assert code == 0, err
    assert file["filesize"][0]["value"] == len(data)
    assert "upload: %d of %d bytes" % (len(data), len(data)) in err
    url, fid = file["uri"][0]["url"], str(file["fid"][0]["value"])
    os.remove("cli-photo.png")

    code, out, _ = drupal("download", url)          # named after the URL's last segment, here
    assert code == 0 and out["saved_to"] == url.rsplit("/", 1)[1] and out["bytes"] == len(data)
    assert (tmp_path / out["saved_to"]).read_bytes() == data
    code, _, err = drupal("download", url)          # not over the file it saved before
    assert code == _cli.EXIT_USAGE and "exists" in err
    code, out, _ = drupal("download", "--file-id", fid, "-o", "by-id.png")
    assert code == 0 and (tmp_path / "by-id.png").read_bytes() == data

    code, _, err = drupal("download", "/sites/default/files/nope.png")
    assert code == _cli.EXIT_NOT_FOUND, err
    assert not (tmp_path / "nope.png").exists()


def test_upload_and_download_usage_errors(drupal, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in (("download",), ("download", "/x.png", "--file-id", "1"), ("download", "--file-id", "1"),
                 ("download", "/sites/default/files/a%2Fb.png?token=s3cret"), ("download", "/sites/default/files/"),
                 ("upload", "node", "article", "field_image", "missing.png"),
                 ("upload", "node", "article", "field_image", "/dev/null")):
        code, _, err = drupal(*argv)
        assert code == _cli.EXIT_USAGE, (argv, err)
        assert "s3cret" not in err
    assert os.listdir(tmp_path) == []


def test_download_to_stdout(base_url, tmp_path):
    env = dict(os.environ, DRUPAL_BASE_URL=base_url, DRUPAL_USER="admin", DRUPAL_PASSWORD="admin")
    data = bytes(range(256)) * 400
    (tmp_path / "raw.bin").write_bytes(data)
    upload = subprocess.run([sys.executable, "-m", "drupalsdk", "upload", "node", "article", "field_image",
                             str(tmp_path / "raw.bin"), "--filename", "raw.png"],
                            capture_output=True, text=True, env=env, timeout=30)
    assert upload.returncode == 0, upload.stderr
    url = json.loads(upload.stdout)["uri"][0]["url"]
    result = subprocess.run([sys.executable, "-m", "drupalsdk", "download", url, "-o", "-"],
                            capture_output=True, env=env, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout == data
    # A reader that goes away early is not an error, and leaves no traceback.
    result = subprocess.run("%s -m drupalsdk download %s -o - | head -c 10 > /dev/null" % (sys.executable, url),
                            shell=True, capture_output=True, text=True, env=env, timeout=30)
    assert result.returncode == 0 and "Traceback" not in result.stderr and result.stderr == "", result.stderr


def test_a_text_body_on_a_terminal_is_shown_not_obeyed(drupal, server, monkeypatch):
    # `drupal request` prints a body that is not JSON as it came when piped (for files and tools),
    # and with its control characters shown when stdout is a terminal a hostile server would
    # otherwise drive; `download -o -` refuses a terminal.
    server.control("POST", "/__fake/faults", {"mode": "status", "code": 200, "path_prefix": "/node", "count": 2,
                                              "body": "plain\u001b[2J\u009b1m line\ttab\nnext"})
    code, piped, _ = drupal("request", "GET", "/node/1")
    assert code == 0 and piped == "plain\x1b[2J\x9b1m line\ttab\nnext\n"
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, shown, _ = drupal("request", "GET", "/node/1")
    assert code == 0 and shown == "plain\\u{1b}[2J\\u{9b}1m line\ttab\nnext\n", repr(shown)
    code, out, err = drupal("download", "/sites/default/files/x.png", "-o", "-")
    assert code == _cli.EXIT_USAGE and "terminal" in err and out == ""


def test_a_malformed_option_is_not_echoed(drupal):
    # Headers and query items carry secrets (Authorization, X-Api-Key, token=...): an error about
    # one's form names the option, not its text.
    for argv in (("-H", "Authorization Bearer s3cret", "get", "node", "1"),
                 ("request", "GET", "/node/1", "--query", "token:s3cret")):
        code, _, err = drupal(*argv)
        assert code == _cli.EXIT_USAGE, (argv, err)
        assert "s3cret" not in err and err.startswith("drupal: "), err


def test_a_broken_netrc_file_is_named_not_quoted_and_not_read_when_unneeded(drupal, monkeypatch, tmp_path):
    # A line without the "password" keyword: netrc's own message quoted the password.
    monkeypatch.delenv("DRUPAL_PASSWORD")
    netrc = tmp_path / "broken-netrc"
    netrc.write_text("machine 127.0.0.1\n  login admin s3cret-pw\n")
    code, _, err = drupal("--netrc-file", str(netrc), "get", "node", "1")
    assert code == _cli.EXIT_USAGE, err
    assert "s3cret-pw" not in err and str(netrc) in err and "near line" in err, err
    # A token decides the credentials (--auth auto): the netrc file is not read at all.
    monkeypatch.setenv("DRUPAL_TOKEN", "a-token")
    code, node, err = drupal("--netrc-file", str(netrc), "get", "node", "1")
    assert code == 0 and title(node) == "Article 1", err
    # So does DRUPAL_PASSWORD, whatever --auth is.
    monkeypatch.delenv("DRUPAL_TOKEN")
    monkeypatch.setenv("DRUPAL_PASSWORD", "admin")
    code, node, err = drupal("--netrc-file", str(netrc), "--auth", "basic", "get", "node", "1")
    assert code == 0 and title(node) == "Article 1", err


@pytest.mark.parametrize("argv, named", [
    (("get", "node", "1", "--hedaer", "Authorization: Bearer S3CRET"), "--hedaer"),
    (("get", "node", "1", "--password=S3CRET"), "--password"),
    (("request", "GET", "/node/1", "-q", "token=S3CRET"), "-q"),
    (("--auth", "S3CRET", "get", "node", "1"), "--auth"),
    (("--timeout", "S3CRET", "get", "node", "1"), "--timeout"),
    (("--insecure=S3CRET", "get", "node", "1"), "--insecure"),
    (("--he=Authorization: S3CRET", "get", "node", "1"), "--he"),
])
def test_argparse_usage_errors_name_the_option_not_its_value(drupal, capsys, argv, named):
    # argparse quoted the words it could not use, and a mistyped option's value is often a secret.
    with pytest.raises(SystemExit) as exited:
        drupal(*argv)
    err = capsys.readouterr().err
    assert exited.value.code == _cli.EXIT_USAGE
    assert "S3CRET" not in err and named in err, err


def test_a_lone_surrogate_from_the_server_is_written_escaped(base_url):
    # json.loads gives "\ud800" as a lone surrogate, which a UTF-8 stdout cannot encode: traceback.
    env = dict(os.environ, DRUPAL_BASE_URL=base_url)
    fault = 'X-Fake-Fault: status;code=200;body={"title": [{"value": "a\\ud800b"}]}'
    for argv in (["get", "node", "1"], ["request", "GET", "/node/1"]):
        result = subprocess.run([sys.executable, "-m", "drupalsdk", "--auth", "none", "-H", fault] + argv,
                                capture_output=True, env=env, timeout=30)
        assert result.returncode == 0, result.stderr.decode()
        assert b"a\\ud800b" in result.stdout
        assert title(json.loads(result.stdout)) == "a\ud800b"


def test_bodies_that_are_not_utf8_or_nest_too_deeply_are_usage_errors(drupal, tmp_path):
    (tmp_path / "latin1.json").write_bytes(b'{"title": [{"value": "caf\xe9"}]}')
    (tmp_path / "deep.json").write_text("[" * 100_000)
    (tmp_path / "latin1.ndjson").write_bytes(b'{"title": [{"value": "caf\xe9"}]}\n')
    for argv, message in ((("--json", "@%s" % (tmp_path / "latin1.json")), "--json is not UTF-8"),
                          (("--json", "@%s" % (tmp_path / "deep.json")), "--json is JSON nested too deeply"),
                          (("--input", str(tmp_path / "latin1.ndjson")), "line 1 is not UTF-8"),
                          (("--input", str(tmp_path / "deep.json")), "line 1 is JSON nested too deeply")):
        code, out, err = drupal("create", "node", "article", *argv)
        assert code == _cli.EXIT_USAGE and message in err and out == "", (argv, err)


CTRL_C_ON_FIRST_WRITE = """
import io, os, signal, sys
from drupalsdk._cli import main
class Interrupting(io.RawIOBase):  # stdout whose first write gets Ctrl-C (as it streams)
    def writable(self):
        return True
    sent = False
    def write(self, data):
        if not self.sent:
            self.sent = True
            os.kill(os.getpid(), signal.SIGINT)
        return len(data)
sys.stdout = io.TextIOWrapper(io.BufferedWriter(Interrupting(), 1))
sys.exit(main(sys.argv[1:]))
"""


def test_ctrl_c_while_a_download_streams_to_stdout_is_interrupted(base_url):
    # The content is written from the write callback of a blocking download on the main thread.
    env = dict(os.environ, DRUPAL_BASE_URL=base_url)
    result = subprocess.run([sys.executable, "-c", CTRL_C_ON_FIRST_WRITE, "--auth", "none", "-H",
                             "X-Fake-Fault: huge;bytes=60000000", "download", "/sites/default/files/x.png", "-o", "-"],
                            capture_output=True, text=True, env=env, timeout=60)
    assert (result.returncode, result.stderr) == (130, "drupal: interrupted\n")


@pytest.mark.parametrize("text", [
    'machine 127.0.0.1 login admin password "s3cret-pw\n',
    'machine 127.0.0.1 login "admin\npassword s3cret-pw\n',
    'machine 127.0.0.1 login admin password "s3cret-pw',                  # no newline at the end
    'machine other login x password "open\nmachine 127.0.0.1 login admin password s3cret-pw\n',
])
def test_an_unclosed_quote_in_the_netrc_file_is_an_error_not_a_newline_in_the_password(drupal, monkeypatch,
                                                                                        tmp_path, text):
    # Python's netrc reads an unclosed quote to the end of the file: the password became
    # "s3cret-pw\n", the login swallowed the password keyword and the password was "", or
    # another host's entry swallowed this one (silently no entry).
    monkeypatch.delenv("DRUPAL_PASSWORD")
    netrc = tmp_path / "unclosed-netrc"
    netrc.write_text(text)
    code, _, err = drupal("--netrc-file", str(netrc), "get", "node", "1")
    assert code == _cli.EXIT_USAGE, err
    assert "unclosed quote" in err and str(netrc) in err and "s3cret-pw" not in err, err


def test_a_jsonapi_body_goes_as_json_api_unless_a_content_type_is_given(drupal):
    body = json.dumps({"data": {"type": "node--article", "attributes": {"title": "by request"}}})
    code, doc, err = drupal("request", "POST", "/jsonapi/node/article", "--no-format", "--data", body)
    assert code == 0, err
    assert doc["data"]["attributes"]["title"] == "by request"
    # The caller's own Content-Type wins (Drupal then answers 415, as it does to curl).
    code, doc, _ = drupal("-H", "Content-Type: application/json", "request", "POST", "/jsonapi/node/article",
                          "--no-format", "--data", body)
    assert code == _cli.EXIT_HTTP and doc["errors"][0]["status"] == "415"
    # Core REST bodies stay application/json.
    code, node, err = drupal("request", "POST", "/node", "--data",
                             json.dumps({"type": [{"target_id": "article"}], "title": [{"value": "rest"}]}))
    assert code == 0 and title(node) == "rest", err


def test_a_jsonapi_path_gets_no_format_parameter(drupal):
    # JSON:API refuses ?_format (406/400, recordings 130c/130d): --no-format was needed every time.
    code, doc, err = drupal("request", "GET", "/jsonapi/node/article")
    assert code == 0, err
    assert doc["data"][0]["type"] == "node--article"
    body = json.dumps({"data": {"type": "node--article", "attributes": {"title": "no format"}}})
    code, doc, err = drupal("request", "POST", "/jsonapi/node/article", "--data", body)
    assert code == 0 and doc["data"]["attributes"]["title"] == "no format", err


def test_bulk_create_names_the_failing_line_and_what_was_created(drupal, tmp_path):
    rows = tmp_path / "rows.ndjson"
    rows.write_text('{"title": [{"value": "first"}]}\n{"title": "flat"}\n{"title": [{"value": "never"}]}\n')
    code, out, err = drupal("create", "node", "article", "--input", str(rows))
    assert code == _cli.EXIT_INVALID, err
    assert title(out) == "first"                   # the one created line (a single document)
    assert "line 2" in err and "1 created before it" in err and "not tried" in err, err
    # A line that is not an object stops the same way, with the usage exit code.
    rows.write_text('{"title": [{"value": "first"}]}\n[1]\n')
    code, out, err = drupal("create", "node", "article", "--input", str(rows))
    assert code == _cli.EXIT_USAGE and "line 2" in err and "1 created before it" in err, err


def test_several_ids_name_the_one_that_failed_and_what_was_done(drupal):
    code, out, err = drupal("delete", "node", "3", "4", "424242", "5")
    assert code == _cli.EXIT_NOT_FOUND and out == ""
    assert "delete node 424242 (3 of 4)" in err, err
    assert "deleted before it: 3, 4" in err and "not tried: 5" in err, err
    code, _, _ = drupal("get", "node", "5")
    assert code == 0, "the id after the failure was not tried"
    code, out, err = drupal("get", "node", "1", "424242")
    assert code == _cli.EXIT_NOT_FOUND and out == ""
    assert "get node 424242 (2 of 2)" in err, err


def test_a_user_without_a_password_is_warned_about(drupal, monkeypatch):
    monkeypatch.delenv("DRUPAL_PASSWORD")
    code, node, err = drupal("get", "node", "1")
    assert code == 0 and title(node) == "Article 1"   # still anonymous, as documented
    assert "warning" in err and "DRUPAL_USER" in err and "no password" in err, err
    code, _, err = drupal("--auth", "none", "get", "node", "1")
    assert code == 0 and err == "", "--auth none asks for no credentials"


def test_the_ca_file_defaults_to_drupal_ca_file(drupal, monkeypatch, https_site, tmp_path):
    base_url, cert = https_site
    monkeypatch.setenv("DRUPAL_CA_FILE", cert)
    code, node, err = drupal("--url", base_url, "get", "node", "1")
    assert code == 0 and title(node) == "Article 1", err
    other = tmp_path / "other-ca.pem"          # --ca-file still wins over the variable
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "1", "-keyout", str(tmp_path / "key.pem"), "-out", str(other),
                    "-subj", "/CN=other"], check=True, capture_output=True)
    code, _, err = drupal("--url", base_url, "--ca-file", str(other), "get", "node", "1")
    assert code == _cli.EXIT_NETWORK, err
    monkeypatch.delenv("DRUPAL_CA_FILE")
    code, _, err = drupal("--url", base_url, "get", "node", "1")
    assert code == _cli.EXIT_NETWORK, err      # a private CA: not trusted by default
    # A CA file that cannot be read is a usage error at once (it was a TLS failure, exit 3).
    code, _, err = drupal("--url", base_url, "--ca-file", str(tmp_path / "missing.pem"), "get", "node", "1")
    assert code == _cli.EXIT_USAGE and "missing.pem" in err, err


@pytest.mark.parametrize("mode, who", [(0o644, "its group and others"), (0o604, "others"), (0o640, "its group")])
def test_a_netrc_file_others_can_read_is_warned_about_by_name(drupal, monkeypatch, tmp_path, mode, who):
    # As ftp and curl do: the file and its mode are named, never its content; it is still used
    # (the token file was never refused either, and login --save writes 0600).
    monkeypatch.delenv("DRUPAL_PASSWORD")
    netrc = tmp_path / "shared-netrc"
    netrc.write_text("machine 127.0.0.1 login admin password s3cret-pw\n")
    os.chmod(netrc, 0o600)
    code, _, err = drupal("--netrc-file", str(netrc), "get", "node", "1")
    assert code == _cli.EXIT_AUTH and "warning" not in err, err     # a 0600 file: no warning
    netrc.write_text("machine 127.0.0.1 login admin password admin\n")
    os.chmod(netrc, mode)
    code, node, err = drupal("--netrc-file", str(netrc), "create", "node", "article", "--title", "shared")
    assert code == 0 and title(node) == "shared", err
    assert err == "drupal: warning: the netrc file %s is readable by %s (mode %04o): chmod 600 it\n" % (
        netrc, who, mode), err


def test_a_token_file_others_can_read_is_warned_about_by_name(drupal, monkeypatch, tmp_path):
    monkeypatch.delenv("DRUPAL_PASSWORD")
    token = tmp_path / "token"
    token.write_text("s3cret-token\n")
    os.chmod(token, 0o644)
    code, _, err = drupal("--token-file", str(token), "get", "node", "1")
    assert code == 0, err          # still used (the base site, without simple_oauth, ignores it)
    assert "warning: the token file %s is readable by its group and others" % token in err, err
    assert "s3cret-token" not in err


@pytest.mark.parametrize("argv", [
    ("--token", "S3CRET", "get", "node", "1"),
    ("--token=S3CRET", "get", "node", "1"),
    ("get", "node", "1", "--token", "S3CRET"),
])
def test_a_secret_file_option_is_never_abbreviated(drupal, capsys, argv):
    # argparse took --token for --token-file, and the error about the missing "file" quoted it.
    try:
        code, _, err = drupal(*argv)
    except SystemExit as exited:
        code, err = exited.code, capsys.readouterr().err
    assert "S3CRET" not in err, err
    assert code == _cli.EXIT_USAGE and "--token" in err, err


# ---- OAuth 2 (--auth oauth) against the extended fake site (simple_oauth's /oauth/token) ----------

@pytest.fixture
def oauth(drupal, extended, monkeypatch):
    """The command against the extended site, with the consumer sdk-client in the environment and
    no user; returns the same runner."""
    monkeypatch.setenv("DRUPAL_BASE_URL", extended.base_url)
    monkeypatch.delenv("DRUPAL_USER")
    monkeypatch.delenv("DRUPAL_PASSWORD")
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_ID", "sdk-client")
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_SECRET", "sdk-secret")
    return drupal


def test_oauth_client_credentials_from_the_environment(oauth, extended):
    # A client id makes --auth auto use OAuth; client_credentials acts as the consumer's user.
    code, node, err = oauth("create", "node", "article", "--title", "by the consumer")
    assert code == 0 and err == "", err
    assert node["uid"][0]["target_id"] == 2
    code, user, err = oauth("--auth", "oauth", "get", "user", "2")
    assert code == 0 and user["name"][0]["value"] == "editor", err
    assert extended.stats()["token_grants"] == {"client_credentials": 2}    # one token a command


def test_oauth_password_grant_from_the_environment_and_from_a_netrc_file(oauth, extended, monkeypatch, tmp_path):
    monkeypatch.setenv("DRUPAL_USER", "admin")
    monkeypatch.setenv("DRUPAL_PASSWORD", "admin")
    code, node, err = oauth("create", "node", "article", "--title", "as admin")
    assert code == 0 and node["uid"][0]["target_id"] == 1, err
    monkeypatch.delenv("DRUPAL_USER")
    monkeypatch.delenv("DRUPAL_PASSWORD")
    netrc = tmp_path / "oauth-netrc"
    netrc.write_text("machine 127.0.0.1 login editor password editor\n")
    os.chmod(netrc, 0o600)
    code, node, err = oauth("--netrc-file", str(netrc), "--auth", "oauth", "--oauth-grant", "password",
                            "create", "node", "article", "--title", "as editor")
    assert code == 0 and node["uid"][0]["target_id"] == 2 and err == "", err
    assert extended.stats()["token_grants"] == {"password": 2}


def test_oauth_secret_file_scope_and_basic_client_auth(oauth, extended, monkeypatch, tmp_path):
    monkeypatch.delenv("DRUPAL_OAUTH_CLIENT_SECRET")
    secret = tmp_path / "secret"
    secret.write_text("p+s/w=rd%21 x\n")            # sdk-symbols: spaces and form characters kept
    os.chmod(secret, 0o600)
    for client_auth in ("body", "basic"):
        code, user, err = oauth("--oauth-client-id", "sdk-symbols", "--oauth-secret-file", str(secret),
                                "--oauth-client-auth", client_auth, "--oauth-scope", "content_editor",
                                "get", "user", "2")
        assert code == 0 and user["name"][0]["value"] == "editor" and err == "", (client_auth, err)
    # The scope is sent: one the site does not know is refused by name.
    monkeypatch.setenv("DRUPAL_OAUTH_SCOPE", "content_editor no_such_scope")
    code, _, err = oauth("--oauth-client-id", "sdk-symbols", "--oauth-secret-file", str(secret), "get", "node", "1")
    assert code == _cli.EXIT_AUTH and "invalid_scope" in err and "no_such_scope" in err, err
    assert "p+s/w=rd%21 x" not in err
    # A secret file others can read is used, with the same warning as a netrc file.
    os.chmod(secret, 0o644)
    monkeypatch.delenv("DRUPAL_OAUTH_SCOPE")
    code, _, err = oauth("--oauth-client-id", "sdk-symbols", "--oauth-secret-file", str(secret), "get", "node", "1")
    assert code == 0, err
    assert err == "drupal: warning: the client secret file %s is readable by its group and others (mode 0644): " \
        "chmod 600 it\n" % secret, err


def test_oauth_failures_exit_as_authentication_errors_without_the_secrets(oauth, extended, monkeypatch):
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_SECRET", "wrong-s3cret")
    code, out, err = oauth("get", "node", "1")
    assert (code, out) == (_cli.EXIT_AUTH, "") and "invalid_client" in err and "wrong-s3cret" not in err, err
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_SECRET", "sdk-secret")
    monkeypatch.setenv("DRUPAL_USER", "admin")
    monkeypatch.setenv("DRUPAL_PASSWORD", "bad-passw0rd")
    code, _, err = oauth("get", "node", "1")
    assert code == _cli.EXIT_AUTH and "invalid_grant" in err, err
    assert "bad-passw0rd" not in err and "sdk-secret" not in err, err
    # The token endpoint is the one asked for.
    monkeypatch.setenv("DRUPAL_PASSWORD", "admin")
    code, _, err = oauth("--oauth-token-path", "/oauth/elsewhere", "get", "node", "1")
    assert code == _cli.EXIT_AUTH and "POST /oauth/elsewhere answered HTTP 404" in err, err
    assert extended.stats()["token_requests"] == 2     # each once, never a loop (the 404 is not counted)


def test_a_grant_the_consumer_does_not_allow_is_explained(oauth, extended, monkeypatch):
    # sdk-web takes only the authorization code and refresh token grants (recording 73f's answer).
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_ID", "sdk-web")
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_SECRET", "sdk-web-secret")
    for grant, user in (("client_credentials", None), ("password", "admin")):
        if user:
            monkeypatch.setenv("DRUPAL_USER", user)
            monkeypatch.setenv("DRUPAL_PASSWORD", user)
        code, _, err = oauth("--oauth-grant", grant, "get", "node", "1")
        assert code == _cli.EXIT_AUTH and "unsupported_grant_type" in err, err
        assert err.endswith(_cli.UNSUPPORTED_GRANT_HINT), err
        assert "sdk-web-secret" not in err
    # Other refusals get no such hint.
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_ID", "sdk-client")
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_SECRET", "wrong")
    code, _, err = oauth("--oauth-grant", "password", "get", "node", "1")
    assert code == _cli.EXIT_AUTH and "invalid_client" in err and "simple_oauth_password_grant" not in err, err


def test_oauth_usage_errors_send_nothing(oauth, extended, monkeypatch, tmp_path):
    monkeypatch.delenv("DRUPAL_OAUTH_CLIENT_SECRET")
    code, _, err = oauth("get", "node", "1")
    assert code == _cli.EXIT_USAGE and "DRUPAL_OAUTH_CLIENT_SECRET" in err and "--oauth-secret-file" in err, err
    code, _, err = oauth("--oauth-grant", "password", "get", "node", "1")
    assert code == _cli.EXIT_USAGE and "password grant needs a user and a password" in err, err
    monkeypatch.delenv("DRUPAL_OAUTH_CLIENT_ID")
    code, _, err = oauth("--auth", "oauth", "get", "node", "1")
    assert code == _cli.EXIT_USAGE and "DRUPAL_OAUTH_CLIENT_ID" in err, err
    # An OAuth option without a client id is not ignored (as anonymous) but refused.
    code, _, err = oauth("--oauth-scope", "content_editor", "get", "node", "1")
    assert code == _cli.EXIT_USAGE and "DRUPAL_OAUTH_CLIENT_ID" in err, err
    two_lines = tmp_path / "two-lines"
    two_lines.write_text("s3cret\nmore\n")
    os.chmod(two_lines, 0o600)
    for path, message in ((two_lines, "more than one line"), (tmp_path / "missing", "No such file")):
        code, _, err = oauth("--oauth-client-id", "sdk-client", "--oauth-secret-file", str(path), "get", "node", "1")
        assert code == _cli.EXIT_USAGE and message in err and str(path) in err and "s3cret" not in err, err
    assert extended.stats()["token_requests"] == 0


@pytest.mark.parametrize("argv", [
    ("--oauth-client-secret", "S3CRET", "get", "node", "1"),     # no such option: never on a command line
    ("--oauth-client-secret=S3CRET", "get", "node", "1"),
    ("--oauth-secret", "S3CRET", "get", "node", "1"),            # not an abbreviation of --oauth-secret-file
    ("get", "node", "1", "--oauth-secret=S3CRET"),
])
def test_a_client_secret_is_never_an_option(oauth, capsys, argv):
    try:
        code, _, err = oauth(*argv)
    except SystemExit as exited:
        code, err = exited.code, capsys.readouterr().err
    assert "S3CRET" not in err, err
    assert code == _cli.EXIT_USAGE and "--oauth" in err, err


def test_login_checks_the_oauth_grant(oauth, extended, monkeypatch, tmp_path):
    code, out, err = oauth("login")
    assert code == 0, err
    assert out["oauth"]["grant"] == "client_credentials" and out["oauth"]["has_refresh_token"] is False
    assert "access_token" not in json.dumps(out)
    code, _, err = oauth("login", "--save")
    assert code == _cli.EXIT_USAGE and "client_credentials" in err, err
    monkeypatch.setenv("DRUPAL_USER", "editor")
    monkeypatch.setenv("DRUPAL_PASSWORD", "editor")
    code, out, err = oauth("login", "--save")
    assert code == 0 and out["oauth"]["grant"] == "password" and out["oauth"]["has_refresh_token"] is True, err
    assert "login editor password editor" in (tmp_path / "config" / "drupalsdk" / "netrc").read_text()
    code, out, err = oauth("--auth", "cookie", "login")   # a cookie login still, when asked
    assert code == 0 and out["current_user"]["name"] == "editor", err
    assert extended.stats()["token_grants"] == {"client_credentials": 1, "password": 1}


def test_login_in_the_browser_saves_a_session_that_later_commands_use(oauth, extended, monkeypatch, tmp_path):
    # The authorization code grant: the "browser" (run as BROWSER) logs in as the editor and approves.
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_ID", "sdk-desktop")     # public: no secret
    monkeypatch.delenv("DRUPAL_OAUTH_CLIENT_SECRET")
    approves = "%s %s %%s" % (sys.executable, os.path.join(os.path.dirname(__file__), "browser_approves.py"))
    monkeypatch.setenv("BROWSER", approves)
    sessions = tmp_path / "config" / "drupalsdk" / "oauth-sessions"
    code, out, err = oauth("login", "--oauth-grant", "authorization_code", "--save")
    assert code == 0, err
    assert out["oauth"]["grant"] == "authorization_code" and out["oauth"]["has_refresh_token"] is True
    assert out["saved_to"] == str(sessions) and stat.S_IMODE(sessions.stat().st_mode) == 0o600
    assert "/oauth/authorize?response_type=code&client_id=sdk-desktop&" in err
    saved = sessions.read_text()
    assert saved.startswith(extended.base_url + " sdk-desktop ")
    token = saved.split()[2]
    assert token not in err and token not in json.dumps(out)

    # Later commands start from it, without the browser, as the editor; each keeps the newest token.
    monkeypatch.setenv("BROWSER", "false %s")
    code, node, err = oauth("create", "node", "article", "--title", "by the person")
    assert code == 0 and node["uid"][0]["target_id"] == 2 and err == "", err
    assert sessions.read_text().split()[2] != token
    code, node, err = oauth("--oauth-grant", "authorization_code", "get", "node", "1")
    assert code == 0 and err == "", err
    assert extended.stats()["token_grants"] == {"authorization_code": 1, "refresh_token": 2}
    # A command that fails on its input keeps the session (refreshed when the command started,
    # under the sessions file's lock, and the newest saved).
    kept = sessions.read_text()
    code, _, err = oauth("get", "no de", "1")
    assert code == _cli.EXIT_USAGE, err
    assert sessions.read_text().split()[:2] == kept.split()[:2] and sessions.read_text() != kept
    assert oauth("get", "node", "1")[0] == 0

    # Refused (revoked by another program's refresh, here a stale token): forgotten, with what to do.
    sessions.write_text("%s sdk-desktop def50200revoked\n" % extended.base_url)
    os.chmod(sessions, 0o600)
    code, _, err = oauth("get", "node", "1")
    assert code == _cli.EXIT_AUTH and "invalid_grant" in err and _cli_oauth.SESSION_ENDED_HINT in err, err
    assert "def50200revoked" not in err and sessions.read_text() == ""
    code, _, err = oauth("--oauth-grant", "authorization_code", "get", "node", "1")
    assert code == _cli.EXIT_USAGE and "drupal login --oauth-grant authorization_code --save" in err, err

    # logout forgets the site's sessions.
    monkeypatch.setenv("BROWSER", approves)
    assert oauth("login", "--oauth-grant", "authorization_code", "--save")[0] == 0
    code, out, _ = oauth("logout")
    assert code == 0 and out["oauth_sessions_forgotten"] is True and sessions.read_text() == ""


def test_commands_on_one_saved_session_take_turns(oauth, extended, monkeypatch):
    # Another command rotates the saved refresh token after this one read it, before it refreshed
    # (two commands started together): this one must refresh with the newest, not the revoked one,
    # and neither may end the session. Before, it refreshed with the token it read first:
    # invalid_grant, exit 5, and the session (the other command's new token) forgotten.
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_ID", "sdk-desktop")
    monkeypatch.delenv("DRUPAL_OAUTH_CLIENT_SECRET")
    approves = "%s %s %%s" % (sys.executable, os.path.join(os.path.dirname(__file__), "browser_approves.py"))
    monkeypatch.setenv("BROWSER", approves)
    assert oauth("login", "--oauth-grant", "authorization_code", "--save")[0] == 0
    monkeypatch.setenv("BROWSER", "false %s")
    original_grant = _cli_oauth.grant
    others = []

    def grant_then_another_command(args, user, password):
        chosen = original_grant(args, user, password)          # reads the saved token
        if not others:
            others.append(None)
            others[0] = oauth("get", "node", "2")            # rotates it meanwhile
        return chosen
    monkeypatch.setattr(_cli_oauth, "grant", grant_then_another_command)
    code, node, err = oauth("get", "node", "1")
    assert others[0][0] == 0, others[0][2]
    assert code == 0 and node["nid"][0]["value"] == 1, err
    monkeypatch.setattr(_cli_oauth, "grant", original_grant)
    code, _, err = oauth("get", "node", "3")                  # the session lives on
    assert code == 0, err
    assert extended.stats()["token_grants"] == {"authorization_code": 1, "refresh_token": 3}


def test_a_command_writes_back_only_the_token_it_left(tmp_path):
    from drupalsdk import _cli_sessions
    path = str(tmp_path / "sessions")
    _cli_sessions.save("https://site", "app", "first", path)
    assert _cli_sessions.replace("https://site", "app", "first", "second", path) is True
    # Another command saved "second"; one that still holds "first" changes nothing.
    assert _cli_sessions.replace("https://site", "app", "first", "stale", path) is False
    assert _cli_sessions.replace("https://site", "app", "first", None, path) is False
    assert _cli_sessions.load("https://site", "app", path) == "second"
    assert _cli_sessions.replace("https://site", "app", "second", None, path) is True
    assert _cli_sessions.load("https://site", "app", path) is None
    with _cli_sessions.locked(path):                          # re-entrant in one process
        _cli_sessions.save("https://site", "app", "third", path)
    assert _cli_sessions.load("https://site", "app", path) == "third"
    # The lock file is not opened through a symlink (another's file would be locked, or made).
    os.remove(path + ".lock")
    os.symlink(str(tmp_path / "elsewhere"), path + ".lock")
    with pytest.raises(OSError):
        _cli_sessions.save("https://site", "app", "fourth", path)
    assert not (tmp_path / "elsewhere").exists() and _cli_sessions.load("https://site", "app", path) == "third"


def test_login_in_the_browser_refuses_a_redirect_uri_it_cannot_listen_on(oauth, extended, monkeypatch):
    monkeypatch.setenv("DRUPAL_OAUTH_CLIENT_ID", "sdk-desktop")
    monkeypatch.delenv("DRUPAL_OAUTH_CLIENT_SECRET")
    for uri in ("https://example.com/callback", "http://127.0.0.1/callback"):
        code, _, err = oauth("login", "--oauth-grant", "authorization_code", "--oauth-redirect-uri", uri)
        assert code == _cli.EXIT_USAGE and "loopback" in err, err
    assert extended.stats()["token_requests"] == 0


def test_resolve_says_what_a_path_or_alias_shows(drupal, extended, monkeypatch):
    # decoupled_router is on the extended site; the command logs in (a cookie session: the
    # route takes no Basic auth).
    monkeypatch.setenv("DRUPAL_BASE_URL", extended.base_url)
    extended.control("POST", "/__fake/reset")
    code, node, err = drupal("create", "node", "article", "--title", "About us", "--set-json",
                             'path=[{"alias": "/about-us"}]')
    assert code == 0, err
    code, resolved, err = drupal("resolve", "/about-us")
    assert code == 0, err
    assert resolved["entity"]["id"] == str(node["nid"][0]["value"]) and resolved["label"] == "About us"
    assert resolved["entity"]["canonical"] == extended.base_url + "/about-us"
    code, entity, err = drupal("resolve", "/about-us", "--entity")
    assert code == 0 and entity["title"][0]["value"] == "About us", err
    code, both, err = drupal("resolve", "/node/1", "/about-us")
    assert code == 0 and [b["label"] for b in both] == ["Article 1", "About us"], err
    code, _, err = drupal("resolve", "/node/1", "/no/such/page", "/about-us")
    assert code == _cli.EXIT_NOT_FOUND, err
    assert "resolve /no/such/page (2 of 3) failed; nothing printed; not tried: /about-us" in err, err
    assert "Unable to resolve path /no/such/page." in err


def test_the_redirect_listener_waits_for_the_answer_to_its_own_request():
    # Another program on this machine (or a stale tab) may call the loopback URI first: only the
    # redirect carrying this request's state ends the wait.
    import threading
    import urllib.error
    import urllib.request
    from drupalsdk import _cli_browser
    listener = _cli_browser.LoopbackListener("http://127.0.0.1:8799/callback")
    try:
        listener.state = "the-state"
        answers = []

        def visit(query):
            try:
                with urllib.request.urlopen("http://127.0.0.1:8799/callback?" + query, timeout=5) as r:
                    answers.append(r.status)
            except urllib.error.HTTPError as error:
                answers.append(error.code)

        visit("code=forged&state=other")
        visit("code=forged")
        threading.Timer(0.2, visit, ["code=real&state=the-state"]).start()
        assert listener.wait(5) == "http://127.0.0.1:8799/callback?code=real&state=the-state"
        assert answers[:2] == [400, 400]
    finally:
        listener.close()


def test_an_unreadable_sessions_file_is_an_error_not_a_traceback(oauth, tmp_path):
    sessions = tmp_path / "config" / "drupalsdk" / "oauth-sessions"
    sessions.parent.mkdir(parents=True, exist_ok=True)
    sessions.write_bytes(b"\xff\xfe not text\n")
    os.chmod(sessions, 0o600)
    code, _, err = oauth("--oauth-client-id", "sdk-desktop", "get", "node", "1")
    assert code == _cli.EXIT_USAGE and "not UTF-8" in err, err
    code, _, err = oauth("logout")
    assert code == _cli.EXIT_ERROR and "not UTF-8" in err, err


def test_language_puts_the_calls_under_its_prefix(drupal, extended, monkeypatch):
    # The extended site has French at /fr; Article 1 has a French translation (languages.py).
    monkeypatch.setenv("DRUPAL_BASE_URL", extended.base_url)
    extended.control("POST", "/__fake/reset")
    code, node, err = drupal("--language", "fr", "get", "node", "1")
    assert code == 0 and node["title"][0]["value"] == "Article 1 FR", err
    code, node, err = drupal("--language", "fr", "update", "node", "1", "--title", "Article 1 FR 2")
    assert code == 0 and node["title"][0]["value"] == "Article 1 FR 2", err
    code, node, _ = drupal("get", "node", "1")
    assert node["title"][0]["value"] == "Article 1", "the original is left alone"
    monkeypatch.setenv("DRUPAL_LANGUAGE", "fr")
    code, doc, err = drupal("jsonapi", "node--article", "--filter", "drupal_internal__nid=1")
    assert code == 0 and doc[0]["attributes"]["title"] == "Article 1 FR 2", (err, doc)
    # An update of a node with no French translation would change the original: refused.
    code, _, err = drupal("update", "node", "2", "--title", "x")
    assert code != 0 and "no fr translation" in err, err
    code, node, err = drupal("--language-force", "update", "node", "2", "--title", "Forced")
    assert code == 0 and node["title"][0]["value"] == "Forced", err
    code, _, err = drupal("--language", "f r", "get", "node", "1")
    assert code == _cli.EXIT_USAGE, err


def test_language_keeps_the_token_endpoint_at_the_sites_root(oauth, extended):
    extended.control("POST", "/__fake/reset")
    code, node, err = oauth("--language", "fr", "get", "node", "1")
    assert code == 0 and node["title"][0]["value"] == "Article 1 FR", err
    assert extended.stats()["token_grants"] == {"client_credentials": 1}
