#!/usr/bin/env python3
"""Creates N articles concurrently with futures, shows progress, then deletes them.

    DRUPAL_BASE_URL=http://127.0.0.1:8080 python3 bulk_import.py --count 500 --concurrency 32 [--keep]

Credentials: DRUPAL_USER / DRUPAL_PASSWORD (default admin/admin).
Exit codes: 0 every article was created (and deleted), 1 some failed, 2 bad configuration.
"""
import argparse
import concurrent.futures
import os
import sys
import time

import drupalsdk


def progress(label: str, done: int, total: int, failed: int, started: float) -> None:
    elapsed = max(time.monotonic() - started, 1e-9)
    sys.stdout.write("\r%s %d/%d (%d failed) %.0f/s " % (label, done, total, failed, done / elapsed))
    sys.stdout.flush()


def run_bounded(submit, items, concurrency: int, label: str):
    """Runs submit(item) for every item with at most `concurrency` calls in flight.

    Returns (results, errors) where results maps item -> result.
    """
    results, errors = {}, []
    items = list(items)
    started = time.monotonic()
    in_flight = {}
    position = 0
    while position < len(items) or in_flight:
        while position < len(items) and len(in_flight) < concurrency:
            future = submit(items[position])
            in_flight[future] = items[position]
            position += 1
        done, _ = concurrent.futures.wait(in_flight, return_when=concurrent.futures.FIRST_COMPLETED)
        for future in done:
            item = in_flight.pop(future)
            try:
                results[item] = future.result()
            except drupalsdk.DrupalError as error:
                errors.append((item, error))
        progress(label, len(results) + len(errors), len(items), len(errors), started)
    elapsed = time.monotonic() - started
    sys.stdout.write("\n")
    return results, errors, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="articles to create (default 100)")
    parser.add_argument("--concurrency", type=int, default=16, help="requests in flight (default 16)")
    parser.add_argument("--keep", action="store_true", help="keep the articles instead of deleting them")
    parser.add_argument("--base-url", default=os.environ.get("DRUPAL_BASE_URL"))
    args = parser.parse_args()
    if not args.base_url:
        print("bulk_import: set DRUPAL_BASE_URL or pass --base-url", file=sys.stderr)
        return 2
    if args.count < 0 or args.concurrency < 1:
        print("bulk_import: --count must be >= 0 and --concurrency >= 1", file=sys.stderr)
        return 2

    with drupalsdk.Client(args.base_url, timeout=60, ca_file=os.environ.get("DRUPAL_CA_FILE") or None) as client:
        try:
            client.login(os.environ.get("DRUPAL_USER", "admin"), os.environ.get("DRUPAL_PASSWORD", "admin"))
        except drupalsdk.DrupalError as error:
            print("bulk_import: login failed: %s" % error, file=sys.stderr)
            return 1

        def create(n):
            return client.submit_create("node", {"type": [{"target_id": "article"}],
                                                 "title": [{"value": "Bulk article %d" % n}]})

        created, failures, elapsed = run_bounded(create, range(args.count), args.concurrency, "created")
        rate = len(created) / elapsed if elapsed > 0 else 0.0
        print("created %d articles in %.2fs (%.0f/s), %d failed" % (len(created), elapsed, rate, len(failures)))
        for n, error in failures[:5]:
            print("  article %d: %s" % (n, error), file=sys.stderr)

        deleted_failures = []
        if not args.keep and created:
            ids = [entity["nid"][0]["value"] for entity in created.values()]
            deleted, deleted_failures, elapsed = run_bounded(lambda nid: client.submit_delete("node", nid),
                                                             ids, args.concurrency, "deleted")
            rate = len(deleted) / elapsed if elapsed > 0 else 0.0
            print("deleted %d articles in %.2fs (%.0f/s), %d failed"
                  % (len(deleted), elapsed, rate, len(deleted_failures)))
        elif args.keep:
            print("kept %d articles" % len(created))
        client.logout()
    return 1 if failures or deleted_failures else 0


if __name__ == "__main__":
    sys.exit(main())
