"""Installing from a checkout needs no node: the committed front-end bundles are used.

``pip install -e .`` used to run hatch-jupyter-builder's ``npm install`` + ``npm run
build`` on every editable install (its ``skip-if-exists`` applies to standard builds
only) and failed without npm. hatch_build.py now checks the bundles js/build.mjs writes:
present, nothing runs; one missing, npm builds it, or the build stops with one line
saying what to install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_BUILD = """
import sys
import hatchling.build as backend
out = sys.argv[2]
name = backend.build_editable(out) if sys.argv[1] == "editable" else backend.build_wheel(out)
print(name)
"""


def _project(tmp_path: Path) -> Path:
    """What a build reads: pyproject, the hook, the package, the front-end sources."""
    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("pyproject.toml", "hatch_build.py", "README.md"):
        shutil.copy2(ROOT / name, copy / name)
    ignore = shutil.ignore_patterns("__pycache__", "libtbnb_native.*", "node_modules")
    shutil.copytree(ROOT / "tbnb", copy / "tbnb", ignore=ignore)
    shutil.copytree(ROOT / "js", copy / "js", ignore=ignore)
    # an editable wheel by path (.pth), as pip's isolated build makes one with ``editables``
    pyproject = (copy / "pyproject.toml").read_text()
    (copy / "pyproject.toml").write_text(
        pyproject.replace('packages = ["tbnb"]', 'packages = ["tbnb"]\ndev-mode-dirs = ["."]')
    )
    return copy


def _build(project: Path, kind: str, out: Path) -> subprocess.CompletedProcess[str]:
    """Build with no npm on PATH (only the Python running the build), native kernels off."""
    bin_dir = project.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    env = dict(os.environ, PATH=str(bin_dir), TBNB_NATIVE_BUILD="0")
    return subprocess.run(
        [sys.executable, "-c", _BUILD, kind, str(out)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize("kind", ["editable", "wheel"])
def test_install_without_npm_uses_the_committed_bundles(tmp_path: Path, kind: str) -> None:
    project = _project(tmp_path)
    done = _build(project, kind, tmp_path / "dist")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "npm" not in done.stderr


def test_a_missing_bundle_without_npm_says_what_to_install(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "tbnb" / "static" / "scalars.js").unlink()
    done = _build(project, "editable", tmp_path / "dist")
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if "tbnb/static" in line]
    assert len(lines) == 1, done.stderr[-3000:]
    assert "scalars.js" in lines[0]
    assert "npm is not on PATH: install Node.js" in lines[0]
    assert "git checkout -- tbnb/static" in lines[0]


def test_the_hook_expects_every_bundle_the_front_end_build_writes() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    expected = {path.name for path in hatch_build.bundles(ROOT)}
    assert "export.js" in expected
    assert "scalars.js" in expected
    assert expected <= {path.name for path in (ROOT / "tbnb" / "static").glob("*.js")}
