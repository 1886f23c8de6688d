"""Test seams and middleware from Python (issue 11): unimplemented clients, mock stubs with headers,
query matching, sequences and failures, the requests a mock received, the mock's seeding calls,
an on_request hook, DEBUG logging with secrets redacted, and operations from one table."""
import asyncio
import concurrent.futures
import inspect
import logging
import subprocess
import sys
import textwrap

import drupalsdk
import pytest

from conftest import article


def test_an_unimplemented_client_fails_every_call_naming_it():
    client = drupalsdk.Client.unimplemented()
    for call, name in ((lambda: client.get("node", 1), "get"), (lambda: client.login("a", "b"), "login"),
                       (lambda: client.view("/api/articles"), "view")):
        with pytest.raises(drupalsdk.DrupalError) as info:
            call()
        assert info.value.code == "DRUPAL_E_UNIMPLEMENTED"
        assert "DrupalClient.%s" % name in info.value.message
    with pytest.raises(drupalsdk.DrupalError):
        client.submit_get("node", 1).result(5)
    client.close()


def test_stubs_with_headers_query_and_failures():
    with drupalsdk.MockClient() as client:
        client.stub("GET", "/node/1", 503, b"busy", "text/plain", headers={"Retry-After": "0"})
        client.stub("GET", "/api/articles", 200, [{"nid": "42"}], query={"title": "x"})
        assert client.view("/api/articles", {"title": "x", "page": 0}) == [{"nid": "42"}]
        assert client.view("/api/articles") == [], "no match without the query item: the site's own (empty) view"
        with pytest.raises(drupalsdk.HTTPError) as info:
            client.request("GET", "/node/1")
        assert info.value.status == 503 and info.value.headers["Retry-After"] == "0"
        # A passing network failure is retried (a GET); a timeout ends the call.
        client.stub("GET", "/node/2", answers=[drupalsdk.StubAnswer(fail="network"),
                                               drupalsdk.StubAnswer(200, {"nid": [{"value": 2}]})])
        assert client.get("node", 2)["nid"][0]["value"] == 2
        client.stub("GET", "/node/3", answers=[drupalsdk.StubAnswer(fail="timeout")])
        with pytest.raises(drupalsdk.DrupalTimeoutError):
            client.get("node", 3)
        with pytest.raises(ValueError):
            client.stub("GET", "/x", answers=[drupalsdk.StubAnswer(fail="weather")])


def test_a_stub_sequence_answers_in_order_and_the_last_repeats():
    with drupalsdk.MockClient() as client:
        client.stub("GET", "/seq", answers=[drupalsdk.StubAnswer(200, {"n": 1}),
                                            drupalsdk.StubAnswer(200, {"n": 2})])
        assert [client.request("GET", "/seq").json()["n"] for _ in range(4)] == [1, 2, 2, 2]
        client.stub("GET", "/moved", 302, headers={"Location": "/elsewhere"})
        with pytest.raises(drupalsdk.RedirectError) as info:
            client.request("GET", "/moved")
        assert info.value.location == "/elsewhere"


def test_the_requests_a_mock_received():
    with drupalsdk.MockClient() as client:
        client.login("admin", "admin")
        client.create("node", article("recorded"))
        seen = client.requests()
        assert [(r["method"], r["url"].split("?")[0]) for r in seen] == [
            ("POST", "http://drupal.mock/user/login"), ("POST", "http://drupal.mock/node")]
        assert '"recorded"' in seen[1]["body"]
        assert any(name == "X-CSRF-Token" for name, _ in seen[1]["headers"])
        client.clear_requests()
        assert client.requests() == []


def test_the_mock_seeding_calls():
    with drupalsdk.MockClient() as client:
        client.add_bundle("node", "event")
        client.add_view("/api/events", "node", "event", items_per_page=1)
        client.add_entity("node", {"type": [{"target_id": "event"}], "title": [{"value": "Gig"}]})
        assert [row["title"] for row in client.view_all("/api/events")] == ["Gig"]
        client.add_bearer_token("tok-1", 2)
        client.set_bearer_token("tok-1")
        assert client.get("user", 2)["name"][0]["value"] == "editor"
        client.set_no_auth()
        client.login("admin", "admin")
        client.invalidate_csrf_tokens()
        assert client.create("node", article("after a stale token"))["title"][0]["value"] == "after a stale token"
        with pytest.raises(drupalsdk.ValidationError):
            client.create("node", {"type": [{"target_id": "nonsense"}], "title": [{"value": "x"}]})


def test_an_on_request_hook_reads_and_changes_headers(base_url, server):
    seen = []

    def hook(request):
        seen.append((request.method, request.url.split("?")[0].rsplit("/", 2)[-2:]))
        request.set_header("X-Trace", "t-1")
        with pytest.raises(drupalsdk.InvalidArgumentError):
            request.set_header("Content-Length", "1")
        assert request.header("x-trace") == "t-1"

    with drupalsdk.Client(base_url, on_request=hook) as client:
        client.get("node", 1)
    assert seen == [("GET", ["node", "1"])]
    headers = dict(server.control("GET", "/__fake/last-request")["headers"])
    assert headers.get("X-Trace") == "t-1"

    def refuse(request):
        raise RuntimeError("no")

    with drupalsdk.Client(base_url, on_request=refuse) as client:
        with pytest.raises(drupalsdk.DrupalError) as info:
            client.get("node", 1)
        assert info.value.code == "DRUPAL_E_INTERNAL"


def test_a_request_edit_kept_after_its_hook_is_closed(base_url):
    # The library frees the request when the hook returns: a kept RequestEdit read it after it
    # was freed (a segfault). In a child, so a crash fails this test and not the whole run.
    script = textwrap.dedent("""
        import sys, drupalsdk
        kept = []
        with drupalsdk.Client(sys.argv[1], on_request=kept.append) as client:
            client.get("node", 1)
            client.get("node", 2)
        for use in (lambda e: e.method, lambda e: e.url, lambda e: e.header("User-Agent"),
                    lambda e: e.set_header("X-Late", "1"), lambda e: e.remove_header("X-Late")):
            try:
                use(kept[0])
                print("used")
            except drupalsdk.ClosedError as error:
                print("closed:", error)
    """)
    result = subprocess.run([sys.executable, "-c", script, base_url], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    lines = result.stdout.splitlines()
    assert len(lines) == 5 and all(line.startswith("closed: ") and "on_request" in line for line in lines), lines


def test_debug_logging_is_redacted(base_url, caplog):
    with caplog.at_level(logging.DEBUG, logger="drupalsdk"):
        with drupalsdk.Client(base_url, secret_headers=["X-Api-Key"]) as client:
            client.set_basic_auth("admin", "admin")
            client.request("GET", "/node/1", headers={"X-Api-Key": "k-secret"})
    text = caplog.text
    assert "> GET " in text and "/node/1" in text and "HTTP 200" in text
    assert "Authorization: <redacted>" in text and "X-Api-Key: <redacted>" in text
    assert "k-secret" not in text and "YWRtaW46YWRtaW4" not in text


def test_each_operation_is_one_table_entry_in_three_forms(base_url):
    from drupalsdk import _operations
    for operation in _operations.OPERATIONS:
        blocking = getattr(drupalsdk.Client, operation.name)
        assert inspect.signature(blocking).parameters.keys() == inspect.signature(
            getattr(drupalsdk.AsyncClient, operation.name)).parameters.keys()
        assert hasattr(drupalsdk.Client, "submit_" + operation.name)
        assert asyncio.iscoroutinefunction(getattr(drupalsdk.AsyncClient, operation.name))
        assert blocking.__doc__


def test_responses_and_futures_release_their_handles(base_url):
    with drupalsdk.Client(base_url) as client:
        with client.request("GET", "/node/1") as response:
            assert response.status == 200
        assert response._handle is None
        with client.submit_get("node", 1) as future:
            assert future.result(10)["nid"][0]["value"] == 1
        assert future._call is None
        stalled = client.submit_request("GET", "/node/1", headers={"X-Fake-Fault": "stall;seconds=10"})
        stalled.close()
        assert stalled.cancelled() and stalled._call is None
        done, _ = concurrent.futures.wait([stalled], timeout=5)
        assert stalled in done
