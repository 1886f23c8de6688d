#!/usr/bin/env python3
"""Runs every benchmark case against servers it starts itself, and prints one table.

Called by bench/run (which installs and builds what is needed first). Standard library only.
Every driver program prints `RESULT <name> <value>` lines (or `SKIP <reason>`); this script runs
the library and its baseline back to back in each repetition, on the same server, and reports
the median of the repetitions.
"""
import argparse
import datetime
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
        port = free_port()
        with open(os.path.join(BENCH, "nginx.conf.in")) as f:
            conf = f.read().replace("@ROOT@", self.tmp).replace("@PORT@", str(port))
        if pin:
            conf = conf.replace("worker_processes 1;", "worker_processes 1;\nworker_cpu_affinity 10;")
        conf_path = os.path.join(self.tmp, "nginx.conf")
        with open(conf_path, "w") as f:
            f.write(conf)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.procs.append(subprocess.Popen([nginx, "-c", conf_path, "-p", self.tmp],
                                           stdin=subprocess.DEVNULL))
        wait_port(port)
        self.nginx = f"http://127.0.0.1:{port}"
        fake = subprocess.Popen((["taskset", "-c", "1"] if pin else []) + [sys.executable, os.path.join(REPO, "Tests", "fake_drupal", "fake_drupal.py"),
                                 "--port", "0", "--delay-ms", "20", "--exit-with-stdin"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.procs.append(fake)
        line = fake.stdout.readline().strip()
        m = re.match(r"LISTENING (http://\S+)", line)
        if not m:
            raise CaseError(f"fake Drupal did not start: {line!r}")
        self.fake = m.group(1)
        log(f"nginx at {self.nginx}, fake Drupal (20 ms) at {self.fake}")

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

def run(cmd, timeout=300):
    """Runs one driver; returns {name: value} or the string 'SKIP: reason'."""
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
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


class Medians(dict):
    """{name: median over the repetitions}; .samples keeps every repetition's value, in order."""
    samples = None


def paired(lib, base, key="rps", higher_is_better=True):
    """The median of the per-repetition ratios. Library and baseline ran back to back in each
    repetition, so each pair saw the same machine load (this box is shared with compilers)."""
    if isinstance(lib, str) or isinstance(base, str):
        return None
    pairs = zip(lib.samples[key], base.samples[key])
    return statistics.median((a / b) if higher_is_better else (b / a) for a, b in pairs)


def measure(commands, reps):
    """Runs each command once per repetition, interleaved (A B C A B C ...).
    Returns one Medians per command (or a 'SKIP: ...' string)."""
    samples = [dict() for _ in commands]
    skipped = [None] * len(commands)
    for _ in range(reps):
        for i, cmd in enumerate(commands):
            if skipped[i]:
                continue
            r = run(cmd)
            if isinstance(r, str):
                skipped[i] = r
                continue
            for k, v in r.items():
                samples[i].setdefault(k, []).append(v)
    out = []
    for i in range(len(commands)):
        if skipped[i]:
            out.append(skipped[i])
            continue
        m = Medians({k: statistics.median(v) for k, v in samples[i].items()})
        m.samples = samples[i]
        out.append(m)
    return out


# ---- the table -----------------------------------------------------------------------------

class Table:
    def __init__(self):
        self.rows = []
        self.errors = 0

    def add(self, case, what, lib, base, ratio, target, verdict, note=""):
        self.rows.append((case, what, lib, base, ratio, target, verdict, note))

    def compare(self, case, what, lib, base, unit, target_ratio, higher_is_better=True, note="", ratio=None):
        """lib/base: numbers or SKIP strings. Ratio = lib/base for throughput, base/lib for times;
        ratio, when given, is the median of paired per-repetition ratios (see paired())."""
        if isinstance(lib, str) or isinstance(base, str):
            reason = lib if isinstance(lib, str) else base
            self.add(case, what, fmt(lib, unit), fmt(base, unit), "-", f">= {target_ratio}x", "SKIP", reason)
            return
        if ratio is None:
            ratio = lib / base if higher_is_better else base / lib
        verdict = "PASS" if ratio >= target_ratio else "FAIL"
        self.add(case, what, fmt(lib, unit), fmt(base, unit), f"{ratio:.2f}x", f">= {target_ratio}x", verdict, note)

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
        head = "| case | measurement | library | baseline | ratio | target | result | note |"
        lines = [head, "|" + "---|" * 8]
        for r in self.rows:
            lines.append("| " + " | ".join(str(c).replace("|", "/") for c in r) + " |")
        return "\n".join(lines)

    def text(self):
        cols = list(zip(*([("case", "measurement", "library", "baseline", "ratio", "target", "result", "note")]
                          + self.rows)))
        widths = [max(len(str(c)) for c in col) for col in cols]
        widths[-1] = 0
        out = []
        for i, r in enumerate([cols_row for cols_row in zip(*cols)]):
            out.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
            if i == 0:
                out.append("  ".join("-" * w for w in widths[:-1]) + "  ----")
        return "\n".join(out)


def fmt(v, unit):
    if isinstance(v, str):
        return "SKIP"
    if unit == "rps":
        return f"{v:,.0f} req/s"
    if unit == "us":
        return f"{v:.2f} us"
    if unit == "ms":
        return f"{v:.2f} ms"
    if unit == "bytes":
        if abs(v) >= 1 << 20:
            return f"{v / (1 << 20):.2f} MB"
        return f"{v / 1024:.1f} KB"
    return f"{v:.4g}"


# ---- the cases -----------------------------------------------------------------------------

def cases(s, quick, pin):
    """Returns [(case number, function(table))]. Sizes: a full run takes ~3-5 minutes."""
    C = os.path.join(OUT, "bench_c")
    CURL = os.path.join(OUT, "baseline_curl")
    # --pin: network clients on CPU 0 (the servers are then on CPU 1); off by default.
    P = ["taskset", "-c", "0"] if pin else []
    BPY = P + [PY, os.path.join(BENCH, "bench_py.py")]
    C, CURL = P + [C], P + [CURL]
    UNPINNED_BPY = [PY, os.path.join(BENCH, "bench_py.py")]
    node = s.nginx + "/node/1?_format=json"
    slow_node = s.fake + "/node/1?_format=json"
    q = quick
    reps = 3 if q else 7

    def cmp(t, case, what, lib, base, target, key="rps", unit="rps", hib=True, note=""):
        lv = lib if isinstance(lib, str) else lib[key]
        bv = base if isinstance(base, str) else base[key]
        t.compare(case, what, lv, bv, unit, target, hib, note, ratio=paired(lib, base, key, hib))

    def c1(t):
        n, w = ("300", "50") if q else ("10000", "500")
        curl, sync, chain, pingpong = measure([CURL + ["seq", node, n, w], C + ["seq-sync", s.nginx, n, w],
                                               C + ["conc-chain", s.nginx, n, w, "1"],
                                               C + ["seq-async", s.nginx, n, w]], reps)
        cmp(t, "1 C sequential", "drupal_entity_get_sync vs curl easy (reused)", sync, curl, 0.8)
        # Sequential async the way a callback API is used: each callback starts the next call.
        cmp(t, "1 C sequential", "drupal_entity_get, next call from the callback, vs curl easy", chain, curl, 0.8)
        # Blocking calls check the socket for up to 50 us before sleeping (busyPollMicroseconds):
        # the CPU that costs, next to curl's, which sleeps until the answer arrives.
        if "cpu_us" in sync and "cpu_us" in curl:
            t.add("1 C sequential", "CPU per request: drupal_entity_get_sync (busy-polls <= 50 us) vs curl easy",
                  fmt(sync["cpu_us"], "us"), fmt(curl["cpu_us"], "us"), f"{sync['cpu_us'] / curl['cpu_us']:.2f}x",
                  "-", "INFO", "CPU time / requests; lower is better")
        # A caller thread that sleeps on a condvar between calls pays two thread wake-ups per call.
        t.add("1 C sequential", "async, caller thread waits on a condvar between calls",
              fmt(pingpong["rps"], "rps"), fmt(curl["rps"], "rps"), f"{paired(pingpong, curl):.2f}x", "-", "INFO",
              "two cross-thread wake-ups per call")

    def c2(t):
        n, w = ("2000", "200") if q else ("40000", "2000")
        curl, lib, chain = measure([CURL + ["multi", node, n, w, "32"], C + ["conc", s.nginx, n, w, "32"],
                                    C + ["conc-chain", s.nginx, n, w, "32"]], reps)
        # As in case 1: each callback starts the next call, so 32 stay in flight on one thread, the
        # shape of the curl multi loop it is compared with.
        cmp(t, "2 C 32 in flight", "drupal_entity_get x32, next call from the callback, vs curl multi", chain, curl,
            0.8)
        # A separate caller thread refilling the window is woken once per completion (~2 futex calls
        # per request, measured with strace), a hand-off the single-threaded baseline never pays.
        t.add("2 C 32 in flight", "same, a caller thread refills the window (woken per completion)",
              fmt(lib["rps"], "rps"), fmt(curl["rps"], "rps"), f"{paired(lib, curl):.2f}x", "-", "INFO",
              "cross-thread wake-up per call")

    def c3(t):
        n, w = ("300", "50") if q else ("4000", "300")
        rn = "300" if q else "1500"
        hc, rq, lib, hc_raw, lib_raw = measure([
            BPY + ["seq-http-client", node, n, w, "parse"], BPY + ["seq-requests", node, rn, w, "parse"],
            BPY + ["seq-binding", s.nginx, n, w], BPY + ["seq-http-client", node, n, w],
            BPY + ["seq-binding-raw", s.nginx, n, w]], 3 if q else 5)
        cmp(t, "3 Python sequential", "Client.get -> dict vs http.client + json.loads", lib, hc, 1.0)
        cmp(t, "3 Python sequential", "Client.get -> dict vs requests.Session + .json()", lib, rq, 5.0)
        cmp(t, "3 Python sequential", "Client.request -> bytes vs http.client -> bytes", lib_raw, hc_raw, 1.0)

    def c4(t):
        n, w = ("1000", "100") if q else ("15000", "1000")
        aio, fut, asy = measure([BPY + ["aiohttp", node, n, w, "32", "parse"], BPY + ["futures", s.nginx, n, w, "32"],
                                 BPY + ["asyncio", s.nginx, n, w, "32"]], 3 if q else 5)
        cmp(t, "4 Python 32 in flight", "submit_get futures -> dict vs aiohttp + json.loads", fut, aio, 1.5)
        cmp(t, "4 Python 32 in flight", "AsyncClient.get -> dict vs aiohttp + json.loads", asy, aio, 1.5)

    def c5(t):
        n1, nn = ("30", "300") if q else ("150", "3000")
        one, many, curl1, curlm = measure([C + ["seq-async", s.fake, n1, "5"], C + ["conc", s.fake, nn, "64", "32"],
                                           CURL + ["seq", slow_node, n1, "5"],
                                           CURL + ["multi", slow_node, nn, "64", "32"]], 1 if q else 3)
        cmp(t, "5 latency (20 ms server)", "library: 32 in flight vs 1 in flight", many, one, 25.0)
        t.add("5 latency (20 ms server)", "raw curl: multi 32 vs easy (the server's own ceiling)",
              fmt(curlm["rps"], "rps"), fmt(curl1["rps"], "rps"), f"{paired(curlm, curl1):.2f}x", "-", "INFO",
              "same fake server, same run")

    def c6(t):
        n = "2000" if q else "20000"
        r, = measure([[OUT + "/bench_c", "mock", n, "500"]], 1 if q else 3)
        t.limit("6 FFI floor (C)", "mock call C->Swift->C callback, back to back, per call", r["mock_pipelined_us"],
                "us", 5.0, "median of batches of 200 calls in flight")
        t.limit("6 FFI floor (C)", "mock call, one at a time: call -> callback -> waiter woken",
                r["mock_roundtrip_us"], "us", 5.0, "two cross-thread wake-ups; baseline = the floor, a C-only "
                "condvar ping-pong between two threads", base=fmt(r["handoff_floor_us"], "us"),
                floor=r["handoff_floor_us"])
        t.add("6 FFI floor (C)", "mock call, drupal_entity_get_sync", fmt(r["mock_sync_us"], "us"), "-", "-", "-",
              "INFO", "")
        pn = "2000" if q else "20000"
        floor, lib, lib_get, marshal = measure([UNPINNED_BPY + ["ctypes-floor", pn], UNPINNED_BPY + ["mock-binding", pn],
                                                UNPINNED_BPY + ["mock-binding", pn, "get"],
                                                UNPINNED_BPY + ["marshal-floor", pn]], 1 if q else 3)
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
        r, = measure([C + ["memory", s.nginx, "1000", n2]], 1 if q else 3)
        t.limit("7 memory", f"RSS after {int(n2):,} requests - after 1,000", r["rss_growth"], "bytes", 2 << 20,
                "32 in flight" + ("; quick mode: 20,000 requests" if q else ""))
        r, = measure([C + ["clients", s.nginx, "100"]], 1 if q else 3)
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
        t.limit("8 start-up", "dlopen(RTLD_NOW) in a fresh process", statistics.median(now), "ms", 5.0,
                f"median of {k}; RTLD_LAZY {statistics.median(lazy):.2f} ms; "
                f"with libcurl+Jansson already loaded {statistics.median(own):.2f} ms",
                base=f"{statistics.median(curl):.2f} ms (libcurl alone)")
        real = os.path.realpath(LIB)
        stripped = os.path.join(OUT, "libdrupalsdk.stripped.so")
        subprocess.run(["strip", "-o", stripped, real], check=True)
        t.limit("8 start-up", "library file size", os.path.getsize(real), "bytes", 25 << 20,
                f"stripped: {fmt(os.path.getsize(stripped), 'bytes')}")

    def c9(t):
        it = "100" if q else "1000"
        cr, pr = measure([[OUT + "/bench_c", "json", s.articles, it], UNPINNED_BPY + ["json", s.articles, it]],
                         1 if q else 3)
        t.compare("9 JSON helpers", "64 KB view page: parse + 3 fields/row, C helpers vs Python json.loads",
                  cr["helpers_us"], pr["us"], "us", 2.0, higher_is_better=False)
        t.add("9 JSON helpers", "Jansson alone (json_loadb + json_object_get) vs Python json.loads",
              fmt(cr["jansson_us"], "us"), fmt(pr["us"], "us"), f"{pr['us'] / cr['jansson_us']:.2f}x", "-", "INFO",
              "json_loadb, which the helpers no longer use")
        if "parse_us" in cr and "tree_floor_us" in cr:
            t.add("9 JSON helpers", "drupal_json_parse alone / building the same json_t tree (floor)",
                  fmt(cr["parse_us"], "us"), fmt(cr["tree_floor_us"], "us"), "-", "-", "INFO",
                  "the floor: allocating and freeing the Jansson tree")

    def c10(t):
        from jsonapi_cases import case10
        case10(t, s, q, PY, measure, cmp, paired, fmt)

    return [("1", c1), ("2", c2), ("3", c3), ("4", c4), ("5", c5), ("6", c6), ("7", c7), ("8", c8), ("9", c9),
            ("10", c10)]


def library_info():
    try:
        head = subprocess.run(["git", "-C", REPO, "log", "-1", "--format=%h %cd"], capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        head = "?"
    real = os.path.realpath(LIB)
    built = datetime.datetime.fromtimestamp(os.path.getmtime(real), datetime.timezone.utc) if os.path.exists(real) else None
    return f"{os.path.basename(real)} built {built:%Y-%m-%d %H:%M:%S UTC}; repo HEAD {head}" if built else "missing"


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
    fails = sum(1 for r in table.rows if r[6] == "FAIL")
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
    if fails and not args.quick:
        return 1
    return 0


def summary(table):
    count = lambda verdict: sum(1 for r in table.rows if r[6] == verdict)  # noqa: E731
    line = (f"{count('PASS')} PASS, {count('FAIL')} FAIL, {count('FLOOR')} FLOOR, {count('SKIP')} SKIP, "
            f"{table.errors} ERROR")
    if count("FLOOR"):
        line += ("\nFLOOR: the target is below a floor measured in the same run (the row's baseline or the "
                 "INFO row under it), so no implementation can meet it on this machine.")
    return line


if __name__ == "__main__":
    sys.exit(main())
