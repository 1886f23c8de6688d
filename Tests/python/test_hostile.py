"""What hostile servers and careless callers found (issue 10), from Python: credentials, bodies
and cookies never cross origins, no smuggling, no truncation at NUL, no secret in an error, no
success for a redirect or an empty entity, protocol errors and limits named, strict JSON, no
repr sent, options range-checked, cancelled futures seen done, idempotent retries."""
import asyncio
import concurrent.futures
import json
import subprocess
import sys

import drupalsdk
import pytest

from conftest import ROOT, SERVER_SCRIPT, article


@pytest.fixture(scope="module")
def other():
    """A second fake server: another origin."""
    process = subprocess.Popen([sys.executable, SERVER_SCRIPT, "--port", "0", "--exit-with-stdin"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    line = process.stdout.readline().split()
    assert line and line[0] == "LISTENING"

    class Other:
        base_url = line[1]

        def control(self, method, path, body=None):
            with drupalsdk.Client(self.base_url) as c:
                response = c.request(method, path, body=body, format=False,
                                     headers={"Content-Type": "application/json"} if body is not None else None)
                return response.json() if response.content else None

    yield Other()
    process.stdin.close()
    process.wait(10)


def _fault(server, **fault):
    server.control("POST", "/__fake/faults", fault)


def test_redirect_to_another_origin_carries_no_credentials(base_url, server, other):
    other.control("POST", "/__fake/reset")
    with drupalsdk.Client(base_url, follow_redirects=True, secret_headers=["X-Api-Key"]) as client:
        client.login("admin", "admin")
        _fault(server, mode="redirect", to=other.base_url + "/node/1?_format=json", code=302, count=1)
        # Followed as a GET (302 after a POST), to the other origin's node 1.
        assert client.request("POST", "/node", body=article("moved"), headers={"X-Api-Key": "k-123"}).status == 200
    seen = json.dumps(other.control("GET", "/__fake/last-request")).lower()
    for secret in ("x-csrf-token", "cookie", "authorization", "x-api-key", "k-123", "moved"):
        assert secret not in seen, seen


def test_a_body_is_not_replayed_to_another_origin(base_url, server, other):
    with drupalsdk.Client(base_url, follow_redirects=True) as client:
        client.login("admin", "admin")
        before = other.control("GET", "/__fake/stats")["requests"]
        _fault(server, mode="redirect", to=other.base_url + "/node?_format=json", code=307, count=1)
        with pytest.raises(drupalsdk.NetworkError):
            client.create("node", article("secret body"))
        assert other.control("GET", "/__fake/stats")["requests"] == before


def test_a_redirect_target_cannot_plant_cookies(base_url, server, other):
    with drupalsdk.Client(base_url, follow_redirects=True) as client:
        client.login("admin", "admin")
        other.control("POST", "/__fake/faults", {"mode": "setcookie", "raw": ["evil=1; Path=/"], "count": 1})
        _fault(server, mode="redirect", to=other.base_url + "/node/1?_format=json", count=1)
        client.get("node", 1)
        client.get("node", 2)
        assert "evil=1" not in json.dumps(server.control("GET", "/__fake/last-request"))
        assert client.login_status() is True


def test_framing_headers_are_refused(client):
    for name in ("Content-Length", "Transfer-Encoding", "Host", "Connection", "Upgrade", "TE", "Trailer"):
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.request("POST", "/node", headers={name: "5"}, body=article("smuggled"))


@pytest.mark.parametrize("call", [
    lambda c: c.delete("node", "12\x003"),
    lambda c: c.get("node\x00x", 1),
    lambda c: c.login("admin", "admin\x00garbage"),
    lambda c: c.set_bearer_token("tok\x00en"),
    lambda c: c.request("GET", "/node/1\x00/x"),
    lambda c: c.view("/api/articles", {"title": "a\x00b"}),
    lambda c: c.request("GET", "/node/1", headers={"X-A": b"x\x00y"}),
])
def test_nul_is_refused_before_sending(client, server, call):
    before = server.stats()["requests"]
    with pytest.raises(drupalsdk.InvalidArgumentError):
        call(client)
    assert server.stats()["requests"] == before


def test_refused_input_never_quotes_a_secret(base_url, client):
    cases = [
        lambda: client.request("GET", "/node/1", headers=["Authorization Bearer t0ps3cret"]),
        lambda: client.request("GET", "/node/1", headers={"X-Token": "t0ps3cret\r\nX: y"}),
        lambda: drupalsdk.Client("ftp://u:t0ps3cret@example.com/?access_token=t0ps3cret"),
        lambda: drupalsdk.Client("https://example.com/?access_token=t0ps3cret"),
        lambda: client.request("GET", "/../x?token=t0ps3cret"),
        lambda: client.login("admin", "t0ps3cret\x00"),
    ]
    for case in cases:
        with pytest.raises(drupalsdk.InvalidArgumentError) as info:
            case()
        error = info.value
        for text in (str(error), repr(error), repr(error.args), error.message):
            assert "t0ps3cret" not in text, text


def test_redirects_not_followed_are_errors(client):
    for code in (301, 302):
        with pytest.raises(drupalsdk.RedirectError) as info:
            client.request("GET", "/node/1", headers={"X-Fake-Fault": "redirect;to=/node/2;code=%d" % code})
        assert info.value.status == code and info.value.location == "/node/2"
    with pytest.raises(drupalsdk.RedirectError):
        client.request("POST", "/node", body=article("x"), headers={"X-Fake-Fault": "redirect;to=/x;code=301"})


def test_entity_reads_without_an_object_are_decode_errors(base_url):
    for body in ("", "null", "[1]"):
        with drupalsdk.Client(base_url, headers={"X-Fake-Fault": "status;code=200;body=" + body}) as client:
            with pytest.raises(drupalsdk.DecodeError):
                client.get("node", 1)


def test_a_broken_server_is_a_network_error(client):
    for fault in ("garbage", "bad_status;kind=code", "bad_status;kind=version"):
        with pytest.raises(drupalsdk.NetworkError):
            client.request("GET", "/node/1", headers={"X-Fake-Fault": fault})


def test_size_limits_are_named(client):
    with pytest.raises(drupalsdk.TooLargeError):
        client.request("GET", "/node/1", headers={"X-Fake-Fault": "huge_header;bytes=1048576"})
    with pytest.raises(drupalsdk.TooLargeError) as info:
        client.get("node", "9" * (1 << 20))
    assert "65536" in info.value.message
    with pytest.raises(drupalsdk.TooLargeError):
        client.request("GET", "/node/1", headers={"X-Big": "v" * (1 << 20)})


def test_strict_json(client):
    deep = "[" * 20000 + "]" * 20000  # far past Python's recursion limit, inside a header
    for body in (deep, "NaN", '{"a": Infinity}'):
        response = client.request("GET", "/node/1", headers={"X-Fake-Fault": "status;code=200;body=" + body})
        with pytest.raises(drupalsdk.DecodeError):
            response.json()
    with drupalsdk.Client(client.base_url, headers={"X-Fake-Fault": "status;code=200;body=" + deep}) as deep_client:
        with pytest.raises(drupalsdk.DecodeError):
            deep_client.view("/api/articles")


def test_python_values_are_not_sent_as_repr(client, server):
    with pytest.raises(TypeError):
        client.view("/api/articles", {"title": None})
    with pytest.raises(TypeError):
        client.request("GET", "/node/1", headers={"X-A": None})
    client.request("GET", "/api/articles", query={"flag": True, "id": [1, 2]})
    target = server.control("GET", "/__fake/last-request")["target"]
    assert "flag=1" in target and "id=1&id=2" in target, target


@pytest.mark.parametrize("call", [
    lambda c: c.view("/api/articles", "page=1"),
    lambda c: c.view("/api/articles", ["pa"]),            # was unpacked as p=a, silently
    lambda c: list(c.view_all("/api/articles", b"page=1")),
    lambda c: c.request("GET", "/node/1", query=[("page", 1, 2)]),
    lambda c: c.request("GET", "/node/1", headers="X-A: 1"),
    lambda c: drupalsdk.Client(c.base_url, entity_paths={"event": "/e"}),   # was unpacked as "/", "e"
    lambda c: drupalsdk.Client(c.base_url, entity_paths={"event": "/event/{id}"}),
])
def test_a_str_where_pairs_are_wanted_is_a_type_error(client, server, call):
    before = server.stats()["requests"]
    with pytest.raises(TypeError, match="must be (a mapping|.*pairs)"):
        call(client)
    assert server.stats()["requests"] == before


@pytest.mark.parametrize("options", [dict(max_body_size=2 ** 64 + 5), dict(max_body_size=0),
                                     dict(timeout=1e300), dict(timeout=float("nan")), dict(retries=-1),
                                     dict(retries=True), dict(connect_timeout=-1)])
def test_integer_and_float_options_are_range_checked(base_url, options):
    with pytest.raises((drupalsdk.InvalidArgumentError, TypeError)):
        drupalsdk.Client(base_url, **options)


def test_cancelled_futures_are_seen_done_by_waiters(base_url):
    client = drupalsdk.Client(base_url)
    stalled = [client.submit_request("GET", "/node/1", headers={"X-Fake-Fault": "stall;seconds=10"})
               for _ in range(3)]
    stalled[0].cancel()
    done, not_done = concurrent.futures.wait([stalled[0]], timeout=5)
    assert stalled[0] in done
    client.close()
    done, not_done = concurrent.futures.wait(stalled, timeout=5)
    assert not not_done
    assert all(f.cancelled() for f in stalled)
    assert len(list(concurrent.futures.as_completed(stalled, timeout=5))) == 3


def test_idempotent_requests_are_retried_and_seen_as_events(base_url, server):
    with drupalsdk.Client(base_url) as client:
        retries = []
        client.on("retry", retries.append)
        _fault(server, mode="status", code=502, count=2, path_prefix="/node")
        assert client.get("node", 1)["nid"][0]["value"] == 1
        assert [(e.method, e.path, e.attempt, e.status) for e in retries] == \
            [("GET", "/node/1", 1, 502), ("GET", "/node/1", 2, 502)]
    with drupalsdk.Client(base_url, retries=0) as client:
        _fault(server, mode="status", code=502, count=1, path_prefix="/node")
        with pytest.raises(drupalsdk.HTTPError):
            client.get("node", 1)
    with drupalsdk.Client(base_url) as client:
        client.set_basic_auth("admin", "admin")
        _fault(server, mode="status", code=503, count=1, path_prefix="/node")
        before = server.stats()["requests"]
        with pytest.raises(drupalsdk.HTTPError):
            client.create("node", article("once"))
        assert server.stats()["requests"] - before == 1


def test_asyncio_retries_too(base_url, server):
    async def go():
        async with drupalsdk.AsyncClient(base_url) as client:
            return await client.get("node", 1)
    _fault(server, mode="status", code=504, count=1, path_prefix="/node")
    assert asyncio.run(go())["nid"][0]["value"] == 1


def test_proxy_authorization_and_secret_headers_stay_on_the_site(base_url, server, other):
    """Issue 10 item 1: client-wide and per-request Proxy-Authorization and secret headers."""
    leaks = ("proxy-authorization", "x-api-key", "chjvehk6cdf4eq", "cmvxonayehk", "k-client", "k-request")
    with drupalsdk.Client(base_url, follow_redirects=True, secret_headers=["X-Api-Key"],
                          headers={"Proxy-Authorization": "Basic cHJveHk6cDF4eQ==", "X-Api-Key": "k-client"}) as client:
        for headers in (None, {"Proxy-Authorization": "Basic cmVxOnAyeHk=", "X-Api-Key": "k-request"}):
            other.control("POST", "/__fake/reset")
            _fault(server, mode="redirect", to=other.base_url + "/node/1?_format=json", code=302, count=1)
            assert client.request("GET", "/node/2", headers=headers).status == 200
            seen = json.dumps(other.control("GET", "/__fake/last-request")).lower()
            assert "/node/1" in seen
            for leak in leaks:
                assert leak not in seen, seen


@pytest.mark.parametrize("names", ["X-Api-Key", b"X-Api-Key"])
def test_secret_headers_as_one_string_is_a_type_error(base_url, names):
    # Iterated, "X-Api-Key" was nine one-letter names: the header was neither redacted in logs
    # nor kept from another origin, and nothing said so.
    with pytest.raises(TypeError, match="secret_headers must be a list of header names"):
        drupalsdk.Client(base_url, secret_headers=names, headers={"X-Api-Key": "k-client"})


def test_retry_after_as_an_http_date_is_honoured(base_url, server):
    """Issue 10 item 16: Retry-After as an IMF-fixdate 2 s ahead, on a 503 to a GET."""
    import email.utils
    import time
    date = email.utils.formatdate(time.time() + 2, usegmt=True)
    with drupalsdk.Client(base_url) as client:
        _fault(server, mode="status", code=503, count=1, path_prefix="/node", retry_after=date)
        started = time.monotonic()
        assert client.get("node", 1)["nid"][0]["value"] == 1
        assert time.monotonic() - started >= 0.5


@pytest.mark.parametrize("call", [
    lambda c: c.request("GET", "/" + "p" * (1 << 20)),
    lambda c: c.view("/api/articles", {"title": "q" * (1 << 20)}),
    lambda c: c.request("GET", "/api/articles", query={"title": "q" * (1 << 20)}),
])
def test_a_huge_path_or_query_value_is_refused_naming_the_limit(client, server, call):
    """Issue 10 item 9: refused before sending, as a URL over its limit (TooLargeError, like a huge
    id in test_size_limits_are_named), the limit named, the value not quoted."""
    before = server.stats()["requests"]
    with pytest.raises(drupalsdk.TooLargeError) as info:
        call(client)
    message = info.value.message
    assert "memory" not in message and ("65536" in message or "limit" in message), message
    assert "pppppppp" not in str(info.value) and "qqqqqqqq" not in str(info.value)
    assert server.stats()["requests"] == before


@pytest.mark.parametrize("fault", ["reset;at=start", "reset;at=headers", "reset", "bad_length;delta=25",
                                   "bad_chunked;kind=size", "bad_chunked;kind=truncated",
                                   "bad_chunked;kind=noend", "bad_chunked;kind=overflow", "garbage",
                                   "bad_status;kind=code"])
def test_broken_answers_are_network_errors(base_url, fault):
    """Issue 10 fault modes: a connection reset, a lying length, broken chunking, not HTTP."""
    with drupalsdk.Client(base_url, retries=0) as client:
        with pytest.raises(drupalsdk.NetworkError):
            client.request("GET", "/node/1", headers={"X-Fake-Fault": fault})


def test_stalls_trickles_and_endless_answers(base_url):
    import time
    with drupalsdk.Client(base_url, retries=0, timeout=1) as client:
        started = time.monotonic()
        with pytest.raises(drupalsdk.DrupalTimeoutError):
            client.request("GET", "/node/1", headers={"X-Fake-Fault": "stall;seconds=20;after=headers"})
        assert time.monotonic() - started < 10
        started = time.monotonic()
        with pytest.raises(drupalsdk.TooLargeError, match="262144 bytes of headers"):
            client.request("GET", "/node/1", headers={"X-Fake-Fault": "endless_headers"})
        assert time.monotonic() - started < 10
    with drupalsdk.Client(base_url, retries=0) as client:
        response = client.request("GET", "/node/1", headers={"X-Fake-Fault": "trickle;ms=0"})
        assert response.status == 200 and response.json()["nid"][0]["value"] == 1
    with drupalsdk.Client(base_url, retries=0, max_body_size=65536) as client:
        for fault in ("endless", "endless;chunked=1"):
            with pytest.raises(drupalsdk.TooLargeError):
                client.request("GET", "/node/1", headers={"X-Fake-Fault": fault})


# ---- Folded header lines (obs-fold, RFC 9112 §5.2) ---------------------------------------------
# A line that starts with a space or tab continues the field before it; a client replaces the fold
# with a space. libcurl hands each line to the library as it came.

def test_a_folded_header_keeps_its_continuation(client):
    response = client.request("GET", "/node/1", headers={"X-Fake-Fault": "folded;value=first|second: 2|third"})
    assert response.headers["X-Folded"] == "first second: 2 third"
    # No field made of a continuation line (the colon in "second: 2" made one).
    assert [name for name, _ in response.headers.items_raw() if name[:1] in (" ", "\t")] == []


def test_a_folded_content_encoding_is_decoded(client):
    # "identity," then "gzip" on the folded line: the body is gzip, as the whole field says.
    response = client.request("GET", "/node/1",
                              headers={"X-Fake-Fault": "folded;name=Content-Encoding;value=identity,|gzip;gzip"})
    assert response.json()["nid"] == [{"value": 1}]
