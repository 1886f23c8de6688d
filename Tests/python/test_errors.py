"""Each exception type, with its fields, from real failures."""
import builtins
import concurrent.futures
import json
import time
from urllib.parse import quote

import drupalsdk
import pytest

from conftest import article


def test_hierarchy():
    for cls in (drupalsdk.AuthenticationError, drupalsdk.AuthorizationError, drupalsdk.NotFoundError,
                drupalsdk.ValidationError):
        assert issubclass(cls, drupalsdk.HTTPError)
    for cls in (drupalsdk.HTTPError, drupalsdk.InvalidArgumentError, drupalsdk.NetworkError,
                drupalsdk.DrupalTimeoutError, drupalsdk.CancelledError, drupalsdk.TooLargeError,
                drupalsdk.DecodeError):
        assert issubclass(cls, drupalsdk.DrupalError)
    assert issubclass(drupalsdk.DrupalTimeoutError, builtins.TimeoutError)
    assert issubclass(drupalsdk.InvalidArgumentError, ValueError)
    assert issubclass(drupalsdk.NetworkError, ConnectionError)
    assert issubclass(drupalsdk.CancelledError, concurrent.futures.CancelledError)


def test_401_anonymous_create(client):
    with pytest.raises(drupalsdk.AuthenticationError) as info:
        client.create("node", article("anonymous"))
    error = info.value
    assert error.status == 401
    assert error.code == "DRUPAL_E_HTTP"
    assert error.message == "No authentication credentials provided."
    assert b"No authentication credentials provided." in error.body
    assert error.headers["content-type"].startswith("application/json")
    assert "401" in str(error)


def test_400_bad_login_is_an_authentication_error(client):
    with pytest.raises(drupalsdk.AuthenticationError) as info:
        client.login("admin", "wrong")
    assert info.value.status == 400
    assert "unrecognized username or password" in info.value.message.lower()
    assert client.login_status() is False


def test_403_editor_patching_admins_node(client):
    client.login("editor", "editor")
    with pytest.raises(drupalsdk.AuthorizationError) as info:
        client.update("node", 1, {"type": [{"target_id": "article"}], "title": [{"value": "hijack"}]})
    assert info.value.status == 403
    assert info.value.message == "The 'edit any article content' permission is required."


def test_404(client):
    with pytest.raises(drupalsdk.NotFoundError) as info:
        client.get("node", 424242)
    assert info.value.status == 404
    assert info.value.code == "DRUPAL_E_HTTP"
    assert info.value.message


def test_415_via_request_with_text_plain(admin):
    with pytest.raises(drupalsdk.HTTPError) as info:
        admin.request("PATCH", "/node/1", headers={"Content-Type": "text/plain"}, body=article("x"))
    error = info.value
    assert type(error) is drupalsdk.HTTPError
    assert error.status == 415
    assert error.message == 'No route found that matches "Content-Type: text/plain"'


def test_422_violations(admin):
    with pytest.raises(drupalsdk.ValidationError) as info:
        admin.create("node", {"type": [{"target_id": "article"}]})
    error = info.value
    assert error.status == 422
    assert error.violations == [("title", "This value should not be null.")]
    assert error.message.startswith("Unprocessable Entity: validation failed.")


def test_500_plain_text_via_fault(client):
    with pytest.raises(drupalsdk.HTTPError) as info:
        client.request("GET", "/node/1", headers={"X-Fake-Fault": "status;code=500"})
    error = info.value
    assert error.status == 500
    assert error.code == "DRUPAL_E_HTTP"
    assert b"unexpected error" in error.body
    assert error.headers["Content-Type"].startswith("text/plain")
    assert error.message


def test_503_has_retry_after_header(client):
    with pytest.raises(drupalsdk.HTTPError) as info:
        client.request("GET", "/node/1", headers={"X-Fake-Fault": "status;code=503"})
    assert info.value.status == 503
    assert info.value.headers["retry-after"] == "1"


def test_network_error_via_reset_fault(client):
    with pytest.raises(drupalsdk.NetworkError) as info:
        client.request("GET", "/node/1", headers={"X-Fake-Fault": "reset"})
    assert info.value.code in ("DRUPAL_E_NETWORK", "DRUPAL_E_TLS")
    assert info.value.status is None
    assert info.value.message


def test_network_error_when_nothing_listens():
    with drupalsdk.Client("http://127.0.0.1:9", connect_timeout=2) as client:
        with pytest.raises(drupalsdk.NetworkError):
            client.get("node", 1)


def test_timeout_via_stall_fault(base_url):
    with drupalsdk.Client(base_url, timeout=0.5) as client:
        started = time.monotonic()
        with pytest.raises(drupalsdk.DrupalTimeoutError) as info:
            client.request("GET", "/node/1", headers={"X-Fake-Fault": "stall;seconds=5"})
        assert time.monotonic() - started < 4
    assert info.value.code == "DRUPAL_E_TIMEOUT"
    assert isinstance(info.value, TimeoutError)
    assert info.value.status is None


def test_too_large_via_huge_fault(base_url):
    with drupalsdk.Client(base_url, max_body_size=65536) as client:
        with pytest.raises(drupalsdk.TooLargeError) as info:
            client.request("GET", "/node/1", headers={"X-Fake-Fault": "huge;bytes=1000000"})
        assert info.value.code == "DRUPAL_E_TOO_LARGE"
        assert client.get("node", 1)["nid"][0]["value"] == 1  # the client still works


@pytest.mark.parametrize("path", ["/../etc/passwd", "/node/../user/1", "//evil.example/x", "http://evil/x",
                                  "/node/\n1"])
def test_invalid_argument_for_unsafe_paths(client, path):
    with pytest.raises(drupalsdk.InvalidArgumentError) as info:
        client.request("GET", path)
    assert info.value.code == "DRUPAL_E_INVALID_ARGUMENT"
    assert info.value.message
    assert info.value.status is None


def test_invalid_argument_for_dotdot_entity_ids(client):
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.get("..", "1")
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.view("/api/../user/1")


@pytest.mark.parametrize("headers", [{"X-Evil": "a\r\nInjected: yes"}, {"X-Evil\r\nInjected": "yes"},
                                     ["X-Evil: a\nInjected: yes"]])
def test_invalid_argument_for_header_injection(client, headers):
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.request("GET", "/node/1", headers=headers)


def test_a_nul_in_a_servers_message_does_not_cut_it(client):
    """Strings come through C as NUL-terminated copies: a NUL in Drupal's message (JSON allows
    \\u0000) ended it there without a word; it is U+FFFD now. The message for humans shows the
    server's control characters as escapes."""
    body = quote(json.dumps({"message": "m\u0000tail \u001b[31m"}), safe="")
    with pytest.raises(drupalsdk.AuthorizationError) as caught:
        client.request("GET", "/node/1", headers={"X-Fake-Fault": "status;code=403;body=" + body})
    assert caught.value.drupal_message == "m\ufffdtail \x1b[31m"
    assert str(caught.value).endswith("m\\u{0}tail \\u{1b}[31m"), str(caught.value)


def test_invalid_argument_for_client_options():
    with pytest.raises(drupalsdk.InvalidArgumentError):
        drupalsdk.Client("ftp://example.com")
    with pytest.raises(drupalsdk.InvalidArgumentError):
        drupalsdk.Client("http://example.com", headers={"X": "a\r\nB: c"})
    with pytest.raises(drupalsdk.InvalidArgumentError):
        drupalsdk.Client("http://example.com", timeout=-1)
    with pytest.raises(drupalsdk.InvalidArgumentError):
        drupalsdk.Client("http://example.com", user_agent="bad\nagent")


def test_user_agent_follows_the_core_header_rule(server, base_url):
    """The C layer refused every control byte in a User-Agent, a stricter rule than the core
    applies to a Swift caller's and to every other header: a horizontal tab, which HTTP allows
    in a field value, failed here and nowhere else. The core's rule (no CR, LF or NUL) decides."""
    with drupalsdk.Client(base_url, user_agent="importer\t2.0") as c:
        c.get("node", "1")
    headers = server.control("GET", "/__fake/last-request")["headers"]
    assert [value for name, value in headers if name.lower() == "user-agent"] == ["importer\t2.0"]
    with pytest.raises(drupalsdk.InvalidArgumentError) as caught:
        drupalsdk.Client(base_url, user_agent="bad\ragent")
    assert "User-Agent" in str(caught.value) and "bad" not in str(caught.value)


def test_option_ranges_are_the_librarys(base_url):
    """The binding checked option ranges itself, with bounds of its own: retries above 100, which
    the library and C take, failed from Python alone, and the messages were not the library's.
    It refuses only what a C field cannot carry: 0 where C reads 0 as the default."""
    with drupalsdk.Client(base_url, retries=150) as client:
        assert client.get("node", "1")["nid"][0]["value"] == 1
    for options, words in [(dict(max_connections=20_000), "from 1 to 10000 connections"),
                           (dict(max_connections=-1), "from 1 to 10000 connections"),
                           (dict(busy_poll_us=2_000_000), "busy polling must be from 0 to 1000000"),
                           (dict(timeout=1e7), "timeout must be from 0 to 2147483 seconds"),
                           (dict(connect_timeout=-1), "connect timeout must be from 0"),
                           (dict(timeout=10 ** 400), "timeout must be from 0")]:
        with pytest.raises(drupalsdk.InvalidArgumentError) as caught:
            drupalsdk.Client(base_url, **options)
        assert words in str(caught.value), (options, str(caught.value))
    for name in ["timeout", "connect_timeout", "max_connections", "max_body_size"]:
        with pytest.raises(drupalsdk.InvalidArgumentError) as caught:
            drupalsdk.Client(base_url, **{name: 0})
        assert "%s cannot be 0" % name in str(caught.value)


def test_invalid_argument_for_bodies_and_auth(client):
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.create("node", b"{not json")
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.set_basic_auth("us:er", "pw")
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.set_bearer_token("has space")
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.get("node", "\ud800")  # a lone surrogate is not UTF-8
    with pytest.raises(TypeError):
        client.create("node", 42)
