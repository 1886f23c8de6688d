"""The binding's ctypes declarations against include/drupalsdk.h: every structure's size and field
offsets as the C compiler lays them out, and every declared function's parameters and result
(their count and kind: pointer, integer of which size, double, callback)."""
import ctypes
import os
import re
import subprocess

import pytest

from conftest import ROOT

from drupalsdk import _ffi

HEADER = os.path.join(ROOT, "include", "drupalsdk.h")
STRUCTS = {
    "drupal_client_options": _ffi.ClientOptions,
    "drupal_request_options": _ffi.RequestOptions,
    "drupal_event": _ffi.Event,
    "drupal_mock_answer": _ffi.MockAnswer,
    "drupal_oauth_options": _ffi.OAuthOptions,
    "drupal_transfer_options": _ffi.TransferOptions,
    "drupal_completion": _ffi.Completion,
}


def _header_text():
    text = open(HEADER).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def test_struct_layouts_match_the_compiler(tmp_path):
    """sizeof, and offsetof and size of every field, from a C program built against the header."""
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "drupalsdk.h"', "int main(void) {"]
    for name, struct in STRUCTS.items():
        lines.append('printf("%s %%zu\\n", sizeof(%s));' % (name, name))
        for field, _ in struct._fields_:
            lines.append('printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (name, field, name, field))
            lines.append('printf("%s.%s.size %%zu\\n", sizeof(((%s *)0)->%s));' % (name, field, name, field))
    lines.append("return 0; }")
    source = tmp_path / "layout.c"
    source.write_text("\n".join(lines))
    cflags = subprocess.run(["pkg-config", "--cflags", "jansson"], capture_output=True, text=True).stdout.split()
    binary = tmp_path / "layout"
    subprocess.run(["cc", "-std=c99", "-I", os.path.join(ROOT, "include"), *cflags, str(source), "-o", str(binary)],
                   check=True)
    compiled = dict(line.rsplit(" ", 1) for line in subprocess.run([str(binary)], capture_output=True, text=True,
                                                                   check=True).stdout.splitlines())
    for name, struct in STRUCTS.items():
        assert int(compiled[name]) == ctypes.sizeof(struct), name
        for field, field_type in struct._fields_:
            assert int(compiled["%s.%s" % (name, field)]) == getattr(struct, field).offset, (name, field)
            assert int(compiled["%s.%s.size" % (name, field)]) == ctypes.sizeof(field_type), (name, field)
    # Every field of the C structs is declared (none missing at the end).
    for name, struct in STRUCTS.items():
        body = re.search(r"typedef struct %s \{(.*?)\} %s;" % (name, name), _header_text(), re.S).group(1)
        assert body.count(";") == len(struct._fields_), name


def _kind(c_type: str) -> str:
    """The kind of a C parameter or result type, as ctypes must declare it."""
    c_type = c_type.strip()
    if "*" in c_type or c_type.endswith(("callback", "hook", "provider")):
        return "pointer"
    if c_type in ("void",):
        return "void"
    if "double" in c_type:
        return "double"
    if "size_t" in c_type or "uint64_t" in c_type:
        return "int64"
    return "int32"   # int, unsigned int, drupal_code and the other enums


def _ctypes_kind(declared) -> str:
    if declared is None:
        return "void"
    if declared in (ctypes.c_void_p, ctypes.c_char_p) or issubclass(declared, (ctypes._Pointer,
                                                                                ctypes._CFuncPtr)):
        return "pointer"
    if declared is ctypes.c_double:
        return "double"
    return "int64" if ctypes.sizeof(declared) == 8 else "int32"


def _prototypes():
    found = {}
    for match in re.finditer(r"^([a-z_][\w \*]*?)\b(drupal_\w+)\s*\(([^;{]*?)\)\s*;", _header_text(), re.M | re.S):
        result, name, params = match.groups()
        if result.strip().startswith("typedef"):
            continue
        params = " ".join(params.split())
        found[name] = (result, [] if params in ("", "void") else [p for p in params.split(",")])
    return found


def test_every_declared_signature_matches_the_header():
    prototypes = _prototypes()
    assert len(prototypes) > 100
    for name, result, *argtypes in _ffi._SIGNATURES:
        assert name in prototypes, "%s is not in the header" % name
        c_result, c_params = prototypes[name]
        assert len(argtypes) == len(c_params), "%s: %d parameters, the header has %d" % (name, len(argtypes),
                                                                                          len(c_params))
        assert _ctypes_kind(result) == _kind(c_result), name
        for index, (declared, c_param) in enumerate(zip(argtypes, c_params)):
            c_type = re.sub(r"\b\w+$", "", c_param.strip()) if not c_param.strip().endswith("*") else c_param
            assert _ctypes_kind(declared) == _kind(c_type), "%s parameter %d (%s)" % (name, index, c_param)


def test_no_trap_can_cross_the_abi():
    """Issue 10 item 15: nothing in the library's sources may stop the process instead of
    returning an error code to the caller (a trap inside an embedding program is its crash)."""
    trap = re.compile(r"\bfatalError\(|\btry!|\bpreconditionFailure\(|\bprecondition\(|\bassertionFailure\(|\babort\(\)")
    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in files:
            if not name.endswith((".swift", ".c", ".h")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as source:
                for number, line in enumerate(source, 1):
                    code = line.split("//", 1)[0]
                    if trap.search(code):
                        found.append("%s:%d: %s" % (os.path.relpath(path, ROOT), number, line.strip()))
    assert found == [], "traps in the library:\n" + "\n".join(found)
