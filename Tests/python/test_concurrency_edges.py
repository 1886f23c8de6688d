"""Edges of the concurrent API that a demanding user hits: Ctrl-C in a callback that an async
call's start runs on the main thread, done-callbacks that wait for other futures, clients dropped
with calls in flight."""
import asyncio
import gc
import threading
import time
import weakref

import drupalsdk
import pytest
from drupalsdk import _interrupts

STALL = {"X-Fake-Fault": "stall;seconds=30"}


@pytest.fixture
def no_stale_interrupt(monkeypatch):
    """What a callback keeps for the main thread's next blocking call is this test's alone (a
    stale KeyboardInterrupt would otherwise hit a later test)."""
    monkeypatch.setattr(_interrupts, "caught", None)


def _interrupt_once(where):
    """A callback that raises KeyboardInterrupt the first time it runs on the main thread (as a
    Ctrl-C arriving while it runs does), recording where it ran in `where`."""
    def callback(_argument):
        where.append(threading.current_thread() is threading.main_thread())
        if where.count(True) == 1 and where[-1]:
            raise KeyboardInterrupt
    return callback


def test_ctrl_c_in_an_on_request_hook_run_by_submit_is_raised_by_submit(base_url, no_stale_interrupt):
    # submit_* starts the request on the calling thread, so the on_request hook ran on the main
    # thread; the KeyboardInterrupt it raised was kept for "the blocking call" and left there:
    # submit raised DRUPAL_E_INTERNAL and the NEXT blocking call raised a stale KeyboardInterrupt.
    where = []
    with drupalsdk.Client(base_url, timeout=20, on_request=_interrupt_once(where)) as client:
        with pytest.raises(KeyboardInterrupt):
            client.submit_get("node", 1)
        assert where == [True], "the premise: submit ran the hook on the main thread"
        assert client.get("node", 1)["nid"][0]["value"] == 1
        assert client.submit_get("node", 2).result(timeout=20)["nid"][0]["value"] == 2


def test_ctrl_c_in_an_event_hook_of_an_awaited_call_is_raised_by_the_await(base_url, no_stale_interrupt):
    # The same for an AsyncClient on the main thread's loop: the hook's KeyboardInterrupt was
    # swallowed (the await answered normally) and raised later by an unrelated blocking call.
    where = []

    async def main(client):
        with pytest.raises(KeyboardInterrupt):
            await client.get("node", 1)
        return await client.get("node", 2)

    client = drupalsdk.AsyncClient(base_url, timeout=20)
    client.on("request_start", _interrupt_once(where))
    try:
        assert asyncio.run(main(client))["nid"][0]["value"] == 2
    finally:
        client.close()
    assert where[0] is True, "the premise: the call's start ran the hook on the main thread"
    with drupalsdk.Client(base_url, timeout=20) as blocking:
        assert blocking.get("node", 3)["nid"][0]["value"] == 3


def test_a_done_callback_may_wait_for_another_future(client):
    # Futures are resolved on the one drupalsdk-futures thread, where done-callbacks run: a
    # done-callback that waited for another future's result waited for itself (forever, or
    # until its timeout: "TimeoutError after 5 s").
    answers = []

    def chain(first):
        try:
            answers.append(client.submit_get("node", 2).result(timeout=10)["nid"][0]["value"])
        except BaseException as error:  # (recorded: the assertion below names it)
            answers.append(error)

    done = threading.Event()
    first = client.submit_get("node", 1)
    first.add_done_callback(chain)
    first.add_done_callback(lambda _f: done.set())
    assert done.wait(30)
    assert answers == [2]


def test_a_done_callback_may_wait_for_a_future_taken_in_the_same_batch(client):
    # Regression (the session's review): the futures thread takes up to 64 outcomes at once; a
    # done-callback waiting for a future whose outcome was taken with its own, but not yet
    # resolved, polled for it forever (here: TimeoutError after 5 s).
    answers = []

    def hold(_f0):   # keeps the futures thread busy while f1's and f2's outcomes arrive
        time.sleep(1.5)

    def chain(_f1):
        try:
            answers.append(f2.result(timeout=5).json()["nid"][0]["value"])
        except BaseException as error:  # (recorded: the assertion below names it)
            answers.append(error)

    f0 = client.submit_get("node", 1)
    f0.add_done_callback(hold)
    time.sleep(0.2)
    f1 = client.submit_request("GET", "/node/1", headers={"X-Fake-Fault": "delay;ms=200"})
    f2 = client.submit_request("GET", "/node/2", headers={"X-Fake-Fault": "delay;ms=500"})  # after f1
    done = threading.Event()
    f1.add_done_callback(chain)
    f1.add_done_callback(lambda _f: done.set())
    assert done.wait(30)
    assert answers == [2]


def test_a_done_callback_waiting_for_a_stalled_future_times_out_as_asked(client):
    # result(timeout) from a done-callback still honours its timeout (and cancel still works).
    import concurrent.futures
    outcome = []

    def wait_for_stall(_first):
        stalled = client.submit_request("GET", "/node/1", headers=STALL)
        try:
            stalled.result(timeout=0.3)
        except concurrent.futures.TimeoutError:
            outcome.append("timeout")
        stalled.cancel()
        outcome.append(stalled.cancelled())

    done = threading.Event()
    first = client.submit_get("node", 1)
    first.add_done_callback(wait_for_stall)
    first.add_done_callback(lambda _f: done.set())
    assert done.wait(30)
    assert outcome == ["timeout", True]


def test_a_future_keeps_its_client_until_it_ends(base_url):
    # drupalsdk.Client(url).submit_get(...): nothing else held the client, the collector closed
    # it, and the future resolved as cancelled ("CancelledError()") instead of answering.
    future = drupalsdk.Client(base_url, timeout=20).submit_request("GET", "/node/1",
                                                                    headers={"X-Fake-Fault": "delay;ms=300"})
    gc.collect()
    assert future.result(timeout=20).json()["nid"][0]["value"] == 1


def test_a_dropped_client_is_collected_once_its_futures_end(base_url):
    client = drupalsdk.Client(base_url, timeout=20)
    gone = weakref.ref(client)
    future = client.submit_get("node", 1)
    del client
    assert future.result(timeout=20)["nid"][0]["value"] == 1
    for _ in range(100):
        gc.collect()
        if gone() is None:
            break
        threading.Event().wait(0.05)   # the futures thread drops its reference just after resolving
    assert gone() is None


def _close_a_loop_with_a_call_in_flight(client):
    loop = asyncio.new_event_loop()
    loop.create_task(client.request("GET", "/node/1", headers={"X-Fake-Fault": "delay;ms=200"}))
    loop.run_until_complete(asyncio.sleep(0.01))   # the task starts its call
    loop.close()


def test_calls_left_in_flight_by_a_closed_loop_are_let_go(base_url):
    # A loop closed with tasks still awaiting calls (run_until_complete, then close(), as
    # per-test loops do): their outcomes were never taken from that loop's queue, so each such
    # loop stayed alive with its queue's eventfd, its calls' registry entries and callbacks.
    from drupalsdk import _calls
    ended = threading.Semaphore(0)
    client = drupalsdk.AsyncClient(base_url, timeout=20)
    client.on("request_finish", lambda _event: ended.release())
    try:
        for _ in range(3):
            _close_a_loop_with_a_call_in_flight(client)
        for _ in range(3):
            assert ended.acquire(timeout=20)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:   # (an outcome may be queued just after its event)
            assert asyncio.run(client.get("node", 1))["nid"][0]["value"] == 1
            gc.collect()
            if not _calls.pending and not _calls.keepalive:
                break
        assert not _calls.pending and not _calls.keepalive, (len(_calls.pending), len(_calls.keepalive))
        closed = [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop) and o.is_closed()]
        assert not closed, closed
    finally:
        client.close()


def test_blocking_calls_fail_in_hooks_but_work_in_done_callbacks(client):
    # As bindings/python/README.md says (it said both failed with DRUPAL_E_STATE).
    outcomes = []

    def hook(_event):
        if not outcomes:
            try:
                client.get("node", 2)
                outcomes.append("hook: answered")
            except drupalsdk.DrupalError as error:
                outcomes.append("hook: " + error.code)

    listener = client.on("request_finish", hook)
    client.get("node", 1)
    listener.remove()
    done = threading.Event()
    future = client.submit_get("node", 1)
    future.add_done_callback(lambda _f: (outcomes.append(client.get("node", 3)["nid"][0]["value"]), done.set()))
    assert done.wait(30)
    assert outcomes == ["hook: DRUPAL_E_STATE", 3]


def test_closing_a_client_ends_the_pages_a_held_pager_fetches_ahead(base_url):
    """Regression: with a concurrent JSON:API walk still held (a generator not run to its end),
    close() returned while the pages fetched ahead went on, and the client's on_request ran for
    them after close() (with the callback the closed client no longer keeps alive)."""
    lock = threading.Lock()
    seen = {"ran": 0, "after_close": 0, "closed": False}

    def on_request(edit):
        with lock:
            seen["ran"] += 1
            late = seen["closed"]
            seen["after_close"] += late
        if not late:
            time.sleep(0.04)   # the pages fetched ahead are in flight when the client closes

    client = drupalsdk.Client(base_url, on_request=on_request)
    client.set_basic_auth("admin", "admin")
    pages = client.jsonapi_pages("node--article", drupalsdk.Query().add_page_limit(1), concurrency=8)
    assert next(pages).data
    client.close()
    with lock:
        seen["closed"] = True
        ran = seen["ran"]
    time.sleep(0.3)
    with lock:
        assert ran >= 2 and seen["after_close"] == 0, seen
    pages.close()
