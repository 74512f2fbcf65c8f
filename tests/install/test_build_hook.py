"""Installing from a checkout needs no node: the committed front-end bundles are used.

``pip install -e .`` used to run hatch-jupyter-builder's ``npm install`` + ``npm run
build`` on every editable install (its ``skip-if-exists`` applies to standard builds
only) and failed without npm. hatch_build.py now checks the bundles js/build.mjs writes:
present, nothing runs; one missing, npm builds it, or the build stops with one line
saying what to install.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests import builds


def _build(project: Path, kind: str, out: Path) -> subprocess.CompletedProcess[str]:
    """Build with no npm on PATH (only the Python running the build), native kernels off."""
    bin_dir = project.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    return builds.build(
        project, kind, out, dict(os.environ, PATH=str(bin_dir), TBNB_NATIVE_BUILD="0")
    )


@pytest.mark.parametrize("kind", ["editable", "wheel"])
def test_install_without_npm_uses_the_committed_bundles(tmp_path: Path, kind: str) -> None:
    project = builds.project_copy(tmp_path, front_end=True)
    done = _build(project, kind, tmp_path / "dist")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "npm" not in done.stderr


def test_a_missing_bundle_without_npm_says_what_to_install(tmp_path: Path) -> None:
    project = builds.project_copy(tmp_path, front_end=True)
    (project / "tbnb" / "static" / "scalars.js").unlink()
    done = _build(project, "editable", tmp_path / "dist")
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if "tbnb/static" in line]
    assert len(lines) == 1, done.stderr[-3000:]
    assert "scalars.js" in lines[0]
    assert "npm is not on PATH: install Node.js" in lines[0]
    assert "git checkout -- tbnb/static" in lines[0]
