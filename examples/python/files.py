#!/usr/bin/env python3
"""Files with drupalsdk: upload a file from disk to an image field (streamed, with progress),
attach it to a new article, download it back by its file entity (to a path, and to a callable
that hashes it as it arrives), then delete the article.

    DRUPAL_BASE_URL=http://127.0.0.1:8080 [DRUPAL_USER=admin DRUPAL_PASSWORD=admin] python3 files.py

Exit codes: 0 success, 1 a Drupal or network error (or a copy that differs), 2 bad configuration.
"""
import hashlib
import os
import sys
import tempfile

import drupalsdk


def main() -> int:
    base_url = os.environ.get("DRUPAL_BASE_URL")
    if not base_url:
        print("files: set DRUPAL_BASE_URL (e.g. http://127.0.0.1:8080)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as work:
        original = os.path.join(work, "example.png")
        with open(original, "wb") as f:   # a PNG signature, then a pattern
            f.write(b"\x89PNG\r\n\x1a\n" + bytes((i * 7) & 0xFF for i in range(300_000 - 8)))
        with open(original, "rb") as f:
            expected = hashlib.sha256(f.read()).hexdigest()
        try:
            with drupalsdk.Client(base_url, timeout=60, ca_file=os.environ.get("DRUPAL_CA_FILE") or None) as client:
                client.set_basic_auth(os.environ.get("DRUPAL_USER", "admin"), os.environ.get("DRUPAL_PASSWORD", "admin"))

                # Streamed from disk, never read whole; the callback runs as the bytes go.
                shown = []

                def progress(sent, total):
                    quarter = sent * 4 // total if total else 0
                    if quarter > len(shown):
                        shown.append(quarter)
                        print("  sent %d of %d bytes" % (sent, total))
                file = client.upload_file_path("node", "article", "field_image", original, progress=progress)
                fid = file["fid"][0]["value"]
                print("file entity %s: %s" % (fid, file["uri"][0]["url"]))

                node = client.create("node", {"type": [{"target_id": "article"}],
                                              "title": [{"value": "With an image from Python"}],
                                              "field_image": [{"target_id": fid}]})
                nid = node["nid"][0]["value"]
                print("article %s references file %s" % (nid, fid))

                try:
                    # To a path: written to a part file of its own ("<path>.<random>.part"),
                    # renamed once complete.
                    copy = os.path.join(work, "copy.png")
                    client.download_file(fid, copy)
                    with open(copy, "rb") as f:
                        same = hashlib.sha256(f.read()).hexdigest() == expected
                    print("downloaded to a path: %s" % ("same bytes" if same else "DIFFERENT"))

                    # To a callable: each piece as it arrives, nothing kept.
                    digest = hashlib.sha256()
                    client.download_file(fid, write=digest.update)
                    streamed_same = digest.hexdigest() == expected
                    print("streamed: %s" % ("same bytes" if streamed_same else "DIFFERENT"))
                finally:
                    # Even after a failed download: the article goes (Drupal's file usage clean-up takes the file).
                    client.delete("node", nid)
                    print("deleted article %s" % nid)
        except drupalsdk.DrupalError as error:
            print("files: %s" % error, file=sys.stderr)
            return 1
    if not (same and streamed_same):
        return 1
    print("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
