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


# ---- Bodies that are not whole, over a small hostile server ----------------------------------
# The library decodes content codings itself and checks that each stream ends exactly: libcurl
# 7.88 handed back a prefix of a gzip/deflate body cut short as a success.

import gzip as _gzip
import socket
import threading
import zlib

TEXT = b"".join(b"line %d of a long text answer\n" % i for i in range(20000))
GZ = _gzip.compress(TEXT)


def _zlib_wrapped(data):
    compressor = zlib.compressobj(6, zlib.DEFLATED, 15)
    return compressor.compress(data) + compressor.flush()


def _raw_deflate(data):
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def _brotli(data):
    """Brotli-compressed bytes, from the `brotli` module or libbrotlienc; None when neither is here."""
    try:
        import brotli  # type: ignore
        return brotli.compress(data)
    except ImportError:
        pass
    import ctypes
    try:
        encoder = ctypes.CDLL("libbrotlienc.so.1")   # libbrotli1, which libcurl4 needs
    except OSError:
        return None
    size = ctypes.c_size_t(len(data) + 1024)
    out = ctypes.create_string_buffer(size.value)
    # BrotliEncoderCompress(quality, lgwin, mode, input_size, input, &encoded_size, encoded)
    ok = encoder.BrotliEncoderCompress(ctypes.c_int(5), ctypes.c_int(22), ctypes.c_int(0), ctypes.c_size_t(len(data)),
                                       ctypes.c_char_p(data), ctypes.byref(size), out)
    return out.raw[:size.value] if ok else None


def _read_head(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        data += chunk
    return data


@pytest.fixture
def hostile():
    """serve(coding, body): a loopback server that answers every request with `body`, labelled
    `Content-Encoding: coding` (none when None), with a Content-Length: the HTTP framing is whole."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    answer = {}

    def handle(connection):
        with connection:
            try:
                while _read_head(connection) is not None:
                    coding = answer["coding"]
                    label = b"" if coding is None else b"Content-Encoding: " + coding + b"\r\n"
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n" + label
                                       + b"Content-Length: %d\r\n\r\n" % len(answer["body"]) + answer["body"])
            except OSError:
                pass

    def loop():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=handle, args=(connection,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()

    def serve(coding, body):
        answer["coding"], answer["body"] = coding, body
        return "http://127.0.0.1:%d" % listener.getsockname()[1]

    yield serve
    listener.close()


def _get(url, **options):
    with drupalsdk.Client(url, retries=0, timeout=20, **options) as client:
        return client.request("GET", "/x", format=False).content


@pytest.mark.parametrize("coding,body", [
    (b"gzip", GZ),
    (b"x-gzip", GZ),
    (b"GZIP", GZ),
    (b"deflate", _zlib_wrapped(TEXT)),
    (b"deflate", _raw_deflate(TEXT)),   # raw deflate, as some servers send it: browsers take it
    (b"gzip", GZ[:10] + GZ[10:]),
])
def test_a_whole_compressed_body_is_decoded(hostile, coding, body):
    assert _get(hostile(coding, body)) == TEXT


def test_a_whole_brotli_body_is_decoded(hostile):
    body = _brotli(TEXT)
    if body is None:
        pytest.skip("no brotli module or libbrotlienc to compress with")
    assert _get(hostile(b"br", body)) == TEXT


def test_two_gzip_members_are_one_body(hostile):
    # RFC 1952 §2.2: a gzip file is a series of members; `gzip -c a b` makes one.
    half = len(TEXT) // 2
    assert _get(hostile(b"gzip", _gzip.compress(TEXT[:half]) + _gzip.compress(TEXT[half:]))) == TEXT


# RFC 9110 §8.4: codings applied one after another are listed in that order and undone last
# first. libcurl decoded such answers; the client's own decoders took only one coding.
@pytest.mark.parametrize("coding,body", [
    (b"gzip, deflate", _zlib_wrapped(GZ)),
    (b"deflate, gzip", _gzip.compress(_zlib_wrapped(TEXT))),
    (b"gzip,gzip", _gzip.compress(GZ)),
    (b"gzip, identity, x-gzip", _gzip.compress(GZ)),
    (b"gzip, gzip, gzip, gzip, gzip", _gzip.compress(_gzip.compress(_gzip.compress(_gzip.compress(GZ))))),
])
def test_stacked_codings_are_decoded_last_first(hostile, coding, body):
    assert _get(hostile(coding, body)) == TEXT


def test_brotli_over_gzip_is_decoded(hostile):
    body = _brotli(GZ)
    if body is None:
        pytest.skip("no brotli module or libbrotlienc to compress with")
    assert _get(hostile(b"gzip, br", body)) == TEXT


@pytest.mark.parametrize("coding,body,says", [
    (b"gzip, deflate", _zlib_wrapped(b"not gzip at all"), "cannot be decoded as its Content-Encoding \\(gzip, deflate\\)"),
    (b"gzip, deflate", _zlib_wrapped(GZ[:len(GZ) // 2]), "gzip, deflate body ends early"),
    (b"gzip, deflate", _zlib_wrapped(GZ)[:-4], "gzip, deflate body ends early"),
    (b"gzip, deflate", _zlib_wrapped(GZ + b"junk"), "follow the end"),
    (b"gzip, x-unknown", _gzip.compress(TEXT), 'Content-Encoding "gzip, x-unknown" is not a coding'),
    (b"gzip, gzip, gzip, gzip, gzip, gzip", _gzip.compress(GZ), "stacks more than 5 codings"),
])
def test_a_stacked_body_that_is_not_what_it_says_is_a_decode_error(hostile, coding, body, says):
    with pytest.raises(drupalsdk.DecodeError, match=says):
        _get(hostile(coding, body))


def test_a_stacked_bomb_stops_at_the_cap(hostile):
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = compressor.compress(b"\0" * (200 << 20)) + compressor.flush()
    with pytest.raises(drupalsdk.TooLargeError):
        _get(hostile(b"gzip, gzip", _gzip.compress(bomb)), max_body_size=1 << 20)


@pytest.mark.parametrize("coding,body,says", [
    (b"gzip", GZ[:len(GZ) // 2], "gzip body ends early"),
    (b"gzip", GZ[:-8], "gzip body ends early"),          # no CRC/size trailer
    (b"gzip", GZ[:-4], "gzip body ends early"),          # half a trailer
    (b"gzip", GZ + _gzip.compress(b"second")[:15], "gzip body ends early"),   # a second member cut short
    (b"deflate", _zlib_wrapped(TEXT)[:len(_zlib_wrapped(TEXT)) // 2], "deflate body ends early"),
    (b"deflate", _zlib_wrapped(TEXT)[:-4], "deflate body ends early"),   # no Adler-32
    (b"deflate", _raw_deflate(TEXT)[:len(_raw_deflate(TEXT)) // 2], "deflate body ends early"),
])
def test_a_compressed_body_cut_short_is_a_decode_error(hostile, coding, body, says):
    with pytest.raises(drupalsdk.DecodeError, match=says):
        _get(hostile(coding, body))


def test_a_brotli_body_cut_short_is_a_decode_error(hostile):
    body = _brotli(TEXT)
    if body is None:
        pytest.skip("no brotli module or libbrotlienc to compress with")
    with pytest.raises(drupalsdk.DecodeError, match="br body ends early"):
        _get(hostile(b"br", body[:len(body) // 2]))


def test_a_gzip_trailer_that_does_not_match_is_a_decode_error(hostile):
    wrong_crc = GZ[:-8] + bytes(b ^ 0xFF for b in GZ[-8:-4]) + GZ[-4:]
    with pytest.raises(drupalsdk.DecodeError, match="Content-Encoding"):
        _get(hostile(b"gzip", wrong_crc))
    wrong_size = GZ[:-4] + bytes(b ^ 0xFF for b in GZ[-4:])
    with pytest.raises(drupalsdk.DecodeError, match="Content-Encoding"):
        _get(hostile(b"gzip", wrong_size))


@pytest.mark.parametrize("coding,body", [
    (b"gzip", GZ + b"garbage!"),
    (b"deflate", _zlib_wrapped(TEXT) + b"junk"),
    (b"deflate", _zlib_wrapped(TEXT) + _zlib_wrapped(b"a second stream")),
])
def test_bytes_after_the_last_stream_are_a_decode_error(hostile, coding, body):
    with pytest.raises(drupalsdk.DecodeError, match="follow the end") as raised:
        _get(hostile(coding, body))
    assert "disk" not in str(raised.value)


def test_a_bomb_stops_at_the_cap(hostile):
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = compressor.compress(b"\0" * (200 << 20)) + compressor.flush()   # 200 MiB in ~200 KB
    with pytest.raises(drupalsdk.TooLargeError):
        _get(hostile(b"gzip", bomb), max_body_size=1 << 20)


def test_an_unknown_or_identity_coding_is_as_before(hostile):
    # identity: the bytes as sent.
    assert _get(hostile(b"identity", TEXT)) == TEXT
    # A coding the client did not offer (and cannot decode): the body is not what it can read.
    with pytest.raises(drupalsdk.DecodeError, match="Content-Encoding"):
        _get(hostile(b"x-unknown", TEXT))


def test_an_empty_body_labelled_gzip_is_empty(hostile):
    assert _get(hostile(b"gzip", b"")) == b""


def test_the_offered_codings_are_the_ones_decoded(server):
    with drupalsdk.Client(server.base_url, timeout=20) as client:
        client.request("GET", "/node/1")
        assert sent_accept_encoding(server) == "gzip, deflate, br"
