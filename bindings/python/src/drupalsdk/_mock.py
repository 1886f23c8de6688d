"""MockClient and AsyncMockClient: clients over the library's in-memory Drupal, with what tests need
to shape it (users, entities, bundles, views, bearer tokens, stale CSRF tokens, stubbed answers
and failures) and to look at what it received.
"""
from __future__ import annotations

import json
from ctypes import byref, c_void_p
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Union

from . import _ffi
from ._client import AsyncClient, Client
from ._managed import new_handle
from ._convert import (C_UINT, Body, HeadersArg, Query, c_int, header_array, json_body, nonzero, not_text,
                       query_array, take_string, text)

__all__ = ["MockClient", "AsyncMockClient", "StubAnswer"]

_lib = _ffi.lib

#: Failures a stub can stand for, as the library's codes.
_FAILURES = {"network": _ffi.DRUPAL_E_NETWORK, "timeout": _ffi.DRUPAL_E_TIMEOUT, "tls": _ffi.DRUPAL_E_TLS}


class StubAnswer(NamedTuple):
    """One answer of a stub: a status, body and headers, or ``fail="network"`` / ``"timeout"`` /
    ``"tls"`` for a call that gets no answer at all."""
    status: int = 200
    body: Body = b""
    headers: HeadersArg = None
    content_type: Optional[str] = "application/json"
    fail: Optional[str] = None


class _MockSite:
    """What a mock client adds: seeding and stubbing the site, and reading what it received."""

    _state_call: Callable[..., Any]   # from the client class: a C call on the handle
    _session: Dict[str, Any]          # from the client class: what the session's C hooks need

    def _setup_mock(self) -> None:
        new_handle()
        out = c_void_p()
        _lib.drupal_mock_client_new(byref(out))
        self.base_url = "mock:"
        self._session = {}
        self._setup(out.value)  # type: ignore[attr-defined]

    def add_user(self, name: str, password: str, roles: Iterable[str] = ()) -> str:
        """Adds a user to the mock site; returns its uid."""
        role_list = [text(role, "role") for role in roles]
        out = c_void_p()
        self._state_call(lambda handle: _lib.drupal_mock_add_user(byref(out), handle, text(name, "name"),
                                                            text(password, "password"),
                                                            _ffi.string_array(role_list) if role_list else None))
        return take_string(out.value)

    def add_entity(self, entity_type: str, body: Union[Dict[str, Any], bytes, str]) -> str:
        """Stores an entity (Drupal's REST JSON, with its bundle field) as if created by admin; returns its id."""
        out = c_void_p()
        data = text(json_body(body), "body")   # a C string: a NUL refused, not the rest dropped
        self._state_call(lambda handle: _lib.drupal_mock_add_entity(byref(out), handle, text(entity_type, "entity_type"),
                                                              data))
        return take_string(out.value)

    def add_bundle(self, entity_type: str, bundle: str) -> None:
        """Declares a bundle; once a type has any, POST and PATCH refuse the others with 422."""
        self._state_call(_lib.drupal_mock_add_bundle, text(entity_type, "entity_type"), text(bundle, "bundle"))

    def add_view(self, path: str, entity_type: str, bundle: Optional[str] = None, items_per_page: int = 10) -> None:
        """Adds a Views REST export at ``path`` over published entities of the type (and bundle)."""
        per_page = nonzero(c_int(items_per_page, "items_per_page", C_UINT), "items_per_page")
        self._state_call(_lib.drupal_mock_add_view, text(path, "path"), text(entity_type, "entity_type"),
                   None if bundle is None else text(bundle, "bundle"), per_page)

    def add_bearer_token(self, token: str, uid: Union[str, int]) -> None:
        """Makes ``Authorization: Bearer <token>`` authenticate as the user ``uid``."""
        self._state_call(_lib.drupal_mock_add_bearer_token, text(token, "token"), text(uid, "uid"))

    def add_oauth_consumer(self, client_id: str, secret: Optional[str] = None, *,
                           grants: Iterable[str] = ("client_credentials", "password", "refresh_token"),
                           uid: Union[str, int, None] = None, redirect_uris: Iterable[str] = ()) -> None:
        """Gives the site simple_oauth with this consumer, to test OAuth code without a server:
        ``/oauth/token`` answers its ``grants`` ("client_credentials", "password",
        "refresh_token", "authorization_code"; tokens live 300 s, a refresh rotates the pair),
        ``/oauth/authorize`` approves a logged-in person's code request at once (to one of
        ``redirect_uris``), and a Bearer token the site did not issue, or that expired, is a 401
        on any path. ``secret`` None is a public client (its code requests need PKCE); ``uid`` is
        the user client_credentials tokens act as (None: anonymous). Scopes are not checked."""
        grant_list = [text(g, "grants") for g in not_text(grants, "grants", "a list of grant types")]
        uris = [text(u, "redirect_uris") for u in not_text(redirect_uris, "redirect_uris", "a list of URIs")]
        self._state_call(_lib.drupal_mock_add_oauth_consumer, text(client_id, "client_id"),
                         None if secret is None else text(secret, "secret"), _ffi.string_array(grant_list),
                         None if uid is None else text(uid, "uid"), _ffi.string_array(uris) if uris else None)

    def add_language(self, langcode: str, prefix: Optional[str] = None) -> None:
        """Adds a language, negotiated by its URL ``prefix`` (the langcode by default): requests
        under "/fr" are answered in French, each entity in its translation or, without one, its
        original; JSON:API's links keep the prefix. English stays the default (no prefix). What
        ``Client.in_language`` reaches."""
        self._state_call(_lib.drupal_mock_add_language, text(langcode, "langcode"),
                         None if prefix is None else text(prefix, "prefix"))

    def add_translation(self, entity_type: str, entity_id: Union[str, int], langcode: str,
                        fields: Union[Dict[str, Any], bytes, str]) -> None:
        """Adds (or replaces) the ``langcode`` translation of a stored entity, turning translation
        on for its bundle: a copy of the original's translatable fields (title, body, status...)
        with ``fields`` over them (REST JSON; bare values taken as one item). Under the prefix, as
        Drupal answers: core REST's PATCH edits it (on an entity without one, the original), POST
        makes a new entity, DELETE deletes the whole entity; JSON:API's PATCH edits it, but is a
        405 on an entity without one, and its DELETE is a 405. Raises DrupalError:
        DRUPAL_E_NOT_FOUND for an entity the site does not have, DRUPAL_E_INVALID_ARGUMENT for a
        language not added."""
        self._state_call(_lib.drupal_mock_add_translation, text(entity_type, "entity_type"),
                         text(entity_id, "id"), text(langcode, "langcode"), text(json_body(fields), "fields"))

    def expire_oauth_tokens(self) -> None:
        """Every access token the site issued so far expires now (refresh tokens stay valid)."""
        self._state_call(_lib.drupal_mock_expire_oauth_tokens)

    def invalidate_csrf_tokens(self) -> None:
        """Gives every session a new CSRF token, as a token that went stale would."""
        self._state_call(_lib.drupal_mock_invalidate_csrf_tokens)

    def stub(self, method: str, path: str, status: int = 200, body: Body = b"",
             content_type: Optional[str] = "application/json", *, headers: HeadersArg = None,
             query: Query = None, answers: Optional[Sequence[StubAnswer]] = None) -> None:
        """Makes the mock site answer ``method path`` before anything else (later stubs win).

        Args:
            status, body, content_type, headers: the answer (headers such as Location or
                Retry-After as a mapping or pairs).
            query: query items the request must carry (others may come too); None for any.
            answers: several :class:`StubAnswer`\\ s instead, given in order, the last one to every
                later request; an answer may be a failure (``StubAnswer(fail="timeout")``).
        """
        if answers is None:
            answers = [StubAnswer(status, body, headers, content_type)]
        if not answers:
            raise ValueError("answers is empty")
        array = (_ffi.MockAnswer * len(answers))()
        keep: List[Any] = []
        for number, (slot, answer) in enumerate(zip(array, answers)):
            slot.version = _ffi.DRUPAL_MOCK_ANSWER_VERSION
            slot.status = c_int(answer.status, "answers[%d].status" % number)
            lines = list(answer.headers.items()) if isinstance(answer.headers, dict) else list(answer.headers or ())
            if answer.content_type is not None:
                lines.append(("Content-Type", answer.content_type))
            slot.headers = header_array(lines)
            data = b"" if answer.body is None else json_body(answer.body)
            slot.body, slot.body_length = data, len(data)
            if answer.fail is not None:
                if answer.fail not in _FAILURES:
                    raise ValueError("fail must be one of %s" % ", ".join(_FAILURES))
                slot.fail = _FAILURES[answer.fail]
            keep.append((slot.headers, data))
        self._state_call(_lib.drupal_mock_stub_answers, text(method, "method"), text(path, "path"), query_array(query),
                   array, len(answers))

    def requests(self) -> List[Dict[str, Any]]:
        """The requests the site received, oldest first (the last 1,000): dicts with ``method``,
        ``url``, ``headers`` (``[[name, value], ...]``) and ``body`` (text, or None)."""
        out = c_void_p()
        self._state_call(lambda handle: _lib.drupal_mock_requests_json(byref(out), handle))
        return json.loads(take_string(out.value))

    def clear_requests(self) -> None:
        """Forgets the requests recorded so far."""
        self._state_call(_lib.drupal_mock_clear_requests)


class MockClient(_MockSite, Client):
    """A :class:`Client` over an in-memory Drupal with a real site's semantics: users admin/admin
    and editor/editor, article and page bundles, a tags vocabulary, a paged view at
    ``/api/articles``, ids, 404s, login and CSRF. Calls complete on library threads, as live ones.
    """

    # A mock answers at once and never waits on a socket: its blocking calls have no wait for
    # Ctrl-C to cut short, so they skip routing signals to the library (two system calls a call).
    _waits = False

    def __init__(self) -> None:
        self._setup_mock()


class AsyncMockClient(_MockSite, AsyncClient):
    """An :class:`AsyncClient` over the in-memory Drupal of :class:`MockClient`."""

    def __init__(self) -> None:
        self._setup_mock()
