#!/usr/bin/env python3
"""A JSON:API replay server for the JSON:API bench rows: it records a collection's pages and one
resource from the fake Drupal server once, then answers them (asyncio, keep-alive) after a fixed
delay, so the client side is what is measured: the fake server's own Python CPU (~5 ms a page)
would otherwise cap how many pages can be in flight.

    jsonapi_page_server.py SOURCE_URL [--delays-ms 0,20] [--articles 2000]

SOURCE_URL is a fake Drupal server (Basic admin:admin); it is seeded to --articles articles.
Pages are keyed by page[offset] (50 a page, fields[node--article]=title, sorted by nid), so a
walk by links.next and a walk by offset get the same answers; /jsonapi/node/article/{id} answers
the recorded resource (with its author included). One port per delay: prints
"LISTENING <delay ms> http://127.0.0.1:PORT" for each.
"""
import argparse
import asyncio
import base64
import http.client
import json
import sys
import urllib.parse

AUTH = {"Authorization": "Basic " + base64.b64encode(b"admin:admin").decode(), "Accept": "application/vnd.api+json"}
PAGE_QUERY = "fields%5Bnode--article%5D=title&sort=drupal_internal__nid&page%5Blimit%5D=50"


def fetch(source, target, method="GET", body=None):
    parts = urllib.parse.urlsplit(source)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    headers = dict(AUTH, **({"Content-Type": "application/json"} if body else {}))
    connection.request(method, target, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    if response.status >= 400:
        raise SystemExit(f"{method} {target}: {response.status} {data[:200]!r}")
    return data


def record(source, articles):
    """{offset: body} of every page, and (id, body) of one resource with its author included."""
    fetch(source, "/__fake/reset", "POST")
    if articles > 5:
        fetch(source, "/__fake/seed", "POST", json.dumps({"articles": articles - 5}).encode())
    pages = {}
    target = "/jsonapi/node/article?" + PAGE_QUERY
    while target:
        body = fetch(source, target)
        document = json.loads(body)
        offset = int(urllib.parse.parse_qs(urllib.parse.urlsplit(target).query).get("page[offset]", ["0"])[0])
        pages[offset] = body
        next_link = (document.get("links", {}).get("next") or {}).get("href")
        target = urllib.parse.urlsplit(next_link)._replace(scheme="", netloc="").geturl() if next_link else None
    first_id = json.loads(pages[0])["data"][0]["id"]
    print(f"RESOURCE {first_id}", flush=True)
    resource = fetch(source, f"/jsonapi/node/article/{first_id}?include=uid")
    fetch(source, "/__fake/reset", "POST")   # the other cases see the seed data again
    return pages, first_id, resource


async def serve(pages, resource_id, resource, source, delays_ms):
    def handler(origin, delay):
        async def handle(reader, writer):
            try:
                while True:
                    request_line = await reader.readline()
                    if not request_line:
                        return
                    while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                        pass
                    _, target, _ = request_line.decode("latin-1").split(" ", 2)
                    parts = urllib.parse.urlsplit(target)
                    if parts.path == "/jsonapi/node/article":
                        offset = int(urllib.parse.parse_qs(parts.query).get("page[offset]", ["0"])[0])
                        body = pages.get(offset, b'{"jsonapi":{"version":"1.0"},"data":[],"links":{}}')
                    elif parts.path == "/jsonapi/node/article/" + resource_id:
                        body = resource
                    else:
                        body = b'{"errors":[{"status":"404","title":"Not Found"}]}'
                    if delay:
                        await asyncio.sleep(delay)
                    # Drupal writes "/" as "\/" in JSON strings: both spellings of the origin.
                    for old, new in ((source, origin["url"]), (source.replace("/", "\\/"), origin["url"].replace("/", "\\/"))):
                        body = body.replace(old.encode(), new.encode())
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/vnd.api+json\r\n"
                                 b"Content-Length: %d\r\n\r\n" % len(body) + body)
                    await writer.drain()
            except (ConnectionError, ValueError):
                pass
            finally:
                writer.close()
        return handle

    servers = []
    for delay in delays_ms:
        origin = {}
        server = await asyncio.start_server(handler(origin, delay / 1000), "127.0.0.1", 0, backlog=256)
        origin["url"] = "http://127.0.0.1:%d" % server.sockets[0].getsockname()[1]
        print(f"LISTENING {delay} {origin['url']}", flush=True)
        servers.append(server)
    await asyncio.gather(*(server.serve_forever() for server in servers))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("--delays-ms", default="0,20")
    parser.add_argument("--articles", type=int, default=2000)
    args = parser.parse_args()
    pages, resource_id, resource = record(args.source.rstrip("/"), args.articles)
    print(f"recorded {len(pages)} pages", file=sys.stderr)
    delays = [int(delay) for delay in args.delays_ms.split(",")]
    asyncio.run(serve(pages, resource_id, resource, args.source.rstrip("/"), delays))


if __name__ == "__main__":
    main()
