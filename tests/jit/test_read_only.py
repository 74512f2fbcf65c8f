"""A first load by an unprivileged user: the package and the venv read-only, no writable
home, an empty cache.

The suite runs as root in CI; the loads here run as ``nobody`` (``setpriv``), keeping
only the right to read and search directories (``CAP_DAC_READ_SEARCH``: the venv's
Python may live under a home that ``nobody`` cannot enter) and none to write. Run as
another user already, they run as that user. The first load computes PR-curve areas and
smooths with numpy, warns that the user cache cannot be written and compiles in the
background into a private directory in the temporary directory; the next load runs the
compiled kernels from there. (The loader itself never uses numba: its kernels are the
native C ones.) Nothing is written beside the package or in the venv.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tbnb.loader.experiment import Experiment
from tests import writers

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534

_CHILD = r"""
import json, os, sys, sysconfig, warnings

warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    from tbnb.jit import build, cache_dir, loading
    from tbnb.loader.experiment import Experiment
    from tbnb.transforms import smooth
    from tbnb.analysis.pr_areas import curve_stats

    loading.MIN_ITEMS = 0  # every call counts as large (the threshold: tests/transforms)
    exp = Experiment(sys.argv[1], progress=False)
    smoothed = smooth(exp.scalars["value"].to_numpy(), 0.6)
    tp, fp = [[3.0, 2, 1, 0]], [[3.0, 1, 0, 0]]
    ap = float(curve_stats(tp, fp, [[0.0, 2, 3, 3]], [[0.0, 1, 2, 3]], [4])
               ["average_precision"][0])
import tbnb

def can_write(path):
    try:
        open(os.path.join(path, ".tbnb-probe"), "w").close()
    except OSError:
        return False
    os.remove(os.path.join(path, ".tbnb-probe"))
    return True

print(json.dumps({
    "uid": os.getuid(), "decoders": sorted(exp.last_report.decoders),
    "compiled": sorted(g for g, done in loading._loaded.items() if done),
    "rows": len(exp.scalars), "values": exp.scalars["value"].tolist(),
    "steps": exp.scalars["step"].tolist(), "smoothed_finite": bool(len(smoothed)), "ap": ap,
    "spawned": sorted(build._spawned), "cache": str(cache_dir()),
    "warnings": [str(w.message) for w in caught],
    "package_writable": can_write(os.path.dirname(tbnb.__file__)),
    "venv_writable": can_write(sysconfig.get_paths()["purelib"]),
}))
"""


@pytest.fixture
def world(tmp_path: Path) -> Iterator[Path]:
    """A directory everyone can enter (pytest's own tmp_path is private to root)."""
    base = Path(tempfile.mkdtemp(prefix="tbnb-readonly-"))
    base.chmod(0o755)
    yield base
    for path in base.rglob("*"):  # what `nobody` made, made removable again
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    shutil.rmtree(base, ignore_errors=True)


def _read_only(tree: Path) -> None:
    for path in [tree, *tree.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _run_unprivileged(site: Path, tmp: Path, logdir: Path) -> dict[str, Any]:
    prefix: list[str] = []
    if os.geteuid() == 0:
        prefix = [
            "setpriv",
            f"--reuid={NOBODY}",
            f"--regid={NOBODY}",
            "--clear-groups",
            "--inh-caps=+dac_read_search",
            "--ambient-caps=+dac_read_search",
        ]
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": "/nonexistent",
        "TMPDIR": str(tmp),
        "PYTHONPATH": str(site),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    out = subprocess.run(
        [*prefix, sys.executable, "-c", _CHILD, str(logdir)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
def test_first_load_by_an_unprivileged_user_with_read_only_package(world: Path) -> None:
    site = world / "site"
    shutil.copytree(
        ROOT / "tbnb", site / "tbnb", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    )
    _read_only(site)
    installed = _files(site)
    logdir = world / "logdir"
    shutil.copytree(writers.cached("torch").logdir, logdir)
    for path in [logdir, *logdir.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    tmp = world / "tmp"
    tmp.mkdir(mode=0o1777)
    tmp.chmod(0o1777)  # like /tmp
    expected = Experiment(str(logdir), progress=False).scalars

    first = _run_unprivileged(site, tmp, logdir)
    if os.geteuid() == 0:
        assert first["uid"] == NOBODY
        assert not first["venv_writable"]
    assert not first["package_writable"]
    assert first["decoders"] == ["native"]
    assert first["compiled"] == []  # an empty cache: numpy, nobody waits
    assert first["rows"] == len(expected)
    assert first["values"] == expected["value"].tolist()
    assert first["steps"] == expected["step"].tolist()
    assert first["smoothed_finite"]
    private = tmp / f"tbnb-{first['uid']}"
    assert first["cache"] == str(private / "compiled")
    assert any(
        "cannot write its cache directory" in w and str(private) in w for w in first["warnings"]
    ), first["warnings"]
    assert first["spawned"] == ["curves", "transforms"]
    assert round(first["ap"], 4) == 0.7222  # PR curves' areas with numpy
    assert stat.S_IMODE(private.stat().st_mode) == 0o700

    deadline = time.monotonic() + 900
    while len(list(private.glob("compiled/*/ready.json"))) < 2:
        failed = list(private.glob("compiled/*/failed.json"))
        assert not failed, failed[0].read_text()
        assert time.monotonic() < deadline, "the background compile never finished"
        time.sleep(1)

    second = _run_unprivileged(site, tmp, logdir)
    assert second["compiled"] == ["curves", "transforms"]  # from the private cache
    assert second["values"] == first["values"]
    assert second["spawned"] == []
    assert second["ap"] == first["ap"]
    assert _files(site) == installed  # nothing written beside the package


def test_a_temp_cache_dir_of_another_owner_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tbnb.jit import cache

    shared = tmp_path / f"tbnb-{os.getuid()}"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)  # group/other-writable: someone else could plant kernels
    assert cache._private_dir(tmp_path) is None
    shared.chmod(0o700)
    assert cache._private_dir(tmp_path) == shared
    unwritable = tmp_path / "file"
    unwritable.write_text("")
    monkeypatch.setenv("TBNB_CACHE_DIR", str(unwritable / "below a file"))
    with pytest.warns(UserWarning, match="compiled kernels are kept in"):
        assert cache._usable(cache.preferred_cache_dir(), str(tmp_path)) == shared / "compiled"
