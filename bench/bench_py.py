#!/usr/bin/env python3
"""Python drivers: the drupalsdk binding and its baselines (http.client, requests, aiohttp,
json, a bare ctypes callback). Prints `RESULT <name> <value>` lines, or `SKIP <reason>` when the
binding is not importable. Run by bench/harness.py with bench/.venv's python. The network
modes also print cpu_us (process CPU per request); client options and the https CA come from
BENCH_BUSY_POLL_US, BENCH_CA_FILE and BENCH_HTTP2 (see client_options).

    bench_py.py seq-http-client URL N WARM [parse]
    bench_py.py seq-requests    URL N WARM [parse]
    bench_py.py seq-curl-ctypes URL N WARM           libcurl through ctypes + the C JSON scanner (floor)
    bench_py.py seq-binding     BASE N WARM          Client.get("node", "1") -> dict (parsed)
    bench_py.py seq-binding-raw BASE N WARM          Client.request("GET", "/node/1") -> Response bytes
    bench_py.py aiohttp         URL N WARM INFLIGHT [parse]
    bench_py.py futures         BASE N WARM INFLIGHT
    bench_py.py asyncio         BASE N WARM INFLIGHT
    bench_py.py ctypes-floor    N
    bench_py.py mock-binding    N [get]              MockClient.request (or .get), stubbed /node/1
    bench_py.py marshal-floor   N                    the 4 ctypes calls of one binding call, no request
    bench_py.py json            FILE ITER
"""
import asyncio
import ctypes
import json
import os
import statistics
import sys
import threading
import time
import urllib.parse

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
sys.path.insert(0, os.path.join(REPO, "bindings", "python", "src"))
os.environ.setdefault("DRUPALSDK_LIBRARY", os.path.join(REPO, "build", "lib", "libdrupalsdk.so"))


def result(name, value):
    print(f"RESULT {name} {value:.6g}", flush=True)


def skip(reason):
    print(f"SKIP {reason}", flush=True)
    sys.exit(0)


def binding():
    """The drupalsdk package, or SKIP if it is not there (yet)."""
    try:
        import drupalsdk
    except Exception as e:  # not written yet, or broken: reported as SKIP, not as a crash
        skip(f"binding not available ({type(e).__name__}: {e})")
    for name in ("Client",):
        if not hasattr(drupalsdk, name):
            skip(f"binding not available (drupalsdk.{name} missing)")
    return drupalsdk


def timed_loop(fn, n, warm):
    for _ in range(warm):
        fn()
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(n):
        fn()
    cpu(c0, n)
    return n / (time.perf_counter() - t0)


def cpu(c0, n):
    """Prints the process's CPU time (every thread) per request since c0."""
    result("cpu_us", (time.process_time() - c0) * 1e6 / n)


def client_options():
    """Client options from the environment (set by the harness), as keyword arguments: none
    when unset, so that these drivers also run bindings older than the options (bench/ab.py)."""
    kw = {}
    if "BENCH_BUSY_POLL_US" in os.environ:
        kw["busy_poll_us"] = int(os.environ["BENCH_BUSY_POLL_US"])
    if "BENCH_CA_FILE" in os.environ:
        kw["ca_file"] = os.environ["BENCH_CA_FILE"]
    if os.environ.get("BENCH_HTTP2") == "0":
        kw["http2"] = False
    return kw


def ssl_context():
    """The bench CA's context for https baselines (BENCH_CA_FILE), else None."""
    ca = os.environ.get("BENCH_CA_FILE")
    if not ca:
        return None
    import ssl
    return ssl.create_default_context(cafile=ca)


def consume(r):
    """What a caller does with the binding's answer: gets at the body bytes (or parsed JSON)."""
    for attr in ("body", "content", "data"):
        v = getattr(r, attr, None)
        if v is not None:
            return v
    return r


# ---- sequential ----------------------------------------------------------------------------

def seq_http_client(url, n, warm, parse=False):
    import http.client
    u = urllib.parse.urlsplit(url)
    if u.scheme == "https":
        conn = http.client.HTTPSConnection(u.hostname, u.port, context=ssl_context())
    else:
        conn = http.client.HTTPConnection(u.hostname, u.port)
    target = u.path + ("?" + u.query if u.query else "")

    def one():
        conn.request("GET", target)
        r = conn.getresponse()
        body = r.read()
        if r.status != 200:
            raise SystemExit(f"status {r.status}")
        return json.loads(body) if parse else body
    result("rps", timed_loop(one, n, warm))


def seq_requests(url, n, warm, parse=False):
    import requests
    s = requests.Session()

    def one():
        r = s.get(url)
        if r.status_code != 200:
            raise SystemExit(f"status {r.status_code}")
        return r.json() if parse else r.content
    result("rps", timed_loop(one, n, warm))


def seq_curl_ctypes(url, n, warm):
    """The floor under any ctypes binding that answers with a dict: one reused libcurl easy
    handle called through ctypes, the body written by libc's fwrite into a fixed buffer (no
    Python per chunk), the status read, and the body decoded by the json module's C scanner, as
    the binding decodes it. No Drupal logic, no Swift, no error mapping."""
    curl = ctypes.CDLL("libcurl.so.4")
    libc = ctypes.CDLL(None)
    curl.curl_easy_init.restype = ctypes.c_void_p
    libc.fmemopen.restype = ctypes.c_void_p
    libc.fmemopen.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
    for name in ("fflush", "ftell", "rewind"):
        getattr(libc, name).argtypes = [ctypes.c_void_p]
    libc.ftell.restype = ctypes.c_long
    perform, getinfo = curl.curl_easy_perform, curl.curl_easy_getinfo
    perform.argtypes = [ctypes.c_void_p]
    fflush, ftell, rewind, string_at = libc.fflush, libc.ftell, libc.rewind, ctypes.string_at
    buf = ctypes.create_string_buffer(1 << 20)
    out = libc.fmemopen(buf, len(buf), b"w")
    easy = ctypes.c_void_p(curl.curl_easy_init())
    CURLOPT_URL, CURLOPT_WRITEDATA, CURLINFO_RESPONSE_CODE = 10002, 10001, 0x200002
    CURLOPT_ACCEPT_ENCODING, CURLOPT_HTTPHEADER = 10102, 10023
    curl.curl_easy_setopt(easy, CURLOPT_URL, url.encode())
    curl.curl_easy_setopt(easy, CURLOPT_WRITEDATA, ctypes.c_void_p(out))
    # Compressed answers asked for and decoded, as the binding asks for them (the line in a
    # header list, as the library sends it: libcurl's own is formatted anew per request).
    curl.curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, b"")
    curl.curl_slist_append.restype = ctypes.c_void_p
    curl.curl_slist_append.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    header_list = curl.curl_slist_append(None, b"Accept-Encoding: deflate, gzip, br, zstd")
    curl.curl_easy_setopt(easy, CURLOPT_HTTPHEADER, ctypes.c_void_p(header_list))
    status = ctypes.c_long()
    status_ref = ctypes.byref(status)
    scan = json.JSONDecoder().scan_once

    def one():
        rewind(out)
        if perform(easy) != 0:
            raise SystemExit("curl_easy_perform failed")
        fflush(out)
        getinfo(easy, CURLINFO_RESPONSE_CODE, status_ref)
        if status.value != 200:
            raise SystemExit(f"status {status.value}")
        return scan(string_at(buf, ftell(out)).decode("utf-8"), 0)[0]
    result("rps", timed_loop(one, n, warm))


def seq_binding(base, n, warm, raw=False):
    d = binding()
    c = d.Client(base, **client_options())
    if raw:
        result("rps", timed_loop(lambda: c.request("GET", "/node/1").content, n, warm))
    else:
        result("rps", timed_loop(lambda: c.get("node", "1"), n, warm))


# ---- 32 in flight --------------------------------------------------------------------------

def run_aiohttp(url, n, warm, inflight, parse=False):
    import aiohttp

    async def main():
        ctx = ssl_context()
        conn = aiohttp.TCPConnector(limit=inflight, **({"ssl": ctx} if ctx else {}))
        async with aiohttp.ClientSession(connector=conn) as s:
            async def worker(counter):
                while counter[0] > 0:
                    counter[0] -= 1
                    async with s.get(url) as r:
                        body = await r.read()
                        if parse:
                            json.loads(body)
                        if r.status != 200:
                            raise SystemExit(f"status {r.status}")
            warm_counter = [warm]
            await asyncio.gather(*(worker(warm_counter) for _ in range(inflight)))
            counter = [n]
            t0, c0 = time.perf_counter(), time.process_time()
            await asyncio.gather(*(worker(counter) for _ in range(inflight)))
            cpu(c0, n)
            return n / (time.perf_counter() - t0)
    result("rps", asyncio.run(main()))


def run_futures(base, n, warm, inflight):
    d = binding()
    c = d.Client(base, **client_options())
    submit = getattr(c, "submit_get", None)
    if submit is None:
        skip("binding not available (Client.submit_get missing)")

    def batch(count):
        slots = threading.Semaphore(inflight)
        errors = []

        def done(f):
            if f.exception() is not None:
                errors.append(f.exception())
            slots.release()
        for _ in range(count):
            slots.acquire()
            submit("node", "1").add_done_callback(done)
        for _ in range(inflight):
            slots.acquire()
        if errors:
            raise SystemExit(f"{len(errors)} calls failed: {errors[0]!r}")
    batch(warm)
    t0, c0 = time.perf_counter(), time.process_time()
    batch(n)
    cpu(c0, n)
    result("rps", n / (time.perf_counter() - t0))


def run_asyncio(base, n, warm, inflight):
    d = binding()
    if not hasattr(d, "AsyncClient"):
        skip("binding not available (drupalsdk.AsyncClient missing)")

    async def main():
        c = d.AsyncClient(base, **client_options())

        async def worker(counter):
            while counter[0] > 0:
                counter[0] -= 1
                consume(await c.get("node", "1"))
        warm_counter = [warm]
        await asyncio.gather(*(worker(warm_counter) for _ in range(inflight)))
        counter = [n]
        t0, c0 = time.perf_counter(), time.process_time()
        await asyncio.gather(*(worker(counter) for _ in range(inflight)))
        cpu(c0, n)
        rps = n / (time.perf_counter() - t0)
        close = getattr(c, "aclose", None) or getattr(c, "close", None)
        if close:
            r = close()
            if asyncio.iscoroutine(r):
                await r
        return rps
    result("rps", asyncio.run(main()))


# ---- FFI floor -----------------------------------------------------------------------------

def per_call_us(fn, n, batch=100):
    """Median over batches of the mean time per call (us)."""
    for _ in range(min(n, 500)):
        fn()
    means = []
    for _ in range(max(n // batch, 5)):
        t0 = time.perf_counter_ns()
        for _ in range(batch):
            fn()
        means.append((time.perf_counter_ns() - t0) / batch / 1e3)
    return statistics.median(means)


CB = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


def ctypes_floor(n):
    lib = ctypes.CDLL(os.path.join(BENCH, ".build", "ffi_floor.so"))
    lib.ffi_floor_call.argtypes = [CB, ctypes.c_void_p]
    lib.ffi_floor_call.restype = None
    box = []

    @CB
    def cb(code, response, userdata):
        box.append(code)

    def one():
        lib.ffi_floor_call(cb, None)
        box.pop()
    result("us", per_call_us(one, n))


def mock_binding(n, use_get=False):
    d = binding()
    mock = getattr(d.Client, "mock", None)
    if mock is None:
        skip("binding not available (Client.mock missing)")
    c = mock()
    body = b'{"nid":[{"value":1}],"title":[{"value":"Article 1"}]}'
    c.stub("GET", "/node/1", 200, body=body, content_type="application/json")
    if use_get:   # parses the body into a dict as well
        result("us", per_call_us(lambda: c.get("node", "1"), n))
    else:         # the call alone: the body comes back as bytes
        result("us", per_call_us(lambda: c.request("GET", "/node/1").content, n))


def marshal_floor(n):
    """The ctypes work of one binding call with no request behind it: a call into the library
    that returns a response (drupal_response_retain on a held one), reading its status and body,
    and freeing it - the four ctypes calls MockClient.request makes, minus the Swift work."""
    d = binding()
    from drupalsdk import _ffi, _readers
    c = d.Client.mock()
    c.stub("GET", "/node/1", 200, body=b'{"nid":[{"value":1}]}', content_type="application/json")
    held = c.request("GET", "/node/1")
    handle = held._handle
    lib = _ffi.lib

    def one():
        response = lib.drupal_response_retain(handle)
        lib.drupal_response_status(response)
        _readers.response_body(response)
        lib.drupal_response_free(response)
    result("us", per_call_us(one, n))


# ---- JSON ----------------------------------------------------------------------------------

def json_case(path, iters):
    with open(path, "rb") as f:
        text = f.read()

    def one():
        acc = 0
        for row in json.loads(text):
            acc += int(row["nid"]) + len(row["title"]) + len(row["uuid"])
        return acc
    for _ in range(20):
        one()
    times = []
    for _ in range(iters):
        t0 = time.perf_counter_ns()
        one()
        times.append((time.perf_counter_ns() - t0) / 1e3)
    result("us", statistics.median(times))


def main(argv):
    mode, args = argv[1], argv[2:]
    flags = {a for a in args if a in ("parse", "get")}
    args = [a for a in args if a not in flags]
    parse = "parse" in flags
    if mode == "seq-http-client":
        seq_http_client(args[0], int(args[1]), int(args[2]), parse)
    elif mode == "seq-requests":
        seq_requests(args[0], int(args[1]), int(args[2]), parse)
    elif mode == "seq-curl-ctypes":
        seq_curl_ctypes(args[0], int(args[1]), int(args[2]))
    elif mode == "seq-binding":
        seq_binding(args[0], int(args[1]), int(args[2]))
    elif mode == "seq-binding-raw":
        seq_binding(args[0], int(args[1]), int(args[2]), raw=True)
    elif mode == "aiohttp":
        run_aiohttp(args[0], int(args[1]), int(args[2]), int(args[3]), parse)
    elif mode == "futures":
        run_futures(args[0], int(args[1]), int(args[2]), int(args[3]))
    elif mode == "asyncio":
        run_asyncio(args[0], int(args[1]), int(args[2]), int(args[3]))
    elif mode == "ctypes-floor":
        ctypes_floor(int(args[0]))
    elif mode == "marshal-floor":
        marshal_floor(int(args[0]))
    elif mode == "mock-binding":
        mock_binding(int(args[0]), "get" in flags)
    elif mode == "json":
        json_case(args[0], int(args[1]))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv)
