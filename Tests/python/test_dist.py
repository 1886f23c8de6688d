"""scripts/dist from a plain copy of the source tree (an unpacked source tarball: no .git), which
must make the release files as a checkout does. (`scripts/dist --check` checks the files
themselves, in the checkout.)"""
from __future__ import annotations

import os
import shutil
import subprocess
import tarfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _git_files(*paths: str) -> list:
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", *paths], capture_output=True, check=True).stdout
    return [name for name in out.decode().split("\0") if name]


def test_dist_from_a_copy_without_git_ships_the_checkouts_files(tmp_path):
    if shutil.which("git") is None or not os.path.exists(os.path.join(ROOT, ".git")):
        pytest.skip("needs a git checkout to copy from")
    library = os.path.join(ROOT, "build", "lib", "libdrupalsdk.so")
    if not os.path.exists(library):
        pytest.skip("needs scripts/build-lib first")
    tree = tmp_path / "drupalsdk-src"
    for name in _git_files():                     # what a source tarball holds
        target = tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(os.path.join(ROOT, name), target, follow_symlinks=False)
    for built in ("lib", "include"):              # scripts/build-lib's output
        shutil.copytree(os.path.join(ROOT, "build", built), tree / "build" / built, symlinks=True)
    # A C example built in place (make -C examples/c) must not ship.
    shutil.copy2("/bin/true", tree / "examples" / "c" / "drupal_tour")
    if os.path.isdir(os.path.join(ROOT, ".venv")):
        os.symlink(os.path.join(ROOT, ".venv"), tree / ".venv")   # pip and its build backend
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(tmp_path))
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    result = subprocess.run([str(tree / "scripts" / "dist")], cwd=tree, capture_output=True, text=True, env=env,
                            timeout=300)
    assert result.returncode == 0, result.stderr

    dist = tree / "build" / "dist"
    [tarball] = dist.glob("libdrupalsdk-*.tar.gz")
    assert len(list(dist.glob("drupalsdk-*.whl"))) == 1
    top = tarball.name[:-len(".tar.gz")]
    with tarfile.open(tarball) as archive:
        members = {m.name[len(top) + 1:] for m in archive.getmembers() if m.isfile() or m.issym()}
    examples = {name for name in members if name.startswith("examples/")}
    assert examples == set(_git_files("examples/c")), examples
    for name in ("build/lib/libdrupalsdk.so", "build/include/drupalsdk.h", "scripts/install-lib",
                 "Tests/fake_drupal/fake_drupal.py", "LICENSE", "docs/ABI.md"):
        assert name in members, name
