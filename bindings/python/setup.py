"""Build hook: bundle the checkout's libdrupalsdk.so into the wheel when it has been built.

`pip install bindings/python` then works without DRUPALSDK_LIBRARY. Metadata is in
pyproject.toml; without a built library the package is pure Python and looks for the library
at import time (see drupalsdk/_ffi.py).
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT_LIBRARY = os.path.join(HERE, "..", "..", "build", "lib", "libdrupalsdk.so")


class BuildPyWithLibrary(build_py):
    def run(self) -> None:
        super().run()
        if os.environ.get("DRUPALSDK_NO_BUNDLE") or not os.path.exists(CHECKOUT_LIBRARY):
            return
        target_dir = os.path.join(self.build_lib, "drupalsdk", "lib")
        os.makedirs(target_dir, exist_ok=True)
        # Copy the real file (not the symlink chain) under the name the loader looks for.
        shutil.copyfile(os.path.realpath(CHECKOUT_LIBRARY), os.path.join(target_dir, "libdrupalsdk.so"))


setup(cmdclass={"build_py": BuildPyWithLibrary})
