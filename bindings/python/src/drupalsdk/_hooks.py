"""The client's hooks into its requests: ``on_request`` (a :class:`RequestEdit` per request, to
read it or change its headers) and DEBUG logging of every request and response, redacted by the
library. Both are C hooks the library calls on the thread sending the request."""
from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Optional

from . import _ffi, _interrupts
from ._convert import text
from ._managed import ClosedError

__all__ = ["RequestEdit", "request_hook", "LOG_HOOK"]

log = logging.getLogger("drupalsdk")
_lib = _ffi.lib
_last_error = _ffi.last_error
_CODE_INTERNAL = _ffi.DRUPAL_E_INTERNAL


class RequestEdit:
    """A request about to be sent, as an ``on_request`` hook sees it. Valid only during the
    hook: the library frees the request when the hook returns, so a kept ``RequestEdit`` then
    raises :class:`ClosedError`."""

    __slots__ = ("_edit", "_lock")

    def __init__(self, edit: int) -> None:
        self._edit: Optional[int] = edit
        # Held around each C call and by _invalidate, so another thread holding this object
        # never calls in while the hook returns and the library frees the request.
        self._lock = threading.Lock()

    def _invalidate(self) -> None:
        with self._lock:
            self._edit = None

    def _call(self, function: Callable[..., Any], *args: Any) -> Any:
        with self._lock:
            if self._edit is None:
                raise ClosedError("a RequestEdit is valid only during its on_request hook")
            return function(self._edit, *args)

    @property
    def method(self) -> str:
        return (self._call(_lib.drupal_request_edit_method) or b"").decode("utf-8", "replace")

    @property
    def url(self) -> str:
        return (self._call(_lib.drupal_request_edit_url) or b"").decode("utf-8", "replace")

    def header(self, name: str) -> Optional[str]:
        """The first value of a header, or None."""
        value = self._call(_lib.drupal_request_edit_header, text(name, "header name"))
        return None if value is None else value.decode("utf-8", "replace")

    def set_header(self, name: str, value: str) -> None:
        """Sets a header (InvalidArgumentError for a control character but a tab in the
        value, or a header that frames the request)."""
        code = self._call(_lib.drupal_request_edit_set_header, text(name, "header name"), text(value, "header value"))
        if code:
            raise _last_error(code)

    def remove_header(self, name: str) -> None:
        self._call(_lib.drupal_request_edit_remove_header, text(name, "header name"))


def request_hook(hook: Callable[[RequestEdit], Any]):  # type: ignore[no-untyped-def]
    """The C request hook calling ``hook``; what it raises fails the request (and is logged)."""
    @_interrupts.callback
    def call(edit: int, _userdata: Any) -> int:
        request = RequestEdit(edit)
        try:
            hook(request)
            return 0
        except BaseException as error:
            if not _interrupts.keep(error):  # (Ctrl-C: the blocking call raises it)
                log.exception("drupalsdk: the on_request hook %r raised; the request is not sent", hook)
            return _CODE_INTERNAL
        finally:
            request._invalidate()
    return _ffi.REQUEST_HOOK(call)


@_interrupts.callback
def _log_line(line: bytes, _userdata: Any) -> None:
    try:
        log.debug("%s", line.decode("utf-8", "replace"))
    except BaseException:
        pass


#: One C log hook for every client: requests and responses at DEBUG, secrets redacted.
LOG_HOOK = _ffi.LOG_HOOK(_log_line)
