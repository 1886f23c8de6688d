#!/usr/bin/env python3
"""JSON:API from Python: a filter group, include and sparse fieldsets, every page of the
collection (8 pages in flight), and each article's author and tags resolved from the page's
``included``; then a JSON:API create, a relationship change and a delete.

    DRUPAL_BASE_URL=http://127.0.0.1:8080 [DRUPAL_USER=admin DRUPAL_PASSWORD=admin] python3 jsonapi_walk.py

The filter: title CONTAINS "Article" AND (author is admin OR tagged beta).
Exit codes: 0 success, 1 a Drupal or network error, 2 bad configuration.
"""
import os
import sys

import drupalsdk
from drupalsdk import Query


def main() -> int:
    base_url = os.environ.get("DRUPAL_BASE_URL")
    if not base_url:
        print("jsonapi_walk: set DRUPAL_BASE_URL (e.g. http://127.0.0.1:8080)", file=sys.stderr)
        return 2
    try:
        with drupalsdk.Client(base_url, timeout=30, ca_file=os.environ.get("DRUPAL_CA_FILE") or None) as client:
            client.set_basic_auth(os.environ.get("DRUPAL_USER", "admin"), os.environ.get("DRUPAL_PASSWORD", "admin"))
            query = (Query()
                     .add_group("either", "OR")
                     .add_filter("title", "Article", "CONTAINS")
                     .add_filter("uid.name", "admin", member_of="either")
                     .add_filter("field_tags.name", "beta", member_of="either")
                     .add_include(["uid", "field_tags"])
                     .add_fields("node--article", ["title", "uid", "field_tags"])
                     .add_fields("user--user", ["name"])
                     .add_sort("drupal_internal__nid")
                     .add_page_limit(2))
            print("query: %s" % query.get_query_string())
            count = 0
            for number, page in enumerate(client.jsonapi_pages("node--article", query, concurrency=8), 1):
                print("page %d: %d article(s)" % (number, len(page)))
                for node in page:
                    author = node.related("uid")
                    tags = " ".join(tag["name"] for tag in node.related("field_tags"))
                    print("  %-24s by %-8s tags: %s" % (node["title"], author["name"] if author else "?", tags))
                    count += 1
            print("%d article(s)" % count)

            beta = client.jsonapi_collection("taxonomy_term--tags", Query().add_filter("name", "beta")).data[0]
            created = client.jsonapi_create("node--article", {"title": "Made through JSON:API"},
                                            {"field_tags": [beta]}).data
            print("created %s %r tagged %s" % (created.id, created["title"],
                                                 [tag_id for _, tag_id in created.identifiers("field_tags")]))
            client.jsonapi_replace_relationship("node--article", created.id, "field_tags", [])
            client.jsonapi_delete("node--article", created.id)
            print("deleted %s" % created.id)
    except drupalsdk.ValidationError as error:
        for pointer, detail in error.violations:
            print("jsonapi_walk: invalid %s: %s" % (pointer, detail), file=sys.stderr)
        return 1
    except drupalsdk.HTTPError as error:
        print("jsonapi_walk: the site answered %s: %s" % (error.status, error.message), file=sys.stderr)
        return 1
    except (drupalsdk.NetworkError, drupalsdk.DrupalTimeoutError) as error:
        print("jsonapi_walk: cannot reach %s: %s" % (base_url, error.message), file=sys.stderr)
        return 1
    except drupalsdk.InvalidArgumentError as error:
        print("jsonapi_walk: bad configuration: %s" % error.message, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
