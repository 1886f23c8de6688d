"""Accounts and paths from Python: register, reset_password (drupal10-transcripts 50, 51) and
resolve_path (decoupled_router, 84) against the fake; blocking, futures and asyncio."""
import asyncio

import pytest

import drupalsdk


def test_register(client, server):
    account = client.register("newbie", "newbie@example.com")
    assert account["name"] == [{"value": "newbie"}] and "mail" not in account
    with pytest.raises(drupalsdk.ValidationError) as caught:
        client.submit_register("newbie", "newbie@example.com").result(timeout=20)
    assert [path for path, _ in caught.value.violations] == ["name", "mail"]
    with pytest.raises(drupalsdk.ValidationError) as caught:
        client.register("newbie3", "n3@example.com", password="pw")
    assert caught.value.message == "A Password cannot be specified. It will be generated on login."
    assert caught.value.violations == []
    assert client.register("wf", "wf@example.com", fields={"timezone": [{"value": "Europe/Paris"}]})["uid"]
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.register("", "a@example.com")
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.register("a", "a@example.com", fields=[1])
    client.set_basic_auth("editor", "editor")
    with pytest.raises(drupalsdk.AuthorizationError):
        client.register("x", "x@example.com")


def test_reset_password(client, server):
    assert client.reset_password(name="editor") is None
    assert client.reset_password(mail="editor@example.com") is None
    assert client.reset_password("nobody-here") is None          # no account enumeration
    assert server.control("GET", "/__fake/last-request")["body"] == '{"name":"nobody-here"}'
    with pytest.raises(drupalsdk.InvalidArgumentError):
        client.reset_password()


def test_resolve_path(extended):
    async def french_label():
        async with drupalsdk.AsyncClient(extended.base_url) as client:
            return (await client.resolve_path("/fr/node/1"))["label"]

    with drupalsdk.Client(extended.base_url) as client:
        resolved = client.resolve_path("/node/1")
        assert (resolved["entity"]["type"], resolved["entity"]["bundle"], resolved["entity"]["id"]) == \
            ("node", "article", "1")
        assert resolved["jsonapi"]["individual"].endswith("/jsonapi/node/article/" + resolved["entity"]["uuid"])
        with pytest.raises(drupalsdk.NotFoundError) as caught:
            client.resolve_path("/no/such/page")
        assert caught.value.message == "Unable to resolve path /no/such/page."
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.resolve_path("/a\nb")
    assert asyncio.run(french_label()) == "Article 1"
