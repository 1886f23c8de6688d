"""simple_oauth on the mock (MockDrupal.addOAuthConsumer) against the fake's extended site, step
by step: the token endpoint's grants and league's error documents, Bearer refusals, the authorize
page. The mock's consumers are the fake's (oauth.py). Recordings 70-77c show the fake's answers;
the code grant's follow source on both."""
from __future__ import annotations

import base64
import json
import re
import urllib.parse
from typing import Any, Dict

from parity import AnswerNormalizer, assert_parity, run_both

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
DESKTOP = "http://127.0.0.1:8765/callback"
#: Members holding a token, which differ between the runs.
TOKENS = {"access_token", "refresh_token"}
#: Members holding a time; and a time as core REST writes it (RFC 3339) anywhere.
TIMES = {"created", "changed", "last_comment_timestamp"}
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[+-]\d\d:\d\d|Z)")


class _Normalizer(AnswerNormalizer):
    """Token documents: the tokens themselves masked; the whole challenge compared."""
    HEADERS = ("Allow", "Location", "WWW-Authenticate", "Pragma")

    def member(self, key: str, value: Any, others: Dict[str, str]) -> Any:
        if key in TOKENS and value:
            return "<token>"
        if key in TIMES and value:
            return "<time>"   # when the site was seeded, which differs between the runs
        return self.value(value, others)

    def text(self, text: str, others: Dict[str, str]) -> str:
        return super().text(TIME.sub("<time>", text), others)

    def answer(self, response: Any) -> Dict[str, Any]:
        seen = super().answer(response)
        if seen["type"] == "text/html" and isinstance(seen["body"], str):
            seen["body"] = self.text(seen["body"], {})   # a redirect page's title names the URL
        return seen


def _mock_consumers(c: Any) -> None:
    """The fake's consumers (fakedrupal/oauth.py), on the mock."""
    c.add_oauth_consumer("sdk-client", "sdk-secret", grants=["client_credentials", "password", "refresh_token"],
                         uid=2)
    c.add_oauth_consumer("sdk-desktop", grants=["authorization_code", "refresh_token"], redirect_uris=[DESKTOP])
    c.add_oauth_consumer("sdk-web", "sdk-web-secret", grants=["authorization_code", "refresh_token"],
                         redirect_uris=["http://127.0.0.1:8765/web-callback"])


def _oauth_tour(c: Any) -> Dict[str, Any]:
    seen: Dict[str, Any] = {}
    origin = c.base_url if c.base_url != "mock:" else "http://drupal.mock"
    norm = _Normalizer(origin.rstrip("/"))
    if c.base_url == "mock:":
        _mock_consumers(c)
        # The extended site's French (languages.py): its articles carry content_translation's fields.
        c.add_language("fr")
        c.add_translation("node", 1, "fr", {"title": [{"value": "Article 1 FR"}]})
    else:
        c.request("POST", "/__fake/reset", format=False)

    def step(name: str, method: str, path: str, form: Any = None, headers: Any = None, query: Any = None) -> Any:
        body = urllib.parse.urlencode(form).encode() if isinstance(form, dict) else form
        response = c.request(method, path, query=query, body=body, headers=headers, format=False,
                             raise_for_status=False)
        seen[name] = norm.answer(response)
        return response

    def token(name: str, **form: str) -> Any:
        return step(name, "POST", "/oauth/token", form, FORM)

    client = {"client_id": "sdk-client", "client_secret": "sdk-secret"}
    issued = token("client_credentials", grant_type="client_credentials", **client)
    token("wrong secret", grant_type="client_credentials", client_id="sdk-client", client_secret="wrong")
    basic = base64.b64encode(b"sdk-client:wrong").decode()
    step("basic wrong secret", "POST", "/oauth/token", {"grant_type": "client_credentials"},
         dict(FORM, Authorization="Basic " + basic))
    token("unknown client", grant_type="client_credentials", client_id="nope", client_secret="x")
    token("no client id", grant_type="client_credentials")
    token("grant not allowed", grant_type="authorization_code", code="x", **client)
    token("grant unknown", grant_type="implicit", **client)
    step("json body", "POST", "/oauth/token", json.dumps(dict(grant_type="client_credentials", **client)).encode(),
         {"Content-Type": "application/json"})
    pair = token("password", grant_type="password", username="admin", password="admin", **client)
    token("password wrong", grant_type="password", username="admin", password="wrong", **client)
    token("password no username", grant_type="password", password="admin", **client)
    refresh = json.loads(pair.content).get("refresh_token", "") if pair.status == 200 else ""
    token("refresh", grant_type="refresh_token", refresh_token=refresh, **client)
    token("refresh again", grant_type="refresh_token", refresh_token=refresh, **client)
    token("refresh garbage", grant_type="refresh_token", refresh_token="def50200nope", **client)
    token("refresh missing", grant_type="refresh_token", **client)
    token("code missing", grant_type="authorization_code", client_id="sdk-desktop", redirect_uri=DESKTOP)
    token("code garbage", grant_type="authorization_code", client_id="sdk-desktop", code="def50200nope",
          redirect_uri=DESKTOP)

    # Bearer tokens: refused ones are a 401 with the reason in the challenge, on any path.
    access = json.loads(issued.content).get("access_token", "") if issued.status == 200 else ""
    step("bearer issued", "GET", "/node/1", query={"_format": "json"},
         headers={"Authorization": "Bearer " + access})
    step("bearer no dots", "GET", "/node/1", query={"_format": "json"}, headers={"Authorization": "Bearer garbage"})
    step("bearer not json", "GET", "/node/1", query={"_format": "json"}, headers={"Authorization": "Bearer a.b.c"})
    step("bearer bad base64", "GET", "/node/1", query={"_format": "json"}, headers={"Authorization": "Bearer a!.b.c"})
    forged = ".".join(base64.urlsafe_b64encode(b'{"typ":"JWT"}').decode().rstrip("=") for _ in range(2)) + ".sig"
    step("bearer forged", "GET", "/node/1", query={"_format": "json"}, headers={"Authorization": "Bearer " + forged})

    # The authorize page: a consumer it does not know, then an anonymous person sent to log in.
    step("authorize unknown client", "GET", "/oauth/authorize", query={"client_id": "nope"})
    step("authorize anonymous", "GET", "/oauth/authorize",
         query={"response_type": "code", "client_id": "sdk-desktop", "redirect_uri": DESKTOP, "state": "s/1"})
    return seen


def test_the_mock_answers_oauth_as_the_fake_does(extended):
    fake, mocked = run_both(extended, _oauth_tour)
    # The tour reached what it is about: tokens issued and refused, a refusal with a hint.
    assert fake["client_credentials"]["status"] == 200 and fake["refresh"]["status"] == 200
    assert fake["refresh again"]["body"]["hint"] == "Token has been revoked"
    assert fake["bearer forged"]["status"] == 401
    assert_parity(fake, mocked, {}, set())
