"""What a user writes, type-checked by test_typing.py with ``mypy --strict`` (never run).

Every operation method is installed at import time (``_operations.install``); a type checker sees
them only through the generated ``_operation_methods.pyi``. ``assert_type`` pins the precise
types: a method that type-checks only as ``Any`` would pass a plain call but fail here.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from typing_extensions import assert_type

import drupalsdk
from drupalsdk import AsyncClient, AsyncMockClient, Client, Document, DrupalFuture, MockClient, Query, Response

Entity = Dict[str, Any]


def blocking() -> None:
    with drupalsdk.Client("https://example.com") as client:
        assert_type(client, Client)
        assert_type(client.login("admin", "secret"), Dict[str, Any])
        assert_type(client.get("node", 1), Entity)
        assert_type(client.create("node", {"type": [{"target_id": "article"}], "title": [{"value": "Hi"}]}), Entity)
        assert_type(client.view("/api/articles", {"page": 1}), List[Dict[str, Any]])
        with client.oauth_authorization("sdk-desktop", "http://127.0.0.1:8765/callback") as authorization:
            assert_type(authorization, drupalsdk.OAuthAuthorization)
            assert_type(authorization.url, str)
            assert_type(authorization.finish("http://127.0.0.1:8765/callback?code=c&state=s"), None)
        assert_type(client.request("GET", "/node/1", raise_for_status=False), Response)
        query = Query().add_filter("status", "1").add_include(["uid"]).add_page_limit(10)
        assert_type(client.jsonapi_get("node--article", "0b9e-uuid", query), Document)
        page = client.jsonapi_collection(("node", "article"), query)
        assert_type(page, Document)
        assert_type(page.links, Dict[str, Any])
        assert_type(page.meta, Dict[str, Any])
        for resource in page.resources:
            assert_type(resource.attributes, Dict[str, Any])
            assert_type(resource.relationships, Dict[str, Any])
            assert_type(resource.links, Dict[str, Any])
            assert_type(resource.meta, Dict[str, Any])
        assert_type(client.jsonapi_add_relationship("node--article", "0b9e-uuid", "field_tags", []),
                    Optional[Document])
        assert_type(client.download("/sites/default/files/a.png", "a.png", progress=lambda done, total: True),
                    Response)
        assert_type(client.delete("node", 1), None)
        # A file's content is bytes, bytearray or memoryview.
        assert_type(client.upload_file("node", "article", "field_image", "a.png", bytearray(b"\x89PNG")), Entity)
        assert_type(client.jsonapi_upload("node--article", "field_image", "a.png", memoryview(b"\x89PNG")), Document)

        future = client.submit_get("node", 1)
        assert_type(future, DrupalFuture[Entity])
        assert_type(future.result(), Entity)
        with client.submit_jsonapi_collection("node--article") as pending:
            assert_type(pending.result(timeout=5), Document)
        assert_type(client.submit("get", "node", 1), DrupalFuture[Any])

        french = client.in_language("fr")
        assert_type(french, Client)
        assert_type(french.get("node", 1), Entity)
        assert_type(client.get("node", 1, language="fr"), Entity)


async def awaiting() -> None:
    async with AsyncClient("https://example.com", timeout=5) as client:
        assert_type(client, AsyncClient)
        assert_type(await client.get("node", 1), Entity)
        assert_type(await client.view("/api/articles"), List[Dict[str, Any]])
        assert_type(await client.jsonapi_get("node--article", "0b9e-uuid", language="fr"), Document)
        assert_type(await client.in_language("fr").request("GET", "/node/1"), Response)
        assert_type(await client.login_status(), bool)


def mocked() -> None:
    with MockClient() as client:
        assert_type(client, MockClient)
        uid = client.add_user("editor2", "secret", roles=["editor"])
        assert_type(client.get("user", uid), Entity)
        assert_type(client.in_language("fr"), MockClient)
        assert_type(client.submit_create("node", {"type": "article"}).result(), Entity)
    assert_type(Client.mock(), MockClient)


async def mocked_async() -> None:
    async with AsyncMockClient() as client:
        assert_type(client, AsyncMockClient)
        client.add_user("editor2", "secret")
        assert_type(await client.create("node", {"type": "article"}), Entity)
    assert_type(AsyncClient.mock(), AsyncMockClient)
