"""The package is typed (it ships py.typed): ``mypy --strict`` sees every operation method of the
clients, installed at import time, with its signature and return type (the generated
``_operation_methods.pyi``), and rejects wrong calls."""
from __future__ import annotations

import ast
import inspect
import os
import re
import subprocess
import sys
from typing import Dict, List, Tuple

import drupalsdk
from conftest import PACKAGE_SRC
from drupalsdk._operations import OPERATIONS

HERE = os.path.dirname(os.path.abspath(__file__))

# mypy reads the package from the source tree under test (mypy_path comes before site-packages,
# where an editable install may point at another checkout) and, as for an installed package,
# reports no errors inside it: only in the user's script. The generated stub is checked too.
CONFIG = """\
[mypy]
mypy_path = {source}

[mypy-drupalsdk.*]
ignore_errors = True

[mypy-drupalsdk._operation_methods]
ignore_errors = False
"""

# Mistakes mypy must report: WRONG_MESSAGES maps each one's line to what its error says.
WRONG = """\
import drupalsdk
client = drupalsdk.Client("https://example.com")
client.get("node")
client.no_such_method()
count: int = client.get("node", 1)
client.submit_view("/api/articles").result().keys()
client.jsonapi_get("node--article", "uuid", query={"include": "uid"})
client.get("node", 1, langauge="fr")
async def main(async_client: drupalsdk.AsyncClient) -> None:
    async_client.get("node", 1)["title"]
"""
WRONG_MESSAGES = {
    3: 'Missing positional argument "id"',
    4: '"Client" has no attribute "no_such_method"',
    5: 'Incompatible types in assignment',
    6: '"list[dict[str, Any]]" has no attribute "keys"',
    7: 'Argument "query" to "jsonapi_get"',
    8: 'Unexpected keyword argument "langauge"',
    10: 'is not indexable',
}


def _mypy(tmp_path, script: str) -> Tuple[int, str, Dict[int, List[str]]]:
    config = tmp_path / "mypy.ini"
    config.write_text(CONFIG.format(source=PACKAGE_SRC))
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(config),
                             "--cache-dir", str(tmp_path / "cache"), "--no-error-summary",
                             "--hide-error-context", script],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert "No module named mypy" not in result.stderr, "mypy is a test dependency: run scripts/setup"
    errors: Dict[int, List[str]] = {}
    name = os.path.basename(script)
    for line in result.stdout.splitlines():
        if ": note: " in line:   # (where a method is defined: follows its error)
            continue
        match = re.match(r"(.*?):(\d+): error: (.*)", line)
        assert match, line   # an error in the package or its stub would name another file
        assert os.path.basename(match.group(1)) == name, line
        errors.setdefault(int(match.group(2)), []).append(match.group(3))
    return result.returncode, result.stdout + result.stderr, errors


def test_mypy_strict_sees_every_operation_method_with_its_types(tmp_path):
    code, output, errors = _mypy(tmp_path, os.path.join(HERE, "typed_usage.py"))
    assert (code, errors) == (0, {}), output


def test_mypy_strict_rejects_wrong_calls_of_the_operation_methods(tmp_path):
    script = tmp_path / "wrong_usage.py"
    script.write_text(WRONG)
    code, output, errors = _mypy(tmp_path, str(script))
    assert code == 1, output
    assert sorted(errors) == sorted(WRONG_MESSAGES), output
    for line, wanted in WRONG_MESSAGES.items():
        assert any(wanted in message for message in errors[line]), (line, wanted, output)


def test_mypy_finds_no_errors_in_the_package(tmp_path):
    # ``mypy -p drupalsdk`` as a maintainer runs it, from bindings/python (so the configuration a
    # [tool.mypy] there would hold applies; today there is none: mypy's defaults), on the source
    # tree under test: MYPYPATH comes before site-packages, where an editable install may point at
    # another checkout. A fresh cache: mypy replays a cached module's errors under the path it
    # was cached from.
    environment = dict(os.environ, MYPYPATH=PACKAGE_SRC)
    result = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                             "-p", "drupalsdk"],
                            cwd=os.path.dirname(PACKAGE_SRC), env=environment, capture_output=True, text=True,
                            timeout=300)
    assert "No module named mypy" not in result.stderr, "mypy is a test dependency: run scripts/setup"
    assert result.returncode == 0 and result.stdout.startswith("Success: no issues found"), \
        result.stdout + result.stderr


def test_the_stub_declares_each_installed_method_with_its_parameters():
    # What scripts/gen-api-docs --check also guards (CI); here so that a stale stub fails pytest too.
    with open(os.path.join(PACKAGE_SRC, "drupalsdk", "_operation_methods.pyi"), encoding="utf-8") as f:
        classes = [node for node in ast.parse(f.read()).body if isinstance(node, ast.ClassDef)]
    installed = {drupalsdk.Client: [name for o in OPERATIONS for name in (o.name, "submit_" + o.name)],
                 drupalsdk.AsyncClient: [o.name for o in OPERATIONS]}
    assert [node.name for node in classes] == ["_ClientOperations", "_AsyncClientOperations"]
    for declared, (cls, names) in zip(classes, installed.items()):
        assert [node.name for node in declared.body] == names, cls
        for node in declared.body:
            arguments = node.args
            parameters = [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
            assert parameters == list(inspect.signature(getattr(cls, node.name)).parameters), node.name
            assert isinstance(node, ast.AsyncFunctionDef) == (cls is drupalsdk.AsyncClient), node.name
