"""Compressed answers, over loopback: the fake server's ``gzip`` fault compresses an answer as
nginx with ``gzip on`` does, when the request's Accept-Encoding allows it."""
import drupalsdk
import pytest

GZIP = {"X-Fake-Fault": "gzip"}
BOMB = {"X-Fake-Fault": "gzip;bomb=8000000"}


def sent_accept_encoding(server):
    headers = server.control("GET", "/__fake/last-request")["headers"]
    return next((value for name, value in headers if name.lower() == "accept-encoding"), None)


def test_answers_are_asked_for_compressed_and_decoded(server):
    with drupalsdk.Client(server.base_url, timeout=20) as client:
        response = client.request("GET", "/node/1", headers=GZIP)
        assert response.headers["Content-Encoding"] == "gzip"
        assert response.json()["nid"] == [{"value": 1}]
        assert "gzip" in sent_accept_encoding(server)
        assert client.submit_request("GET", "/node/1", headers=GZIP).result(10).json()["nid"] == [{"value": 1}]


def test_a_decompression_bomb_is_too_large(server):
    with drupalsdk.Client(server.base_url, timeout=20, max_body_size=1 << 20, retries=0) as client:
        with pytest.raises(drupalsdk.TooLargeError):
            client.request("GET", "/node/1", headers=BOMB)


def test_compression_off_asks_for_none(server):
    with drupalsdk.Client(server.base_url, timeout=20, compression=False) as client:
        response = client.request("GET", "/node/1", headers=GZIP)
        assert sent_accept_encoding(server) is None
        assert "Content-Encoding" not in response.headers
        assert response.json()["nid"] == [{"value": 1}]
        # A server that compresses anyway: the bytes arrive as sent (gzip's magic first).
        assert client.request("GET", "/node/1", headers={"X-Fake-Fault": "gzip;bomb=1000"}).content[:2] == b"\x1f\x8b"


def test_an_answer_that_is_not_what_its_encoding_says_is_a_decode_error(server):
    with drupalsdk.Client(server.base_url, timeout=20, retries=0) as client:
        with pytest.raises(drupalsdk.DecodeError, match="Content-Encoding"):
            client.request("GET", "/node/1", headers={"X-Fake-Fault": "gzip;broken"})


def test_bytes_after_the_compressed_stream_are_a_decode_error(server):
    # libcurl's decoder refuses them with a bare write error, which read as a NetworkError
    # "Failed writing received data to disk/application": a local disk, and a retry, suggested.
    with drupalsdk.Client(server.base_url, timeout=20, retries=0) as client:
        with pytest.raises(drupalsdk.DecodeError, match="Content-Encoding") as raised:
            client.request("GET", "/node/1", headers={"X-Fake-Fault": "gzip;trailing"})
        assert "disk" not in str(raised.value)
