"""Languages from Python against the fake's extended site (French at /fr): in_language views and
per-call language=, French reads and their fallback, a translation's update, the guarded traps,
one session for every language, blocking, futures and asyncio."""
import asyncio

import pytest

import drupalsdk

FR_TITLE = {"type": [{"target_id": "article"}], "title": [{"value": "Article 1 FR (modifié)"}]}
FR_LANGCODE = {"type": [{"target_id": "article"}], "langcode": [{"value": "fr"}],
               "title": [{"value": "Devenu français"}]}


def langcode(entity):
    return entity["langcode"][0]["value"]


def title(entity):
    return entity["title"][0]["value"]


def test_french_reads_and_their_fallback(extended):
    with drupalsdk.Client(extended.base_url) as client:
        french = client.in_language("fr")
        node = french.get("node", 1)
        assert (title(node), langcode(node)) == ("Article 1 FR", "fr")
        fallback = french.get("node", 2)              # no translation: the original, no 404
        assert (title(fallback), langcode(fallback)) == ("Article 2", "en")
        assert title(client.get("node", 1, language="fr")) == "Article 1 FR"
        assert title(french.get("node", 1, language="")) == "Article 1"     # the default language
        assert title(client.submit_get("node", 1, language="fr").result(timeout=20)) == "Article 1 FR"
        response = client.request("GET", "/node/1", language="fr")
        assert response.langcode == "fr" and response.headers["Content-Type"] == "application/json"
        assert client.request("GET", "/node/2", language="fr").langcode == "en"
        jsonapi = client.request("GET", "/jsonapi/node/article", query={"filter[drupal_internal__nid]": "1"},
                                 format=False, language="fr").json()
        assert jsonapi["data"][0]["attributes"]["title"] == "Article 1 FR"
        assert "/fr/jsonapi/" in jsonapi["links"]["self"]["href"]
        french.close()
        assert title(client.get("node", 1)) == "Article 1"
    targets = [r["target"] for r in extended.control("GET", "/__fake/requests")["requests"]]
    assert targets[:4] == ["/fr/node/1?_format=json", "/fr/node/2?_format=json", "/fr/node/1?_format=json",
                           "/node/1?_format=json"]


def test_updates_and_guards(extended):
    with drupalsdk.Client(extended.base_url) as client:
        client.login("admin", "admin")
        french = client.in_language("fr")
        assert french.has_session                       # one session for every language
        updated = french.update("node", 1, FR_TITLE)
        assert (title(updated), langcode(updated)) == ("Article 1 FR (modifié)", "fr")
        assert title(client.get("node", 1)) == "Article 1"
        with pytest.raises(drupalsdk.DrupalError) as caught:
            french.update("node", 2, FR_LANGCODE)
        assert caught.value.code == "DRUPAL_E_STATE" and "has no fr translation" in caught.value.message
        with pytest.raises(drupalsdk.DrupalError) as caught:
            client.delete("node", 1, language="fr")
        assert caught.value.code == "DRUPAL_E_STATE" and "whole node" in caught.value.message
        assert langcode(client.get("node", 2)) == "en"
        forced = client.in_language("fr", force=True)
        forced.update("node", 2, FR_LANGCODE)            # 82g: the ORIGINAL becomes French
        assert langcode(client.get("node", 2)) == "fr"
        forced.delete("node", 1)                         # 85: the whole node
        with pytest.raises(drupalsdk.NotFoundError):
            client.get("node", 1)
        login_requests = [r for r in extended.control("GET", "/__fake/requests")["requests"]
                          if r["target"].startswith("/user/login")]
        assert len(login_requests) == 1


def test_asyncio(extended):
    async def main():
        async with drupalsdk.AsyncClient(extended.base_url) as client:
            french = client.in_language("fr")
            assert isinstance(french, drupalsdk.AsyncClient)
            a, b = await asyncio.gather(french.get("node", 1), client.get("node", 1, language="fr"))
            return title(a), title(b)
    assert asyncio.run(main()) == ("Article 1 FR", "Article 1 FR")


def test_bad_languages(extended):
    with drupalsdk.Client(extended.base_url) as client:
        for bad in ("../x", "f r", "fr/", "fr\r\n", "a" * 65):
            with pytest.raises(drupalsdk.InvalidArgumentError):
                client.in_language(bad)
            with pytest.raises(drupalsdk.InvalidArgumentError):
                client.get("node", 1, language=bad)
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.get("node", 1, language="f\x00r")
        with pytest.raises(TypeError):
            client.get("node", 1, language=3.5)
    with pytest.raises(drupalsdk.ClosedError):
        client.get("node", 1, language="fr")


def test_the_mock_speaks_languages():
    """MockClient.add_language and add_translation: the same reads, writes and refusals on a
    mock (test_language_parity compares the two sites step by step)."""
    with drupalsdk.MockClient() as mock:
        mock.set_basic_auth("admin", "admin")
        nid = mock.add_entity("node", {"type": "article", "title": "Article"})
        with pytest.raises(drupalsdk.DrupalError) as caught:
            mock.add_translation("node", nid, "fr", {"title": "Article FR"})
        assert caught.value.code == "DRUPAL_E_INVALID_ARGUMENT" and "addLanguage" in caught.value.message
        mock.add_language("fr")
        mock.add_translation("node", nid, "fr", {"title": "Article FR"})
        french = mock.in_language("fr")
        assert (title(french.get("node", nid)), langcode(french.get("node", nid))) == ("Article FR", "fr")
        assert title(mock.get("node", nid)) == "Article"
        updated = french.update("node", nid, FR_TITLE)
        assert title(updated) == "Article 1 FR (modifié)" and title(mock.get("node", nid)) == "Article"
        with pytest.raises(drupalsdk.DrupalError) as caught:
            mock.add_translation("node", 99, "fr", {})
        assert caught.value.code == "DRUPAL_E_NOT_FOUND"
        for bad in ("en", "f r", ""):
            with pytest.raises(drupalsdk.DrupalError):
                mock.add_language(bad)
        forced = mock.in_language("fr", force=True)
        forced.delete("node", nid)                     # the whole node (85)
        with pytest.raises(drupalsdk.NotFoundError):
            mock.get("node", nid)
