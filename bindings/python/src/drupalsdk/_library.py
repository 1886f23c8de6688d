"""Finding and loading libdrupalsdk, and the C API version this binding was written for.

The library is found in this order (the first that loads wins):

1. ``$DRUPALSDK_LIBRARY`` (a path). When set, it is the only place tried.
2. A copy inside the package: ``drupalsdk/lib/libdrupalsdk.so*``.
3. The checkout's ``build/lib/libdrupalsdk.so`` when running from the source tree.
4. The system: ``ctypes.util.find_library("drupalsdk")``, then ``libdrupalsdk.so.0``.

The library is never unloaded (the Swift runtime inside it must not be ``dlclose``d).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import glob
import os
from typing import List, Optional, Tuple

from . import _loaderror

#: The C API version this binding was written for (major, minor): its own version's, which
#: setup.py reads from include/drupalsdk.h.
def _binding_version() -> Tuple[int, int]:
    import importlib.metadata
    try:
        major, minor = importlib.metadata.version("drupalsdk").split(".")[:2]
        return int(major), int(minor)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return (-1, -1)   # not installed (a source tree): any library version is taken


API_VERSION = _binding_version()

LIBRARY_ENV = "DRUPALSDK_LIBRARY"

# ---- Library lookup ------------------------------------------------------------------------------

_HERE = os.path.dirname(os.path.abspath(__file__))


def _checkout_library() -> Optional[str]:
    """build/lib/libdrupalsdk.so of the source tree this package sits in, if any."""
    directory = _HERE
    for _ in range(5):
        directory = os.path.dirname(directory)
        if os.path.exists(os.path.join(directory, "Package.swift")) and \
                os.path.exists(os.path.join(directory, "include", "drupalsdk.h")):
            return os.path.join(directory, "build", "lib", "libdrupalsdk.so")
    return None


def _load() -> Tuple[ctypes.CDLL, ctypes.PyDLL, str]:
    tried: List[str] = []

    def attempt(name: str, label: str):  # type: ignore[no-untyped-def]
        try:
            return ctypes.CDLL(name), ctypes.PyDLL(name), name
        except OSError as error:
            tried.append("%s: %s (%s)" % (label, name, error))
            return None

    explicit = os.environ.get(LIBRARY_ENV)
    if explicit:
        found = attempt(explicit, "$" + LIBRARY_ENV)
        if found:
            return found
        raise ImportError("drupalsdk: cannot load libdrupalsdk.\n  tried %s\n  (the package copy, the checkout's "
                          "build/lib and the system were not tried because %s is set)\n%s"
                          % (tried[0], LIBRARY_ENV, _loaderror.advice(tried)))
    tried.append("$%s: not set" % LIBRARY_ENV)

    bundled = sorted(glob.glob(os.path.join(_HERE, "lib", "libdrupalsdk.so*")))
    if not bundled:
        tried.append("package copy: no %s" % os.path.join(_HERE, "lib", "libdrupalsdk.so*"))
    for path in bundled:
        found = attempt(path, "package copy")
        if found:
            return found

    checkout = _checkout_library()
    if checkout is None:
        tried.append("checkout build: not running from a drupalsdk source tree")
    elif not os.path.exists(checkout):
        tried.append("checkout build: no %s" % checkout)
    else:
        found = attempt(checkout, "checkout build")
        if found:
            return found

    system = ctypes.util.find_library("drupalsdk")
    if system:
        found = attempt(system, "system (find_library)")
        if found:
            return found
    else:
        tried.append("system: ctypes.util.find_library('drupalsdk') found nothing")
    found = attempt("libdrupalsdk.so.0", "system (dynamic loader)")
    if found:
        return found
    raise ImportError("drupalsdk: cannot load libdrupalsdk. Looked in:\n  " + "\n  ".join(tried) + "\n"
                      + _loaderror.advice(tried))


lib, _pylib, library_path = _load()
