"""Build hook: bundle the checkout's libdrupalsdk.so into the wheel when it has been built.

Metadata is in pyproject.toml. With a built library (`scripts/build-lib`) the wheel carries a
stripped copy in drupalsdk/lib/ and is a platform wheel (py3-none-manylinux_2_N_<arch>, N from
the glibc versions the library references). With DRUPALSDK_NO_BUNDLE=1, or without a built
library, the wheel is pure Python and finds the library at import time (drupalsdk/_ffi.py).
Either way the library needs the system's libcurl 4 and Jansson 2 (not bundled).
"""
import os
import platform
import re
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT_LIBRARY = os.path.join(HERE, "..", "..", "build", "lib", "libdrupalsdk.so")
HEADER = os.path.join(HERE, "..", "..", "include", "drupalsdk.h")


def header_version():
    """MAJOR.MINOR.PATCH from include/drupalsdk.h, the one place the version is written."""
    try:
        with open(HEADER) as f:
            text = f.read()
    except OSError:
        raise SystemExit("setup.py: %s is not there: build the package from a drupalsdk checkout" % HEADER)
    parts = [re.search(r"#define DRUPAL_SDK_VERSION_%s (\d+)" % part, text) for part in ("MAJOR", "MINOR", "PATCH")]
    if not all(parts):
        raise SystemExit("setup.py: no DRUPAL_SDK_VERSION_* macros in %s" % HEADER)
    return ".".join(match.group(1) for match in parts)


def bundled_library():
    """The library to bundle, or None for a pure-Python wheel."""
    if os.environ.get("DRUPALSDK_NO_BUNDLE") or not os.path.exists(CHECKOUT_LIBRARY):
        return None
    return os.path.realpath(CHECKOUT_LIBRARY)


def glibc_floor(path):
    """The highest GLIBC_2.N the library references (its version-needed strings)."""
    with open(path, "rb") as f:
        versions = [int(n) for n in re.findall(rb"GLIBC_2\.(\d+)", f.read())]
    return max(versions, default=17)


class BuildPyWithLibrary(build_py):
    def run(self) -> None:
        super().run()
        # The build directory outlives a build: clear what an earlier bundled build left, so a
        # DRUPALSDK_NO_BUNDLE build (or one after a rebuild of the library) never ships it.
        target_dir = os.path.join(self.build_lib, "drupalsdk", "lib")
        shutil.rmtree(target_dir, ignore_errors=True)
        source = bundled_library()
        if source is None:
            return
        os.makedirs(target_dir)
        target = os.path.join(target_dir, "libdrupalsdk.so")
        # Strip the debug info (23 MB -> 14 MB); keep the dynamic symbols ctypes needs.
        strip = shutil.which("strip")
        if strip:
            subprocess.run([strip, "--strip-unneeded", "-o", target, source], check=True)
        else:
            sys.stderr.write("setup.py: no `strip` (binutils): bundling the unstripped library\n")
            shutil.copyfile(source, target)


class PlatformWheel(bdist_wheel):
    def get_tag(self):
        if bundled_library() is None:
            return super().get_tag()
        # ctypes, not the CPython C API: any Python 3, no ABI tag; only the platform matters.
        return "py3", "none", "manylinux_2_%d_%s" % (glibc_floor(bundled_library()), platform.machine())


class LibraryDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        # A bundled .so makes the wheel platform-specific: installed to platlib, not purelib.
        return bundled_library() is not None


setup(version=header_version(), distclass=LibraryDistribution,
      cmdclass={"build_py": BuildPyWithLibrary, "bdist_wheel": PlatformWheel})
