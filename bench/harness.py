#!/usr/bin/env python3
"""Runs every benchmark case against servers it starts itself, and prints one table.

Called by bench/run (which installs and builds what is needed first). Standard library only.
Every driver program prints `RESULT <name> <value>` lines (or `SKIP <reason>`); this script runs
the library and its baseline back to back in each repetition, on the same server, and reports
the median of the repetitions.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
OUT = os.path.join(BENCH, ".build")          # compiled drivers (git-ignored)
PY = os.path.join(BENCH, ".venv", "bin", "python")
LIB = os.path.join(REPO, "build", "lib", "libdrupalsdk.so")


class CaseError(Exception):
    pass


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise CaseError(f"nothing listening on port {port}")


# ---- servers -------------------------------------------------------------------------------

def make_tls(directory):
    """A local CA and a server certificate for 127.0.0.1 signed by it (openssl): the https cases
    verify the server as a real site would, with the CA passed as the CA bundle option."""
    os.makedirs(directory)

    def ssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    ca_key, ca, key, csr, crt = (os.path.join(directory, n) for n in ("ca.key", "ca.crt", "server.key",
                                                                       "server.csr", "server.crt"))
    ssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", ca_key,
        "-out", ca, "-days", "2", "-subj", "/CN=drupalsdk bench CA")
    ssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", csr,
        "-subj", "/CN=127.0.0.1")
    ext = os.path.join(directory, "ext.cnf")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    ssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", crt, "-days", "2",
        "-extfile", ext)
    return ca


def http_get(url, data=None):
    import urllib.request
    with urllib.request.urlopen(urllib.request.Request(url, data=data, method="POST" if data is not None else "GET"),
                                timeout=10) as r:
        return r.read()


class Servers:
    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="drupalsdk-bench-")
        os.chmod(self.tmp, 0o755)   # nginx workers run as an unprivileged user when started as root
        self.procs = []

    def start(self, pin=False):
        www = os.path.join(self.tmp, "www")
        os.makedirs(os.path.join(self.tmp, "tmp"))
        subprocess.run([sys.executable, os.path.join(BENCH, "gen_data.py"), www], check=True)
        self.articles = os.path.join(www, "articles.json")
        self.ca = make_tls(os.path.join(self.tmp, "tls"))
        os.chmod(os.path.join(self.tmp, "tls", "server.key"), 0o644)   # read by the nginx worker
        self.connection_log = os.path.join(self.tmp, "tls-connections.log")
        port, tls_port, h2_port = free_port(), free_port(), free_port()
        subst = {"@ROOT@": self.tmp, "@PORT@": str(port), "@TLSPORT@": str(tls_port), "@H2PORT@": str(h2_port)}
        for src, dst in (("nginx.conf.in", "nginx.conf"), ("nginx-locations.conf.in", "locations.conf")):
            with open(os.path.join(BENCH, src)) as f:
                text = f.read()
            for k, v in subst.items():
                text = text.replace(k, v)
            if pin and dst == "nginx.conf":
                text = text.replace("worker_processes 1;", "worker_processes 1;\nworker_cpu_affinity 10;")
            with open(os.path.join(self.tmp, dst), "w") as f:
                f.write(text)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.procs.append(subprocess.Popen([nginx, "-c", os.path.join(self.tmp, "nginx.conf"), "-p", self.tmp],
                                           stdin=subprocess.DEVNULL))
        for p in (port, tls_port, h2_port):
            wait_port(p)
        self.nginx = f"http://127.0.0.1:{port}"
        self.tls = f"https://127.0.0.1:{tls_port}"
        self.h2 = f"https://127.0.0.1:{h2_port}"
        fake = subprocess.Popen((["taskset", "-c", "1"] if pin else []) + [sys.executable, os.path.join(REPO, "Tests", "fake_drupal", "fake_drupal.py"),
                                 "--port", "0", "--delay-ms", "20", "--exit-with-stdin"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.procs.append(fake)
        line = fake.stdout.readline().strip()
        m = re.match(r"LISTENING (http://\S+)", line)
        if not m:
            raise CaseError(f"fake Drupal did not start: {line!r}")
        self.fake = m.group(1)
        log(f"nginx at {self.nginx} (https {self.tls}, https + HTTP/2 {self.h2}), fake Drupal (20 ms) at {self.fake}")

    # Connection counters, read before and after each driver run (drivers run one at a time).
    def nginx_accepts(self):
        """nginx's count of accepted connections (every port), this query's own included."""
        text = http_get(self.nginx + "/__status").decode()
        return int(text.split("\n")[2].split()[0])

    def tls_connections(self):
        """TLS connections so far (= handshakes: one line per connection's first request)."""
        try:
            with open(self.connection_log) as f:
                return sum(1 for _ in f)
        except FileNotFoundError:
            return 0

    def counters(self, server):
        if server == "nginx":
            return {"accepts": self.nginx_accepts(), "handshakes": self.tls_connections()}
        if server == "fake":
            http_get(self.fake + "/__fake/reset", b"")
        return {}

    def opened(self, server, before):
        """{conns, handshakes} a driver opened since `before` (see counters)."""
        if server == "nginx":
            after = self.counters("nginx")
            # The "after" status query's own connection is in its count.
            return {"conns": after["accepts"] - before["accepts"] - 1,
                    "handshakes": after["handshakes"] - before["handshakes"]}
        if server == "fake":
            return {"conns": json.loads(http_get(self.fake + "/__fake/stats"))["connections"]}
        return {}

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


# ---- running drivers -----------------------------------------------------------------------

def run(cmd, timeout=300, env=None):
    """Runs one driver; returns {name: value} or the string 'SKIP: reason'."""
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise CaseError(f"timed out after {timeout}s: {' '.join(cmd)}")
    out = {}
    for line in p.stdout.splitlines():
        if line.startswith("SKIP"):
            return "SKIP: " + line[4:].strip(" :")
        parts = line.split()
        if len(parts) == 3 and parts[0] == "RESULT":
            out[parts[1]] = float(parts[2])
    if p.returncode != 0 or not out:
        raise CaseError(f"exit {p.returncode}: {' '.join(cmd)}\n{p.stderr.strip()[-2000:]}")
    log(f"  {time.time() - t0:5.1f}s {' '.join(os.path.basename(c) if i == 0 else c for i, c in enumerate(cmd))}"
        f" -> {', '.join(f'{k}={v:.4g}' for k, v in out.items())}")
    return out


class Driver:
    """One driver command: argv, extra environment, and the server whose connections it opens
    ("nginx", "fake" or None)."""

    def __init__(self, argv, server=None, **env):
        self.argv, self.server, self.env = argv, server, env


class Medians(dict):
    """{name: median over the repetitions}; .samples keeps every repetition's value, in order."""
    samples = None

    def spread(self, key):
        return min(self.samples[key]), max(self.samples[key])


def paired_ratios(lib, base, key="rps", higher_is_better=True):
    """Per-repetition ratios (library and baseline ran back to back in each repetition, so each
    pair saw the same machine load: this box is shared with compilers)."""
    if isinstance(lib, str) or isinstance(base, str) or key not in lib.samples or key not in base.samples:
        return None
    pairs = zip(lib.samples[key], base.samples[key])
    return [(a / b) if higher_is_better else (b / a) for a, b in pairs]


def paired(lib, base, key="rps", higher_is_better=True):
    """The median of the per-repetition ratios."""
    ratios = paired_ratios(lib, base, key, higher_is_better)
    return None if ratios is None else statistics.median(ratios)


def measure(servers, drivers, reps):
    """Runs each driver once per repetition, interleaved (A B C A B C ...), counting the
    connections (and TLS handshakes) each run opened on its server. Returns one Medians per
    driver (or a 'SKIP: ...' string)."""
    samples = [dict() for _ in drivers]
    skipped = [None] * len(drivers)
    for _ in range(reps):
        for i, d in enumerate(drivers):
            if skipped[i]:
                continue
            before = servers.counters(d.server) if servers and d.server else None
            r = run(d.argv, env=dict(os.environ, **d.env) if d.env else None)
            if isinstance(r, str):
                skipped[i] = r
                continue
            if before is not None:
                r.update(servers.opened(d.server, before))
            for k, v in r.items():
                samples[i].setdefault(k, []).append(v)
    out = []
    for i in range(len(drivers)):
        if skipped[i]:
            out.append(skipped[i])
            continue
        m = Medians({k: statistics.median(v) for k, v in samples[i].items()})
        m.samples = samples[i]
        out.append(m)
    return out


# ---- the table -----------------------------------------------------------------------------

COLUMNS = ("case", "measurement", "library", "baseline", "ratio", "CPU / request", "connections", "target",
           "result", "note")


class Table:
    def __init__(self):
        self.rows = []
        self.errors = 0
        self.connection_failures = 0

    def add(self, case, what, lib, base, ratio, target, verdict, note="", cpu="-", conns="-"):
        self.rows.append((case, what, lib, base, ratio, cpu, conns, target, verdict, note))

    def compare(self, case, what, lib, base, target=None, cpu_target=None, conns=None, key="rps", unit="rps",
                higher_is_better=True, note="", ceiling=None):
        """A library driver against its baseline (Medians from one measure()). target: the ratio
        it must reach (None: INFO); cpu_target: the most CPU per request it may use, as a ratio of
        the baseline's; conns: the connections each run of each side must open (an int, or a
        (library, baseline) pair). ceiling: the same run's ratio of something that does strictly
        less work than the library against the same baseline; a ratio that misses the target only
        because the ceiling misses it too is FLOOR, not FAIL. Every figure comes with its min-max
        over the repetitions."""
        if isinstance(lib, str) or isinstance(base, str):
            reason = lib if isinstance(lib, str) else base
            self.add(case, what, fmt(lib, unit), fmt(base, unit), "-", describe_target(target, cpu_target, conns),
                     "SKIP", reason)
            return
        ratios = paired_ratios(lib, base, key, higher_is_better)
        ratio = statistics.median(ratios)
        cpu_text, cpu_ratio = cpu_column(lib, base)
        conn_text, conn_ok = conn_column(lib, base, conns)
        problems = []
        if target is not None and ratio < target:
            problems.append(f"ratio {ratio:.2f}x < {target}x")
        if cpu_target is not None and cpu_ratio is not None and cpu_ratio > cpu_target:
            problems.append(f"CPU {cpu_ratio:.2f}x > {cpu_target}x")
        if not conn_ok:
            problems.append("connections not as expected")
            self.connection_failures += 1
        below_ceiling = (target is not None and ratio < target and ceiling is not None and ceiling < target
                         and len(problems) == 1)
        if target is None and cpu_target is None:
            verdict = "FAIL" if not conn_ok else "INFO"
        elif below_ceiling:
            verdict = "FLOOR"
            problems.append(f"ceiling {ceiling:.2f}x < {target}x")
        else:
            verdict = "FAIL" if problems else "PASS"
        self.add(case, what, with_spread(lib, key, unit), with_spread(base, key, unit),
                 f"{ratio:.2f}x ({min(ratios):.2f}-{max(ratios):.2f})", describe_target(target, cpu_target, conns),
                 verdict, "; ".join(filter(None, [note] + problems)), cpu=cpu_text, conns=conn_text)

    def limit(self, case, what, value, unit, limit, note="", base="-", floor=None):
        """An absolute figure with an upper limit. `floor`: the same run's measurement of what
        no implementation can go below; a miss is FLOOR, not FAIL, when the floor itself misses."""
        if isinstance(value, str):
            self.add(case, what, value, base, "-", f"<= {fmt(limit, unit)}", "SKIP", value)
            return
        verdict = "PASS" if value <= limit else ("FLOOR" if floor is not None and floor > limit else "FAIL")
        self.add(case, what, fmt(value, unit), base, "-", f"<= {fmt(limit, unit)}", verdict, note)

    def error(self, case, msg):
        self.errors += 1
        self.add(case, "(crashed or errored)", "-", "-", "-", "-", "ERROR", msg.splitlines()[0][:200])
        log(f"ERROR in {case}: {msg}")

    def markdown(self):
        lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        for r in self.rows:
            lines.append("| " + " | ".join(str(c).replace("|", "/") for c in r) + " |")
        return "\n".join(lines)

    def text(self):
        cols = list(zip(*([COLUMNS] + self.rows)))
        widths = [max(len(str(c)) for c in col) for col in cols]
        widths[-1] = 0
        out = []
        for i, r in enumerate(zip(*cols)):
            out.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
            if i == 0:
                out.append("  ".join("-" * w for w in widths[:-1]) + "  ----")
        return "\n".join(out)


def describe_target(target, cpu_target, conns):
    parts = []
    if target is not None:
        parts.append(f">= {target}x")
    if cpu_target is not None:
        parts.append(f"CPU <= {cpu_target}x")
    if conns is not None:
        lib_c, base_c = conns if isinstance(conns, tuple) else (conns, conns)
        parts.append(f"conns {lib_c}" + ("" if base_c == lib_c else f" / {base_c}"))
    return ", ".join(parts) or "-"


def with_spread(m, key, unit):
    lo, hi = m.spread(key)
    return f"{fmt(m[key], unit)} ({fmt(lo, unit, bare=True)}-{fmt(hi, unit, bare=True)})"


def cpu_column(lib, base):
    """'lib / base us = ratio (min-max)' of CPU per request, and the median paired ratio."""
    ratios = paired_ratios(lib, base, "cpu_us")
    if ratios is None:
        return (f"{lib['cpu_us']:.1f} us" if "cpu_us" in lib else "-"), None
    ratio = statistics.median(ratios)
    return (f"{lib['cpu_us']:.1f} / {base['cpu_us']:.1f} us = {ratio:.2f}x ({min(ratios):.2f}-{max(ratios):.2f})",
            ratio)


def span(values):
    lo, hi = int(min(values)), int(max(values))
    return str(lo) if lo == hi else f"{lo}-{hi}"


def conn_column(lib, base, expected):
    """'lib / base' connections opened per run (min-max over runs), TLS handshakes when any, and
    whether no run opened more than the expected number (the window: more is churn; fewer happens
    when the first answers come back before the last request of the window starts), nor none,
    and each connection cost one TLS handshake."""
    if "conns" not in lib.samples:
        return "-", expected is None
    text = f"{span(lib.samples['conns'])} / " + (span(base.samples["conns"]) if "conns" in base.samples else "-")
    if any(lib.samples.get("handshakes", [])) or any(base.samples.get("handshakes", [])):
        text += (f" (TLS handshakes {span(lib.samples['handshakes'])} / "
                 f"{span(base.samples['handshakes']) if 'handshakes' in base.samples else '-'})")
    if expected is None:
        return text, True
    lib_c, base_c = expected if isinstance(expected, tuple) else (expected, expected)
    ok = all(1 <= c <= lib_c for c in lib.samples["conns"])
    ok = ok and all(1 <= c <= base_c for c in base.samples.get("conns", [base_c]))
    # On https every connection is one full handshake (no session resumption on the server).
    for m in (lib, base):
        hs = m.samples.get("handshakes")
        if hs and any(hs) and hs != m.samples.get("conns"):
            ok = False
    return text, ok


def fmt(v, unit, bare=False):
    if isinstance(v, str):
        return "SKIP"
    if unit == "rps":
        return f"{v:,.0f}" if bare else f"{v:,.0f} req/s"
    if unit == "us":
        return f"{v:.2f}" if bare else f"{v:.2f} us"
    if unit == "ms":
        return f"{v:.2f} ms"
    if unit == "bytes":
        if abs(v) >= 1 << 20:
            return f"{v / (1 << 20):.2f} MB"
        return f"{v / 1024:.1f} KB"
    return f"{v:.4g}"


# ---- the cases -----------------------------------------------------------------------------

def cases(s, quick, pin):
    """Returns [(case number, function(table))]. Sizes: a full run takes ~8 minutes."""
    # --pin: network clients on CPU 0 (the servers are then on CPU 1); off by default.
    P = ["taskset", "-c", "0"] if pin else []
    C = P + [os.path.join(OUT, "bench_c")]
    CURL = P + [os.path.join(OUT, "baseline_curl")]
    BPY = P + [PY, os.path.join(BENCH, "bench_py.py")]
    UNPINNED_BPY = [PY, os.path.join(BENCH, "bench_py.py")]
    node = "/node/1?_format=json"
    q = quick
    reps = 3 if q else 11
    py_reps = 3 if q else 5
    # Busy polling is off by default; rows that turn it on say so.
    BUSY = {"BENCH_BUSY_POLL_US": "50"}
    TLS = {"BENCH_CA_FILE": s.ca}

    def nginx(argv, **env):
        return Driver(argv, "nginx", **env)

    def c1(t):
        n, w = ("300", "50") if q else ("10000", "500")
        curl, sync, chain, busy, pingpong = measure(s, [
            nginx(CURL + ["seq", s.nginx + node, n, w]), nginx(C + ["seq-sync", s.nginx, n, w]),
            nginx(C + ["conc-chain", s.nginx, n, w, "1"]), nginx(C + ["seq-sync", s.nginx, n, w], **BUSY),
            nginx(C + ["seq-async", s.nginx, n, w])], reps)
        t.compare("1 C sequential", "drupal_entity_get_sync vs curl easy (reused)", sync, curl, 1.0, 1.1, conns=1)
        # Sequential async the way a callback API is used: each callback starts the next call.
        t.compare("1 C sequential", "drupal_entity_get, next call from the callback, vs curl easy", chain, curl,
                  0.95, conns=1)
        # The option: blocking calls check the socket for up to 50 us before sleeping. Rate AND
        # CPU: it buys rate with CPU the baseline does not spend.
        t.compare("1 C sequential", "drupal_entity_get_sync with busy_poll_us = 50 vs curl easy", busy, curl,
                  conns=1, note="busy polling on (off by default)")
        # A caller thread that sleeps on a condvar between calls pays two thread wake-ups per call.
        t.compare("1 C sequential", "async, caller thread waits on a condvar between calls", pingpong, curl,
                  conns=1, note="two cross-thread wake-ups per call")

    def c2(t):
        n, w = ("2000", "200") if q else ("40000", "2000")
        curl, lib, chain, batches = measure(s, [
            nginx(CURL + ["multi", s.nginx + node, n, w, "32"]), nginx(C + ["conc", s.nginx, n, w, "32"]),
            nginx(C + ["conc-chain", s.nginx, n, w, "32"]), nginx(C + ["batches", s.nginx, n, w, "32"])], reps)
        # As in case 1: each callback starts the next call, so 32 stay in flight on one thread, the
        # shape of the curl multi loop it is compared with.
        t.compare("2 C 32 in flight", "drupal_entity_get x32, next call from the callback, vs curl multi", chain,
                  curl, 0.95, 1.1, conns=32)
        # A separate caller thread refilling the window is woken once per completion (~2 futex calls
        # per request, measured with strace), a hand-off the single-threaded baseline never pays.
        t.compare("2 C 32 in flight", "same, a caller thread refills the window (woken per completion)", lib, curl,
                  conns=32, note="cross-thread wake-up per call")
        # A window that empties between batches: libcurl's default pool shrank with it and churned
        # connections; the fixed pool keeps the 32.
        t.compare("2 C 32 in flight", "batches of 32: all started, all awaited, again", batches, curl, conns=32,
                  note="the window empties between batches")

    def c3(t):
        n, w = ("300", "50") if q else ("4000", "300")
        rn = "300" if q else "1500"
        url = s.nginx + node
        hc, rq, lib, hc_raw, lib_raw, busy, curl, floor = measure(s, [
            nginx(BPY + ["seq-http-client", url, n, w, "parse"]), nginx(BPY + ["seq-requests", url, rn, w, "parse"]),
            nginx(BPY + ["seq-binding", s.nginx, n, w]), nginx(BPY + ["seq-http-client", url, n, w]),
            nginx(BPY + ["seq-binding-raw", s.nginx, n, w]), nginx(BPY + ["seq-binding", s.nginx, n, w], **BUSY),
            nginx(CURL + ["seq", url, n, w]), nginx(BPY + ["seq-curl-ctypes", url, n, w])], py_reps)
        # The floor under any ctypes binding that answers with a dict: libcurl called through
        # ctypes, no Drupal logic, the body decoded by the same C scanner the binding uses. A
        # target the floor misses in the same repetitions is FLOOR, not FAIL; the row after the
        # floor says how far the binding is from it.
        t.compare("3 Python sequential", "Client.get -> dict vs http.client + json.loads", lib, hc, 1.5, 0.8, conns=1,
                  ceiling=paired(floor, hc))
        t.compare("3 Python sequential", "Client.get -> dict vs requests.Session + .json()", lib, rq, 5.0, conns=1,
                  ceiling=paired(floor, rq))
        t.compare("3 Python sequential", "floor: libcurl via ctypes + the C JSON scanner vs http.client + json.loads",
                  floor, hc, conns=1, note="no ctypes binding answering with a dict can do better than this row")
        t.compare("3 Python sequential", "Client.get -> dict vs the floor above", lib, floor, conns=1,
                  note="what the binding and the library add over bare libcurl")
        t.compare("3 Python sequential", "ceiling: curl easy from C (no Python, no JSON) vs http.client + json.loads",
                  curl, hc, conns=1, note="no binding over libcurl can do better than this row")
        t.compare("3 Python sequential", "Client.request -> bytes vs http.client -> bytes", lib_raw, hc_raw, 1.0,
                  conns=1)
        t.compare("3 Python sequential", "Client.get with busy_poll_us=50 vs http.client + json.loads", busy, hc,
                  conns=1, note="busy polling on (off by default)")

    def c4(t):
        n, w = ("1000", "100") if q else ("15000", "1000")
        aio, fut, asy = measure(s, [
            nginx(BPY + ["aiohttp", s.nginx + node, n, w, "32", "parse"]), nginx(BPY + ["futures", s.nginx, n, w, "32"]),
            nginx(BPY + ["asyncio", s.nginx, n, w, "32"])], py_reps)
        t.compare("4 Python 32 in flight", "submit_get futures -> dict vs aiohttp + json.loads", fut, aio, 1.5,
                  conns=32)
        t.compare("4 Python 32 in flight", "AsyncClient.get -> dict vs aiohttp + json.loads", asy, aio, 1.5, conns=32)

    def c5(t):
        n1, nn = ("30", "300") if q else ("150", "3000")
        slow = s.fake + node
        one, many, curl1, curlm = measure(s, [
            Driver(C + ["seq-async", s.fake, n1, "5"], "fake"), Driver(C + ["conc", s.fake, nn, "64", "32"], "fake"),
            Driver(CURL + ["seq", slow, n1, "5"], "fake"), Driver(CURL + ["multi", slow, nn, "64", "32"], "fake")],
            1 if q else 3)
        # 32 requests in flight against a server that takes 20 ms each is 32x by construction, up
        # to the server's own ceiling: context, not a target. The connections say the 32 ran at once.
        t.compare("5 latency (20 ms server)", "library: 32 in flight vs 1 in flight", many, one, conns=(32, 1),
                  note="the server's ceiling, not a target")
        t.compare("5 latency (20 ms server)", "raw curl: multi 32 vs easy", curlm, curl1, conns=(32, 1),
                  note="same fake server, same run")

    def c6(t):
        n = "2000" if q else "20000"
        r, = measure(None, [Driver([OUT + "/bench_c", "mock", n, "500"])], 1 if q else 3)
        t.limit("6 FFI floor (C)", "mock call C->Swift->C callback, back to back, per call", r["mock_pipelined_us"],
                "us", 5.0, "median of batches of 200 calls in flight")
        t.limit("6 FFI floor (C)", "mock call, one at a time: call -> callback -> waiter woken",
                r["mock_roundtrip_us"], "us", 5.0, "two cross-thread wake-ups; baseline = the floor, a C-only "
                "condvar ping-pong between two threads", base=fmt(r["handoff_floor_us"], "us"),
                floor=r["handoff_floor_us"])
        t.add("6 FFI floor (C)", "mock call, drupal_entity_get_sync", fmt(r["mock_sync_us"], "us"), "-", "-", "-",
              "INFO", "")
        pn = "2000" if q else "20000"
        floor, lib, lib_get, marshal = measure(None, [Driver(UNPINNED_BPY + ["ctypes-floor", pn]),
                                                      Driver(UNPINNED_BPY + ["mock-binding", pn]),
                                                      Driver(UNPINNED_BPY + ["mock-binding", pn, "get"]),
                                                      Driver(UNPINNED_BPY + ["marshal-floor", pn])], 1 if q else 3)
        if isinstance(lib, str) or isinstance(floor, str):
            t.add("6 FFI floor (Python)", "MockClient.request vs bare ctypes callback round trip",
                  "SKIP" if isinstance(lib, str) else fmt(lib["us"], "us"),
                  "SKIP" if isinstance(floor, str) else fmt(floor["us"], "us"),
                  "-", "<= 3x slower", "SKIP", lib if isinstance(lib, str) else floor)
        else:
            ratio = lib["us"] / floor["us"]
            # The floor of any binding call that returns a response: one call into the library,
            # reading status and body, freeing it (no request at all), against the same round trip.
            marshal_ratio = None if isinstance(marshal, str) else marshal["us"] / floor["us"]
            verdict = "PASS" if ratio <= 3 else ("FLOOR" if marshal_ratio and marshal_ratio > 3 else "FAIL")
            t.add("6 FFI floor (Python)", "MockClient.request vs bare ctypes callback round trip",
                  fmt(lib["us"], "us"), fmt(floor["us"], "us"), f"{ratio:.2f}x slower", "<= 3x slower", verdict,
                  "" if marshal_ratio is None else f"floor: the binding's 4 ctypes calls alone are {marshal_ratio:.1f}x")
            if marshal_ratio is not None:
                t.add("6 FFI floor (Python)", "4 ctypes calls of one call (call, status, body, free), no request",
                      fmt(marshal["us"], "us"), fmt(floor["us"], "us"), f"{marshal_ratio:.2f}x slower", "-", "INFO",
                      "the floor under the row above")
        if not isinstance(lib_get, str):
            t.add("6 FFI floor (Python)", "MockClient.get (parses the JSON too)", fmt(lib_get["us"], "us"), "-", "-",
                  "-", "INFO", "")

    def c7(t):
        n2 = "20000" if q else "100000"
        r, = measure(s, [nginx(C + ["memory", s.nginx, "1000", n2])], 1 if q else 3)
        t.limit("7 memory", f"RSS after {int(n2):,} requests - after 1,000", r["rss_growth"], "bytes", 2 << 20,
                "32 in flight" + ("; quick mode: 20,000 requests" if q else ""))
        r, = measure(s, [nginx(C + ["clients", s.nginx, "100"])], 1 if q else 3)
        t.limit("7 memory", "RSS per extra client handle (100 clients)", r["rss_per_client"], "bytes", 256 << 10)
        t.add("7 memory", "RSS per extra client after one request each", fmt(r["rss_per_used_client"], "bytes"),
              "-", "-", "-", "INFO", "")

    def c8(t):
        k = 5 if q else 25
        tool = os.path.join(OUT, "dlopen_time")
        now, lazy, curl, own = [], [], [], []
        # Interleaved, so a busy stretch of the machine hits every variant alike.
        for _ in range(k):
            now.append(run([tool, LIB])["dlopen_ms"])
            curl.append(run([tool, "libcurl.so.4", "nosym"])["dlopen_ms"])
            lazy.append(run([tool, LIB, "lazy"])["dlopen_ms"])
            own.append(run([tool, LIB, "preload"])["dlopen_ms"])
        # libcurl alone is a floor: the library cannot load without it.
        t.limit("8 start-up", "dlopen(RTLD_NOW) in a fresh process", statistics.median(now), "ms", 5.0,
                f"median of {k} ({min(now):.2f}-{max(now):.2f}); RTLD_LAZY {statistics.median(lazy):.2f} ms; "
                f"with libcurl+Jansson already loaded {statistics.median(own):.2f} ms",
                base=f"{statistics.median(curl):.2f} ms (libcurl alone)", floor=statistics.median(curl))
        real = os.path.realpath(LIB)
        stripped = os.path.join(OUT, "libdrupalsdk.stripped.so")
        subprocess.run(["strip", "-o", stripped, real], check=True)
        t.limit("8 start-up", "library file size", os.path.getsize(real), "bytes", 25 << 20,
                f"stripped: {fmt(os.path.getsize(stripped), 'bytes')}")

    def c9(t):
        it = "100" if q else "1000"
        cr, pr = measure(None, [Driver([OUT + "/bench_c", "json", s.articles, it]),
                                Driver(UNPINNED_BPY + ["json", s.articles, it])], 1 if q else 3)
        t.add("9 JSON helpers", "64 KB view page: parse + 3 fields/row, C helpers vs Python json.loads",
              fmt(cr["helpers_us"], "us"), fmt(pr["us"], "us"), f"{pr['us'] / cr['helpers_us']:.2f}x", ">= 2.0x",
              "PASS" if pr["us"] / cr["helpers_us"] >= 2.0 else "FAIL")
        t.add("9 JSON helpers", "Jansson alone (json_loadb + json_object_get) vs Python json.loads",
              fmt(cr["jansson_us"], "us"), fmt(pr["us"], "us"), f"{pr['us'] / cr['jansson_us']:.2f}x", "-", "INFO",
              "json_loadb, which the helpers no longer use")
        if "parse_us" in cr and "tree_floor_us" in cr:
            t.add("9 JSON helpers", "drupal_json_parse alone / building the same json_t tree (floor)",
                  fmt(cr["parse_us"], "us"), fmt(cr["tree_floor_us"], "us"), "-", "-", "INFO",
                  "the floor: allocating and freeing the Jansson tree")

    def c10(t):
        # HTTPS (HTTP/1.1 port), the server verified against the bench's own CA given as the CA
        # bundle option: a full TLS handshake per new connection, so churn would show here.
        n, w = ("300", "50") if q else ("10000", "500")
        cn, cw = ("2000", "200") if q else ("40000", "2000")
        pn, pw = ("1000", "100") if q else ("15000", "1000")
        url = s.tls + node
        curl, sync, curlm, chain = measure(s, [
            nginx(CURL + ["seq", url, n, w], **TLS), nginx(C + ["seq-sync", s.tls, n, w], **TLS),
            nginx(CURL + ["multi", url, cn, cw, "32"], **TLS), nginx(C + ["conc-chain", s.tls, cn, cw, "32"], **TLS)],
            reps)
        t.compare("10 HTTPS", "drupal_entity_get_sync vs curl easy, https", sync, curl, 1.0, 1.1, conns=1)
        t.compare("10 HTTPS", "drupal_entity_get x32 chained vs curl multi, https", chain, curlm, 0.95, 1.1, conns=32)
        aio, asy = measure(s, [nginx(BPY + ["aiohttp", url, pn, pw, "32", "parse"], **TLS),
                               nginx(BPY + ["asyncio", s.tls, pn, pw, "32"], **TLS)], py_reps)
        t.compare("10 HTTPS", "AsyncClient.get -> dict vs aiohttp + json.loads, https", asy, aio, 1.5, conns=32)

    def c11(t):
        # HTTP/2 where the server offers it: the library's default for https. 32 in flight share
        # one connection; the baseline is curl multi with CURLPIPE_MULTIPLEX (and PIPEWAIT).
        cn, cw = ("2000", "200") if q else ("40000", "2000")
        pn, pw = ("1000", "100") if q else ("15000", "1000")
        H2 = dict(TLS, BENCH_HTTP2="1")
        curlm, chain = measure(s, [nginx(CURL + ["multi", s.h2 + node, cn, cw, "32"], **H2),
                                   nginx(C + ["conc-chain", s.h2, cn, cw, "32"], **TLS)], reps)
        t.compare("11 HTTP/2", "drupal_entity_get x32 chained vs curl multi (CURLPIPE_MULTIPLEX), h2", chain, curlm,
                  0.95, 1.1, conns=1)
        # No Python Drupal client multiplexes: aiohttp opens 32 TLS connections for the same work.
        aio, asy = measure(s, [nginx(BPY + ["aiohttp", s.h2 + node, pn, pw, "32", "parse"], **TLS),
                               nginx(BPY + ["asyncio", s.h2, pn, pw, "32"], **TLS)], py_reps)
        t.compare("11 HTTP/2", "AsyncClient.get over h2 vs aiohttp (HTTP/1.1, 32 connections)", asy, aio,
                  conns=(1, 32), note="aiohttp does not speak HTTP/2")

    def c13(t):
        # OAuth (password grant; nginx answers /oauth/token with a token document) against Basic:
        # after the one token request, each call adds a Bearer header and an expiry check.
        n, w = ("300", "50") if q else ("10000", "500")
        cn, cw = ("2000", "200") if q else ("40000", "2000")
        basic, oauth, basic32, oauth32 = measure(s, [
            nginx(C + ["seq-sync", s.nginx, n, w], BENCH_AUTH="basic"),
            nginx(C + ["seq-sync", s.nginx, n, w], BENCH_AUTH="oauth"),
            nginx(C + ["conc-chain", s.nginx, cn, cw, "32"], BENCH_AUTH="basic"),
            nginx(C + ["conc-chain", s.nginx, cn, cw, "32"], BENCH_AUTH="oauth")], reps)
        # Two connections for OAuth: the token request runs on the client's own thread (so that it
        # ends even when the blocking call that started it gives up waiting), the calls on the
        # caller's engine.
        t.compare("13 OAuth", "drupal_entity_get_sync with an OAuth token vs with Basic", oauth, basic, 0.95, 1.1,
                  conns=(2, 1), note="the token request on the client's own thread: 1 connection more")
        t.compare("13 OAuth", "drupal_entity_get x32 chained, OAuth vs Basic", oauth32, basic32, 0.95, 1.1,
                  conns=32)

    def c12(t):
        from jsonapi_cases import case12
        case12(t, s, q, PY, measure, Driver, paired)

    return [("1", c1), ("2", c2), ("3", c3), ("4", c4), ("5", c5), ("6", c6), ("7", c7), ("8", c8), ("9", c9),
            ("10", c10), ("11", c11), ("12", c12), ("13", c13)]


def library_info():
    """The measured build: its file, when it was built and from which commit (build/lib/BUILD_INFO,
    written by scripts/build-lib), not merely the checkout's HEAD."""
    real = os.path.realpath(LIB)
    if not os.path.exists(real):
        return "missing"
    built = datetime.datetime.fromtimestamp(os.path.getmtime(real), datetime.timezone.utc)
    info = os.path.join(os.path.dirname(LIB), "BUILD_INFO")
    commit = "unknown commit (no build/lib/BUILD_INFO)"
    if os.path.exists(info):
        with open(info) as f:
            commit = f.read().strip()
    return f"{os.path.basename(real)} built {built:%Y-%m-%d %H:%M:%S UTC} from {commit}"


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs (nproc), {model}, {platform.system()} {platform.release()}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated case numbers, e.g. 1,2")
    ap.add_argument("--results", default="", help="write the markdown table here")
    ap.add_argument("--command", default="bench/run")
    ap.add_argument("--pin", action="store_true", help="clients on CPU 0, servers on CPU 1")
    args = ap.parse_args()
    t0 = time.time()
    table = Table()
    servers = Servers()
    try:
        servers.start(args.pin)
        only = set(filter(None, args.only.split(",")))
        for name, fn in cases(servers, args.quick, args.pin):
            if only and name not in only:
                continue
            log(f"case {name}")
            try:
                fn(table)
            except (CaseError, KeyError, ValueError, OSError, RuntimeError, subprocess.CalledProcessError) as e:
                table.error(name, f"{type(e).__name__}: {e}")
    except CaseError as e:
        table.error("setup", str(e))
    finally:
        servers.stop()
    elapsed = time.time() - t0
    header = (f"drupalsdk benchmarks ({'quick' if args.quick else 'full'} run), "
              f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}\n"
              f"machine: {machine()}\nlibrary: {library_info()}\ncommand: {args.command}\n"
              f"cases took {elapsed:.0f} s")
    print(header)
    print()
    print(table.text())
    fails = sum(1 for r in table.rows if r[8] == "FAIL")
    print(f"\n{summary(table)}")
    if args.results:
        with open(args.results, "w") as f:
            f.write("# drupalsdk benchmark results\n\n")
            f.write("Written by `bench/run` (full mode); see bench/README.md for what each case measures.\n\n")
            f.write("- date: " + f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}\n")
            f.write(f"- machine: {machine()}\n- library: {library_info()}\n- command: `{args.command}`\n"
                    f"- cases took {elapsed:.0f} s (bench/run total: see the end of its output)\n\n")
            f.write(table.markdown() + "\n\n")
            f.write(summary(table) + "\n")
    if table.errors:
        return 2
    # Quick mode is a smoke run on a noisy machine: timing targets do not fail it, but connection
    # counts are not timing, so a pool that churns fails CI too.
    if table.connection_failures or (fails and not args.quick):
        return 1
    return 0


def summary(table):
    count = lambda verdict: sum(1 for r in table.rows if r[8] == verdict)  # noqa: E731
    line = (f"{count('PASS')} PASS, {count('FAIL')} FAIL, {count('FLOOR')} FLOOR, {count('SKIP')} SKIP, "
            f"{table.errors} ERROR")
    if count("FLOOR"):
        line += ("\nFLOOR: the target is below a floor measured in the same run (the row's baseline or the "
                 "INFO row under it), so no implementation can meet it on this machine.")
    return line


if __name__ == "__main__":
    sys.exit(main())
