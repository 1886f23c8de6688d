"""The mock client, handle lifecycle, library lookup and import errors."""
import asyncio
import gc
import os
import subprocess
import sys
import weakref

import drupalsdk
import pytest

from conftest import CHECKOUT_LIBRARY, PACKAGE_SRC, article


def test_mock_client_seeds_and_crud():
    with drupalsdk.Client.mock() as mock:
        assert isinstance(mock, drupalsdk.MockClient)
        uid = mock.add_user("carol", "pw", roles=["content_editor"])
        assert uid and uid.isdigit()
        nid = mock.add_entity("node", article("Seeded"))
        assert mock.get("node", nid)["title"][0]["value"] == "Seeded"
        assert [row["title"] for row in mock.view_all("/api/articles")][-1] == "Seeded"
        assert mock.login("carol", "pw")["current_user"]["name"] == "carol"
        created = mock.create("node", article("by carol"))
        assert created["title"][0]["value"] == "by carol"
        with pytest.raises(drupalsdk.AuthenticationError):
            drupalsdk.MockClient().login("carol", "wrong")


def test_mock_stub():
    with drupalsdk.MockClient() as mock:
        mock.stub("GET", "/node/1", 503, b"down", content_type="text/plain")
        with pytest.raises(drupalsdk.HTTPError) as info:
            mock.get("node", 1)
        assert info.value.status == 503 and info.value.body == b"down"
        mock.stub("GET", "/custom/thing", 200, {"hello": "world"})
        response = mock.request("GET", "/custom/thing")
        assert response.json() == {"hello": "world"}
        assert response.headers["content-type"] == "application/json"
        with pytest.raises(drupalsdk.InvalidArgumentError):
            mock.stub("GET", "/x", 42)


def test_mock_numbers_are_range_checked_not_wrapped():
    # ctypes wraps a Python int into a C int silently: status 2**32 + 404 answered 404, and
    # items_per_page 2**32 + 1, -1 or True made a view of pages with no rows.
    with drupalsdk.MockClient() as mock:
        for status in (2 ** 32 + 404, True, 404.0):
            with pytest.raises(drupalsdk.InvalidArgumentError, match="status"):
                mock.stub("GET", "/x", status=status)
        for items_per_page in (2 ** 32 + 1, -1, True, 0):
            with pytest.raises(drupalsdk.InvalidArgumentError, match="items_per_page"):
                mock.add_view("/v", "node", "article", items_per_page=items_per_page)
        mock.add_view("/v", "node", "article", items_per_page=2)


def test_mock_seeding_refuses_a_body_with_a_nul_rather_than_cut_it():
    # The C seeding functions take the JSON as a C string: bytes after a NUL were dropped
    # silently (a body cut short, stored as if whole).
    with drupalsdk.MockClient() as mock:
        mock.add_language("fr")
        nid = mock.add_entity("node", article("Seeded"))
        for call in (lambda: mock.add_entity("node", b'{"type": "article", "title": "x"}\x00 more'),
                     lambda: mock.add_translation("node", nid, "fr", b'{"title": "x"}\x00 more')):
            with pytest.raises(drupalsdk.InvalidArgumentError) as caught:
                call()
            assert "NUL" in str(caught.value)
        assert mock.get("node", nid)["title"][0]["value"] == "Seeded"


def test_mock_futures_and_events():
    with drupalsdk.Client.mock() as mock:
        seen = []
        mock.on("login", seen.append)
        futures = [mock.submit_get("node", "1") for _ in range(20)]
        for future in futures:
            with pytest.raises(drupalsdk.NotFoundError):
                future.result(10)
        mock.login("admin", "admin")
        assert seen and seen[0].user_name == "admin"


def test_async_mock_client():
    async def main():
        async with drupalsdk.AsyncClient.mock() as mock:
            nid = mock.add_entity("node", article("async seeded"))
            results = await asyncio.gather(*(mock.get("node", nid) for _ in range(10)))
            assert {r["title"][0]["value"] for r in results} == {"async seeded"}

    asyncio.run(main())


def test_mock_methods_refused_on_a_live_client(base_url):
    with drupalsdk.Client(base_url) as client:
        assert not hasattr(client, "add_user")


def test_with_closes_and_close_is_idempotent(base_url):
    with drupalsdk.Client(base_url) as client:
        assert not client.closed
        assert client.get("node", 1)
    assert client.closed
    client.close()
    with pytest.raises(drupalsdk.ClosedError):
        client.get("node", 1)
    with pytest.raises(drupalsdk.ClosedError):
        client.set_no_auth()
    assert "closed" in repr(client)


def test_dropped_clients_are_freed(base_url):
    client = drupalsdk.Client(base_url)
    client.get("node", 1)
    ref = weakref.ref(client)
    del client
    gc.collect()
    assert ref() is None


def test_interpreter_exit_with_open_clients_and_calls_in_flight(base_url):
    script = (
        "import drupalsdk\n"
        "c = drupalsdk.Client(%r)\n"
        "fs = [c.submit_request('GET', '/node/1', headers={'X-Fake-Fault': 'stall;seconds=30'}) for _ in range(5)]\n"
        "c.on('request_finish', lambda e: None)\n"
        "m = drupalsdk.Client.mock()\n"
        "print('exiting', flush=True)\n" % base_url)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, result.stderr
    assert "exiting" in result.stdout
    assert "Traceback" not in result.stderr


def test_import_error_when_library_env_points_nowhere(tmp_path):
    env = dict(os.environ, DRUPALSDK_LIBRARY=str(tmp_path / "nope" / "libdrupalsdk.so"),
               PYTHONPATH=PACKAGE_SRC)
    result = subprocess.run([sys.executable, "-c", "import drupalsdk"], capture_output=True, text=True,
                            env=env, timeout=20)
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert str(tmp_path / "nope" / "libdrupalsdk.so") in result.stderr
    assert "DRUPALSDK_LIBRARY" in result.stderr
    assert "scripts/build-lib" in result.stderr


def test_import_error_lists_every_place_when_nothing_is_found(tmp_path):
    # A copy of the package outside the checkout, no env var, no system library.
    import shutil
    shutil.copytree(os.path.join(PACKAGE_SRC, "drupalsdk"), str(tmp_path / "drupalsdk"),
                    ignore=shutil.ignore_patterns("lib", "__pycache__"))
    env = {key: value for key, value in os.environ.items() if key not in ("DRUPALSDK_LIBRARY", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-c", "import drupalsdk"], capture_output=True, text=True,
                            env=env, timeout=20, cwd=str(tmp_path))
    assert result.returncode != 0
    for place in ("DRUPALSDK_LIBRARY", "package copy", "checkout build", "system", "scripts/build-lib"):
        assert place in result.stderr, (place, result.stderr)


@pytest.mark.skipif(not os.path.exists(CHECKOUT_LIBRARY), reason="no checkout build")
def test_library_found_from_the_checkout_without_env():
    env = {key: value for key, value in os.environ.items() if key != "DRUPALSDK_LIBRARY"}
    env["PYTHONPATH"] = PACKAGE_SRC
    result = subprocess.run([sys.executable, "-c", "import drupalsdk; print(drupalsdk.library_path)"],
                            capture_output=True, text=True, env=env, timeout=20)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith(os.path.join("build", "lib", "libdrupalsdk.so"))
