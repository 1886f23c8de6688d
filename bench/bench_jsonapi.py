#!/usr/bin/env python3
"""Drivers of the JSON:API bench rows (case 10). Each prints `RESULT <name> <value>` lines.

    bench_jsonapi.py read-lib|read-requests|read-dac BASE ID N WARMUP
        N individual reads (GET /jsonapi/node/article/ID?include=uid -> a document); rps, and
        cpu_us: the process's CPU time (every thread: the library's too) per read.
    bench_jsonapi.py walk-lib BASE CONCURRENCY | walk-raw BASE
        one walk of the collection; rps = pages per second (walk-raw: http.client following
        links.next, the server's own ceiling for a sequential walk).
    bench_jsonapi.py resolve-lib|resolve-dac N
        a 50-resource page with 100 included resources (built here): the document turned into
        objects and every node's author and tags resolved; us per page.
"""
import json
import os
import resource
import sys
import time
import urllib.parse

QUERY = "include=uid"


def result(name, value):
    print(f"RESULT {name} {value:.6g}", flush=True)


def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed_reads(read, n, warmup):
    for _ in range(warmup):
        read()
    wall, used = time.perf_counter(), cpu()
    for _ in range(n):
        read()
    wall, used = time.perf_counter() - wall, cpu() - used
    result("rps", n / wall)
    result("cpu_us", used / n * 1e6)


def read_lib(base, resource_id, n, warmup):
    import drupalsdk
    client = drupalsdk.Client(base)
    client.set_basic_auth("admin", "admin")
    query = drupalsdk.Query().add_include(["uid"])

    def read():
        document = client.jsonapi_get("node--article", resource_id, query)
        assert document.data["title"]
    timed_reads(read, n, warmup)


def read_requests(base, resource_id, n, warmup):
    import requests
    session = requests.Session()
    session.auth = ("admin", "admin")
    url = f"{base}/jsonapi/node/article/{resource_id}?{QUERY}"

    def read():
        response = session.get(url, headers={"Accept": "application/vnd.api+json"})
        response.raise_for_status()
        assert response.json()["data"]["attributes"]["title"]
    timed_reads(read, n, warmup)


def read_dac(base, resource_id, n, warmup):
    from drupal_api_client import JsonApiClient
    from drupal_api_client.auth import BasicAuth  # type: ignore
    client = JsonApiClient(base, authentication=BasicAuth("admin", "admin"))

    def read():
        document = client.get_resource("node--article", resource_id, query_string=QUERY, disable_cache=True)
        assert document
    timed_reads(read, n, warmup)


def walk_lib(base, concurrency):
    import drupalsdk
    client = drupalsdk.Client(base)
    client.set_basic_auth("admin", "admin")
    query = (drupalsdk.Query().add_fields("node--article", ["title"]).add_sort("drupal_internal__nid")
             .add_page_limit(50))
    start = time.perf_counter()
    pages = resources = 0
    for page in client.jsonapi_pages("node--article", query, concurrency=concurrency):
        pages += 1
        resources += len(page)
    seconds = time.perf_counter() - start
    assert resources >= 2000, resources
    result("rps", pages / seconds)
    result("seconds", seconds)


def walk_raw(base):
    import http.client
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    target = "/jsonapi/node/article?fields%5Bnode--article%5D=title&sort=drupal_internal__nid&page%5Blimit%5D=50"
    start = time.perf_counter()
    pages = resources = 0
    while target:
        connection.request("GET", target, headers={"Accept": "application/vnd.api+json"})
        document = json.loads(connection.getresponse().read())
        pages += 1
        resources += len(document["data"])
        link = (document.get("links", {}).get("next") or {}).get("href")
        target = urllib.parse.urlsplit(link)._replace(scheme="", netloc="").geturl() if link else None
    seconds = time.perf_counter() - start
    assert resources >= 2000, resources
    result("rps", pages / seconds)
    result("seconds", seconds)


def sample_page():
    """50 articles, each by one of 20 users and tagged with 2 of 80 tags: 100 included."""
    users = [{"type": "user--user", "id": f"u{i}", "attributes": {"name": f"user {i}", "mail": f"u{i}@x"},
              "relationships": {"roles": {"data": []}}} for i in range(20)]
    tags = [{"type": "taxonomy_term--tags", "id": f"t{i}", "attributes": {"name": f"tag {i}", "weight": i},
             "relationships": {"vid": {"data": {"type": "taxonomy_vocabulary--taxonomy_vocabulary", "id": "v"}}}}
            for i in range(80)]
    nodes = []
    for i in range(50):
        attributes = {"title": f"Article {i}", "status": True, "created": "2026-12-01T00:00:00+00:00",
                      "body": {"value": "<p>x</p>", "format": "basic_html"}}
        attributes.update({f"field_{k}": k for k in range(10)})
        nodes.append({"type": "node--article", "id": f"n{i}", "attributes": attributes,
                      "relationships": {"uid": {"data": {"type": "user--user", "id": f"u{i % 20}"}},
                                        "field_tags": {"data": [{"type": "taxonomy_term--tags", "id": f"t{(2 * i) % 80}"},
                                                                {"type": "taxonomy_term--tags",
                                                                 "id": f"t{(2 * i + 1) % 80}"}]}}})
    return {"jsonapi": {"version": "1.0"}, "data": nodes, "included": users + tags, "links": {}}


def timed_resolve(resolve, n):
    raw = json.dumps(sample_page())
    documents = [json.loads(raw) for _ in range(n)]   # parsing is not part of what is measured
    for document in documents[:20]:
        resolve(json.loads(raw))
    start = time.perf_counter()
    for document in documents:
        resolve(document)
    result("us", (time.perf_counter() - start) / n * 1e6)


def resolve_lib(n):
    from drupalsdk import Document

    def resolve(raw):
        names = []
        for node in Document(raw):
            names.append(node.related("uid")["name"])
            names.extend(tag["name"] for tag in node.related("field_tags"))
        assert len(names) == 150
    timed_resolve(resolve, n)


def resolve_dac(n):
    from drupal_api_client.serializer import DefaultSerializer
    serializer = DefaultSerializer()

    def resolve(raw):
        names = []
        for node in serializer.deserialize(raw):
            names.append(node["uid"]["name"])
            names.extend(tag["name"] for tag in node["field_tags"])
        assert len(names) == 150
    timed_resolve(resolve, n)


def main(argv):
    mode, args = argv[1], argv[2:]
    if mode in ("read-lib", "read-requests", "read-dac"):
        reader = {"read-lib": read_lib, "read-requests": read_requests, "read-dac": read_dac}[mode]
        reader(args[0], args[1], int(args[2]), int(args[3]))
    elif mode == "walk-lib":
        walk_lib(args[0], int(args[1]))
    elif mode == "walk-raw":
        walk_raw(args[0])
    elif mode == "resolve-lib":
        resolve_lib(int(args[0]))
    elif mode == "resolve-dac":
        resolve_dac(int(args[0]))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                    "bindings", "python", "src"))
    main(sys.argv)
