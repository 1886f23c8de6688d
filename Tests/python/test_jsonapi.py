"""JSON:API from Python against the fake server: the query builder against drupal-jsonapi-params
itself, documents and included resolution, the pagers (blocking, concurrent, asyncio), writes,
relationships, uploads, errors and bad input."""
from __future__ import annotations

import asyncio
import random

import pytest

import drupalsdk
from drupalsdk import Document, Query, Resource

drupal_jsonapi_params = pytest.importorskip("drupal_jsonapi_params")
ARTICLE = "node--article"


def _both(build):
    """The same calls on our Query and on drupal-jsonapi-params; their query strings."""
    ours, theirs = Query(), drupal_jsonapi_params.DrupalJsonApiParams()
    build(ours)
    build(theirs)
    return ours.get_query_string(), theirs.get_query_string()


@pytest.mark.parametrize("build", [
    lambda q: q.add_filter("title", "Article 3"),
    lambda q: q.add_filter("title", "Art", "STARTS_WITH").add_page_limit(2),
    lambda q: q.add_filter("drupal_internal__nid", ["1", "3", "5"], "IN"),
    lambda q: q.add_filter("created", ["1", "9"], "NOT BETWEEN"),
    lambda q: q.add_filter("revision_log", None, "IS NULL").add_filter("title", None, "IS NOT NULL"),
    lambda q: q.add_filter("title", "Article 1", "<>"),
    lambda q: (q.add_group("or", "OR").add_filter("title", "Article 1", member_of="or")
               .add_group("and", "AND", "or").add_filter("uid.name", "editor", member_of="and")
               .add_filter("field_tags.name", "beta", member_of="and")),
    lambda q: q.add_filter("title", "a").add_filter("title", "b", "CONTAINS").add_filter("title", "c"),
    lambda q: q.add_filter("title", "a", key="t").add_filter("title", "b", key="t").add_filter("x", "y", key="t"),
    lambda q: (q.add_sort("uid.name").add_sort("title", "DESC").add_fields(ARTICLE, ["title", "uid"])
               .add_include(["uid", "field_tags"]).add_page_offset(4).add_page_limit(2)),
    lambda q: q.add_filter("title", "é ü,/&=?~*'()!").add_include(["uid"]).add_include(["field_tags.vid"]),
    lambda q: q.add_filter("title", "a\tb\r\nc\x7f").add_filter("body.value", ["x\ny", "\x1b"], "IN"),
    lambda q: q.add_custom_param({"resourceVersion": "rel:latest-version"}).add_fields(ARTICLE, ["title"]),
    lambda q: (q.add_group("g", "AND").add_filter("a", "1", member_of="g").add_filter("a", "2", member_of="g")
               .add_filter("a", "3").add_group("g", "OR")),
    lambda q: q.add_page_limit(5).add_page_offset(10).add_page_limit(7),
    lambda q: q.add_fields("user--user", ["name"]).add_fields(ARTICLE, ["title"]).add_fields("user--user", ["mail"]),
])
def test_query_strings_match_drupal_jsonapi_params(build):
    ours, theirs = _both(build)
    assert ours == theirs


def test_random_queries_match_drupal_jsonapi_params():
    """Random mixes of the builder's calls give the library's string too."""
    rng = random.Random(7)
    paths = ["title", "uid.name", "field_tags.name", "status", "0", "12", "nid"]
    values = ["a", "Article 1", "x y", "é", "%41", "1"]
    for _ in range(300):
        steps = []
        for _ in range(rng.randint(1, 7)):
            kind = rng.random()
            path = rng.choice(paths)
            if kind < 0.4:
                operator = rng.choice(["=", "<>", "CONTAINS", ">=", "STARTS_WITH"])
                member = rng.choice([None, None, "g1", "g2"])
                key = rng.choice([None, None, None, "k"])
                steps.append(lambda q, a=(path, rng.choice(values), operator, member, key): q.add_filter(*a))
            elif kind < 0.5:
                steps.append(lambda q, a=(path, ["1", "2"], rng.choice(["IN", "BETWEEN", "NOT IN"])): q.add_filter(*a))
            elif kind < 0.6:
                # g2 may join g1, never the other way round: a group that would be its own
                # member is refused (the site cannot build it), which the JS library does not do.
                group = rng.choice(["g1", "g2"])
                member = rng.choice([None, "g1"]) if group == "g2" else None
                steps.append(lambda q, a=(group, rng.choice(["AND", "OR"]), member): q.add_group(*a))
            elif kind < 0.7:
                steps.append(lambda q, a=(path, rng.choice([None, "ASC", "DESC"])): q.add_sort(*a))
            elif kind < 0.8:
                steps.append(lambda q, a=[rng.choice(["uid", "field_tags"])]: q.add_include(a))
            elif kind < 0.9:
                steps.append(lambda q, a=(rng.choice([ARTICLE, "user--user"]), ["title", "uid"]): q.add_fields(*a))
            else:
                steps.append(lambda q, a=rng.randint(1, 50): q.add_page_limit(a))
        ours, theirs = _both(lambda q: [step(q) for step in steps])
        assert ours == theirs


def test_bad_queries_are_refused_unchanged():
    query = Query().add_filter("title", "x")
    before = query.get_query_string()
    for bad in [lambda: query.add_filter("title", "x", "LIKE"),
                lambda: query.add_filter("title", None),
                lambda: query.add_filter("title", "x", "IN"),
                lambda: query.add_filter("nid", ["1"], "BETWEEN"),
                lambda: query.add_filter("nid", [], "IN"),
                lambda: query.add_filter("title\x00", "x"),
                lambda: query.add_filter("title", "a\x00b"),
                lambda: query.add_group("g", "XOR"),
                lambda: query.add_group("g", "OR", "g"),
                lambda: query.add_sort("title", "UP"),
                lambda: query.add_page_limit(0),
                lambda: query.add_page_limit(-1),
                lambda: query.add_page_limit(2 ** 70),
                lambda: query.add_fields(ARTICLE, "title"),
                lambda: query.add_custom_param({"resourceVersion": "latest"}),
                lambda: query.add_custom_param({"page[limit]": "3"})]:
        with pytest.raises(drupalsdk.InvalidArgumentError):
            bad()
    assert query.get_query_string() == before
    with pytest.raises(TypeError):
        Client = drupalsdk.Client  # noqa: N806
        Client("http://127.0.0.1:9").jsonapi_collection(ARTICLE, query="filter[title]=x")


def test_filter_group_with_included_authors(admin):
    query = (Query().add_group("or", "OR").add_filter("title", "Article 1", member_of="or")
             .add_group("and", "AND", "or").add_filter("uid.name", "editor", member_of="and")
             .add_filter("field_tags.name", "beta", member_of="and")
             .add_include(["uid", "field_tags"]).add_sort("drupal_internal__nid"))
    page = admin.jsonapi_collection(ARTICLE, query)
    assert isinstance(page, Document)
    assert [node["title"] for node in page] == ["Article 1", "Article 5"]
    first, fifth = page.resources
    assert first.related("uid")["name"] == "admin"
    assert fifth.related("uid")["name"] == "editor"
    assert [tag["name"] for tag in fifth.related("field_tags")] == ["beta"]
    assert fifth.identifiers("uid") == [("user--user", fifth.related("uid").id)]
    assert page.next is None
    assert page.raw["data"][0]["id"] == first.id


def test_a_filter_value_may_hold_tabs_and_line_breaks(admin):
    """Regression: a value with a control character was refused before sending, so a migration
    could not find the node whose title holds a tab; the query is percent-encoded, so it goes."""
    title = "Imported\tcolumn\r\nsecond line"
    created = admin.jsonapi_create(ARTICLE, {"title": title}).data
    found = admin.jsonapi_collection(ARTICLE, Query().add_filter("title", title))
    assert [node.id for node in found] == [created.id]
    assert found.resources[0]["title"] == title
    listed = admin.jsonapi_collection(ARTICLE, Query().add_filter("title", ["x", title], "IN"))
    assert [node.id for node in listed] == [created.id]


def test_sparse_fields_can_drop_the_linking_relationship(admin):
    query = Query().add_fields(ARTICLE, ["title"]).add_include(["uid"]).add_page_limit(2)
    page = admin.jsonapi_collection(ARTICLE, query)
    assert page.included, "the included resources still come"
    assert page.resources[0].related("uid") is None, "but no resource leads to them"


def test_walks_every_page_sequentially_and_concurrently(admin, server):
    server.control("POST", "/__fake/seed", {"articles": 115})
    query = Query().add_fields(ARTICLE, ["title"]).add_sort("drupal_internal__nid").add_page_limit(100)
    pages = list(admin.jsonapi_pages(ARTICLE, query))
    assert [len(page) for page in pages] == [50, 50, 20]  # page[limit] capped at 50
    titles = [node["title"] for node in admin.jsonapi_iter(ARTICLE, query)]
    assert len(titles) == 120 and len(set(titles)) == 120
    concurrent = [node["title"] for node in admin.jsonapi_iter(ARTICLE, query.add_page_limit(9), concurrency=8)]
    assert concurrent == titles
    assert len(list(admin.jsonapi_pages(ARTICLE, query, max_pages=2))) == 2
    with pytest.raises(drupalsdk.InvalidArgumentError):
        list(admin.jsonapi_iter(ARTICLE, concurrency=0))
    with pytest.raises(drupalsdk.InvalidArgumentError):
        list(admin.jsonapi_iter("node/article"))


def test_asyncio_and_futures(base_url, server):
    server.control("POST", "/__fake/seed", {"articles": 20})

    async def main():
        async with drupalsdk.AsyncClient(base_url) as client:
            client.set_basic_auth("admin", "admin")
            query = Query().add_sort("drupal_internal__nid").add_page_limit(4)
            ids = [node.id async for node in client.jsonapi_iter(ARTICLE, query, concurrency=4)]
            first = await client.jsonapi_get(ARTICLE, ids[0])
            return ids, first

    ids, first = asyncio.run(main())
    assert len(ids) == 25 and len(set(ids)) == 25
    assert first.data.id == ids[0]
    with drupalsdk.Client(base_url) as client:
        futures = [client.submit_jsonapi_get(ARTICLE, node_id) for node_id in ids[:5]]
        assert [future.result().data.id for future in futures] == ids[:5]


def test_an_identifiers_meta_is_sent(admin):
    """Regression: relationship targets were rebuilt as {type, id}, so an image's alt and title
    (the identifier's meta, as recording 162 shows them) never reached the site."""
    png = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108020000009077053e0000000c4944415408d763f8cfc0"
                        "00000301010018dd8db40000000049454e44ae426082")
    image = admin.jsonapi_upload(ARTICLE, "field_image", "red.png", png).data
    target = {"type": "file--file", "id": image.id, "meta": {"alt": "A red pixel", "title": "Red"}}
    node = admin.jsonapi_create(ARTICLE, {"title": "With an image"}, {"field_image": target}).data
    assert node.raw["relationships"]["field_image"]["data"]["meta"]["alt"] == "A red pixel"
    admin.jsonapi_replace_relationship(ARTICLE, node.id, "field_image", dict(target, meta={"alt": "Now blue", "title": "Blue"}))
    meta = admin.jsonapi_relationship(ARTICLE, node.id, "field_image").raw["data"]["meta"]
    assert (meta["alt"], meta["title"]) == ("Now blue", "Blue")
    admin.jsonapi_delete(ARTICLE, node.id)


def test_create_update_relationships_upload_delete(admin):
    tags = {tag["name"]: tag for tag in admin.jsonapi_collection("taxonomy_term--tags")}
    created = admin.jsonapi_create(ARTICLE, {"title": "From Python"}, {"field_tags": [tags["alpha"]]},
                                   id="3f1e7c2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b")
    node = created.data
    assert node.id == "3f1e7c2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
    assert node.identifiers("field_tags") == [("taxonomy_term--tags", tags["alpha"].id)]

    updated = admin.jsonapi_update(("node", "article"), node.id, {"title": "Renamed"})
    assert updated.data["title"] == "Renamed"

    admin.jsonapi_add_relationship(ARTICLE, node.id, "field_tags", [("taxonomy_term--tags", tags["beta"].id)])
    ids = {tag_id for _, tag_id in
           (item for item in admin.jsonapi_get(ARTICLE, node.id).data.identifiers("field_tags"))}
    assert ids == {tags["alpha"].id, tags["beta"].id}
    assert admin.jsonapi_remove_relationship(ARTICLE, node.id, "field_tags", [tags["alpha"]]) is None
    assert admin.jsonapi_replace_relationship(ARTICLE, node.id, "field_tags", []) is None
    assert admin.jsonapi_relationship(ARTICLE, node.id, "field_tags").raw["data"] == []
    assert admin.jsonapi_related(ARTICLE, node.id, "uid").data["name"] == "admin"

    png = b"\x89PNG\r\n\x1a\n"
    loose = admin.jsonapi_upload(ARTICLE, "field_image", "../red.png", png)
    assert loose.data.type == "file--file" and loose.data["filename"] == "red.png"
    attached = admin.jsonapi_upload(ARTICLE, "field_image", "blue.png", png, id=node.id)
    assert attached.data.type == "file--file"
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin.jsonapi_upload(ARTICLE, "field_image", 'a"b.png', png)

    assert admin.jsonapi_delete(ARTICLE, node.id) is None
    with pytest.raises(drupalsdk.NotFoundError):
        admin.jsonapi_get(ARTICLE, node.id)


def test_errors(admin, server, base_url):
    with pytest.raises(drupalsdk.ValidationError) as caught:
        admin.jsonapi_create(ARTICLE, {"langcode": "xx"})
    error = caught.value
    assert error.status == 422
    assert len(error.jsonapi_errors) == 2
    assert "/data/attributes/title" in [path for path, _ in error.violations]

    with pytest.raises(drupalsdk.HTTPError) as caught:
        admin.jsonapi_get("user--user", admin.jsonapi_collection("user--user").resources[-1].id,
                          Query().add_resource_version("id:1"))
    assert caught.value.status == 501

    server.control("POST", "/__fake/config", {"jsonapi_read_only": True})
    try:
        with pytest.raises(drupalsdk.HTTPError) as caught:
            admin.jsonapi_create(ARTICLE, {"title": "x"})
        assert caught.value.status == 405 and "read operations" in str(caught.value)
    finally:
        server.control("POST", "/__fake/config", {"defaults": True})

    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin.jsonapi_follow("https://evil.example/jsonapi/node/article")
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin.jsonapi_get(ARTICLE, "..")
    with pytest.raises(TypeError):
        admin.jsonapi_update(ARTICLE, "x", {"title": "a"}, document={"data": {}})
    with pytest.raises(TypeError):
        admin.jsonapi_add_relationship(ARTICLE, "x", "field_tags", [42])


def test_entry_point_and_follow(base_url):
    with drupalsdk.Client(base_url) as client:
        assert "me" not in client.jsonapi_entry_point().meta.get("links", {})
        types = client.jsonapi_resource_types()
        assert types["node--article"].endswith("/jsonapi/node/article") and "self" not in types
        client.set_basic_auth("editor", "editor")
        entry = client.jsonapi_entry_point()
        me = entry.meta["links"]["me"]["meta"]["id"]
        assert client.jsonapi_get("user--user", me).data["name"] == "editor"
        page = client.jsonapi_collection(ARTICLE, Query().add_page_limit(2))
        second = client.jsonapi_follow(page.next)
        assert len(second) == 2 and second.resources[0].id not in {node.id for node in page}


def test_documents_without_a_server():
    document = Document({"data": [{"type": "node--article", "id": "n1", "attributes": {"title": "T"},
                                   "relationships": {"uid": {"data": {"type": "user--user", "id": "u1"}},
                                                     "field_tags": {"data": [{"type": "t", "id": "x"},
                                                                             {"type": "t", "id": "gone"}]},
                                                     "field_image": {"data": None}}}],
                         "included": [{"type": "user--user", "id": "u1", "attributes": {"name": "admin"}},
                                      {"type": "t", "id": "x", "attributes": {"name": "alpha"}}],
                         "links": {"next": {"href": "http://site/jsonapi/node/article?page%5Boffset%5D=1"}}})
    node = document.data[0]
    assert isinstance(node, Resource) and node["title"] == "T" and node.get("missing", 1) == 1
    assert node.related("uid")["name"] == "admin"
    assert [tag["name"] for tag in node.related("field_tags")] == ["alpha"]  # "gone" was not included
    assert node.related("field_image") is None and node.related("nosuch") is None
    assert document.next.endswith("page%5Boffset%5D=1")
    assert document.find("t", "x") == Resource({"type": "t", "id": "x"})
    with pytest.raises(KeyError):
        node["nosuch"]
    with pytest.raises(TypeError):
        Document([])


def _article(**relationships):
    return {"type": "node--article", "id": "n1", "relationships": relationships}


@pytest.mark.parametrize("raw, read", [
    ({"data": _article(uid={"data": {"type": "user--user", "id": ["u1"]}})}, lambda d: d.data.related("uid")),
    ({"data": _article(uid={"data": {"type": "user--user", "id": {"u": 1}}})}, lambda d: d.data.related("uid")),
    ({"data": _article(uid={"data": {"type": "user--user", "id": 5}})}, lambda d: d.data.related("uid")),
    ({"data": _article(field_tags={"data": [{"type": "t", "id": ["x"]}]})},
     lambda d: d.data.related("field_tags")),
    ({"data": _article(field_tags={"data": [{"type": ["t"], "id": "x"}]})},
     lambda d: d.data.related("field_tags")),
    ({"data": _article(uid={"data": "oops"})}, lambda d: d.data.related("uid")),
    ({"data": None, "links": {"next": {"href": 5}}}, lambda d: d.next),
    ({"data": None, "links": {"next": {"href": 5}}}, lambda d: d.link("next")),
    ({"data": None, "links": {"next": {}}}, lambda d: d.next),
    ({"data": None, "links": {"next": 5}}, lambda d: d.next),
    ({"data": None, "links": {"node--article": {"href": 5}}}, lambda d: d.resource_types),
    ({"data": "oops"}, lambda d: d.data),
    ({"data": "oops"}, lambda d: d.resources),
    ({"data": 5}, lambda d: list(d)),
    ({"data": "oops"}, len),
    # An included item that is not an object was skipped by the index: the lookup found the
    # resource after it, or said "not included".
    ({"data": _article(uid={"data": {"type": "user--user", "id": "u1"}}),
      "included": [5, {"type": "user--user", "id": "u1"}]}, lambda d: d.data.related("uid")),
    ({"data": _article(uid={"data": {"type": "user--user", "id": "u1"}}),
      "included": [{"type": "user--user", "id": "u1"}, "oops"]}, lambda d: d.data.related("uid")),
    ({"data": None, "included": [["x"], {"type": "user--user", "id": "u1"}]}, lambda d: d.find("user--user", "u1")),
    # identifiers() handed out a type or id that is not a string.
    ({"data": _article(uid={"data": {"type": "user--user", "id": 5}})}, lambda d: d.data.identifiers("uid")),
    ({"data": _article(uid={"data": {"type": "user--user"}})}, lambda d: d.data.identifiers("uid")),
    ({"data": _article(field_tags={"data": [{"type": ["t"], "id": "x"}]})},
     lambda d: d.data.identifiers("field_tags")),
    ({"data": _article(field_tags={"data": [{"type": "t", "id": "x"}, {"type": "t", "id": None}]})},
     lambda d: d.data.identifiers("field_tags")),
])
def test_a_member_of_the_wrong_shape_is_a_decode_error(raw, read):
    """An identifier whose id is a list raised TypeError (unhashable); a next link {"href": 5}
    read as None, the last page, and data "oops" as no resources: each is DecodeError."""
    with pytest.raises(drupalsdk.DecodeError, match="not"):
        read(Document(raw))


def test_absent_and_null_members_are_empty():
    """What JSON:API allows stays empty: data null or absent, a null or missing link, a to-one
    relationship with data null and a to-many with []."""
    for raw in ({"data": None}, {"meta": {}}):
        document = Document(raw)
        assert document.data is None and document.resources == [] and len(document) == 0
    document = Document({"data": _article(uid={"data": None}, field_tags={"data": []}),
                        "links": {"next": None, "self": "http://site/jsonapi/node/article"}})
    assert document.next is None and document.link("prev") is None
    assert document.link("self") == "http://site/jsonapi/node/article"
    assert document.data.related("uid") is None and document.data.related("field_tags") == []


@pytest.mark.parametrize("body", [
    '{"data": [1, 2]}', '{"data": [{"type": "node--article", "id": "a", "attributes": 5}]}',
    '{"data": {"type": "node--article", "id": "a", "relationships": [1]}}',
    '{"data": {"type": "node--article", "id": "a", "relationships": {"uid": 5}}}',
    '{"data": {"type": "node--article", "id": "a", "relationships": {"field_tags": {"data": [1]}}}}',
    '{"data": [], "included": "x"}', '{"data": null, "links": 5}', '{"data": null, "included": [5]}',
])
def test_a_document_that_is_not_json_api_is_a_decode_error(client, server, body):
    """A server's document whose members have the wrong shapes (resources that are numbers,
    attributes or relationships that are not objects) leaked AttributeError or TypeError from
    the reading methods. They raise DecodeError, the server's fault, naming what is wrong."""
    server.control("POST", "/__fake/faults", {"mode": "status", "code": 200, "body": body, "count": 1})
    document = client.jsonapi_get(ARTICLE, "a")
    with pytest.raises(drupalsdk.DecodeError) as caught:
        repr(document)
        for resource in document.resources + document.included:
            resource.get("title"), resource.identifiers("field_tags"), resource.related("uid")
            resource.related("field_tags"), resource.attributes, resource.links
        document.next, document.links, document.meta
    assert "not" in str(caught.value)


def test_mock_client_answers_jsonapi_through_stubs():
    import json
    mock = drupalsdk.Client.mock()
    body = json.dumps({"data": {"type": ARTICLE, "id": "abc", "attributes": {"title": "Stubbed"}}}).encode()
    mock.stub("GET", "/jsonapi/node/article/abc", 200, body=body, content_type="application/vnd.api+json")
    assert mock.jsonapi_get(ARTICLE, "abc").data["title"] == "Stubbed"
    sent = mock.requests()[-1]
    assert sent["url"].endswith("/jsonapi/node/article/abc")  # no _format on JSON:API
    assert ["Accept", "application/vnd.api+json"] in sent["headers"]
    with pytest.raises(drupalsdk.NotFoundError):
        mock.jsonapi_get(ARTICLE, "other")
    mock.close()


def _png_file(tmp_path, name, size):
    data = b"\x89PNG\r\n\x1a\n" + bytes((i * 31) & 0xFF for i in range(size - 8))
    path = tmp_path / name
    path.write_bytes(data)
    return path, data


def test_upload_from_a_path_with_progress(admin, server, tmp_path):
    path, data = _png_file(tmp_path, "streamed.png", 150_000)
    steps = []
    loose = admin.jsonapi_upload_path(ARTICLE, "field_image", path,
                                      progress=lambda done, total: steps.append((done, total)))
    assert isinstance(loose, Document)
    assert loose.data.type == "file--file" and loose.data["filename"] == "streamed.png"
    assert loose.data["filesize"] == len(data)
    assert steps[-1] == (len(data), len(data))
    assert all(a[0] <= b[0] for a, b in zip(steps, steps[1:]))
    sent = server.control("GET", "/__fake/last-request")
    assert sent["target"] == "/jsonapi/node/article/field_image" and sent["body_length"] == len(data)
    headers = dict((name.lower(), value) for name, value in sent["headers"])
    assert headers["content-type"] == "application/octet-stream"
    assert headers["content-disposition"] == 'file; filename="streamed.png"'

    node = admin.jsonapi_collection(ARTICLE).resources[0]
    attached = admin.jsonapi_upload_path(ARTICLE, "field_image", str(path), id=node.id, filename="renamed.png")
    assert attached.data.type == "file--file" and attached.data["filename"] == "renamed.png"
    assert server.control("GET", "/__fake/last-request")["target"] == "/jsonapi/node/article/%s/field_image" % node.id
    future = admin.submit_jsonapi_upload_path(ARTICLE, "field_image", path, filename="future.png")
    assert future.result(timeout=30).data["filename"] == "future.png"

    before = server.stats()["requests"]
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin.jsonapi_upload_path(ARTICLE, "field_image", tmp_path / "nope.png")
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin.jsonapi_upload_path(ARTICLE, "field_image", tmp_path)               # a directory
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin.jsonapi_upload_path(ARTICLE, "field_image", path, filename='a"b.png')
    assert server.stats()["requests"] == before                                  # nothing was sent
    with pytest.raises(drupalsdk.CancelledError):
        admin.jsonapi_upload_path(ARTICLE, "field_image", path, progress=lambda done, total: False)


def test_upload_from_a_path_in_asyncio(base_url, server, tmp_path):
    path, data = _png_file(tmp_path, "async.png", 80_000)

    async def main():
        async with drupalsdk.AsyncClient(base_url) as client:
            client.set_basic_auth("admin", "admin")
            steps = []
            loose = await client.jsonapi_upload_path(ARTICLE, "field_image", path,
                                                     progress=lambda done, total: steps.append((done, total)))
            node = (await client.jsonapi_collection(ARTICLE)).resources[0]
            attached = await client.jsonapi_upload_path(ARTICLE, "field_image", path, id=node.id)
            return loose, attached, steps

    loose, attached, steps = asyncio.run(main())
    assert loose.data["filename"] == "async.png" and attached.data.type == "file--file"
    targets = [r["target"] for r in server.control("GET", "/__fake/requests")["requests"]]
    assert targets[0] == "/jsonapi/node/article/field_image" and targets[-1].endswith("/field_image")
    assert steps[-1] == (len(data), len(data))


def _article_ids(client):
    return {node["drupal_internal__nid"]: node.id
            for node in client.jsonapi_collection(ARTICLE, Query().add_sort("drupal_internal__nid"))}


def test_translations_under_the_language_prefix(extended):
    with drupalsdk.Client(extended.base_url) as client:
        client.set_basic_auth("admin", "admin")
        ids = _article_ids(client)
        french = client.in_language("fr")
        translated = french.jsonapi_get(ARTICLE, ids[1])
        assert (translated.data["title"], translated.data["langcode"]) == ("Article 1 FR", "fr")
        assert client.jsonapi_get(ARTICLE, ids[1], language="fr").data["title"] == "Article 1 FR"
        fallback = french.jsonapi_get(ARTICLE, ids[2])               # no translation: the original (81d)
        assert (fallback.data["title"], fallback.data["langcode"]) == ("Article 2", "en")

        # Writing a translation that does not exist, or deleting one: Drupal's 405 and its words (83, 83c).
        with pytest.raises(drupalsdk.DrupalError) as caught:
            french.jsonapi_update(ARTICLE, ids[2], {"title": "Article 2 FR"})
        error = caught.value
        assert error.status == 405 and error.headers["Allow"] == "GET"
        assert error.drupal_message == ("The requested translation of the resource object does not exist, instead "
                                        "modify one of the translations that do exist: en.")
        assert error.drupal_message in str(error) and len(error.jsonapi_errors) == 1
        with pytest.raises(drupalsdk.DrupalError) as caught:
            french.jsonapi_delete(ARTICLE, ids[1])
        assert caught.value.status == 405
        assert caught.value.drupal_message.startswith("Deleting a resource object translation is not yet supported.")
        assert client.jsonapi_get(ARTICLE, ids[2]).data["title"] == "Article 2"

        # links.next of a French page carries /fr: followed and paged as given, never /fr/fr/.
        extended.reset()
        query = Query().add_sort("drupal_internal__nid").add_page_limit(2)
        first = french.jsonapi_collection(ARTICLE, query)
        assert "/fr/jsonapi/node/article" in first.next
        second = french.jsonapi_follow(first.next)
        assert [node["title"] for node in second] == ["Article 3", "Article 4"]
        titles = [node["title"] for node in french.jsonapi_iter(ARTICLE, query)]
        assert titles == ["Article 1 FR", "Article 2", "Article 3", "Article 4", "Article 5"]
        french.close()
    targets = [r["target"] for r in extended.control("GET", "/__fake/requests")["requests"]]
    assert len(targets) == 5 and all(t.startswith("/fr/jsonapi/node/article?") for t in targets), targets


def test_translations_in_asyncio(extended):
    async def main():
        async with drupalsdk.AsyncClient(extended.base_url) as client:
            ids = {node["drupal_internal__nid"]: node.id for node in await client.jsonapi_collection(ARTICLE)}
            french = client.in_language("fr")
            translated = await french.jsonapi_get(ARTICLE, ids[1])
            query = Query().add_sort("drupal_internal__nid").add_page_limit(2)
            titles = [node["title"] async for node in french.jsonapi_iter(ARTICLE, query)]
            first = await french.jsonapi_collection(ARTICLE, query)
            second = await french.jsonapi_follow(first.next)
            return translated, titles, second
    translated, titles, second = asyncio.run(main())
    assert (translated.data["title"], translated.data["langcode"]) == ("Article 1 FR", "fr")
    assert titles == ["Article 1 FR", "Article 2", "Article 3", "Article 4", "Article 5"]
    assert [node["title"] for node in second] == ["Article 3", "Article 4"]


def test_a_refused_query_change_leaves_the_query_unchanged():
    # Methods taking several items check them all before changing anything; numbers that are
    # not finite, or too long for Python to write, are refused like any invalid argument.
    query = Query().add_include(["uid"]).add_custom_param({"a": "1"})
    before = query.get_query_string()
    for bad in [lambda: query.add_include(["field_tags", ""]),
                lambda: query.add_include(["field_tags", "uid\x00"]),
                lambda: query.add_custom_param({"b": "2", "page[limit]": "3"}),
                lambda: query.add_custom_param({"b": "2", "resourceVersion": "latest"}),
                lambda: query.add_custom_param({"resourceVersion": "rel:latest-version", "filter": "x"}),
                lambda: query.add_custom_param({"b": "2", "c": float("nan")}),
                lambda: query.add_filter("nid", float("nan")),
                lambda: query.add_filter("nid", float("inf")),
                lambda: query.add_filter("nid", [1, float("-inf")], "IN"),
                lambda: query.add_filter("nid", 10 ** 5000)]:
        with pytest.raises(drupalsdk.InvalidArgumentError):
            bad()
    with pytest.raises(TypeError):
        query.add_include(["field_tags", None])
    assert query.get_query_string() == before
    assert query.add_filter("nid", 1.5).add_include(["field_tags"]).get_query_string() == \
        "filter%5Bnid%5D=1.5&" + before.replace("include=uid", "include=uid%2Cfield_tags")


def test_an_int_too_long_to_write_is_an_invalid_argument():
    with drupalsdk.MockClient() as client:
        with pytest.raises(drupalsdk.InvalidArgumentError, match="too long"):
            client.get("node", 10 ** 5000)
        with pytest.raises(drupalsdk.InvalidArgumentError, match="too long"):
            client.request("GET", "/node/1", query={"page": 10 ** 5000})


def _jsonapi_tour(client, anonymous):
    """What one client sees of the recorded JSON:API routes the mock models: the entry point
    (173), relationship writes and reads (151-156), revisions (142-144) and the anonymous user
    (171b). Ids differ between sites, so it keeps names, statuses and shapes."""
    seen = {}
    entry = client.jsonapi_entry_point()
    seen["me"] = entry.meta["links"]["me"]["href"].endswith("/jsonapi/user/user/" + entry.meta["links"]["me"]["meta"]["id"])
    seen["anonymous me"] = anonymous.jsonapi_entry_point().raw.get("meta")
    tags = {tag["name"]: tag for tag in client.jsonapi_collection("taxonomy_term--tags")}
    node = client.jsonapi_create(ARTICLE, {"title": "Parity"}, {"field_tags": [tags["alpha"]]}).data
    first_vid = node["drupal_internal__vid"]
    client.jsonapi_update(ARTICLE, node.id, {"title": "Parity 2"})
    added = client.jsonapi_add_relationship(ARTICLE, node.id, "field_tags", [tags["beta"]])
    seen["added"] = [item["id"] for item in added.raw["data"]] == [tags["alpha"].id, tags["beta"].id]
    seen["replaced"] = client.jsonapi_replace_relationship(ARTICLE, node.id, "field_tags", [tags["beta"]])
    me = ("user--user", entry.meta["links"]["me"]["meta"]["id"])
    with pytest.raises(drupalsdk.HTTPError) as to_one:
        client.jsonapi_add_relationship(ARTICLE, node.id, "uid", me)   # one identifier, as 156 sends
    seen["to-one"] = (to_one.value.status, to_one.value.jsonapi_errors[0].detail)
    relationship = client.jsonapi_relationship(ARTICLE, node.id, "field_tags")
    seen["relationship"] = [item["id"] for item in relationship.raw["data"]] == [tags["beta"].id]
    seen["related link"] = relationship.link("related").endswith("/field_tags?resourceVersion=id%%3A%d" % (first_vid + 1))
    seen["related"] = [tag["name"] for tag in client.jsonapi_related(ARTICLE, node.id, "field_tags").data]
    old = client.jsonapi_get(ARTICLE, node.id, Query().add_resource_version("id:%d" % first_vid)).data
    seen["old revision"] = (old["title"], sorted(old.links))
    with pytest.raises(drupalsdk.NotFoundError) as missing:
        client.jsonapi_get(ARTICLE, node.id, Query().add_resource_version("id:99999"))
    seen["missing revision"] = missing.value.jsonapi_errors[0].detail
    seen["users"] = [user["display_name"] for user in anonymous.jsonapi_collection("user--user")]
    client.jsonapi_delete(ARTICLE, node.id)
    return seen


def test_the_mock_answers_the_recorded_jsonapi_routes_as_the_fake_does(admin, base_url):
    """The mock's entry point, relationship routes, revisions and anonymous user agree with the
    fake server's, which replays drupal10-jsonapi-transcripts."""
    mock = drupalsdk.Client.mock()
    for name in ("alpha", "beta"):
        mock.add_entity("taxonomy_term", {"vid": [{"target_id": "tags"}], "name": [{"value": name}]})
    mock.login("admin", "admin")
    anonymous_mock = drupalsdk.Client.mock()   # a site of its own: only its users are compared
    with drupalsdk.Client(base_url) as anonymous:
        fake = _jsonapi_tour(admin, anonymous)
    mocked = _jsonapi_tour(mock, anonymous_mock)
    assert fake == mocked
    assert fake["me"] and fake["added"] and fake["relationship"] and fake["related link"]
    assert fake["replaced"] is None and fake["related"] == ["beta"]   # 152: 204, no body
    assert fake["missing revision"] == "The requested version, identified by `id:99999`, could not be found."
    assert fake["users"] == ["Anonymous", "admin", "editor"] and fake["anonymous me"] is None
    assert fake["to-one"] == (409, "You can only POST to to-many relationships. uid is a to-one relationship.")
    assert fake["old revision"] == ("Parity", ["latest-version", "self", "working-copy"])
