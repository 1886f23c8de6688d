"""CSRF, Basic and Bearer authentication, event hooks."""
import logging
import threading
import time

import drupalsdk
import pytest

from conftest import article


def test_csrf_refresh_after_invalidation(server, admin):
    login_token = admin.csrf_refresh()
    server.control("POST", "/__fake/invalidate-csrf")
    # The library notices the refused token, fetches a new one and retries by itself.
    created = admin.create("node", article("after invalidation"))
    assert created["title"][0]["value"] == "after invalidation"
    server.control("POST", "/__fake/invalidate-csrf")
    fresh = admin.csrf_refresh()
    assert fresh != login_token
    assert admin.update("node", 1, {"type": [{"target_id": "article"}], "title": [{"value": "ok"}]})


def test_basic_auth(base_url):
    with drupalsdk.Client(base_url) as client:
        client.set_basic_auth("admin", "admin")
        created = client.create("node", article("basic"))
        assert created["uid"][0]["target_id"] == 1
        client.set_no_auth()
        with pytest.raises(drupalsdk.AuthenticationError):
            client.create("node", article("anonymous again"))


def test_basic_auth_with_wrong_password_is_refused(base_url):
    with drupalsdk.Client(base_url) as client:
        client.set_basic_auth("admin", "wrong")
        with pytest.raises(drupalsdk.HTTPError) as info:
            client.create("node", article("nope"))
        assert info.value.status in (401, 403)


def test_bearer_token(server):
    server.control("POST", "/__fake/bearer", {"token": "tok-editor", "uid": 2})
    with drupalsdk.Client(server.base_url) as client:
        client.set_bearer_token("tok-editor")
        created = client.create("node", article("bearer"))
        assert created["uid"][0]["target_id"] == 2
        with pytest.raises(drupalsdk.AuthorizationError):  # the editor may not edit admin's node
            client.update("node", 1, {"type": [{"target_id": "article"}], "title": [{"value": "x"}]})
        client.set_bearer_token("unknown-token")
        with pytest.raises(drupalsdk.HTTPError):
            client.create("node", article("unknown token"))


def test_events_login_requests_logout(client):
    events = []
    lock = threading.Lock()

    def record(event):
        with lock:
            events.append(event)

    handles = [client.on(name, record) for name in ("login", "logout", "request_start", "request_finish")]
    client.login("editor", "editor")
    client.get("node", 1)
    client.logout()
    with lock:
        kinds = [event.type for event in events]
    assert "login" in kinds and "logout" in kinds
    login = next(event for event in events if event.type == "login")
    assert login.user_name == "editor" and login.uid == "2"
    starts = [event for event in events if event.type == "request_start"]
    finishes = [event for event in events if event.type == "request_finish"]
    assert any(event.method == "GET" and event.path.startswith("/node/1") for event in starts)
    get_finish = next(event for event in finishes if event.path.startswith("/node/1"))
    assert get_finish.status == 200 and get_finish.duration_ms >= 0
    assert kinds.index("login") < kinds.index("logout")
    for handle in handles:
        handle.remove()
    count = len(events)
    client.get("node", 2)
    assert len(events) == count  # removed hooks are not called
    handles[0].remove()  # idempotent


def test_event_filtering_by_type(client):
    logins = []
    with client.on("login", logins.append):
        client.get("node", 1)
        client.login("admin", "admin")
    client.login("editor", "editor")  # after the with block: removed
    assert [event.user_name for event in logins] == ["admin"]


def test_hook_exceptions_are_logged_not_propagated(client, caplog):
    calls = []

    def bad_hook(event):
        calls.append(event)
        raise ValueError("hook failure")

    caplog.set_level(logging.ERROR, logger="drupalsdk")
    client.on("request_finish", bad_hook)
    assert client.get("node", 1)["nid"][0]["value"] == 1
    assert client.submit_get("node", 2).result(10)["nid"][0]["value"] == 2
    deadline = time.monotonic() + 5
    while len(calls) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(calls) >= 2
    assert any("hook failure" in (record.exc_text or "") for record in caplog.records)


def test_unknown_event_name(client):
    with pytest.raises(ValueError):
        client.on("nonsense", print)
    with pytest.raises(TypeError):
        client.on("login", 42)
