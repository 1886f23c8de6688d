"""Connection reuse over real loopback HTTP, counted by the fake server (``connections``: TCP
connections that served a Drupal request since the reset): a window of requests in flight keeps
its connections across batches (libcurl's default pool shrank as a window drained and churned
them), the pool size, busy polling and HTTP/2 options."""
import asyncio
import os
import shutil

import drupalsdk
import pytest


# Every answer waits 50 ms, so the 32 requests of a batch are surely in flight together.
HOLD = {"X-Fake-Fault": "delay;ms=50"}
WINDOW = 32
BATCHES = 5


async def _async_batches(client):
    for _ in range(BATCHES):
        responses = await asyncio.gather(*(client.request("GET", "/node/1", headers=HOLD) for _ in range(WINDOW)))
        assert [r.status for r in responses] == [200] * WINDOW


def _future_batches(client):
    for _ in range(BATCHES):
        futures = [client.submit_request("GET", "/node/1", headers=HOLD) for _ in range(WINDOW)]
        assert [f.result(timeout=30).status for f in futures] == [200] * WINDOW


def test_async_client_keeps_32_connections_for_32_in_flight_across_batches(server):
    async def main():
        async with drupalsdk.AsyncClient(server.base_url, timeout=20) as client:
            await _async_batches(client)
    asyncio.run(main())
    assert server.stats()["connections"] == WINDOW


def test_futures_keep_32_connections_for_32_in_flight_across_batches(server):
    with drupalsdk.Client(server.base_url, timeout=20) as client:
        _future_batches(client)
    assert server.stats()["connections"] == WINDOW


def test_a_smaller_pool_closes_what_it_cannot_keep(server):
    # max_connections=4: each batch still needs 32 at once, but only 4 stay open between batches.
    with drupalsdk.Client(server.base_url, timeout=20, max_connections=4) as client:
        _future_batches(client)
    assert server.stats()["connections"] > WINDOW


def test_blocking_calls_reuse_their_thread_connection_beside_async_ones(server):
    # Blocking calls run on the calling thread's own libcurl handle (no thread hop), async ones
    # on the client's engine thread: libcurl shares idle connections between threads only
    # through a share handle whose connection cache is not safe across concurrent threads, so
    # each keeps its own. One connection each, reused.
    with drupalsdk.Client(server.base_url, timeout=20) as client:
        for _ in range(5):
            assert client.get("node", 1)["nid"][0]["value"] == 1
            assert client.submit_get("node", 1).result(10)["nid"][0]["value"] == 1
    assert server.stats()["connections"] == 2


@pytest.mark.parametrize("microseconds", [0, 50, 1000])
def test_busy_polling_is_an_option(server, microseconds):
    with drupalsdk.Client(server.base_url, timeout=20, busy_poll_us=microseconds) as client:
        for _ in range(5):
            assert client.get("node", 1)["nid"][0]["value"] == 1
        # A slow answer still arrives after the window runs out and the thread sleeps.
        assert client.request("GET", "/node/1", headers={"X-Fake-Fault": "delay;ms=100"}).status == 200
    assert server.stats()["connections"] == 1


@pytest.mark.parametrize("options", [{"busy_poll_us": -1}, {"busy_poll_us": 1_000_001}, {"busy_poll_us": 1.5},
                                     {"max_connections": 0}, {"max_connections": 10_001},
                                     {"max_connections": True}])
def test_pool_and_busy_poll_options_are_checked(options):
    with pytest.raises(drupalsdk.InvalidArgumentError):
        drupalsdk.Client("http://127.0.0.1:1", **options)


def test_http2_off_still_speaks_http11(server):
    with drupalsdk.Client(server.base_url, timeout=20, http2=False) as client:
        assert client.get("node", 1)["nid"][0]["value"] == 1


def _https_stats(base_url, cert):
    import http.client
    import json
    import ssl
    host, port = base_url[len("https://"):].split(":")
    connection = http.client.HTTPSConnection(host, int(port), context=ssl.create_default_context(cafile=cert),
                                             timeout=10)
    try:
        connection.request("GET", "/__fake/stats")
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def test_https_32_in_flight_keep_32_connections_with_http2_on(https_site):
    # HTTP/2 is on by default: transfers wait for a connection being set up (PIPEWAIT) to learn
    # whether it multiplexes; this server says HTTP/1.1 (ALPN), so each opens its own, once.
    base_url, cert = https_site
    before = _https_stats(base_url, cert)["connections"]

    async def main():
        async with drupalsdk.AsyncClient(base_url, timeout=20, ca_file=cert) as client:
            await _async_batches(client)
    asyncio.run(main())
    assert _https_stats(base_url, cert)["connections"] - before == WINDOW


def test_a_zero_filled_options_struct_verifies_tls(https_site):
    # The header says zero numbers mean the default, and the default verifies: a C caller that
    # zero-fills drupal_client_options (memset, no DRUPAL_CLIENT_OPTIONS_INIT) had verification off.
    import ctypes
    from drupalsdk import _c_types, _library
    lib = _library.lib
    base_url, cert = https_site
    for ca_bundle, expected in ((None, "DRUPAL_E_TLS"), (cert.encode(), "DRUPAL_OK")):
        options = _c_types.ClientOptions()   # every field zero
        options.version = 5
        options.ca_bundle = ca_bundle
        client, response = ctypes.c_void_p(), ctypes.c_void_p()
        assert lib.drupal_client_new(ctypes.byref(client), base_url.encode(), ctypes.byref(options)) == 0
        try:
            code = lib.drupal_entity_get_sync(ctypes.byref(response), client, b"node", b"1")
            assert lib.drupal_code_name(code).decode() == expected
        finally:
            lib.drupal_response_free(response)
            lib.drupal_client_free(client)


def test_a_ca_file_whose_name_is_not_utf8(https_site, tmp_path):
    """Regression: the CA bundle's path had to be UTF-8 (the C layer read it as text), where every
    other path the library opens is bytes: a Latin-1 directory name was refused."""
    base_url, cert = https_site
    latin1 = os.path.join(os.fsencode(str(tmp_path)), b"caf\xe9-ca.pem")
    shutil.copyfile(cert, latin1)
    with drupalsdk.Client(base_url, timeout=20, ca_file=latin1) as client:
        assert client.get("node", 1)["nid"][0]["value"] == 1
    with drupalsdk.Client(base_url, timeout=20, ca_file=os.fsdecode(latin1)) as client:   # a surrogate-escaped str
        assert client.get("node", 1)["nid"][0]["value"] == 1
    with pytest.raises(drupalsdk.InvalidArgumentError, match=r"caf\\xE9"):
        drupalsdk.Client(base_url, ca_file=latin1 + b".missing")


def test_verification_can_be_turned_off(https_site):
    base_url, _cert = https_site
    with pytest.raises(drupalsdk.TLSError):
        drupalsdk.Client(base_url, timeout=20).get("node", 1)
    with drupalsdk.Client(base_url, timeout=20, verify=False) as client:
        assert client.get("node", 1)["nid"][0]["value"] == 1
