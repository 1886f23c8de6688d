"""Progress and write callbacks of streamed uploads and downloads, as a drupal_transfer_options:
Python callables behind C function pointers. The streaming itself is the library's."""
from __future__ import annotations

import ctypes
import logging
from typing import Any, Callable, List, Optional

from . import _ffi, _interrupts

__all__ = ["transfer_options", "callback_error", "Progress", "Write"]

log = logging.getLogger("drupalsdk")

#: ``progress(done, total)``: bytes moved so far and the total (None when unknown); False cancels.
Progress = Callable[[int, Optional[int]], Any]
#: ``write(chunk)``: a piece of a download's content (bytes); False stops.
Write = Callable[[bytes], Any]


def transfer_options(progress: Optional[Progress], write: Optional[Write] = None) -> Any:
    """A drupal_transfer_options holding C callbacks for the callables (keep it alive for the call),
    or None when neither is given."""
    if progress is None and write is None:
        return None
    # What the callables raised: the call's CancelledError gets the first as its __cause__.
    raised: List[BaseException] = []
    options = _ffi.TransferOptions()
    options.version = _ffi.DRUPAL_TRANSFER_OPTIONS_VERSION
    if progress is not None:
        if not callable(progress):
            raise TypeError("progress must be callable")

        @_interrupts.callback
        def on_progress(done: int, total: int, _userdata: Any) -> int:
            if _interrupts.stopping():  # Ctrl-C: stop now
                return 1
            try:
                return 1 if progress(done, total if total >= 0 else None) is False else 0
            except BaseException as error:
                if not _interrupts.keep(error):  # (Ctrl-C: the blocking call raises it)
                    log.debug("drupalsdk: the progress callback %r raised; the transfer is cancelled", progress,
                              exc_info=True)
                    raised.append(error)
                return 1
        options.progress = _ffi.PROGRESS_CALLBACK(on_progress)
    if write is not None:
        if not callable(write):
            raise TypeError("write must be callable")

        @_interrupts.callback
        def on_write(data: int, length: int, _userdata: Any) -> int:
            if _interrupts.stopping():  # Ctrl-C: stop now
                return 1
            try:
                return 1 if write(ctypes.string_at(data, length)) is False else 0
            except BaseException as error:
                if not _interrupts.keep(error):  # (Ctrl-C: the blocking call raises it)
                    log.debug("drupalsdk: the write callback %r raised; the download is stopped", write,
                              exc_info=True)
                    raised.append(error)
                return 1
        options.write = _ffi.WRITE_CALLBACK(on_write)
    pointer = ctypes.pointer(options)
    pointer.callback_errors = raised  # type: ignore[attr-defined]
    return pointer


def callback_error(args: Any) -> Optional[BaseException]:
    """The first exception a progress or write callable among a call's C arguments raised."""
    for arg in args or ():
        raised = getattr(arg, "callback_errors", None)
        if raised:
            return raised[0]
    return None
