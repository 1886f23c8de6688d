"""Ctrl-C wakes a blocking call on the main thread, as it wakes time.sleep; signals whose handlers
return do not disturb it. Each case runs in its own interpreter, so signals stay there."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

SCRIPT = textwrap.dedent("""
    import os, signal, sys, threading, time
    import drupalsdk
    base, mode = sys.argv[1], sys.argv[2]
    client = drupalsdk.Client(base, timeout=30)
    if mode == "delay":
        signal.signal(signal.SIGUSR1, lambda number, frame: None)  # a handler that returns
    if mode == "owned":  # another library (an asyncio loop) owns the wake-up fd
        theirs_r, theirs_w = os.pipe()
        os.set_blocking(theirs_w, False)
        signal.set_wakeup_fd(theirs_w)
    if mode == "count":  # after the first call, blocking calls touch the wake-up fd no more
        client.request("GET", "/node/1")
        calls = []
        real = signal.set_wakeup_fd
        signal.set_wakeup_fd = lambda *a, **k: calls.append(a) or real(*a, **k)
        for _ in range(20):
            client.request("GET", "/node/1")
        print("set_wakeup_fd calls: %d" % len(calls), flush=True)
        sys.exit(0)
    print("ready", flush=True)
    started = time.monotonic()
    try:
        if mode == "delay":  # answers after 1.5 s: a returning handler must not cut it short
            node = client.request("GET", "/node/1", headers={"X-Fake-Fault": "delay;ms=1500"})
            print("answered %d after %.1f" % (node.status, time.monotonic() - started), flush=True)
        else:
            client.request("GET", "/node/1", headers={"X-Fake-Fault": "stall;seconds=20"})
            print("no interrupt", flush=True)
    except KeyboardInterrupt:
        print("KeyboardInterrupt after %.1f" % (time.monotonic() - started), flush=True)
        # The client still works afterwards.
        print("then %d" % client.request("GET", "/node/1").status, flush=True)
        if mode == "owned":
            print("theirs still %s, got %r" % (signal.set_wakeup_fd(-1) == theirs_w, os.read(theirs_r, 16)),
                  flush=True)
""")


def _run(base_url, mode, send, wait=0.5):
    env = dict(os.environ)
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, base_url, mode], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    assert process.stdout.readline().strip() == "ready"
    time.sleep(wait)
    send(process)
    out, err = process.communicate(timeout=25)
    return out, err


def _interrupted(base_url, mode, woke_at):
    """Ctrl-C during a 20 s stall: a KeyboardInterrupt within 3 s, nothing reported as ignored,
    and the client works on. Returns the script's lines and its stderr."""
    out, err = _run(base_url, mode, lambda p: p.send_signal(signal.SIGINT))
    lines = out.splitlines()
    assert lines and lines[0].startswith("KeyboardInterrupt after "), (out, err)
    assert float(lines[0].split()[-1]) < 3, "woke at %s, not at the 20 s stall's end" % woke_at
    assert lines[1] == "then 200", (out, err)
    assert "Exception ignored" not in err, err
    return lines, err


def test_ctrl_c_interrupts_a_blocking_call(base_url):
    _interrupted(base_url, "stall", "the signal")


def test_a_signal_whose_handler_returns_does_not_end_the_call(base_url):
    def send(process):
        for _ in range(3):
            process.send_signal(signal.SIGUSR1)
            time.sleep(0.1)
    out, err = _run(base_url, "delay", send, wait=0.2)
    assert out.startswith("answered 200 after "), (out, err)
    assert float(out.split()[-1]) >= 1.4, "the call waited for its answer"


def test_ctrl_c_interrupts_a_blocking_call_while_another_library_owns_the_wakeup_fd(base_url):
    lines, err = _interrupted(base_url, "owned", "the periodic check")
    # Their fd stayed theirs, and their pipe got the signal.
    assert lines[2] == "theirs still True, got %r" % bytes([signal.SIGINT]), (lines, err)


def test_blocking_calls_do_not_touch_the_wakeup_fd_after_the_first(base_url):
    process = subprocess.run([sys.executable, "-c", SCRIPT, base_url, "count"], capture_output=True,
                             text=True, timeout=25)
    assert process.stdout.strip() == "set_wakeup_fd calls: 0", (process.stdout, process.stderr)


CALLBACK_SCRIPT = textwrap.dedent("""
    import os, signal, sys, tempfile, threading
    import drupalsdk
    base, mode = sys.argv[1], sys.argv[2]
    client = drupalsdk.Client(base, timeout=30)
    client.request("GET", "/node/1")  # the first blocking call sets the watch
    if mode.startswith("replaced-hook"):  # a later hook (an error reporter's) must not matter
        sys.unraisablehook = lambda unraisable: sys.__unraisablehook__(unraisable)
    big = drupalsdk.Client(base, timeout=30, max_body_size=2**40, headers={"X-Fake-Fault": "huge;bytes=4000000000"})
    sent = []
    def interrupt_once():
        if not sent:
            sent.append(1)
            os.kill(os.getpid(), signal.SIGINT)
    def progress(done, total):
        if done:
            interrupt_once()
    def write(chunk):
        interrupt_once()
    try:
        if mode == "progress":  # the signal's handler raises inside the progress callback
            # (Not os.devnull: a download is renamed over its path, and a device there is refused.)
            big.download("/sites/default/files/x.bin", os.path.join(tempfile.mkdtemp(), "x.bin"), progress=progress)
        elif mode == "write":
            big.download("/sites/default/files/x.bin", write=write)
        elif mode == "on_request":
            hooked = drupalsdk.Client(base, on_request=lambda edit: interrupt_once())
            hooked.request("GET", "/node/1")
        elif mode == "event":
            client.on("request_start", lambda event: interrupt_once())
            client.request("GET", "/node/1")
        else:  # "timer", "replaced-hook": Ctrl-C from outside while a fast download streams
            threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
            big.download("/sites/default/files/x.bin", write=lambda chunk: None)
        print("no interrupt", flush=True)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
    except drupalsdk.DrupalError as error:
        print("%s: %s" % (type(error).__name__, error), flush=True)
    print("then %d" % client.request("GET", "/node/1").status, flush=True)
""")


@pytest.mark.parametrize("mode", ["progress", "write", "on_request", "event", "timer", "replaced-hook"])
def test_ctrl_c_in_a_callback_of_a_blocking_call_raises_keyboard_interrupt(base_url, mode):
    process = subprocess.run([sys.executable, "-c", CALLBACK_SCRIPT, base_url, mode], capture_output=True,
                             text=True, timeout=60)
    assert process.stdout.splitlines() == ["KeyboardInterrupt", "then 200"], (process.stdout, process.stderr)
    assert "Exception ignored" not in process.stderr, process.stderr
