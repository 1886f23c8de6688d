"""What the parity tests (test_rest_parity, test_jsonapi_parity) share: the fake's baseline content
seeded on a mock, running one tour on the fake (as Drupal 10.3, whose texts the mock speaks) and on
a seeded mock, and comparing the two step by step.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Dict, Tuple

import drupalsdk

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class AnswerNormalizer:
    """Answers as comparable values: status, media type, the headers that carry meaning
    (``HEADERS``; of WWW-Authenticate the scheme only, the realm being the site's name) and the
    body, with the site's origin and UUIDs replaced (the tour's entities by name, others numbered
    within the answer). Each tour says which members hold times or seed data (``member``), how
    text is read (``text``) and a body that is neither empty nor HTML (``body``)."""
    HEADERS: Tuple[str, ...] = ("Allow", "Location")

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.names: Dict[str, str] = {}

    def name(self, uuid: str, label: str) -> None:
        self.names[uuid] = "{%s}" % label

    def text(self, text: str, others: Dict[str, str]) -> str:
        text = text.replace(self.origin, "<origin>")

        def uuid(match: "re.Match[str]") -> str:
            known = self.names.get(match.group(0))
            if known:
                return known
            return others.setdefault(match.group(0), "<uuid %d>" % (len(others) + 1))
        return UUID.sub(uuid, text)

    def member(self, key: str, value: Any, others: Dict[str, str]) -> Any:
        return self.value(value, others)

    def value(self, value: Any, others: Dict[str, str]) -> Any:
        if isinstance(value, dict):
            # In sorted order, so that UUIDs are numbered alike whatever the member order.
            return {key: self.member(key, value[key], others) for key in sorted(value)}
        if isinstance(value, list):
            return [self.value(item, others) for item in value]
        if isinstance(value, str):
            return self.text(value, others)
        return value

    def body(self, media_type: str, content: bytes, others: Dict[str, str]) -> Any:
        return self.value(json.loads(content), others)

    def answer(self, response: Any) -> Dict[str, Any]:
        others: Dict[str, str] = {}
        headers = response.headers
        seen: Dict[str, Any] = {"status": response.status,
                                "type": (headers.get("Content-Type") or "").split(";")[0] or None}
        for name in self.HEADERS:
            if headers.get(name) is not None:
                seen[name] = self.text(headers[name], others)
        if headers.get("WWW-Authenticate") is not None:
            seen["challenge"] = headers["WWW-Authenticate"].split(" ")[0]
        if not response.content:
            seen["body"] = None
        elif seen["type"] == "text/html":
            # The title without the site's name ("RealDrupal" on the fake, "Drupal" on the mock).
            found = re.search(rb"<title>(.*?)( \| [^<]*)?</title>", response.content)
            seen["body"] = found.group(1).decode() if found else "<html>"
        else:
            seen["body"] = self.body(seen["type"], response.content, others)
        return seen


def article(title: str, **fields: Any) -> Dict[str, Any]:
    """A core REST article body."""
    body: Dict[str, Any] = {"type": [{"target_id": "article"}], "title": [{"value": title}]}
    body.update(fields)
    return body


def seed_mock_baseline(mock: Any) -> None:
    """The fake's baseline (the recorded site's, README "Baseline content") on a mock."""
    for name in ("alpha", "beta"):
        mock.add_entity("taxonomy_term", {"vid": [{"target_id": "tags"}], "name": [{"value": name}]})
    for n in range(1, 6):
        mock.add_entity("node", article("Article %d" % n,
                                        body=[{"value": "<p>Body of article %d</p>" % n, "format": "basic_html",
                                               "summary": ""}],
                                        uid=[{"target_id": 1 if n <= 3 else 2}],
                                        field_tags=[{"target_id": 2 if n % 2 else 1}]))


def run_both(server: Any, tour: Callable[[Any], Dict[str, Any]]) -> tuple:
    """(the fake's steps, the mock's steps) of one tour: the fake reset to its baseline and set to
    Drupal 10 (the suites also run it as Drupal 11.2, whose texts differ; the mock answers with
    Drupal 10.3's), the mock seeded as that baseline."""
    server.control("POST", "/__fake/config", {"drupal": "10"})
    try:
        with drupalsdk.Client(server.base_url, timeout=20) as live:
            fake = tour(live)
    finally:
        server.control("POST", "/__fake/config", {"defaults": True})
    with drupalsdk.MockClient() as mock:
        seed_mock_baseline(mock)
        mocked = tour(mock)
    return fake, mocked


def differences(fake: Dict[str, Any], mocked: Dict[str, Any]) -> Dict[str, tuple]:
    return {name: (fake.get(name), mocked.get(name)) for name in fake.keys() | mocked.keys()
            if fake.get(name) != mocked.get(name)}


def _paths(fake: Any, mocked: Any, at: str = "") -> list:
    """Where two values differ, as "path: fake != mock" lines."""
    if isinstance(fake, dict) and isinstance(mocked, dict):
        return [line for key in sorted(fake.keys() | mocked.keys(), key=str)
                for line in _paths(fake.get(key, "<absent>"), mocked.get(key, "<absent>"), "%s/%s" % (at, key))]
    if isinstance(fake, list) and isinstance(mocked, list) and len(fake) == len(mocked):
        return [line for index, pair in enumerate(zip(fake, mocked)) for line in _paths(*pair, "%s/%d" % (at, index))]
    return [] if fake == mocked else ["%s: %r != %r" % (at or "/", fake, mocked)]


def assert_parity(fake: Dict[str, Any], mocked: Dict[str, Any], accepted: Dict[str, str], not_fixed: set) -> None:
    """The two runs agree but for the steps of ``accepted`` (each with its reason) and
    ``not_fixed``, and each of those still differs (a fix removes its steps)."""
    found = differences(fake, mocked)
    unexpected = {name: pair for name, pair in found.items() if name not in accepted.keys() | not_fixed}
    # Each step with where it differs (fake != mock), at most 8 places a step.
    assert not unexpected, "%d steps differ (fake != mock):\n" % len(unexpected) + "\n".join(
        "%s:\n  " % name + "\n  ".join(_paths(*pair)[:8]) for name, pair in sorted(unexpected.items()))
    assert accepted.keys() | not_fixed <= found.keys(), "differences that are gone: %s" % (
        (accepted.keys() | not_fixed) - found.keys())
