#!/usr/bin/env python3
"""A/B of two builds of the library on cases 1-4 and 6, interleaved in one run.

    bench/ab.py OLD_TREE [NEW_TREE] [--reps N] [--quick] [--busy-poll US]

Each tree is a checkout with its release library built in TREE/build/lib (scripts/build-lib);
NEW_TREE defaults to this checkout. The C drivers are this checkout's (bench/.build, made by
bench/run), run against each build through LD_LIBRARY_PATH (their RUNPATH yields to it); the
Python drivers are each tree's own bench/bench_py.py with that tree's binding. Every repetition
runs the baselines and both builds back to back, so a busy stretch of this shared machine hits
them alike; the ratios (each build over the same repetition's baseline, and NEW over OLD) are
medians of per-repetition ratios, with their min-max. Used for the check owed to issue 11 ("one
core"): were cases 1-4 and 6 slower after that refactor than before it?

--busy-poll US passes BENCH_BUSY_POLL_US to NEW's drivers (builds that read it), so a
build whose default no longer busy-polls can be compared with one that did.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

BENCH = harness.BENCH
OUT = harness.OUT


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new", nargs="?", default=harness.REPO)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--busy-poll", default="")
    args = ap.parse_args()
    trees = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
    for name, tree in trees.items():
        if not os.path.exists(os.path.join(tree, "build", "lib", "libdrupalsdk.so")):
            sys.exit(f"ab.py: {tree}/build/lib/libdrupalsdk.so is missing: run scripts/build-lib there")
    servers = harness.Servers()
    servers.start()
    try:
        rows = run_cases(servers, trees, args)
    finally:
        servers.stop()
    print(f"A/B: old = {describe(trees['old'])}\n     new = {describe(trees['new'])}\n")
    print("| case | measurement | old | new | old / baseline | new / baseline | new / old |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def describe(tree):
    info = os.path.join(tree, "build", "lib", "BUILD_INFO")
    if os.path.exists(info):
        with open(info) as f:
            return f"{tree} ({f.read().strip()})"
    return tree


def run_cases(s, trees, args):
    q = args.quick
    reps = 3 if q else args.reps
    curl = [os.path.join(OUT, "baseline_curl")]
    py = harness.PY

    def lib_env(tree, name):
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(tree, "build", "lib"),
                   DRUPALSDK_LIBRARY=os.path.join(tree, "build", "lib", "libdrupalsdk.so"))
        if name == "new" and args.busy_poll:
            env["BENCH_BUSY_POLL_US"] = args.busy_poll
        return env

    def c_cmd(name, *a):
        return ([os.path.join(OUT, "bench_c"), *a], lib_env(trees[name], name))

    def py_cmd(name, *a):
        return ([py, os.path.join(trees[name], "bench", "bench_py.py"), *a], lib_env(trees[name], name))

    node = s.nginx + "/node/1?_format=json"
    n1, w1 = ("300", "50") if q else ("10000", "500")
    n2, w2 = ("2000", "200") if q else ("40000", "2000")
    n3, w3 = ("300", "50") if q else ("4000", "300")
    n4, w4 = ("1000", "100") if q else ("15000", "1000")
    n6 = "2000" if q else "20000"
    groups = [
        ("1 C sequential", "rps", [
            ("drupal_entity_get_sync vs curl easy", (curl + ["seq", node, n1, w1], None),
             lambda t: c_cmd(t, "seq-sync", s.nginx, n1, w1)),
            ("drupal_entity_get chained, 1 in flight, vs curl easy", (curl + ["seq", node, n1, w1], None),
             lambda t: c_cmd(t, "conc-chain", s.nginx, n1, w1, "1"))]),
        ("2 C 32 in flight", "rps", [
            ("drupal_entity_get x32 chained vs curl multi", (curl + ["multi", node, n2, w2, "32"], None),
             lambda t: c_cmd(t, "conc-chain", s.nginx, n2, w2, "32"))]),
        ("3 Python sequential", "rps", [
            ("Client.get -> dict vs http.client + json.loads",
             ([py, os.path.join(BENCH, "bench_py.py"), "seq-http-client", node, n3, w3, "parse"], None),
             lambda t: py_cmd(t, "seq-binding", s.nginx, n3, w3)),
            ("Client.request -> bytes vs http.client -> bytes",
             ([py, os.path.join(BENCH, "bench_py.py"), "seq-http-client", node, n3, w3], None),
             lambda t: py_cmd(t, "seq-binding-raw", s.nginx, n3, w3))]),
        ("4 Python 32 in flight", "rps", [
            ("submit_get futures vs aiohttp + json.loads",
             ([py, os.path.join(BENCH, "bench_py.py"), "aiohttp", node, n4, w4, "32", "parse"], None),
             lambda t: py_cmd(t, "futures", s.nginx, n4, w4, "32")),
            ("AsyncClient.get vs aiohttp + json.loads",
             ([py, os.path.join(BENCH, "bench_py.py"), "aiohttp", node, n4, w4, "32", "parse"], None),
             lambda t: py_cmd(t, "asyncio", s.nginx, n4, w4, "32"))]),
        ("6 FFI floor", "us", [
            ("C mock call back to back (mock_pipelined_us)", None, lambda t: c_cmd(t, "mock", n6, "500")),
            ("Python MockClient.request", None, lambda t: py_cmd(t, "mock-binding", n6))]),
    ]
    rows = []
    for case, unit, items in groups:
        harness.log(f"case {case}")
        for what, base_cmd, make in items:
            cmds = ([base_cmd] if base_cmd else []) + [make("old"), make("new")]
            samples = [[] for _ in cmds]
            for _ in range(reps):
                for i, (cmd, env) in enumerate(cmds):
                    samples[i].append(harness.run(cmd, env=env))
            key = "rps" if unit == "rps" else ("mock_pipelined_us" if "mock_pipelined_us" in samples[-1][0] else "us")
            vals = [[r[key] for r in col] for col in samples]
            old, new = vals[-2], vals[-1]
            higher = unit == "rps"

            def ratio(a, b):
                rs = [(x / y) if higher else (y / x) for x, y in zip(a, b)]
                return f"{statistics.median(rs):.2f}x ({min(rs):.2f}-{max(rs):.2f})"
            fmt = (lambda v: f"{statistics.median(v):,.0f} req/s") if higher else (lambda v: f"{statistics.median(v):.2f} us")
            rows.append([case, what, fmt(old), fmt(new),
                         ratio(old, vals[0]) if base_cmd else "-", ratio(new, vals[0]) if base_cmd else "-",
                         ratio(new, old)])
    return rows


if __name__ == "__main__":
    main()
