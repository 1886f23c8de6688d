"""The Python half of the profile-guided build's training run (scripts/pgo/profile): the
binding's everyday calls against the bundled fake Drupal server, on an instrumented
libdrupalsdk (DRUPALSDK_LIBRARY): blocking reads as dicts and as bytes, futures, asyncio with
32 in flight, a session's writes, JSON:API. The C API paths the binding takes (drupal_request,
the completion queues) are trained here; train.c trains the ones C programs take.

    python3 scripts/pgo/train.py BASE_URL
"""
import asyncio
import sys

import drupalsdk


def blocking(base):
    with drupalsdk.Client(base) as client:
        for i in range(600):
            client.get("node", 1 + i % 5)
        for _ in range(200):
            client.request("GET", "/node/1").content
        futures = [client.submit_get("node", 1 + i % 5) for i in range(300)]
        for future in futures:
            future.result()
        client.login("admin", "admin")
        for _ in range(10):
            node = client.create("node", {"type": [{"target_id": "article"}], "title": [{"value": "Trained"}]})
            nid = node["nid"][0]["value"]
            client.update("node", nid, {"type": [{"target_id": "article"}], "title": [{"value": "Again"}]})
            client.delete("node", nid)
        client.view("/api/articles")
        for _ in range(50):
            client.jsonapi_collection("node--article")
        client.logout()


async def concurrent(base):
    async with drupalsdk.AsyncClient(base) as client:
        left = 2000

        async def worker():
            nonlocal left
            while left > 0:
                left -= 1
                await client.get("node", 1 + left % 5)

        await asyncio.gather(*(worker() for _ in range(32)))


def main():
    base = sys.argv[1]
    blocking(base)
    asyncio.run(concurrent(base))


if __name__ == "__main__":
    main()
