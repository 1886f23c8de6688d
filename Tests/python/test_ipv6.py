"""A site whose base URL names an IPv6 address ("http://[::1]:PORT"), over loopback: the
bracketed host is one origin for sessions, CSRF, cookies, absolute links and downloads, and
another port on it is another origin."""
import os
import socket

import drupalsdk
import pytest

from conftest import _start_fake, _stop_fake, article


def _has_ipv6_loopback():
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback on this machine")


@pytest.fixture(scope="module")
def ipv6_site():
    sites = [_start_fake("--host", "::1"), _start_fake("--host", "::1")]
    yield sites
    for site in sites:
        _stop_fake(site)


def test_a_session_works_on_an_ipv6_site(ipv6_site):
    base = ipv6_site[0].base_url
    assert base.startswith("http://[::1]:")
    with drupalsdk.Client(base, timeout=10) as client:
        client.login("admin", "admin")
        assert client.login_status() is True
        # A write needs the session cookie and the CSRF token, both scoped to the bracketed host.
        created = client.create("node", article("over IPv6"))
        assert client.get("node", created["nid"][0]["value"])["title"] == [{"value": "over IPv6"}]


def test_json_api_links_and_downloads_on_an_ipv6_origin(ipv6_site, tmp_path):
    base, other = ipv6_site[0].base_url, ipv6_site[1].base_url
    with drupalsdk.Client(base, timeout=10) as client:
        # Every page after the first comes from an absolute links.next on the [::1] origin.
        pages = list(client.jsonapi_pages("node--article", drupalsdk.Query().add_page_limit(2)))
        assert len(pages) >= 2
        target = os.path.join(tmp_path, "node.json")
        client.download(base + "/node/1?_format=json", target)
        assert os.path.getsize(target) > 0
        # The same address on another port is another origin.
        with pytest.raises(drupalsdk.InvalidArgumentError, match="not on the site's origin"):
            client.download(other + "/node/1?_format=json", os.path.join(tmp_path, "other.json"))
