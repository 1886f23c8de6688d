"""A forked child and the library, which is not fork-safe: its threads stay in the parent. Objects
made before the fork refuse every call in the child. A child of a process whose library threads
ran (async calls, concurrent pagers) cannot make new ones either (a new client's calls, or its
free, crashed there); a child of one that made only blocking calls can. Nothing crashes or hangs.
Each case runs in its own interpreter."""
import os
import signal
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

SCRIPT = textwrap.dedent("""
    import asyncio, os, sys
    import drupalsdk
    base, parent_use = sys.argv[1], sys.argv[2]
    client = drupalsdk.Client(base, timeout=10)
    query = drupalsdk.Query().add_include(["uid"])
    if parent_use == "submit":
        client.submit_get("node", 2).result(10)
    elif parent_use == "asyncio":
        async def parent():
            async with drupalsdk.AsyncClient(base) as a:
                await a.get("node", 1)
        asyncio.run(parent())
    elif parent_use == "pages":
        list(client.jsonapi_pages("node--article", concurrency=4, max_pages=3))
    else:
        client.get("node", 1)

    def attempt(label, call):
        try:
            result = call()
            print("%s: ok %s" % (label, bool(result) or result is None), flush=True)
        except drupalsdk.DrupalError as error:
            print("%s: %s %s" % (label, error.code, "fork" in error.message), flush=True)

    async def on_loop(base):
        async with drupalsdk.AsyncClient(base) as a:
            return await a.get("node", 1)

    pid = os.fork()
    if pid == 0:
        attempt("inherited get", lambda: client.get("node", 1))
        attempt("inherited submit", lambda: client.submit_get("node", 1).result(10))
        attempt("inherited auth", lambda: client.set_basic_auth("admin", "admin"))
        attempt("inherited query", lambda: query.add_filter("status", 1))
        attempt("inherited close", client.close)
        attempt("new query", drupalsdk.Query)
        attempt("new mock", drupalsdk.MockClient)
        try:
            fresh = drupalsdk.Client(base, timeout=10)
        except drupalsdk.DrupalError as error:
            print("new client: %s %s" % (error.code, "fork" in error.message), flush=True)
        else:
            attempt("new get", lambda: fresh.get("node", 1))
            attempt("new submit", lambda: fresh.submit_get("node", 1).result(10))
            attempt("new asyncio", lambda: asyncio.run(on_loop(base)))
            attempt("new pages", lambda: list(fresh.jsonapi_pages("node--article", concurrency=4, max_pages=3)))
            fresh.close()
        sys.stdout.flush()
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    print("child status %d" % status, flush=True)
    client.close()
""")


def _run(base_url, parent_use):
    """The lines the script printed, as {label: outcome}; a child that hangs (holding the pipe)
    is killed with its parent, and the outcome says so."""
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, base_url, parent_use], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=40)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        out += "hung: after 40 s\n"
    seen = dict(line.rsplit(": ", 1) if ": " in line else line.rsplit(" ", 1) for line in out.splitlines())
    return seen, (out, err)


INHERITED = {"inherited get": "DRUPAL_E_STATE True", "inherited submit": "DRUPAL_E_STATE True",
             "inherited auth": "DRUPAL_E_STATE True", "inherited query": "DRUPAL_E_STATE True",
             "inherited close": "ok True"}


@pytest.mark.parametrize("parent_use", ["submit", "asyncio", "pages"])
def test_a_forked_child_refuses_what_the_library_cannot_do_there_and_never_crashes(base_url, parent_use):
    seen, process = _run(base_url, parent_use)
    assert seen == dict(INHERITED, **{
        "new query": "DRUPAL_E_STATE True", "new mock": "DRUPAL_E_STATE True", "new client": "DRUPAL_E_STATE True",
        "child status": "0"}), process


def test_a_child_of_a_process_that_made_only_blocking_calls_may_use_async_calls_on_a_new_client(base_url):
    seen, process = _run(base_url, "blocking")
    assert seen == dict(INHERITED, **{
        "new query": "ok True", "new mock": "ok True", "new get": "ok True", "new submit": "ok True", "new asyncio": "ok True", "new pages": "ok True",
        "child status": "0"}), process


WAKEUP_SCRIPT = textwrap.dedent("""
    import os, signal, sys, time
    import drupalsdk
    from drupalsdk import _interrupts
    base = sys.argv[1]
    signal.signal(signal.SIGUSR1, lambda *args: None)
    with drupalsdk.Client(base, timeout=10) as client:
        client.get("node", 1)   # a blocking call on the main thread: the Ctrl-C watch is set
    parent_pipe = _interrupts._read_fd
    pid = os.fork()
    if pid == 0:
        with drupalsdk.Client(base, timeout=10) as client:
            client.get("node", 1)
        os.kill(os.getpid(), signal.SIGUSR1)   # Python's handler writes to the child's wake-up fd
        time.sleep(0.1)
        os._exit(0)
    os.waitpid(pid, 0)
    try:
        print("parent's pipe got %r" % os.read(parent_pipe, 64))
    except BlockingIOError:
        print("parent's pipe got nothing")
""")


def test_a_forked_child_gets_its_own_ctrl_c_pipe(base_url):
    """A signal in the child must not wake the parent's blocking calls (nor the parent's consume
    the child's Ctrl-C): the child's first blocking call sets up a pipe of its own."""
    out = subprocess.run([sys.executable, "-c", WAKEUP_SCRIPT, base_url], capture_output=True, text=True,
                         timeout=40)
    assert out.stdout.strip() == "parent's pipe got nothing", (out.stdout, out.stderr)
