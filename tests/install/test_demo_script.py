"""scripts/demo.sh opens JupyterLab on git-ignored copies of the notebooks.

JupyterLab saves what it runs: opened on notebooks/tour.ipynb it rewrote the tracked
file. The demo now copies notebooks/*.ipynb into demo/ once (git-ignored, the user's
edits kept on the next run) and opens Lab there. The script runs here in a copy of the
project whose .venv is this test's Python (set up already, so nothing is installed)
and whose ``jupyter-lab`` records how it was started.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tbnb.notebook import samples

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("pyproject.toml", "README.md", ".gitignore"):
        shutil.copy2(ROOT / name, copy / name)
    for name in ("scripts", "notebooks", "tbnb"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    venv = copy / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (venv / "jupyter-lab").write_text(
        '#!/bin/sh\n{ pwd; for a in "$@"; do echo "$a"; done; } > "$LAB_ARGS"\n'
    )
    for tool in venv.iterdir():
        tool.chmod(0o755)
    (copy / ".venv" / ".tbnb-installed-demo").touch()  # set up: nothing to install
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)
    subprocess.run(["git", "add", "-A"], cwd=copy, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c"],
        cwd=copy,
        check=True,
    )
    return copy


def _demo(project: Path, tmp_path: Path) -> list[str]:
    cache = tmp_path / "cache"
    sample = cache / "samples" / f"sweep-v{samples.SAMPLE_VERSION}"
    sample.mkdir(parents=True, exist_ok=True)
    (sample / ".tbnb-sample-complete").write_text("cached\n")  # no need to write it here
    record = tmp_path / "lab-args"
    env = dict(os.environ, TBNB_CACHE_DIR=str(cache), LAB_ARGS=str(record), DEMO_PORT="8999")
    env.pop("DISPLAY", None)
    done = subprocess.run(
        ["bash", "scripts/demo.sh"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return record.read_text().splitlines()


def _ignored(project: Path, path: str) -> bool:
    done = subprocess.run(["git", "check-ignore", "-q", path], cwd=project, check=False)
    return done.returncode == 0


def test_lab_opens_ignored_copies_and_never_the_tracked_notebooks(
    project: Path, tmp_path: Path
) -> None:
    cwd, *args = _demo(project, tmp_path)
    assert Path(cwd) == project
    assert args[-1] == "demo/quickstart.ipynb"
    assert f"--ServerApp.root_dir={project}" in args
    for name in ("quickstart.ipynb", "tour.ipynb"):
        assert (project / "demo" / name).read_bytes() == (project / "notebooks" / name).read_bytes()
        assert _ignored(project, f"demo/{name}")  # what Lab saves there changes nothing tracked

    (project / "demo" / "tour.ipynb").write_text("{}")  # the user's own run, saved by Lab
    _demo(project, tmp_path)
    assert (project / "demo" / "tour.ipynb").read_text() == "{}"  # kept, never overwritten
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=project, capture_output=True, text=True, check=True
    )
    assert status.stdout == ""
