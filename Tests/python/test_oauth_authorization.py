"""simple_oauth's authorization code grant with PKCE from Python, against the fake's extended
site: Client.oauth_authorization, a person approving in a (logged-in) browser, the code exchanged
once, the refresh after, refusals and forged redirects, and secrets kept out of errors."""
import asyncio
import urllib.parse

import pytest

import drupalsdk

REDIRECT_URI = "http://127.0.0.1:8765/callback"
ARTICLE = {"type": [{"target_id": "article"}], "title": [{"value": "via a code"}]}


def approve(server, url, user="editor"):
    """The URL the authorize page sends a browser with ``user``'s session to."""
    assert url.startswith(server.base_url + "/oauth/authorize?")
    with drupalsdk.Client(server.base_url, timeout=20) as browser:
        browser.login(user, user)
        with pytest.raises(drupalsdk.RedirectError) as redirect:
            browser.request("GET", url[len(server.base_url):], format=False)
    return redirect.value.location


def query(url):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


def test_a_person_approves_and_the_code_is_exchanged_once(extended):
    extended.control("POST", "/__fake/reset")
    with drupalsdk.Client(extended.base_url, timeout=20) as client:
        authorization = client.oauth_authorization("sdk-desktop", REDIRECT_URI, scope="content_editor")
        asked = query(authorization.url)
        assert asked["client_id"] == "sdk-desktop" and asked["redirect_uri"] == REDIRECT_URI
        assert asked["code_challenge_method"] == "S256" and len(asked["code_challenge"]) == 43
        assert asked["scope"] == "content_editor" and len(asked["state"]) == 22
        redirected = approve(extended, authorization.url)
        assert query(redirected)["state"] == asked["state"]
        authorization.finish(redirected)
        authorization.close()
        created = client.create("node", ARTICLE)
        assert created["uid"][0]["target_id"] == 2          # the editor's token
        extended.control("POST", "/__fake/oauth-expire")
        assert client.get("node", 1)["nid"] == [{"value": 1}]
        assert extended.stats()["token_grants"] == {"authorization_code": 1, "refresh_token": 1}


def test_the_next_run_starts_from_the_refresh_token_the_program_kept(extended):
    extended.control("POST", "/__fake/reset")
    with drupalsdk.Client(extended.base_url, timeout=20) as client:
        authorization = client.oauth_authorization("sdk-desktop", REDIRECT_URI)
        authorization.finish(approve(extended, authorization.url))
        assert client.oauth_refresh_token() is None        # no token yet
        client.get("node", 1)
        kept = client.oauth_refresh_token()
        assert kept and kept not in repr(client)
    with drupalsdk.Client(extended.base_url, timeout=20) as client:
        client.set_oauth("sdk-desktop", refresh_token=kept)
        assert client.create("node", ARTICLE)["uid"][0]["target_id"] == 2   # still the editor
        rotated = client.oauth_refresh_token()
        assert rotated and rotated != kept
        # The kept token was rotated away: refused, and no longer held.
        client.set_oauth("sdk-desktop", refresh_token=kept)
        with pytest.raises(drupalsdk.AuthenticationError):
            client.get("node", 1)
        assert client.oauth_refresh_token() is None
    with drupalsdk.MockClient() as mock:
        assert mock.oauth_refresh_token() is None


def test_the_async_client_takes_the_same_code_grant(extended):
    extended.control("POST", "/__fake/reset")

    async def main():
        async with drupalsdk.AsyncClient(extended.base_url, timeout=20) as client:
            authorization = client.oauth_authorization("sdk-desktop", REDIRECT_URI)
            authorization.finish(approve(extended, authorization.url, "admin"))
            return await client.get("node", 1)

    assert asyncio.run(main())["nid"] == [{"value": 1}]
    assert extended.stats()["token_grants"] == {"authorization_code": 1}


def test_a_forged_or_refused_redirect_changes_nothing(extended):
    with drupalsdk.Client(extended.base_url, timeout=20) as client:
        authorization = client.oauth_authorization("sdk-desktop", REDIRECT_URI)
        state = query(authorization.url)["state"]
        with pytest.raises(drupalsdk.InvalidArgumentError, match="state") as forged:
            authorization.finish(REDIRECT_URI + "?code=stolen&state=another")
        assert state not in str(forged.value)
        with pytest.raises(drupalsdk.InvalidArgumentError):
            authorization.finish(REDIRECT_URI + "?state=" + state)           # no code
        with pytest.raises(drupalsdk.AuthenticationError, match="access_denied: The user denied"):
            authorization.finish(REDIRECT_URI + "?error=access_denied&error_description=The+user+denied&state=" + state)
        assert client.get("node", 1)["nid"] == [{"value": 1}]               # still anonymous, unharmed
        authorization.close()
        with pytest.raises(drupalsdk.ClosedError):
            authorization.finish(REDIRECT_URI)


def test_a_code_with_another_verifier_is_the_sites_invalid_grant(extended):
    with drupalsdk.Client(extended.base_url, timeout=20) as client:
        authorization = client.oauth_authorization("sdk-desktop", REDIRECT_URI)
        code = query(approve(extended, authorization.url))["code"]
        verifier = "v" * 43
        client.set_oauth("sdk-desktop", code=code, redirect_uri=REDIRECT_URI, code_verifier=verifier)
        with pytest.raises(drupalsdk.AuthenticationError) as refused:
            client.get("node", 1)
        assert refused.value.status == 400 and refused.value.oauth_error.error == "invalid_grant"
        assert code not in str(refused.value) and verifier not in str(refused.value)


def test_bad_arguments_are_refused_before_anything_is_sent(extended):
    with drupalsdk.Client(extended.base_url, timeout=20) as client:
        before = extended.stats()["requests"]
        for bad in (lambda: client.oauth_authorization("", REDIRECT_URI),
                    lambda: client.oauth_authorization("sdk-desktop", "http://x/cb\r\nX: y"),
                    lambda: client.oauth_authorization("sdk-desktop", REDIRECT_URI, client_auth="header"),
                    lambda: client.set_oauth("sdk-desktop", code="c", redirect_uri=REDIRECT_URI,
                                             code_verifier="short-secret")):
            with pytest.raises(drupalsdk.InvalidArgumentError) as refused:
                bad()
            assert "short-secret" not in str(refused.value)
        assert extended.stats()["requests"] == before
    with drupalsdk.MockClient() as mock:
        with pytest.raises(drupalsdk.DrupalError, match="no site to authorize on"):
            mock.oauth_authorization("sdk-desktop", REDIRECT_URI)
