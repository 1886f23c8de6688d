"""What real Drupal 10.3/11.2 sites showed (issue 9), against the fake server: Drupal's own message,
violations, session routes without Basic, login status, paging that ends, error answers as
responses, repeated headers, targets with a query, forgetting a session, custom entity paths."""
import asyncio

import drupalsdk
import pytest

from conftest import article


def _basic(base_url, user="admin", password=None):
    client = drupalsdk.Client(base_url, timeout=20)
    client.set_basic_auth(user, password or user)
    return client


def test_empty_drupal_message_is_kept_verbatim(base_url):
    """Recording 24g: an editor reading an unpublished node it does not own gets {"message":""}."""
    with _basic(base_url) as admin, _basic(base_url, "editor") as editor:
        hidden = dict(article("hidden"), status=[{"value": False}])
        nid = admin.create("node", hidden)["nid"][0]["value"]
        with pytest.raises(drupalsdk.AuthorizationError) as info:
            editor.get("node", nid)
    assert info.value.drupal_message == ""
    assert info.value.message == "GET /node/%d answered HTTP 403 Forbidden with no message" % nid


def test_drupal_message_is_none_without_a_json_body(base_url):
    with drupalsdk.Client(base_url, headers={"X-Fake-Fault": "status;code=500"}) as client:
        with pytest.raises(drupalsdk.HTTPError) as info:
            client.get("node", 1)
    assert info.value.status == 500
    assert info.value.drupal_message is None
    assert info.value.message == "The website encountered an unexpected error. Try again later."


def test_file_validation_422_has_no_violations(base_url):
    """Recording 52e: "Unprocessable Entity: file validation failed." is not a violation list."""
    with _basic(base_url) as client:
        with pytest.raises(drupalsdk.ValidationError) as info:
            client.upload_file("node", "article", "field_image", "notes.txt", b"plain text")
    assert info.value.drupal_message.startswith("Unprocessable Entity: file validation failed.\n")
    assert info.value.violations == []
    assert info.value.jsonapi_errors == []


def test_cookie_session_with_basic_refreshes_the_token(base_url, server):
    """/session/token and /user/login_status go with the cookie alone (Drupal refuses Basic there)."""
    with drupalsdk.Client(base_url) as client:
        client.login("editor", "editor")
        client.set_basic_auth("editor", "editor")
        assert client.login_status() is True
        server.control("POST", "/__fake/invalidate-csrf")
        assert client.create("node", article("cookie and basic"))["title"][0]["value"] == "cookie and basic"
        assert client.csrf_refresh()


def test_login_status_failure_keeps_the_status(base_url):
    with drupalsdk.Client(base_url, headers={"X-Fake-Fault": "status;code=503"}) as client:
        with pytest.raises(drupalsdk.HTTPError) as info:
            client.login_status()
        assert info.value.status == 503
        with pytest.raises(drupalsdk.HTTPError) as info:
            client.submit_login_status().result(20)
        assert info.value.status == 503


def test_view_all_stops_when_a_page_repeats(client):
    """A display with no pager ignores ?page: the rows must come once, not max_pages times."""
    rows = list(client.view_all("/api/articles-all"))
    assert [row["nid"] for row in rows] == ["1", "2", "3", "4", "5"]
    assert [row["nid"] for row in client.view_all("/api/articles", {"page": 1})] == ["3", "4", "5"]
    assert len(list(client.view_all("/api/articles", max_pages=1))) == 2
    with pytest.raises(drupalsdk.InvalidArgumentError):
        list(client.view_all("/api/articles", max_pages=0))


def test_async_view_all_stops_when_a_page_repeats(base_url):
    async def walk():
        async with drupalsdk.AsyncClient(base_url) as client:
            return [row["nid"] async for row in client.view_all("/api/articles-all")]
    assert asyncio.run(walk()) == ["1", "2", "3", "4", "5"]


def test_request_can_return_error_answers(client):
    response = client.request("GET", "/node/424242", raise_for_status=False)
    assert response.status == 404 and not response.ok
    assert isinstance(response.error, drupalsdk.NotFoundError)
    assert response.json()["message"].startswith('The "node" parameter was not converted')
    with pytest.raises(drupalsdk.NotFoundError):
        response.raise_for_status()
    ok = client.request("GET", "/node/1", raise_for_status=False)
    assert ok.ok and ok.error is None
    ok.raise_for_status()
    future = client.submit_request("GET", "/node/424242", raise_for_status=False)
    assert future.result(20).status == 404
    with pytest.raises(drupalsdk.NotFoundError):
        client.request("GET", "/node/424242")


def test_repeated_headers_give_every_value(client):
    response = client.request("GET", "/node/1")
    links = response.headers.get_all("Link")
    assert len(links) > 1, links
    assert response.headers.getlist("link") == links
    assert response.headers["Link"] == links[0]


def test_paths_with_a_query_and_absolute_urls_under_the_base(client, base_url):
    rows = client.request("GET", "/api/articles?page=1").json()
    assert rows[0]["nid"] == "3"
    assert client.request("GET", base_url + "/node/2").json()["nid"][0]["value"] == 2
    for outside in ["http://evil.example/node/1", base_url + "evil/node/1"]:
        with pytest.raises(drupalsdk.InvalidArgumentError):
            client.request("GET", outside)


def test_has_session_and_forget_session(client, server):
    assert client.has_session is False
    client.login("admin", "admin")
    assert client.has_session is True
    before = server.stats()["requests"]
    client.forget_session()
    assert server.stats()["requests"] == before
    assert client.has_session is False
    assert client.login_status() is False
    with pytest.raises(drupalsdk.DrupalError) as info:
        client.logout()
    assert info.value.code == "DRUPAL_E_STATE"


def test_custom_entity_paths(base_url):
    with drupalsdk.Client(base_url, entity_paths={"article_node": ("/node/{id}", "/node")}) as client:
        assert client.get("article_node", 1)["nid"][0]["value"] == 1
    with pytest.raises(drupalsdk.InvalidArgumentError):
        drupalsdk.Client(base_url, entity_paths={"thing": ("/thing/1", "/thing")})


def test_every_jsonapi_error_is_kept(base_url):
    """Recording 125: a JSON:API 422 with two errors keeps both, and each is a violation."""
    body = {"data": {"type": "node--article",
                     "attributes": {"langcode": "xx", "body": {"value": "x", "format": "basic_html"}}}}
    with _basic(base_url) as client:
        with pytest.raises(drupalsdk.ValidationError) as info:
            client.request("POST", "/jsonapi/node/article", body=body, format=False,
                           headers={"Content-Type": "application/vnd.api+json"})
    error = info.value
    assert [e.status for e in error.jsonapi_errors] == ["422", "422"]
    assert error.jsonapi_errors[1].detail == "title: This value should not be null."
    assert error.jsonapi_errors[0].pointer == "/data/attributes/langcode/0"
    assert error.jsonapi_errors[0].members["source.pointer"] == "/data/attributes/langcode/0"
    assert error.violations == [
        ("/data/attributes/langcode/0", "langcode.0: The value you selected is not a valid choice."),
        ("/data/attributes/title", "title: This value should not be null.")]
    assert error.drupal_message == "langcode.0: The value you selected is not a valid choice."
