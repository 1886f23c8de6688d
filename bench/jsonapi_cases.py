"""Bench case 12, JSON:API (called from harness.py): client cost per read against
drupal-api-client and requests, a 2,000-resource collection walk against a 20 ms server, and
resolving `included`. The servers are bench/jsonapi_page_server.py, a replay of the fake Drupal
server's own answers (recorded once per run) that answers without the fake's Python CPU cost."""
import os
import re
import subprocess

BENCH = os.path.dirname(os.path.abspath(__file__))


class PageServer:
    """One replay server process: a port without delay (reads) and one with 20 ms (walks)."""

    def __init__(self, python, fake_url):
        self.process = subprocess.Popen([python, os.path.join(BENCH, "jsonapi_page_server.py"), fake_url,
                                         "--delays-ms", "0,20"], stdout=subprocess.PIPE, text=True)
        self.urls = {}
        self.resource = None
        for _ in range(3):
            line = self.process.stdout.readline().strip()
            if line.startswith("RESOURCE "):
                self.resource = line.split()[1]
            match = re.match(r"LISTENING (\d+) (\S+)", line)
            if match:
                self.urls[int(match.group(1))] = match.group(2)
        if self.resource is None or len(self.urls) != 2:
            self.stop()
            raise RuntimeError("the JSON:API page server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


def case12(t, s, quick, python, measure, Driver, paired):
    driver = [python, os.path.join(BENCH, "bench_jsonapi.py")]
    server = PageServer(python, s.fake)

    def run(argvs, reps):
        return measure(None, [Driver(driver + argv) for argv in argvs], reps)

    try:
        fast, slow, uuid = server.urls[0], server.urls[20], server.resource
        n, w = ("300", "50") if quick else ("3000", "300")
        reps = 3 if quick else 5
        lib, rq, dac = run([["read-lib", fast, uuid, n, w], ["read-requests", fast, uuid, n, w],
                            ["read-dac", fast, uuid, n, w]], reps)
        fastest = min((peer for peer in (rq, dac) if not isinstance(peer, str)), key=lambda p: p["cpu_us"],
                      default=rq)
        name = "requests + json" if fastest is rq else "drupal-api-client"
        t.compare("12 JSON:API", f"client CPU per read (include=uid -> document), vs the fastest peer ({name})", lib,
                  fastest, 3.0, key="cpu_us", unit="us", higher_is_better=False,
                  note="Client.jsonapi_get; CPU of the whole client process (library threads too)")
        for peer, label in ((rq, "requests.Session + .json()"), (dac, "drupal-api-client JsonApiClient.get_resource")):
            t.compare("12 JSON:API", f"reads vs {label}", lib, peer, note="rate; CPU per read beside it")
        walk_reps = 3 if quick else 5
        seq, conc, raw = run([["walk-lib", slow, "1"], ["walk-lib", slow, "8"], ["walk-raw", slow]], walk_reps)
        t.compare("12 JSON:API", "walk 2,000 resources (40 pages, 20 ms server) by links.next vs the server's ceiling",
                  seq, raw, 0.9, note="pages/s; baseline: http.client following links.next")
        t.compare("12 JSON:API", "the same walk, 8 pages in flight, vs by links.next", conc, seq, 6.0,
                  note="pages/s; in order; ceiling 8x: 40 pages, 8 at a time")
        it = "200" if quick else "2000"
        ours, theirs = run([["resolve-lib", it], ["resolve-dac", it]], 3 if quick else 5)
        t.compare("12 JSON:API", "resolve included: 50 resources, 100 included, vs drupal-api-client's serializer",
                  ours, theirs, 2.0, key="us", unit="us", higher_is_better=False,
                  note="Document + Resource.related vs DefaultSerializer")
    finally:
        server.stop()
