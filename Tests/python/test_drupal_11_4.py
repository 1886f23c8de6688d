"""What Drupal 11.4 changes for a client (change records 3552724 and the login message; the fake's
``--login-message 11.4``): a bad login is still an AuthenticationError, read by its status (400),
not by its text, which 11.4 changed to "Unrecognized username or password.". The JSON login
routes keep their paths when 11.4 moves them to the rest module, so nothing else changes here."""
import pytest

import drupalsdk
from conftest import _start_fake, _stop_fake


@pytest.fixture(scope="module")
def drupal_11_4():
    server = _start_fake("--drupal", "11", "--login-message", "11.4")
    yield server
    _stop_fake(server)


def test_a_bad_login_is_an_authentication_error_whatever_its_words(drupal_11_4):
    with drupalsdk.Client(drupal_11_4.base_url, timeout=20) as client:
        with pytest.raises(drupalsdk.AuthenticationError) as refused:
            client.login("admin", "wrong")
        assert refused.value.status == 400
        assert refused.value.message == "Unrecognized username or password."
        assert not client.has_session
        assert client.login("admin", "admin")["current_user"]["name"] == "admin"
        assert client.login_status() is True
