"""What to tell someone whose ``import drupalsdk`` could not load libdrupalsdk.

The loader's errors (``OSError`` texts from ``dlopen``) say which file was missing; this turns
them into the one thing to do: the package that provides a missing dependency, the glibc the
library needs, or where to get the library itself.
"""
from __future__ import annotations

import re
from typing import Iterable, Optional

#: The libraries libdrupalsdk needs besides glibc, and the packages that provide them.
DEPENDENCIES = {
    "libcurl.so.4": "libcurl4 on Debian/Ubuntu (apt-get install libcurl4), libcurl on Fedora/RHEL",
    "libjansson.so.4": "libjansson4 on Debian/Ubuntu (apt-get install libjansson4), jansson on Fedora/RHEL",
    # libcurl4 needs these two itself: missing, they are a broken system rather than a step skipped.
    "libz.so.1": "zlib1g on Debian/Ubuntu (apt-get install zlib1g), zlib on Fedora/RHEL",
    "libbrotlidec.so.1": "libbrotli1 on Debian/Ubuntu (apt-get install libbrotli1), libbrotli on Fedora/RHEL",
}

#: The oldest glibc the prebuilt library runs on (see docs/ABI.md).
GLIBC_FLOOR = "2.35"

GET_THE_LIBRARY = (
    "Install the wheel that bundles it (pip install drupalsdk-<version>-py3-none-manylinux_*.whl), "
    "install the C library (scripts/install-lib, then ldconfig), or set DRUPALSDK_LIBRARY to the path "
    "of libdrupalsdk.so. In a source checkout, scripts/build-lib builds it (needs the Swift toolchain).")


def advice(errors: Iterable[str]) -> str:
    """One paragraph for the ImportError, from the texts of the loader errors seen."""
    text = "\n".join(errors)
    missing = _missing_dependency(text)
    if missing:
        return ("libdrupalsdk was found but needs %s, which is not installed: install %s."
                % (missing, DEPENDENCIES.get(missing, "the package that provides it")))
    glibc = re.search(r"version [`']GLIBC_([\d.]+)' not found", text)
    if glibc:
        return ("libdrupalsdk needs glibc %s or newer (this system's is older; it asked for GLIBC_%s): "
                "use a newer distribution, or build the library from source on this one."
                % (GLIBC_FLOOR, glibc.group(1)))
    return GET_THE_LIBRARY


def _missing_dependency(text: str) -> Optional[str]:
    for match in re.finditer(r"(lib[\w.+-]+?\.so(?:\.\d+)*): cannot open shared object file", text):
        if not match.group(1).startswith("libdrupalsdk"):
            return match.group(1)
    return None
