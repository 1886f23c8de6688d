"""What the parity tests (test_rest_parity, test_jsonapi_parity) share: the fake's baseline content
seeded on a mock, running one tour on the fake (as Drupal 10.3, whose texts the mock speaks) and on
a seeded mock, and comparing the two step by step.
"""
from __future__ import annotations

from typing import Any, Callable, Dict

import drupalsdk


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
