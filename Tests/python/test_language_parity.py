"""Languages on the mock (MockClient.add_language, add_translation) against the fake's extended
site (French at /fr, Article 1 translated), step by step: reads under the prefix and their
fallback, core REST's writes there (a translation edited, the original's language changed, a new
node, the whole node deleted), JSON:API's (a translation edited; 405s for making or deleting one;
a new French node), decoupled_router with a prefixed path, and Content-Language on every answer.
Recordings 80-85 of drupal10-oauth-language-transcripts show the fake's answers."""
from __future__ import annotations

import json
import re
from typing import Any, Dict

from parity import AnswerNormalizer, article, assert_parity, run_both

#: A time as both APIs write it (RFC 3339).
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[+-]\d\d:\d\d|Z)")
#: The seeded accounts' addresses (the recorded site's and the mock's differ: seed data).
SEEDED_MAIL = re.compile(r"^(admin|editor)@[a-z.]+$")
JSONAPI = {"Content-Type": "application/vnd.api+json"}
FRENCH = {"title": [{"value": "Article 1 FR"}],
          "body": [{"value": "<p>Corps de l'article 1</p>", "format": "basic_html", "summary": ""}]}


class _Normalizer(AnswerNormalizer):
    """Both APIs' answers: times (text, and a comment field's statistics), seeded addresses."""
    HEADERS = ("Allow", "Location", "Content-Language")

    def text(self, text: str, others: Dict[str, str]) -> str:
        text = TIME.sub("<time>", text)
        return "<seeded mail>" if SEEDED_MAIL.match(text) else super().text(text, others)

    def member(self, key: str, value: Any, others: Dict[str, str]) -> Any:
        if key == "last_comment_timestamp" and value not in (None, 0):
            return "<time>"
        return self.value(value, others)

    def body(self, media_type: str, content: bytes, others: Dict[str, str]) -> Any:
        if media_type == "text/plain":   # an uncaught error's page
            return self.text(content.decode("utf-8", "replace"), others)
        return super().body(media_type, content, others)


def _language_tour(c: Any) -> Dict[str, Any]:
    seen: Dict[str, Any] = {}
    origin = c.base_url if c.base_url != "mock:" else "http://drupal.mock"
    norm = _Normalizer(origin.rstrip("/"))
    if c.base_url == "mock:":
        c.add_language("fr")
        c.add_translation("node", 1, "fr", FRENCH)
    else:
        c.request("POST", "/__fake/reset", format=False)

    def send(method: str, path: str, query: Any = None, body: Any = None, jsonapi: bool = False) -> Any:
        if isinstance(body, dict):
            body = json.dumps(body).encode()
        return c.request(method, path, query=query, body=body, headers=JSONAPI if jsonapi and body else None,
                         format=not jsonapi, raise_for_status=False)

    def step(name: str, method: str, path: str, query: Any = None, body: Any = None, jsonapi: bool = False) -> Any:
        response = send(method, path, query, body, jsonapi)
        seen[name] = norm.answer(response)
        return response

    c.set_basic_auth("admin", "admin")
    uuids = {}
    for n in range(1, 6):
        uuids[n] = json.loads(send("GET", "/node/%d" % n).content)["uuid"][0]["value"]
        norm.name(uuids[n], "Article %d" % n)
    for n, label in ((1, "alpha"), (2, "beta")):
        norm.name(json.loads(send("GET", "/taxonomy/term/%d" % n).content)["uuid"][0]["value"], label)
    for n, label in ((1, "admin"), (2, "editor")):
        norm.name(json.loads(send("GET", "/user/%d" % n).content)["uuid"][0]["value"], label)

    # Reads: the translation, the original, the fallback (80-80c); JSON:API's links keep /fr (81-81d).
    step("rest fr", "GET", "/fr/node/1")
    step("rest en", "GET", "/node/1")
    step("rest fr untranslated", "GET", "/fr/node/2")
    step("rest fr unknown", "GET", "/fr/node/99")
    step("rest fr no route", "GET", "/fr/no/such/route")
    step("jsonapi fr filter", "GET", "/fr/jsonapi/node/article", {"filter[drupal_internal__nid]": "1"}, jsonapi=True)
    step("jsonapi en filter", "GET", "/jsonapi/node/article", {"filter[drupal_internal__nid]": "1"}, jsonapi=True)
    step("jsonapi fr individual", "GET", "/fr/jsonapi/node/article/" + uuids[1], jsonapi=True)
    step("jsonapi fr collection", "GET", "/fr/jsonapi/node/article",
         {"sort": "drupal_internal__nid", "page[limit]": "2"}, jsonapi=True)
    # A filter matches an entity when one of its translations does (an entity query's rows).
    step("jsonapi fr filter langcode", "GET", "/fr/jsonapi/node/article", {"filter[langcode]": "fr"}, jsonapi=True)
    step("jsonapi en filter langcode", "GET", "/jsonapi/node/article", {"filter[langcode]": "fr"}, jsonapi=True)
    step("jsonapi fr filter english title", "GET", "/fr/jsonapi/node/article", {"filter[title]": "Article 1"},
         jsonapi=True)
    step("jsonapi fr include", "GET", "/fr/jsonapi/node/article/" + uuids[1], {"include": "uid,field_tags"},
         jsonapi=True)

    # JSON:API writes (83-83e): a translation edited; none made or deleted; a new French node.
    step("jsonapi patch untranslated", "PATCH", "/fr/jsonapi/node/article/" + uuids[2],
         body={"data": {"type": "node--article", "id": uuids[2], "attributes": {"title": "X"}}}, jsonapi=True)
    # The check comes with {entity}: before access, and on the relationship routes' PATCH and DELETE.
    c.set_no_auth()
    step("jsonapi patch untranslated anonymous", "PATCH", "/fr/jsonapi/node/article/" + uuids[2],
         body={"data": {"type": "node--article", "id": uuids[2], "attributes": {"title": "X"}}}, jsonapi=True)
    c.set_basic_auth("admin", "admin")
    step("jsonapi relationship patch untranslated", "PATCH",
         "/fr/jsonapi/node/article/%s/relationships/field_tags" % uuids[2], body={"data": []}, jsonapi=True)
    step("jsonapi relationship delete translation", "DELETE",
         "/fr/jsonapi/node/article/%s/relationships/field_tags" % uuids[1], body={"data": []}, jsonapi=True)
    step("jsonapi relationship post untranslated", "POST",
         "/fr/jsonapi/node/article/%s/relationships/field_tags" % uuids[2], body={"data": []}, jsonapi=True)
    step("jsonapi patch translation", "PATCH", "/fr/jsonapi/node/article/" + uuids[1],
         body={"data": {"type": "node--article", "id": uuids[1], "attributes": {"title": "Article 1 FR (JSON:API)"}}},
         jsonapi=True)
    step("jsonapi delete translation", "DELETE", "/fr/jsonapi/node/article/" + uuids[1], jsonapi=True)
    created = step("jsonapi post fr", "POST", "/fr/jsonapi/node/article",
                   body={"data": {"type": "node--article", "attributes": {"title": "Nouvel article", "langcode": "fr"}}},
                   jsonapi=True)
    # A French original is written under /fr only (EntityUuidConverter); a page (no translation) anywhere.
    french = json.loads(created.content)["data"]["id"] if created.status == 201 else "none"
    step("jsonapi patch french original", "PATCH", "/jsonapi/node/article/" + french,
         body={"data": {"type": "node--article", "id": french, "attributes": {"title": "Y"}}}, jsonapi=True)
    step("jsonapi delete french original", "DELETE", "/jsonapi/node/article/" + french, jsonapi=True)
    step("jsonapi delete french original fr", "DELETE", "/fr/jsonapi/node/article/" + french, jsonapi=True)
    page = step("jsonapi post page", "POST", "/jsonapi/node/page",
                body={"data": {"type": "node--page", "attributes": {"title": "Page"}}}, jsonapi=True)
    page_id = json.loads(page.content)["data"]["id"] if page.status == 201 else "none"
    step("jsonapi delete page fr", "DELETE", "/fr/jsonapi/node/page/" + page_id, jsonapi=True)
    step("jsonapi post unknown language", "POST", "/jsonapi/node/article",
         body={"data": {"type": "node--article", "attributes": {"title": "Neu", "langcode": "de"}}}, jsonapi=True)

    # Core REST writes (82-82h): a translation edited, the original untouched; a new node; the
    # original's language changed by a PATCH under /fr of a node without a translation.
    step("rest patch translation", "PATCH", "/fr/node/1",
         body=article("Article 1 FR (modifié)", langcode=[{"value": "fr"}]))
    step("rest en after patch", "GET", "/node/1")
    step("rest fr after patch", "GET", "/fr/node/1")
    step("rest post fr", "POST", "/fr/node", body=article("Nouveau"))
    # A translation cannot be made by POST: with the node's id 403 (82d), with its uuid the
    # storage's duplicate key, an uncaught 500 (82e).
    step("rest post fr with nid", "POST", "/fr/node", body=article("Article 3 FR", nid=[{"value": 3}]))
    step("rest post fr with uuid", "POST", "/fr/node",
         body=article("Article 3 FR", uuid=[{"value": uuids[3]}], langcode=[{"value": "fr"}]))
    step("rest patch untranslated langcode", "PATCH", "/fr/node/3",
         body=article("Devenu français", langcode=[{"value": "fr"}]))
    step("rest en after langcode patch", "GET", "/node/3")

    # decoupled_router: the prefix taken off, the original at its own URL (84b).
    c.set_no_auth()
    step("translate fr", "GET", "/router/translate-path", {"path": "/fr/node/1"})
    c.set_basic_auth("admin", "admin")

    # DELETE under /fr: the whole node (85, 85b).
    step("rest delete fr", "DELETE", "/fr/node/1")
    step("rest en after delete", "GET", "/node/1")
    step("rest fr after delete", "GET", "/fr/node/1")
    return seen


def test_the_mock_answers_languages_as_the_fake_does(extended):
    fake, mocked = run_both(extended, _language_tour)
    # The tour reached what it is about: a translation read, refusals, the whole node deleted.
    assert fake["rest fr"]["body"]["title"] == [{"value": "Article 1 FR"}]
    assert fake["rest fr"]["Content-Language"] == "fr"
    assert fake["jsonapi patch untranslated"]["status"] == 405
    assert len(fake["jsonapi en filter langcode"]["body"]["data"]) == 1
    assert fake["jsonapi patch french original"]["status"] == 405
    assert fake["jsonapi delete page fr"]["status"] == 204
    assert (fake["rest post fr with nid"]["status"], fake["rest post fr with uuid"]["status"]) == (403, 500)
    assert fake["rest en after delete"]["status"] == 404
    assert_parity(fake, mocked, {}, set())
