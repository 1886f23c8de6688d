"""``drupal jsonapi``: JSON:API reads from the shell: one resource, one page of a collection, or
every page (``--all``, following ``links.next``, optionally several pages in flight), with
filters, sort, include and sparse fieldsets made by the library's query builder."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Dict, Iterable

import drupalsdk

from ._cli_exits import UsageError

if TYPE_CHECKING:
    from ._cli_commands import Output


#: Filter operators the --filter option accepts after a colon (PATH:OPERATOR=VALUE).
_LIST_OPERATORS = ("IN", "NOT IN", "BETWEEN", "NOT BETWEEN")
_NULL_OPERATORS = ("IS NULL", "IS NOT NULL")


def jsonapi_query(args: argparse.Namespace) -> drupalsdk.Query:
    """The JSON:API query of the options: --filter PATH=VALUE or PATH:OPERATOR=VALUE (a list
    operator takes VALUE,VALUE; IS NULL and IS NOT NULL take none: "PATH:IS NULL"), --sort
    [-]FIELD, --include REL,REL, --fields TYPE=a,b, --limit, --offset. Conditions are ANDed
    (groups are for the Python and C query builders)."""
    query = drupalsdk.Query()
    for item in args.filter or ():
        condition, equals, value = item.partition("=")
        path, colon, operator = condition.partition(":")
        operator = operator.strip().upper() if colon else "="
        if not path or (not equals and operator not in _NULL_OPERATORS):
            raise UsageError("--filter takes PATH=VALUE or PATH:OPERATOR=VALUE, not %r" % item)
        if operator in _NULL_OPERATORS:
            query.add_filter(path, None, operator)
        elif operator in _LIST_OPERATORS:
            query.add_filter(path, value.split(","), operator)
        else:
            query.add_filter(path, value, operator)
    for field in args.sort or ():
        if field.startswith("-"):
            query.add_sort(field[1:], "DESC")
        else:
            query.add_sort(field)
    if args.include:
        query.add_include(args.include.split(","))
    for item in args.fields or ():
        resource_type, equals, fields = item.partition("=")
        if not equals:
            raise UsageError("--fields takes TYPE=FIELD,FIELD, not %r" % item)
        query.add_fields(resource_type, fields.split(","))
    if args.limit is not None:
        query.add_page_limit(args.limit)
    if args.offset is not None:
        query.add_page_offset(args.offset)
    return query


def cmd_jsonapi(client: drupalsdk.Client, args: argparse.Namespace, out: Output) -> None:
    query = jsonapi_query(args)
    if "/" in args.type:   # node/article, as in the URL
        entity_type, _, bundle = args.type.partition("/")
        args.type = (entity_type, bundle)
    if args.id is not None:
        document = client.jsonapi_get(args.type, args.id, query)
        out.json(document.raw if args.document else document.raw.get("data"))
        return
    if not args.all:
        document = client.jsonapi_collection(args.type, query)
        if args.document:
            out.json(document.raw)
            return
        resources: Iterable[Dict[str, Any]] = (r.raw for r in document.resources)
    else:
        resources = _counted_resources(client.jsonapi_iter(args.type, query, concurrency=args.concurrency,
                                                           max_pages=args.max_pages), out)
    if args.ndjson:
        for resource in resources:
            out.json(resource, compact=True)
    else:
        out.json(list(resources))


def _counted_resources(resources: Iterable[drupalsdk.Resource], out: Output) -> Iterable[Dict[str, Any]]:
    count = 0
    for resource in resources:
        count += 1
        if count % 50 == 0:
            out.progress("jsonapi: %d resources" % count)
        yield resource.raw
    out.progress("jsonapi: %d resources, done" % count)


def args_jsonapi(p: argparse.ArgumentParser) -> None:
    p.add_argument("type", help="a resource type: node--article (or node/article)")
    p.add_argument("id", nargs="?", help="one resource's UUID (else the collection)")
    p.add_argument("--filter", action="append", metavar="PATH[:OP]=VALUE",
                   help="a condition: title=X, title:CONTAINS=Art, uid.name=admin, "
                        "drupal_internal__nid:IN=1,2, field_x:IS NULL")
    p.add_argument("--sort", action="append", metavar="[-]FIELD", help="sort by FIELD; --sort=-FIELD: descending")
    p.add_argument("--include", metavar="REL,REL", help="relationships to include, e.g. uid,field_tags")
    p.add_argument("--fields", action="append", metavar="TYPE=FIELD,FIELD", help="a sparse fieldset")
    p.add_argument("--limit", type=int, help="page[limit] (Drupal caps it at 50)")
    p.add_argument("--offset", type=int, help="page[offset]")
    p.add_argument("--all", action="store_true", help="every page, following links.next")
    p.add_argument("--concurrency", type=int, default=1, help="with --all: pages in flight (1-64, default 1)")
    p.add_argument("--max-pages", type=int, default=0, help="with --all: stop after fetching this many pages "
                   "(0: the library's limit, 100,000)")
    p.add_argument("--document", action="store_true", help="print the whole document (links, included, meta)")
    p.add_argument("--ndjson", action="store_true", help="one resource a line")
