"""The advice `import drupalsdk` gives when the library cannot load (drupalsdk._loaderror)."""
from drupalsdk import _loaderror


def test_a_missing_dependency_is_named_with_its_package():
    errors = ["package copy: /x/libdrupalsdk.so (libjansson.so.4: cannot open shared object file: No such file)",
              "system (dynamic loader): libdrupalsdk.so.0 (libdrupalsdk.so.0: cannot open shared object file)"]
    text = _loaderror.advice(errors)
    assert "libjansson.so.4" in text and "apt-get install libjansson4" in text
    text = _loaderror.advice(["package copy: x (libcurl.so.4: cannot open shared object file: No such file)"])
    assert "libcurl.so.4" in text and "apt-get install libcurl4" in text


def test_an_old_glibc_names_the_floor():
    text = _loaderror.advice(["package copy: x (/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.35' not found "
                              "(required by x))"])
    assert "glibc 2.35" in text


def test_no_library_at_all_says_where_to_get_it():
    text = _loaderror.advice(["system (dynamic loader): libdrupalsdk.so.0 (libdrupalsdk.so.0: cannot open shared "
                              "object file: No such file or directory)"])
    assert "wheel" in text and "scripts/install-lib" in text and "DRUPALSDK_LIBRARY" in text
