#!/usr/bin/env python3
"""A tour of drupalsdk: log in, create an article, read it, update it, list the view (all pages),
delete the article, log out.

    DRUPAL_BASE_URL=http://127.0.0.1:8080 [DRUPAL_USER=admin DRUPAL_PASSWORD=admin] python3 tour.py

An HTTPS site whose certificate comes from a private CA: DRUPAL_CA_FILE=/path/to/ca.pem.

Exit codes: 0 success, 1 a Drupal or network error, 2 bad configuration.
"""
import os
import sys

import drupalsdk


def main() -> int:
    base_url = os.environ.get("DRUPAL_BASE_URL")
    if not base_url:
        print("tour: set DRUPAL_BASE_URL (e.g. http://127.0.0.1:8080)", file=sys.stderr)
        return 2
    user = os.environ.get("DRUPAL_USER", "admin")
    password = os.environ.get("DRUPAL_PASSWORD", "admin")

    try:
        # DRUPAL_CA_FILE: a private CA's certificates (None: the system's store).
        with drupalsdk.Client(base_url, timeout=30, ca_file=os.environ.get("DRUPAL_CA_FILE") or None) as client:
            me = client.login(user, password)["current_user"]
            print("logged in as %s (uid %s)" % (me["name"], me["uid"]))

            created = client.create("node", {
                "type": [{"target_id": "article"}],
                "title": [{"value": "Hello from Python"}],
                "body": [{"value": "<p>Written by tour.py</p>", "format": "basic_html"}],
            })
            nid = created["nid"][0]["value"]
            print("created node %s" % nid)

            try:
                node = client.get("node", nid)
                print("read node %s: %r" % (nid, node["title"][0]["value"]))

                updated = client.update("node", nid, {"type": [{"target_id": "article"}],
                                                      "title": [{"value": "Hello again from Python"}]})
                print("updated node %s: %r" % (nid, updated["title"][0]["value"]))

                rows = list(client.view_all("/api/articles"))
                print("view /api/articles: %d rows" % len(rows))
                for row in rows:
                    print("  %s  %s" % (row.get("nid", "?"), row.get("title", "")))
            finally:
                # Even after a failure above: the tour leaves the site as it found it.
                client.delete("node", nid)
                print("deleted node %s" % nid)

            client.logout()
            print("logged out")
    except drupalsdk.AuthenticationError as error:
        print("tour: login refused for %r: %s" % (user, error.message), file=sys.stderr)
        return 1
    except drupalsdk.ValidationError as error:
        for field, message in error.violations:
            print("tour: invalid %s: %s" % (field, message), file=sys.stderr)
        return 1
    except drupalsdk.HTTPError as error:
        print("tour: the site answered %s: %s" % (error.status, error.message), file=sys.stderr)
        return 1
    except (drupalsdk.NetworkError, drupalsdk.DrupalTimeoutError) as error:
        print("tour: cannot reach %s: %s" % (base_url, error.message), file=sys.stderr)
        return 1
    except drupalsdk.InvalidArgumentError as error:
        print("tour: bad configuration: %s" % error.message, file=sys.stderr)
        return 2
    except drupalsdk.DrupalError as error:
        print("tour: %s" % error, file=sys.stderr)
        return 1
    print("tour complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
