"""Streamed files from Python against the fake: upload_file_path (progress, cancellation, safe
names), download and download_file to a path or a write callable (public and private files,
progress, the size cap, nothing left behind), blocking, futures and asyncio."""
import asyncio
import base64
import concurrent.futures
import errno
import gzip
import os
import stat
import time

import pytest

import drupalsdk


def make_file(tmp_path, name, size):
    data = b"\x89PNG\r\n\x1a\n" + bytes((i * 31) & 0xFF for i in range(size - 8))
    path = tmp_path / name
    path.write_bytes(data)
    return path, data


@pytest.fixture
def admin_basic(client):
    client.set_basic_auth("admin", "admin")
    return client


def test_upload_from_a_path_with_progress(admin_basic, tmp_path, server):
    path, data = make_file(tmp_path, "big.png", 300_000)
    steps = []
    file = admin_basic.upload_file_path("node", "article", "field_image", path,
                                        progress=lambda done, total: steps.append((done, total)))
    assert file["filename"] == [{"value": "big.png"}] and file["filesize"] == [{"value": 300_000}]
    assert steps[-1] == (300_000, 300_000)
    assert all(a[0] <= b[0] for a, b in zip(steps, steps[1:]))
    url = file["uri"][0]["url"]
    target = tmp_path / "copy.png"
    response = admin_basic.download(url, target)
    assert response.status == 200 and response.content == b""
    assert target.read_bytes() == data and not list(tmp_path.glob("copy.png.*.part"))
    future = admin_basic.submit_upload_file_path("node", "article", "field_image", str(path), "café été.png")
    assert future.result(timeout=30)["filename"] == [{"value": "café été.png"}]


def test_upload_cancelled_and_refused(admin_basic, tmp_path):
    path, _ = make_file(tmp_path, "huge.png", 3_000_000)
    with pytest.raises(drupalsdk.CancelledError):
        admin_basic.upload_file_path("node", "article", "field_image", path,
                                     progress=lambda done, total: done < 100_000)
    with pytest.raises(drupalsdk.CancelledError):   # a progress callable that raises cancels too
        admin_basic.upload_file_path("node", "article", "field_image", path, progress=lambda d, t: 1 / 0)
    for bad in ('a"b.png', "a\r\nX: 1.png", "tab\t.png", ""):
        with pytest.raises(drupalsdk.InvalidArgumentError):
            admin_basic.upload_file_path("node", "article", "field_image", path, bad)
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin_basic.upload_file_path("node", "article", "field_image", tmp_path)          # a directory
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin_basic.upload_file_path("node", "article", "field_image", tmp_path / "nope.png")
    with pytest.raises(TypeError):
        admin_basic.upload_file_path("node", "article", "field_image", path, progress="no")


def test_a_callbacks_own_exception_is_the_cause_of_the_cancellation(admin_basic, tmp_path):
    # The exception a progress or write callable raises stops the transfer, and is the
    # CancelledError's __cause__ (it was only logged): blocking, futures and asyncio alike.
    path, _ = make_file(tmp_path, "cause.png", 300_000)

    class Full(Exception):
        pass

    def progress(done, total):
        raise Full("the disk is full")
    with pytest.raises(drupalsdk.CancelledError) as raised:
        admin_basic.upload_file_path("node", "article", "field_image", path, progress=progress)
    assert isinstance(raised.value.__cause__, Full)
    future = admin_basic.submit_upload_file_path("node", "article", "field_image", str(path), progress=progress)
    error = future.exception(timeout=30)
    assert isinstance(error, drupalsdk.CancelledError) and isinstance(error.__cause__, Full)
    url = admin_basic.upload_file_path("node", "article", "field_image", path)["uri"][0]["url"]

    def write(chunk):
        raise Full("no room for %d bytes" % len(chunk))

    async def main():
        async with drupalsdk.AsyncClient(admin_basic.base_url) as client:
            client.set_basic_auth("admin", "admin")
            with pytest.raises(drupalsdk.CancelledError) as raised:
                await client.download(url, write=write)
            return raised.value
    error = asyncio.run(main())
    assert isinstance(error.__cause__, Full) and "no room" in str(error.__cause__)
    # Returning False still cancels with no cause, and a future so stopped is cancelled.
    with pytest.raises(drupalsdk.CancelledError) as raised:
        admin_basic.download(url, write=lambda chunk: False)
    assert raised.value.__cause__ is None
    future = admin_basic.submit_download(url, write=lambda chunk: False)
    with pytest.raises(concurrent.futures.CancelledError):
        future.result(timeout=30)


def test_download_to_a_callable_and_by_entity(admin_basic, tmp_path):
    path, data = make_file(tmp_path, "photo.png", 200_000)
    file = admin_basic.upload_file_path("node", "article", "field_image", path)
    chunks = []
    steps = []
    admin_basic.download_file(file["fid"][0]["value"], write=chunks.append,
                              progress=lambda done, total: steps.append((done, total)))
    assert b"".join(chunks) == data and len(chunks) > 1
    assert steps[-1] == (200_000, 200_000)
    with pytest.raises(drupalsdk.CancelledError):
        admin_basic.download(file["uri"][0]["url"], write=lambda chunk: False)

    async def in_asyncio():
        async with drupalsdk.AsyncClient(admin_basic.base_url) as client:
            client.set_basic_auth("admin", "admin")
            target = tmp_path / "async.png"
            await client.download_file(file["fid"][0]["value"], target)
            return target.read_bytes()
    assert asyncio.run(in_asyncio()) == data
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin_basic.download(file["uri"][0]["url"])                                    # neither
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin_basic.download(file["uri"][0]["url"], tmp_path / "x", write=chunks.append)  # both
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin_basic.download("https://elsewhere.example/x.png", tmp_path / "x")


def test_size_cap_and_errors_leave_nothing(server, tmp_path):
    path, _ = make_file(tmp_path, "large.png", 50_000)
    with drupalsdk.Client(server.base_url, max_body_size=10_000) as small:
        small.set_basic_auth("admin", "admin")
        url = small.upload_file_path("node", "article", "field_image", path)["uri"][0]["url"]
        target = tmp_path / "capped.png"
        with pytest.raises(drupalsdk.TooLargeError):
            small.download(url, target)
        with pytest.raises(drupalsdk.NotFoundError):
            small.download("/sites/default/files/nope.png", target)
        with pytest.raises(drupalsdk.NotFoundError):
            small.download_file(999, target)
        assert sorted(os.listdir(tmp_path)) == ["large.png"]


def test_private_files(server, tmp_path):
    made = server.control("POST", "/__fake/private-file", {"name": "report.txt", "uid": 2,
                                                           "data_base64": base64.b64encode(b"secret report").decode()})
    target = tmp_path / "report.txt"
    with drupalsdk.Client(server.base_url) as anonymous:
        with pytest.raises(drupalsdk.AuthorizationError):
            anonymous.download(made["url"], target)
    assert not target.exists()
    with drupalsdk.Client(server.base_url) as owner:
        owner.login("editor", "editor")
        owner.download_file(made["fid"], target)
    assert target.read_bytes() == b"secret report"


def test_a_download_saves_the_bytes_the_server_sent(server, tmp_path):
    # A .gz file that a server labels Content-Encoding: gzip (Apache's AddEncoding) stays the
    # .gz file: downloads ask for the bytes as stored and do not decode them.
    stored = gzip.compress(b"a dump", mtime=0)
    made = server.control("POST", "/__fake/private-file", {"name": "dump.sql.gz",
                                                           "data_base64": base64.b64encode(stored).decode()})
    server.control("POST", "/__fake/faults", {"mode": "gzip", "labelled": True,
                                              "path_prefix": "/system/files", "count": 1})
    target = tmp_path / "dump.sql.gz"
    with drupalsdk.Client(server.base_url) as owner:
        owner.login("admin", "admin")
        owner.download(made["url"], target)
    assert target.read_bytes() == stored


def test_the_timeout_of_a_download_is_for_a_stall(admin_basic, server, tmp_path):
    # A download that keeps moving may take longer than timeout; one that stops fails after it.
    path, data = make_file(tmp_path, "slow.png", 100_000)
    url = admin_basic.upload_file_path("node", "article", "field_image", path)["uri"][0]["url"]
    with drupalsdk.Client(server.base_url, timeout=2, retries=0) as client:   # stalls are measured by the second
        client.set_basic_auth("admin", "admin")
        server.control("POST", "/__fake/faults", {"mode": "slow_body", "seconds": 3.5,
                                                  "path_prefix": "/sites", "count": 1})
        client.download(url, tmp_path / "copy.png")
        assert (tmp_path / "copy.png").read_bytes() == data
        server.control("POST", "/__fake/faults", {"mode": "stall", "seconds": 6, "after": "headers",
                                                  "path_prefix": "/sites", "count": 1})
        with pytest.raises(drupalsdk.DrupalTimeoutError):
            client.download(url, tmp_path / "stalled.png")
    assert not (tmp_path / "stalled.png").exists()


def test_a_minimum_file_rate_ends_a_download_that_trickles(admin_basic, server, tmp_path):
    # The body comes at ~17 KB/s (20 pieces over 6 s): under min_file_rate it fails after timeout
    # (libcurl averages over that window); well over it (8x: a loaded machine delays pieces), it
    # completes.
    path, data = make_file(tmp_path, "trickle.png", 100_000)
    url = admin_basic.upload_file_path("node", "article", "field_image", path)["uri"][0]["url"]
    for rate, completes in ((200_000, False), (2_000, True)):
        with drupalsdk.Client(server.base_url, timeout=2, retries=0, min_file_rate=rate) as client:
            client.set_basic_auth("admin", "admin")
            server.control("POST", "/__fake/faults", {"mode": "slow_body", "seconds": 6,
                                                      "path_prefix": "/sites", "count": 1})
            target = tmp_path / ("copy-%d.png" % rate)
            started = time.monotonic()
            if completes:
                client.download(url, target)
                assert target.read_bytes() == data
            else:
                with pytest.raises(drupalsdk.DrupalTimeoutError):
                    client.download(url, target)
                assert not target.exists() and time.monotonic() - started < 5.5
    for bad in (0, -1, 2**30 + 1, 1.5, "fast"):
        with pytest.raises((drupalsdk.InvalidArgumentError, TypeError)):
            drupalsdk.Client(server.base_url, min_file_rate=bad)


def test_an_upload_file_that_grows_sends_only_the_size_it_announced(admin_basic, server, tmp_path):
    # The extra bytes went out past Content-Length, where the server read them as a request.
    path, data = make_file(tmp_path, "growing.png", 200_000)
    grown = []

    def grow(done, total):
        if not grown:
            with open(path, "ab") as f:
                f.write(b"GET /node/2?_format=json&smuggled=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            grown.append(True)
        return True
    before = server.control("GET", "/__fake/stats")["requests"]
    file = admin_basic.upload_file_path("node", "article", "field_image", path, progress=grow)
    assert grown and file["filesize"][0]["value"] == len(data)
    assert server.control("GET", "/__fake/stats")["requests"] == before + 1


@pytest.mark.parametrize("upload", [
    lambda c, data: c.upload_file("node", "article", "field_image", "x.png", data),
    lambda c, data: c.jsonapi_upload("node--article", "field_image", "x.png", data),
])
def test_upload_content_must_be_bytes(admin_basic, server, upload):
    # bytes(16) is sixteen NULs: an int was uploaded as that many, and a huge one was allocated first.
    before = server.stats()["requests"]
    for bad in (16, 2 ** 62, [1, 2], "text"):
        with pytest.raises(TypeError, match="data must be bytes"):
            upload(admin_basic, bad)
    assert server.stats()["requests"] == before
    for good in (bytearray(b"ab"), memoryview(b"abc")):
        upload(admin_basic, good)


def test_bytes_and_pathlike_paths_are_the_file_system_names(admin_basic, tmp_path, monkeypatch):
    # str(path) made a bytes path its repr: "b'/tmp/x/up.png'" was opened, or written as a new file.
    monkeypatch.chdir(tmp_path)
    path, data = make_file(tmp_path, "up.png", 1000)
    file = admin_basic.upload_file_path("node", "article", "field_image", os.fsencode(path))
    assert file["filename"] == [{"value": "up.png"}]
    document = admin_basic.jsonapi_upload_path("node--article", "field_image", os.fsencode(path))
    assert document.data["filename"] in ("up.png", "up_0.png")   # the site renames a second up.png
    admin_basic.download(file["uri"][0]["url"], b"down.png")
    admin_basic.download_file(file["fid"][0]["value"], tmp_path / "by-id.png")
    assert (tmp_path / "down.png").read_bytes() == (tmp_path / "by-id.png").read_bytes() == data
    assert sorted(os.listdir(tmp_path)) == ["by-id.png", "down.png", "up.png"]
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin_basic.download(file["uri"][0]["url"], b"down\x00.png")
    with pytest.raises(TypeError):
        admin_basic.upload_file_path("node", "article", "field_image", 3)


def test_a_downloads_own_file_failing_is_a_file_error(admin_basic, tmp_path):
    # Not a NetworkError, which callers retry: a path the download cannot end at is refused before
    # anything is sent, and a directory that appears at the path fails the rename (DRUPAL_E_FILE).
    path, _ = make_file(tmp_path, "f.png", 5_000)
    url = admin_basic.upload_file_path("node", "article", "field_image", path)["uri"][0]["url"]
    with pytest.raises(drupalsdk.InvalidArgumentError):
        admin_basic.download(url, tmp_path / "missing" / "x.png")
    target = tmp_path / "taken.png"

    def make_a_directory_there(done, total):
        os.makedirs(target, exist_ok=True)
        return True
    with pytest.raises(drupalsdk.FileError) as raised:
        admin_basic.download(url, target, progress=make_a_directory_there)
    assert isinstance(raised.value, OSError) and raised.value.code == "DRUPAL_E_FILE"
    # As any OSError: the system's error number, and its text.
    assert raised.value.errno == errno.EISDIR
    assert raised.value.strerror == os.strerror(errno.EISDIR)
    assert drupalsdk.FileError("made by a caller").errno is None
    assert not list(tmp_path.glob("taken.png.*.part"))


def test_an_upload_from_a_path_is_sent_again_when_its_reused_connection_closed(admin_basic, server, tmp_path):
    # A kept-alive connection the server closes as the request goes out: libcurl sends the request
    # again on a new one, which needs the file read again from its start ("necessary data rewind
    # wasn't possible": an upload from bytes in memory went through, one from a path failed).
    path, data = make_file(tmp_path, "again.png", 150_000)
    admin_basic.request("GET", "/node/1")   # leaves a connection to reuse
    server.control("POST", "/__fake/faults", {"mode": "stall", "seconds": 0, "path_prefix": "/file/upload",
                                              "count": 1})
    steps = []
    file = admin_basic.upload_file_path("node", "article", "field_image", path,
                                        progress=lambda done, total: steps.append((done, total)))
    assert file["filesize"] == [{"value": len(data)}]
    assert all(a[0] <= b[0] for a, b in zip(steps, steps[1:])) and steps[-1] == (len(data), len(data))
    target = tmp_path / "copy.png"
    admin_basic.download(file["uri"][0]["url"], target)
    assert target.read_bytes() == data


def test_a_304_to_a_conditional_download_leaves_the_file_as_it_was(server, tmp_path):
    # A hook's If-None-Match makes a download conditional: "not modified" means the copy on disk is
    # current. It was replaced by an empty file (a 304 has no body).
    path, data = make_file(tmp_path, "kept.png", 5_000)
    with drupalsdk.Client(server.base_url, on_request=lambda r: r.set_header("If-None-Match", '"v1"')) as client:
        client.set_basic_auth("admin", "admin")
        url = client.upload_file_path("node", "article", "field_image", path)["uri"][0]["url"]
        target = tmp_path / "copy.png"
        client.download(url, target)
        assert target.read_bytes() == data
        server.control("POST", "/__fake/faults", {"mode": "status", "code": 304, "body": "",
                                                  "path_prefix": "/sites/default/files"})
        response = client.download(url, target)
        assert response.status == 304
        assert target.read_bytes() == data
        assert sorted(os.listdir(tmp_path)) == ["copy.png", "kept.png"]
        assert client.download(url, tmp_path / "new.png").status == 304
        assert not (tmp_path / "new.png").exists()


def test_a_download_refuses_a_path_that_is_no_regular_file(admin_basic, server, tmp_path):
    # A FIFO (or a device: /dev/null run as root) at the path was replaced by a regular file
    # holding the download.
    path, _ = make_file(tmp_path, "f.png", 5_000)
    url = admin_basic.upload_file_path("node", "article", "field_image", path)["uri"][0]["url"]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "link").symlink_to(fifo)
    before = server.stats()["requests"]
    for target in (fifo, tmp_path / "link"):
        with pytest.raises(drupalsdk.InvalidArgumentError, match="not a regular file"):
            admin_basic.download(url, target)
    assert server.stats()["requests"] == before
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and (tmp_path / "link").is_symlink()
    assert sorted(os.listdir(tmp_path)) == ["f.png", "fifo", "link"]


def test_a_downloads_progress_counts_only_the_files_bytes(admin_basic, server, tmp_path):
    # An answer whose body does not go to the file (a 503 retried, a redirect followed) was
    # reported as the download's progress: (61, 61) said "all of 61 bytes" before the file came.
    path, data = make_file(tmp_path, "p.png", 200_000)
    url = admin_basic.upload_file_path("node", "article", "field_image", path)["uri"][0]["url"]
    server.control("POST", "/__fake/faults", {"mode": "status", "code": 503, "retry_after": "0",
                                              "path_prefix": "/sites/default/files", "count": 1})
    steps = []
    admin_basic.download(url, tmp_path / "copy.png", progress=lambda done, total: steps.append((done, total)))
    assert (tmp_path / "copy.png").read_bytes() == data
    assert steps and all(total in (None, len(data)) for _, total in steps), steps[:3]
    assert steps[-1] == (len(data), len(data))


def test_a_206_gives_a_write_callable_none_of_its_bytes(admin_basic, server):
    # 206 Partial Content (to a download that asked for no range) is an error, "nothing saved":
    # its part of the file went to the write callable first all the same.
    server.control("POST", "/__fake/faults", {"mode": "status", "code": 206, "body": "part of a file",
                                              "path_prefix": "/sites/default/files"})
    chunks = []
    steps = []
    with pytest.raises(drupalsdk.NetworkError, match="206 Partial Content") as raised:
        admin_basic.download("/sites/default/files/any.png", write=chunks.append,
                             progress=lambda done, total: steps.append((done, total)))
    assert raised.value.status == 206
    assert chunks == [] and all(done == 0 for done, _ in steps), (chunks, steps)


def test_an_empty_files_progress_has_a_known_total(admin_basic, server, tmp_path):
    # libcurl's total is 0 both for "Content-Length: 0" and for no length at all: an empty file's
    # total was reported unknown (None, -1 in C) though its answer said 0.
    server.control("POST", "/__fake/faults", {"mode": "status", "code": 200, "body": "",
                                              "path_prefix": "/sites/default/files"})
    steps = []
    admin_basic.download("/sites/default/files/empty.txt", tmp_path / "empty.txt",
                         progress=lambda done, total: steps.append((done, total)))
    assert (tmp_path / "empty.txt").read_bytes() == b""
    assert steps and steps[-1] == (0, 0), steps


def test_a_path_that_is_not_utf8_is_the_file_systems_name(admin_basic, tmp_path):
    # On Linux a file name is bytes: a Latin-1 "café.png" (from an old archive) was refused ("path
    # is not valid UTF-8"), as bytes and as the str os.listdir gives for it (surrogate escapes).
    directory = os.fsencode(tmp_path)
    source = directory + b"/caf\xe9.png"
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 100
    with open(source, "wb") as f:
        f.write(data)
    # The name sent to Drupal must be text: the base name is none, so a filename is asked for.
    with pytest.raises(drupalsdk.InvalidArgumentError, match=r"caf\\xE9\.png.*filename"):
        admin_basic.upload_file_path("node", "article", "field_image", source)
    file = admin_basic.upload_file_path("node", "article", "field_image", os.fsdecode(source), "cafe.png")
    assert file["filename"] == [{"value": "cafe.png"}]
    document = admin_basic.jsonapi_upload_path("node--article", "field_image", source, filename="café.png")
    assert document.data["filename"] == "café.png"
    url = file["uri"][0]["url"]
    admin_basic.download(url, os.fsdecode(directory + b"/t\xe9l\xe9charg\xe9.png"))
    admin_basic.download_file(file["fid"][0]["value"], directory + b"/\xff.png")
    assert sorted(os.listdir(directory)) == [b"caf\xe9.png", b"t\xe9l\xe9charg\xe9.png", b"\xff.png"]
    with open(directory + b"/t\xe9l\xe9charg\xe9.png", "rb") as f:
        assert f.read() == data
    with open(directory + b"/\xff.png", "rb") as f:
        assert f.read() == data
    # A path refused before anything is sent is named with its bytes escaped.
    with pytest.raises(drupalsdk.InvalidArgumentError, match=r"gon\\xE9"):
        admin_basic.download(url, directory + b"/gon\xe9/x.png")


@pytest.mark.parametrize("mode, kept", [(0o600, 0o600), (0o755, 0o755), (0o640, 0o640), (0o4755, 0o755)])
def test_a_download_over_a_file_keeps_its_permissions(admin_basic, tmp_path, mode, kept):
    # The download's new file replaced the old one with 0666 less the umask: a private 0600 file
    # became readable by others, an executable lost its x bits. As `curl -o` (which writes in
    # place), the permission bits stay; a set-user-ID bit does not come along.
    path, data = make_file(tmp_path, "source.png", 20_000)
    url = admin_basic.upload_file_path("node", "article", "field_image", path)["uri"][0]["url"]
    target = tmp_path / "target.png"
    target.write_bytes(b"old content")
    os.chmod(target, mode)
    admin_basic.download(url, target)
    assert target.read_bytes() == data
    assert stat.S_IMODE(os.stat(target).st_mode) == kept
    new = tmp_path / "new.png"
    admin_basic.download(url, new)
    mask = os.umask(0o022)
    os.umask(mask)
    assert stat.S_IMODE(os.stat(new).st_mode) == 0o666 & ~mask
