"""Compiled kernels never make anyone wait: fresh installs, second processes, test runners.

The fresh-install test runs tbnb from a copy of the package in new processes, each on
an empty cache, as after ``pip install``: the first computation of PR curves' areas
runs numpy and leaves a detached compile behind; a second process started while it
compiles neither waits nor compiles; once the compile has verified its work, the areas
come from the compiled kernels in the cache, compiling nothing; and nothing is ever
written beside the package (a read-only ``site-packages`` works). A load never uses
numba (its kernels are the native C ones, or numpy).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tbnb import jit
from tbnb.jit import build, cache
from tests import writers

ROOT = Path(__file__).resolve().parents[2]
CACHE = jit.cache_dir().parent
"""The cache this session uses (pytester points ``HOME`` elsewhere: pinned for its runs)."""

_CHILD = r"""
import json, sys
from tbnb.jit import build, loading
from tbnb.loader.experiment import Experiment

exp = Experiment(sys.argv[1], progress=False, decoder=sys.argv[2])
areas = None
if sys.argv[3] == "curves":
    from tbnb.analysis.pr_areas import curve_stats

    loading.MIN_ITEMS = 0  # every call counts as large (the threshold: tests/transforms)

    areas = float(curve_stats([[3.0, 2, 1, 0]], [[3.0, 1, 0, 0]], [[0.0, 2, 3, 3]],
                              [[0.0, 1, 2, 3]], [4])["average_precision"][0])
kernels = {}
if loading._loaded.get("curves"):
    from tbnb.analysis.compiled import pr_areas

    kernels = {k.py_func.__name__: [sum(k._cache_hits.values()), sum(k._cache_misses.values())]
               for k, _ in pr_areas.KERNELS}
print(json.dumps({
    "decoders": sorted(exp.last_report.decoders), "points": len(exp.scalars), "areas": areas,
    "compiled": sorted(g for g, done in loading._loaded.items() if done),
    "spawned": sorted(build._spawned), "kernels": kernels,
    "heavy": [m for m in ("numba", "llvmlite", "scipy", "sklearn", "plotly", "umap")
              if m in sys.modules],
}))
"""


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _run(site: Path, cache_dir: Path, logdir: str, decoder: str, use: str = "") -> dict[str, Any]:
    env = dict(
        os.environ, PYTHONPATH=str(site), TBNB_CACHE_DIR=str(cache_dir), PYTHONDONTWRITEBYTECODE="1"
    )
    env.pop("TBNB_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, logdir, decoder, use],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        cwd=site,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _wait_for(path_glob: str, root: Path, seconds: float = 900) -> list[Path]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = sorted(root.glob(path_glob))
        if found:
            return found
        time.sleep(0.5)
    raise AssertionError(f"no {path_glob} under {root} after {seconds} s")


@pytest.mark.slow
def test_fresh_install_second_process_then_compiled(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(
        ROOT / "tbnb", site / "tbnb", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    )
    installed = _files(site)
    cache_dir = tmp_path / "cache"
    logdir = writers.cached("torch").logdir

    first = _run(site, cache_dir, logdir, "auto", "curves")
    assert first["compiled"] == []  # nothing in the cache: numpy, no waiting
    assert first["spawned"] == ["curves"]  # ... and a compile left running behind it
    assert "numba" not in first["heavy"]
    (lock,) = _wait_for("compiled/curves-*/compile.lock", cache_dir, 5)

    second = _run(site, cache_dir, logdir, "auto", "curves")  # while the first one compiles
    assert lock.exists(), "the compile finished before the second process: too fast to test"
    assert second["compiled"] == []
    assert second["spawned"] == []  # it saw the compile under way and started none
    assert second["areas"] == first["areas"]

    (stamp,) = _wait_for("compiled/curves-*/ready.json", cache_dir)
    assert not lock.exists()
    third = _run(site, cache_dir, logdir, "auto", "curves")
    assert third["compiled"] == ["curves"]
    assert third["areas"] == first["areas"]
    assert third["points"] == first["points"]
    assert third["spawned"] == []
    assert third["kernels"]
    for name, (hits, misses) in third["kernels"].items():
        assert hits >= 1, name
        assert misses == 0, f"{name} compiled on the user's path"
    assert stamp.parent.name.startswith("curves-py")
    assert _files(site) == installed  # nothing written beside the package


def test_a_load_imports_no_heavy_package(tmp_path: Path) -> None:
    result = _run(ROOT, tmp_path / "cache", writers.cached("torch").logdir, "auto")
    assert result["decoders"] == ["native"]
    assert result["heavy"] == []
    assert result["spawned"] == []  # nothing compiles


def test_without_native_a_load_imports_no_heavy_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TBNB_NATIVE", "0")
    result = _run(ROOT, tmp_path / "cache", writers.cached("torch").logdir, "auto")
    assert result["decoders"] == ["numpy"]
    assert result["heavy"] == []
    assert result["spawned"] == []  # a load never starts a compile


def test_cache_dir_and_switch(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TBNB_CACHE_DIR", str(tmp_path))
    assert jit.cache_dir() == tmp_path / "compiled"
    directory = jit.group_dir("curves")
    assert directory is not None
    assert directory.parent == tmp_path / "compiled"
    assert not jit.ready("curves")
    monkeypatch.setenv("TBNB_JIT", "0")
    assert not jit.available()
    assert not jit.load("curves")
    assert not jit.compile_in_background("curves")


def test_a_stale_lock_is_taken_over_and_a_live_one_respected(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TBNB_CACHE_DIR", str(tmp_path))
    lock = build._acquire("curves")
    assert lock is not None
    assert build.compiling("curves")  # held by this (live) process
    assert build._acquire("curves") is None
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    lock.write_text(build._lock_info(int(dead.stdout)))
    assert not build.compiling("curves")
    assert build._acquire("curves") == lock
    monkeypatch.setenv(build._TOKEN, "handed-over")
    lock.write_text(build._lock_info(os.getppid(), "handed-over"))
    assert build._acquire("curves") == lock  # a lock handed to this process is its own
    lock.unlink()


def test_a_failed_compile_is_not_retried_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TBNB_CACHE_DIR", str(tmp_path))
    cache.write_marker("curves", "failed", problem="test")
    assert cache.recently_failed("curves")
    assert not jit.compile_in_background("curves")


_PYTESTER_OUTER = '''
import numba  # imported before the in-process run, as a plugin or conftest may do
import numpy as np

from tbnb.analysis.pr_areas import curve_stats
from tbnb.jit import load

pytest_plugins = ["pytester"]
INNER = """
from tbnb.analysis.pr_areas import curve_stats
from tbnb.jit import load

def test_inner():
    assert load("curves")
    assert curve_stats([[1.0, 0]], [[1.0, 0]], [[0.0, 1]], [[0.0, 1]], [2]) is not None
"""


def test_{order}(pytester):
    if "{order}" == "outside_first":
        assert load("curves")
        assert curve_stats([[1.0, 0]], [[1.0, 0]], [[0.0, 1]], [[0.0, 1]], [2]) is not None
    pytester.makepyfile(test_inner=INNER)
    pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert load("curves")  # numba's registries were loaded inside
    assert curve_stats([[1.0, 0]], [[1.0, 0]], [[0.0, 1]], [[0.0, 1]], [2]) is not None
'''


@pytest.fixture
def kernels_set_up() -> None:
    """The PR-curve kernels loaded here *before* ``pytester`` snapshots ``sys.modules``:
    it removes what was imported during the test when it ends, and numba's registries
    import extension modules (numpy.fft's) that cannot be imported a second time."""
    writers.ensure_compiled("curves")


@pytest.mark.parametrize("order", ["inside_first", "outside_first"])
def test_compiled_kernels_inside_pytester(
    kernels_set_up: None, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, order: str
) -> None:
    """numba first used inside pytester's in-process run, then outside it (and the
    other way round): no "duplicate registration" from numba's registries."""
    monkeypatch.setenv("TBNB_CACHE_DIR", str(CACHE))
    writers.ensure_compiled("curves")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makepyfile(**{f"test_{order}": _PYTESTER_OUTER.replace("{order}", order)})
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"test_{order}.py")
    result.assert_outcomes(passed=1)
