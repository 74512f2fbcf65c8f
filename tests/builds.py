"""Building tbnb as pip does, in a copy of the project: wheels and editable installs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_BUILD = """
import sys
import hatchling.build as backend
out = sys.argv[2]
name = backend.build_editable(out) if sys.argv[1] == "editable" else backend.build_wheel(out)
print(name)
"""


def project_copy(tmp_path: Path, *, front_end: bool = False) -> Path:
    """The files a build reads, copied (a build writes the native library into its tbnb/);
    ``front_end`` adds js/ (its sources, not its node modules)."""
    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("pyproject.toml", "hatch_build.py", "README.md"):
        shutil.copy2(ROOT / name, copy / name)
    ignore = shutil.ignore_patterns("__pycache__", "libtbnb_native.*", "node_modules")
    shutil.copytree(ROOT / "tbnb", copy / "tbnb", ignore=ignore)
    if front_end:
        shutil.copytree(ROOT / "js", copy / "js", ignore=ignore)
    # an editable wheel by path (.pth), as pip's isolated build makes one with ``editables``
    # (not needed in this environment otherwise): the hooks see version "editable" either way
    pyproject = (copy / "pyproject.toml").read_text()
    (copy / "pyproject.toml").write_text(
        pyproject.replace('packages = ["tbnb"]', 'packages = ["tbnb"]\ndev-mode-dirs = ["."]')
    )
    return copy


def build(
    project: Path, kind: str, out: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """Build ``kind`` (``"wheel"`` or ``"editable"``) of ``project`` into ``out`` with
    hatchling, as pip's build backend call does; the wheel's name is stdout's last line."""
    return subprocess.run(
        [sys.executable, "-c", _BUILD, kind, str(out)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
