"""OAuth 2 from Python against the fake's extended site: set_oauth (three grants), forced expiry
survived with one refresh (blocking, futures, asyncio, 16 threads), token errors, refused Bearer
tokens, token providers, and secrets kept out of logs and errors."""
import asyncio
import concurrent.futures
import logging
import pickle
import time

import pytest

import drupalsdk

ARTICLE = {"type": [{"target_id": "article"}], "title": [{"value": "via OAuth"}]}


def oauth_client(server, **kwargs):
    client = drupalsdk.Client(server.base_url, timeout=20)
    client.set_oauth("sdk-client", kwargs.pop("secret", "sdk-secret"), **kwargs)
    return client


def title(node):
    return node["title"][0]["value"]


def test_password_grant_survives_a_forced_expiry(extended):
    with oauth_client(extended, username="admin", password="admin") as client:
        assert title(client.get("node", 1)) == "Article 1"
        assert extended.stats()["token_grants"] == {"password": 1}
        extended.control("POST", "/__fake/oauth-expire")
        assert title(client.get("node", 1)) == "Article 1"        # one refresh, one retry
        extended.control("POST", "/__fake/oauth-expire")
        assert title(client.submit_get("node", 2).result(timeout=20)) == "Article 2"
        extended.control("POST", "/__fake/oauth-expire")
        created = client.create("node", ARTICLE)                   # Bearer writes need no CSRF token
        assert created["uid"][0]["target_id"] == 1
        assert extended.stats()["token_grants"] == {"password": 1, "refresh_token": 3}


def test_asyncio_client(extended):
    async def main():
        async with drupalsdk.AsyncClient(extended.base_url) as client:
            client.set_oauth("sdk-client", "sdk-secret", username="editor", password="editor")
            summary = await client.oauth_authenticate()
            assert summary["token_type"] == "Bearer" and summary["has_refresh_token"] is True
            assert "access_token" not in summary
            extended.control("POST", "/__fake/oauth-expire")
            nodes = await asyncio.gather(*(client.get("node", n) for n in (1, 2, 3)))
            return [title(n) for n in nodes]
    assert asyncio.run(main()) == ["Article 1", "Article 2", "Article 3"]
    assert extended.stats()["token_grants"] == {"password": 1, "refresh_token": 1}


def test_client_credentials_fetch_a_new_token(extended):
    with oauth_client(extended, scope="content_editor", client_auth="basic") as client:
        assert client.get("user", 2)["name"][0]["value"] == "editor"
        extended.control("POST", "/__fake/oauth-expire")
        client.get("user", 2)
    assert extended.stats()["token_grants"] == {"client_credentials": 2}


def test_sixteen_threads_make_one_refresh(extended):
    with oauth_client(extended, username="editor", password="editor") as client:
        client.get("node", 1)
        extended.control("POST", "/__fake/oauth-expire")
        before = extended.stats()["token_requests"]
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            titles = list(pool.map(lambda n: title(client.get("node", n % 5 + 1)), range(16)))
        assert len(titles) == 16
        assert extended.stats()["token_requests"] - before == 1


def test_token_errors(extended):
    with oauth_client(extended, secret="wrong-secret") as client:
        with pytest.raises(drupalsdk.AuthenticationError) as caught:
            client.get("node", 1)
    error = caught.value
    assert error.status == 401
    assert error.oauth_error == drupalsdk.OAuthError("invalid_client", "Client authentication failed", None, None)
    assert "wrong-secret" not in str(error) + repr(error)
    again = pickle.loads(pickle.dumps(error))
    assert again.oauth_error == error.oauth_error

    with oauth_client(extended, username="admin", password="bad-password") as client:
        with pytest.raises(drupalsdk.AuthenticationError) as caught:
            client.oauth_authenticate()
    assert caught.value.status == 400 and caught.value.oauth_error.error == "invalid_grant"
    assert "bad-password" not in str(caught.value)

    with oauth_client(extended, refresh_token="def50200notatoken") as client:
        with pytest.raises(drupalsdk.AuthenticationError) as caught:
            client.get("node", 1)
    assert caught.value.oauth_error.error == "invalid_grant"
    assert "def50200notatoken" not in str(caught.value)
    assert extended.stats()["token_requests"] == 3   # each once: never a loop


def test_a_refused_bearer_token_says_why(extended):
    with drupalsdk.Client(extended.base_url) as client:
        client.set_bearer_token("garbage")
        with pytest.raises(drupalsdk.AuthenticationError) as caught:
            client.get("node", 1)
        assert caught.value.oauth_error == drupalsdk.OAuthError("access_denied", "The JWT string must have two dots",
                                                                None, "OAuth")
        with pytest.raises(drupalsdk.AuthenticationError) as caught:
            client.request("GET", "/jsonapi/node/article", format=False)
        assert caught.value.headers["Content-Type"].startswith("text/html")
        assert "The JWT string must have two dots" in caught.value.message


def test_token_provider(extended):
    extended.control("POST", "/__fake/bearer", {"token": "minted-elsewhere", "uid": 2})
    reasons = []

    def provider(reason):
        reasons.append(reason)
        return "stale.token.x" if len(reasons) == 1 else ("minted-elsewhere", 300)

    with drupalsdk.Client(extended.base_url) as client:
        client.set_token_provider(provider)
        assert client.get("user", 2)["name"][0]["value"] == "editor"
        assert reasons == ["initial", "rejected"]
        assert client.submit_get("user", 2).result(timeout=20)["uid"][0]["value"] == 2
        assert len(reasons) == 2

        def failing(reason):
            raise drupalsdk.NetworkError("the vault is down", code="DRUPAL_E_NETWORK")
        client.set_token_provider(failing)
        with pytest.raises(drupalsdk.NetworkError):
            client.get("user", 2)

        def unreadable(reason):   # a token kept in a file that cannot be read
            raise drupalsdk.FileError("the token file is gone", code="DRUPAL_E_FILE")
        client.set_token_provider(unreadable)
        with pytest.raises(drupalsdk.FileError):
            client.get("user", 2)

        def not_in_the_vault(reason):   # every code a provider may give keeps its code
            raise drupalsdk.DrupalError("no such secret", code="DRUPAL_E_NOT_FOUND")
        client.set_token_provider(not_in_the_vault)
        with pytest.raises(drupalsdk.DrupalError) as caught:
            client.get("user", 2)
        assert caught.value.code == "DRUPAL_E_NOT_FOUND", caught.value
        client.set_token_provider(lambda reason: "bad token with spaces")
        with pytest.raises(drupalsdk.InvalidArgumentError) as caught:
            client.get("user", 2)
        assert "bad token" not in str(caught.value)
        client.set_token_provider(lambda reason: ("minted-elsewhere", float("nan")))
        with pytest.raises(drupalsdk.InvalidArgumentError) as caught:
            client.get("user", 2)
        assert "lifetime" in caught.value.message
        with pytest.raises(TypeError):
            client.set_token_provider("not callable")


def test_a_providers_exception_message_reaches_the_error(extended):
    """Regression: the error said only "the token provider returned DRUPAL_E_INTERNAL"."""
    def sealed(reason):
        raise RuntimeError("the vault is sealed")

    def down(reason):
        raise drupalsdk.NetworkError("the vault is down", code="DRUPAL_E_NETWORK")

    with drupalsdk.Client(extended.base_url) as client:
        client.set_token_provider(sealed)
        with pytest.raises(drupalsdk.DrupalError) as caught:
            client.get("user", 2)
        # Another library's exception is named by its type only: its text may quote a secret.
        assert "the token provider failed: raised RuntimeError" in caught.value.message
        assert "sealed" not in caught.value.message

        class Unprintable(Exception):
            def __str__(self):
                raise ValueError("no text")

        def unprintable(reason):
            raise Unprintable()
        # Its str() failing inside the C callback returned garbage: the process died (SIGILL).
        client.set_token_provider(unprintable)
        with pytest.raises(drupalsdk.DrupalError) as caught:
            client.get("user", 2)
        assert caught.value.code == "DRUPAL_E_INTERNAL" and "raised Unprintable" in caught.value.message
        client.set_token_provider(down)
        with pytest.raises(drupalsdk.NetworkError) as caught:
            client.get("user", 2)
        assert "the token provider failed: the vault is down" in caught.value.message


def test_a_slow_provider_ends_with_the_calls_timeout(extended):
    """Regression: a call whose timeout is 1 s waited the 6 s of its token provider."""
    extended.control("POST", "/__fake/bearer", {"token": "minted-elsewhere", "uid": 2})
    ended = []

    def slow(reason):
        time.sleep(6)
        ended.append(reason)
        return ("minted-elsewhere", 300)

    with drupalsdk.Client(extended.base_url, timeout=1) as client:
        client.set_token_provider(slow)
        started = time.monotonic()
        with pytest.raises(drupalsdk.DrupalTimeoutError):
            client.get("user", 2)
        assert time.monotonic() - started < 4
        assert ended == []
    assert ended == ["initial"]    # closing the client waited for the provider


def test_bad_input_is_refused_without_quoting_secrets(extended):
    with drupalsdk.Client(extended.base_url) as client:
        with pytest.raises(drupalsdk.InvalidArgumentError) as caught:
            client.set_oauth("sdk-client", "top\nsecret")
        assert "top" not in str(caught.value)
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.set_oauth("sdk-client", "s\x00cret")
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.set_oauth("", "sdk-secret")
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.set_oauth("sdk-client", grant="implicit")
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.set_oauth("sdk-client", grant="password")          # no username
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.set_oauth("sdk-client", client_auth="header")
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.set_oauth("sdk-client", token_path="/../oauth/token")
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.set_oauth("sdk-client", refresh_margin=-5)
        with pytest.raises(drupalsdk.DrupalError) as caught:
            client.oauth_authenticate()                                # not an OAuth client
        assert caught.value.code == "DRUPAL_E_STATE"


def test_secrets_never_reach_the_log(extended, caplog):
    caplog.set_level(logging.DEBUG, logger="drupalsdk")
    with oauth_client(extended, username="editor", password="editor") as client:
        client.get("node", 1)
        extended.control("POST", "/__fake/oauth-expire")
        client.get("node", 1)
    text = caplog.text
    assert "POST" in text and "/oauth/token" in text and "<redacted>" in text
    for secret in ("sdk-secret", "eyJ", "def50200", "password="):
        assert secret not in text


def test_the_mock_site_has_simple_oauth_once_it_has_a_consumer():
    # OAuth code tested without a server: the grants, the refresh after expiry, refusals.
    with drupalsdk.MockClient() as mock:
        mock.add_oauth_consumer("app", "app-secret", uid=2)
        mock.set_oauth("app", "app-secret")                         # client_credentials
        created = mock.create("node", {"type": [{"target_id": "article"}], "title": [{"value": "t"}]})
        assert created["uid"][0]["target_id"] == 2
        mock.set_oauth("app", "app-secret", username="admin", password="admin")
        mock.oauth_authenticate()
        kept = mock.oauth_refresh_token()
        mock.expire_oauth_tokens()
        assert mock.get("user", 1)["name"][0]["value"] == "admin"    # refreshed first
        assert mock.oauth_refresh_token() not in (None, kept)
        grants = [r["body"] for r in mock.requests() if r["url"].endswith("/oauth/token")]
        assert [g.split("grant_type=")[1].split("&")[0] for g in grants] == [
            "client_credentials", "password", "refresh_token"]
        mock.set_oauth("app", "wrong")
        with pytest.raises(drupalsdk.AuthenticationError) as refused:
            mock.get("node", created["nid"][0]["value"])
        assert refused.value.oauth_error.error == "invalid_client" and "wrong" not in str(refused.value)
        # A Bearer token the site did not issue is a 401 now.
        mock.set_bearer_token("made.up.token")
        with pytest.raises(drupalsdk.AuthenticationError):
            mock.get("node", created["nid"][0]["value"])
        with pytest.raises(drupalsdk.InvalidArgumentError):
            mock.add_oauth_consumer("x", grants=["implicit"])
        with pytest.raises(TypeError):
            mock.add_oauth_consumer("x", grants="password")
