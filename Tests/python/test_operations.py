"""Every operation of the blocking Client against the fake Drupal server."""
import drupalsdk
import pytest

from conftest import article


def test_library_version_matches_binding():
    assert drupalsdk.library_version().split(".")[:2] == ["0", "1"]
    assert drupalsdk.API_VERSION == (0, 1)


def test_login_returns_drupals_answer_and_status(client):
    assert client.login_status() is False
    answer = client.login("admin", "admin")
    assert answer["current_user"]["name"] == "admin"
    assert str(answer["current_user"]["uid"]) == "1"
    assert answer["csrf_token"] and answer["logout_token"]
    assert client.login_status() is True
    client.logout()
    assert client.login_status() is False


def test_logout_without_login_is_a_state_error(client):
    with pytest.raises(drupalsdk.DrupalError) as info:
        client.logout()
    assert info.value.code == "DRUPAL_E_STATE"


def test_csrf_refresh_returns_a_token(admin):
    token = admin.csrf_refresh()
    assert isinstance(token, str) and len(token) > 10


def test_entity_crud(admin):
    created = admin.create("node", article("Python CRUD", "<p>hello</p>"))
    nid = created["nid"][0]["value"]
    assert nid == 6
    assert created["title"][0]["value"] == "Python CRUD"

    read = admin.get("node", nid)
    assert read["title"][0]["value"] == "Python CRUD"
    assert read["body"][0]["value"] == "<p>hello</p>"
    assert admin.get("node", str(nid)) == read  # ids may be str or int

    updated = admin.update("node", nid, {"type": [{"target_id": "article"}], "title": [{"value": "Renamed"}]})
    assert updated["title"][0]["value"] == "Renamed"
    assert admin.get("node", nid)["title"][0]["value"] == "Renamed"

    assert admin.delete("node", nid) is None
    with pytest.raises(drupalsdk.NotFoundError):
        admin.get("node", nid)


def test_create_accepts_json_bytes_and_str(admin):
    first = admin.create("node", b'{"type":[{"target_id":"article"}],"title":[{"value":"bytes"}]}')
    second = admin.create("node", '{"type":[{"target_id":"article"}],"title":[{"value":"str \u00e9"}]}')
    assert first["title"][0]["value"] == "bytes"
    assert second["title"][0]["value"] == "str \u00e9"


def test_other_entity_types(admin):
    term = admin.create("taxonomy_term", {"vid": [{"target_id": "tags"}], "name": [{"value": "py"}]})
    tid = term["tid"][0]["value"]
    assert admin.get("taxonomy_term", tid)["name"][0]["value"] == "py"
    admin.delete("taxonomy_term", tid)
    assert admin.get("user", 2)["name"][0]["value"] == "editor"


def test_view_pages_and_filter(client):
    first = client.view("/api/articles")
    assert [row["title"] for row in first] == ["Article 1", "Article 2"]
    second = client.view("/api/articles", {"page": 1})
    assert [row["title"] for row in second] == ["Article 3", "Article 4"]
    assert client.view("/api/articles", [("page", "9")]) == []
    filtered = client.view("/api/articles", {"title": "article 5"})
    assert [row["title"] for row in filtered] == ["Article 5"]


def test_a_view_query_value_may_hold_a_line_break(admin):
    """Regression: a query value with a line break was refused before sending; it is
    percent-encoded, so the site gets it as given. A NUL is still refused."""
    title = "two\nlines\tand a tab"
    admin.create("node", {"type": [{"target_id": "article"}], "title": [{"value": title}]})
    assert [row["title"] for row in admin.view("/api/articles", {"title": title})] == [title]
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin.view("/api/articles", {"title": "a\x00b"})


def test_view_all_iterates_every_page(client):
    rows = list(client.view_all("/api/articles"))
    assert [row["title"] for row in rows] == ["Article %d" % n for n in range(1, 6)]
    assert [r["title"] for r in client.view_all("/api/articles", {"page": 2})] == ["Article 5"]
    assert len(list(client.view_all("/api/articles", max_pages=2))) == 4
    assert list(client.view_all("/api/articles", {"title": "nothing like this"})) == []


def test_upload_file(admin):
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) + b"\x00tail"
    entity = admin.upload_file("node", "article", "field_image", "some/dir/picture.png", data)
    assert entity["filename"][0]["value"] == "picture.png"
    fid = entity["fid"][0]["value"]
    assert admin.get("file", fid)["filename"][0]["value"] == "picture.png"


def test_request_returns_a_response(client):
    response = client.request("GET", "/node/1")
    assert response.status == 200
    assert response.ok
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["Content-Type"] == response.headers["CONTENT-TYPE"]
    assert "content-type" in response.headers
    assert isinstance(response.content, bytes)
    assert response.json()["title"][0]["value"] == "Article 1"
    assert '"Article 1"' in response.text
    assert "Response [200]" in repr(response)


def test_request_without_format_and_with_query(client):
    token = client.request("GET", "/session/token", format=False)
    assert token.status == 200 and len(token.text) > 10
    page = client.request("GET", "/api/articles", query={"page": "2"})
    assert [row["title"] for row in page.json()] == ["Article 5"]


def test_request_with_body_dict_and_headers(admin):
    response = admin.request("POST", "/node", body=article("via request"), headers={"X-Test": "1"})
    assert response.status == 201
    assert response.json()["title"][0]["value"] == "via request"
    assert "/node/6" in response.headers.get("Location", "")


def test_response_close_is_idempotent_and_headers_survive(client):
    response = client.request("GET", "/node/1")
    headers = response.headers
    response.close()
    response.close()
    assert response.headers is headers
    closed_first = client.request("GET", "/node/1")
    closed_first.close()
    assert len(closed_first.headers) == 0  # released before reading: documented


def test_malformed_json_is_a_decode_error(client):
    response = client.request("GET", "/node/1", headers={"X-Fake-Fault": "malformed"})
    with pytest.raises(drupalsdk.DecodeError) as info:
        response.json()
    assert info.value.status == 200
    assert info.value.code == "DRUPAL_E_DECODE"
    # The typed calls parse JSON themselves.
    with drupalsdk.Client.mock() as mock:
        mock.stub("GET", "/node/7", 200, b"{not json")
        with pytest.raises(drupalsdk.DecodeError) as info:
            mock.get("node", 7)
        assert info.value.body == b"{not json"
        assert info.value.headers["Content-Type"] == "application/json"
