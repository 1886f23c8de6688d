"""Futures, asyncio, cancellation, closing with calls in flight, GC pressure, client isolation."""
import asyncio
import concurrent.futures
import gc
import threading
import time

import drupalsdk
import pytest

from conftest import article

STALL = {"X-Fake-Fault": "stall;seconds=30"}


def test_100_futures_in_flight_on_one_client(client):
    futures = [client.submit_get("node", 1 + n % 5) for n in range(100)]
    assert all(isinstance(f, concurrent.futures.Future) for f in futures)
    results = [f.result(timeout=30) for f in futures]
    assert [r["nid"][0]["value"] for r in results] == [1 + n % 5 for n in range(100)]


def test_every_submit_variant(admin):
    created = admin.submit_create("node", article("future")).result(10)
    nid = created["nid"][0]["value"]
    assert admin.submit("get", "node", nid).result(10)["title"][0]["value"] == "future"
    updated = admin.submit_update("node", nid, {"type": [{"target_id": "article"}],
                                                "title": [{"value": "future 2"}]}).result(10)
    assert updated["title"][0]["value"] == "future 2"
    assert admin.submit_view("/api/articles", {"page": 0}).result(10)[0]["title"] == "Article 1"
    response = admin.submit_request("GET", "/node/1").result(10)
    assert response.status == 200 and response.headers["Content-Type"].startswith("application/json")
    assert admin.submit_login_status().result(10) is True
    assert len(admin.submit_csrf_refresh().result(10)) > 10
    uploaded = admin.submit_upload_file("node", "article", "field_image", "f.png", b"abc").result(10)
    assert uploaded["filename"][0]["value"] == "f.png"
    assert admin.submit_delete("node", nid).result(10) is None
    assert admin.submit_logout().result(10) is None
    assert admin.submit_login("editor", "editor").result(10)["current_user"]["name"] == "editor"
    with pytest.raises(ValueError):
        admin.submit("nonsense")


def test_future_errors_carry_the_exception(client):
    future = client.submit_get("node", 999)
    with pytest.raises(drupalsdk.NotFoundError) as info:
        future.result(10)
    assert info.value.status == 404
    assert isinstance(future.exception(), drupalsdk.NotFoundError)
    with pytest.raises(drupalsdk.AuthenticationError):
        client.submit_login("admin", "nope").result(10)


def test_submit_that_cannot_start_raises_at_once(client):
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.submit_request("GET", "/../x")
    from drupalsdk import _calls
    assert not _calls.pending  # nothing registered, nothing leaked


def test_future_cancel_cancels_the_call(client):
    started = time.monotonic()
    future = client.submit_request("GET", "/node/1", headers=STALL)
    time.sleep(0.1)
    assert future.cancel() is True
    assert future.cancelled()
    with pytest.raises(concurrent.futures.CancelledError):
        future.result(1)
    # The C call was cancelled too: the client is free for more work at once.
    assert client.get("node", 2)["nid"][0]["value"] == 2
    assert time.monotonic() - started < 5
    deadline = time.monotonic() + 5
    from drupalsdk import _calls
    while _calls.pending and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _calls.pending  # the callback still ran once and left the registry


def test_cancel_after_completion_is_false(client):
    future = client.submit_get("node", 1)
    future.result(10)
    assert future.cancel() is False
    assert not future.cancelled()


def test_done_callback_exceptions_are_reported_not_lost(client, caplog):
    seen = []

    def bad_callback(future):
        seen.append(future.result()["nid"][0]["value"])
        raise RuntimeError("boom in user callback")

    future = client.submit_get("node", 1)
    future.add_done_callback(bad_callback)
    future.result(10)
    deadline = time.monotonic() + 5
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
    assert seen == [1]
    time.sleep(0.05)
    assert any("boom in user callback" in (r.exc_text or "") or "boom in user callback" in str(r.exc_info)
               for r in caplog.records)
    assert client.get("node", 2)  # the library thread survived


def test_callbacks_under_gc_pressure(client):
    futures = [client.submit_get("node", 1 + n % 5) for n in range(200)]
    deadline = time.monotonic() + 60
    while not all(f.done() for f in futures):
        gc.collect()
        assert time.monotonic() < deadline
    assert sorted(f.result()["nid"][0]["value"] for f in futures) == sorted(1 + n % 5 for n in range(200))
    del futures
    gc.collect()
    from drupalsdk import _calls
    assert not _calls.pending


def test_futures_dropped_before_completion_still_complete(client):
    for n in range(50):
        client.submit_get("node", 1)  # result never looked at
    gc.collect()
    deadline = time.monotonic() + 20
    from drupalsdk import _calls
    while _calls.pending and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.01)
    assert not _calls.pending


def test_close_with_stalled_requests_in_flight(base_url):
    client = drupalsdk.Client(base_url, timeout=60)
    futures = [client.submit_request("GET", "/node/1", headers=STALL) for _ in range(10)]
    futures.append(client.submit_get("node", 1))
    time.sleep(0.2)
    started = time.monotonic()
    client.close()
    assert time.monotonic() - started < 5, "close() must cancel, not wait for the stalls"
    for future in futures[:10]:
        assert future.done()
        assert future.cancelled()
        with pytest.raises(concurrent.futures.CancelledError):
            future.result(0)
    assert futures[10].done()
    client.close()  # idempotent
    with pytest.raises(drupalsdk.ClosedError):
        client.get("node", 1)
    with pytest.raises(drupalsdk.ClosedError):
        client.submit_get("node", 1)


def test_close_resolves_the_cancelled_futures_even_while_a_done_callback_runs(base_url):
    # Outcomes are resolved on the drupalsdk-futures thread; close() resolves the ones its free
    # cancelled itself, so they are done when it returns even while that thread is busy.
    client = drupalsdk.Client(base_url, timeout=60)
    busy = threading.Event()

    def slow_callback(future):
        busy.set()
        time.sleep(1)
    client.submit_get("node", 1).add_done_callback(slow_callback)
    assert busy.wait(10)
    stalled = [client.submit_request("GET", "/node/1", headers=STALL) for _ in range(5)]
    time.sleep(0.2)
    client.close()
    assert all(future.cancelled() for future in stalled)


def test_a_done_callback_that_closes_another_client_loses_no_outcome(base_url):
    # Closing a client from a done-callback resolves that client's cancelled futures on the
    # futures thread, in the middle of resolving a batch: the rest of the batch must survive.
    first, second = drupalsdk.Client(base_url, timeout=60), drupalsdk.Client(base_url, timeout=60)
    stalled = [second.submit_request("GET", "/node/1", headers=STALL) for _ in range(5)]
    time.sleep(0.2)
    busy = threading.Event()

    def slow_callback(future):
        busy.set()
        time.sleep(0.5)   # the next answers queue up meanwhile: one batch
    first.submit_get("node", 1).add_done_callback(slow_callback)
    assert busy.wait(10)
    quick = [first.submit_get("node", 1) for _ in range(10)]
    quick[0].add_done_callback(lambda future: second.close())
    assert [future.result(10)["nid"][0]["value"] for future in quick] == [1] * 10
    assert all(future.cancelled() for future in stalled)
    first.close()


def test_a_drain_nested_right_after_taking_a_batch_loses_no_outcome(base_url, monkeypatch):
    # The collector may close a client at any allocation, also between taking a batch from the
    # queue and reading it: that close drains again on the same thread (CI: a segfault freeing a
    # response twice, while the batch was shared). Here the close happens at exactly that point.
    from drupalsdk import _queues
    first, second = drupalsdk.Client(base_url, timeout=60), drupalsdk.Client(base_url, timeout=60)
    stalled = [second.submit_request("GET", "/node/1", headers=STALL) for _ in range(5)]
    time.sleep(0.2)
    take = _queues._pop
    closed = []

    def take_then_close(batch, queue, capacity):
        taken = take(batch, queue, capacity)
        if taken and not closed:
            closed.append(True)
            second.close()   # its cancelled calls are drained here, before this batch is read
        return taken
    monkeypatch.setattr(_queues, "_pop", take_then_close)
    quick = [first.submit_get("node", 1) for _ in range(10)]
    assert [future.result(10)["nid"][0]["value"] for future in quick] == [1] * 10
    assert closed and all(future.cancelled() for future in stalled)
    first.close()


def test_blocking_call_in_another_thread_when_closed(base_url):
    client = drupalsdk.Client(base_url, timeout=2)
    errors = []

    def worker():
        try:
            client.request("GET", "/node/1", headers={"X-Fake-Fault": "stall;seconds=5"})
        except Exception as error:  # timeout or cancellation, both fine: no crash, no hang
            errors.append(error)

    thread = threading.Thread(target=worker)
    thread.start()
    time.sleep(0.2)
    client.close()
    thread.join(10)
    assert not thread.is_alive()
    assert errors and isinstance(errors[0], (drupalsdk.DrupalTimeoutError, drupalsdk.CancelledError))


def test_threads_sharing_one_client(client):
    results = []

    def worker(n):
        results.append(client.get("node", 1 + n % 5)["nid"][0]["value"])

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(results) == sorted(1 + n % 5 for n in range(20))


def test_two_clients_two_users_no_cross_talk(base_url):
    with drupalsdk.Client(base_url) as admin, drupalsdk.Client(base_url) as editor:
        assert admin.login("admin", "admin")["current_user"]["name"] == "admin"
        assert editor.login("editor", "editor")["current_user"]["name"] == "editor"
        for _ in range(3):
            a = admin.submit_request("GET", "/user/login_status")
            e = editor.submit_update("node", 1, {"type": [{"target_id": "article"}], "title": [{"value": "x"}]})
            assert a.result(10).status == 200
            with pytest.raises(drupalsdk.AuthorizationError):
                e.result(10)
        renamed = admin.update("node", 1, {"type": [{"target_id": "article"}], "title": [{"value": "mine"}]})
        assert renamed["title"][0]["value"] == "mine"
        assert admin.get("user", 1)["name"][0]["value"] == "admin"
        editor.logout()
        assert editor.login_status() is False
        assert admin.login_status() is True


# ---- asyncio ---------------------------------------------------------------------------------------


def test_asyncio_gather_50(base_url):
    async def main():
        async with drupalsdk.AsyncClient(base_url) as client:
            results = await asyncio.gather(*(client.get("node", 1 + n % 5) for n in range(50)))
            return [r["nid"][0]["value"] for r in results]

    assert asyncio.run(main()) == [1 + n % 5 for n in range(50)]


def test_async_every_operation(base_url):
    async def main():
        async with drupalsdk.AsyncClient(base_url) as client:
            assert await client.login_status() is False
            login = await client.login("admin", "admin")
            assert login["current_user"]["name"] == "admin"
            assert await client.login_status() is True
            assert len(await client.csrf_refresh()) > 10
            created = await client.create("node", article("async"))
            nid = created["nid"][0]["value"]
            assert (await client.get("node", nid))["title"][0]["value"] == "async"
            updated = await client.update("node", nid, {"type": [{"target_id": "article"}],
                                                        "title": [{"value": "async 2"}]})
            assert updated["title"][0]["value"] == "async 2"
            rows = [row["title"] async for row in client.view_all("/api/articles")]
            assert rows == ["Article %d" % n for n in range(1, 6)] + ["async 2"]
            assert (await client.view("/api/articles", {"page": 1}))[0]["title"] == "Article 3"
            response = await client.request("GET", "/node/1")
            assert response.status == 200 and response.json()["nid"][0]["value"] == 1
            file = await client.upload_file("node", "article", "field_image", "a.png", b"hi")
            assert file["filename"][0]["value"] == "a.png"
            await client.delete("node", nid)
            with pytest.raises(drupalsdk.NotFoundError):
                await client.get("node", nid)
            with pytest.raises(drupalsdk.InvalidArgumentError):
                await client.request("GET", "/../x")
            await client.logout()
            assert await client.login_status() is False

    asyncio.run(main())


def test_async_task_cancellation_cancels_the_call(base_url):
    async def main():
        async with drupalsdk.AsyncClient(base_url, timeout=60) as client:
            task = asyncio.ensure_future(client.request("GET", "/node/1", headers=STALL))
            await asyncio.sleep(0.1)
            started = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert time.monotonic() - started < 2
            # wait_for with a timeout cancels the same way
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(client.request("GET", "/node/1", headers=STALL), 0.2)
            assert (await client.get("node", 3))["nid"][0]["value"] == 3

    asyncio.run(main())
    from drupalsdk import _calls
    deadline = time.monotonic() + 5
    while _calls.pending and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _calls.pending


def test_calls_cancelled_as_their_loop_ends_leave_nothing_behind(base_url):
    # asyncio.run(asyncio.wait_for(...)) that times out, and asyncio.run returning with calls in
    # flight: the loop closed before the cancelled calls' outcomes were taken, and their registry
    # entries (holding the loop's futures) stayed, each keeping its closed loop alive.
    from drupalsdk import _calls
    client = drupalsdk.AsyncClient(base_url, timeout=60)

    async def timed_out():
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(client.request("GET", "/node/1", headers=STALL), 0.05)

    async def left_in_flight():
        for _ in range(5):
            asyncio.ensure_future(client.request("GET", "/node/1", headers=STALL))
        await asyncio.sleep(0.05)

    try:
        for main in (timed_out, timed_out, left_in_flight):
            asyncio.run(main())
        gc.collect()
        assert not _calls.pending and not _calls.keepalive, (len(_calls.pending), len(_calls.keepalive))
        closed = [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop) and o.is_closed()]
        assert not closed, closed
    finally:
        client.close()


def test_async_close_with_calls_in_flight(base_url):
    async def main():
        client = drupalsdk.AsyncClient(base_url, timeout=60)
        tasks = [asyncio.ensure_future(client.request("GET", "/node/1", headers=STALL)) for _ in range(5)]
        await asyncio.sleep(0.2)
        started = time.monotonic()
        await client.aclose()
        results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 5)
        assert time.monotonic() - started < 5
        assert all(isinstance(r, drupalsdk.CancelledError) for r in results), results

    asyncio.run(main())


def test_async_errors(base_url):
    async def main():
        async with drupalsdk.AsyncClient(base_url, timeout=0.5) as client:
            with pytest.raises(drupalsdk.AuthenticationError):
                await client.create("node", article("anon"))
            with pytest.raises(drupalsdk.DrupalTimeoutError):
                await client.request("GET", "/node/1", headers={"X-Fake-Fault": "stall;seconds=5"})
            with pytest.raises(drupalsdk.ValidationError):
                await client.login("admin", "admin")
                await client.create("node", {"type": [{"target_id": "article"}]})

    asyncio.run(main())


def test_async_client_across_two_event_loops(base_url):
    client = drupalsdk.AsyncClient(base_url)
    try:
        for _ in range(2):
            assert asyncio.run(client.get("node", 1))["nid"][0]["value"] == 1
    finally:
        client.close()



@pytest.fixture
def decoding_threads(monkeypatch):
    """The names of the threads on which answers are decoded (the binding's JSON decoding wrapped)."""
    from drupalsdk import _response
    names = []
    decode = _response._loads

    def recording(data):
        names.append(threading.current_thread().name)
        return decode(data)
    monkeypatch.setattr(_response, "_loads", recording)
    return names


def test_futures_are_resolved_on_the_binding_thread_not_a_library_thread(client, decoding_threads):
    # Outcomes end into a completion queue in C; the binding's drupalsdk-futures thread decodes
    # them and resolves the futures (a library thread would take the GIL for every call), and
    # done-callbacks run there too.
    callbacks = []
    futures = [client.submit_get("node", 1) for _ in range(20)]
    for future in futures:
        future.add_done_callback(lambda f: callbacks.append(threading.current_thread().name))
    assert all(f.result(timeout=30)["nid"][0]["value"] == 1 for f in futures)
    assert set(decoding_threads) == {"drupalsdk-futures"}
    # A callback added after its future was done runs at once, on the thread that added it.
    assert set(callbacks) <= {"drupalsdk-futures", threading.current_thread().name}


def test_awaited_calls_are_resolved_on_the_loop_not_a_library_thread(base_url, decoding_threads):
    async def main():
        async with drupalsdk.AsyncClient(base_url) as client:
            return await asyncio.gather(*(client.get("node", 1) for _ in range(32)))

    rows = asyncio.run(main())
    assert [r["nid"][0]["value"] for r in rows] == [1] * 32
    assert set(decoding_threads) == {threading.current_thread().name}
