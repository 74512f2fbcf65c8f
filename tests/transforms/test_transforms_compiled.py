"""The transforms' compiled kernels and their numpy path give the same results, and the
kernels follow tbnb.jit's scheme: nothing compiles on the user's path.

The fresh-install test runs the transforms in new processes from a copy of the package
on an empty cache: the first smooths and downsamples a large series with numpy, imports
no numba and leaves a detached compile behind; once that compile has verified its work,
the next process runs the kernels straight from the cache (no compile, no cache miss),
and a process with small data still imports no numba (its import would cost more than
the kernels save).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tbnb import jit
from tbnb.jit import loading
from tbnb.transforms import downsample, smoothing
from tbnb.transforms.downsample import minmax_indices, minmax_indices_blocks

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compiled() -> Iterator[None]:
    """The kernels compiled and loaded, and taken for any size of input (small inputs
    take the numpy path otherwise, see :data:`tbnb.jit.loading.MIN_ITEMS`)."""
    assert jit.compile_now("transforms"), "the transforms' kernels failed to compile"
    assert jit.load("transforms"), loading.problems
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loading, "MIN_ITEMS", 0)
        yield


def _series(rng: np.random.Generator, n: int, *, integer_x: bool) -> tuple[Any, Any]:
    """A series with ties, spikes, NaN/inf values and, sometimes, x out of order or
    non-finite."""
    x = np.cumsum(rng.integers(0, 4, n)).astype(np.int64 if integer_x else np.float64)
    y = np.round(rng.normal(size=n), 1)
    y[rng.random(n) < 0.03] = np.nan
    y[rng.random(n) < 0.01] = np.inf
    y[rng.random(n) < 0.01] = -np.inf
    if n == 0:
        return x, y
    if not integer_x and rng.random() < 0.5:
        x[rng.integers(0, n, 3)] = rng.choice([np.nan, np.inf, -5.0], 3)
    if rng.random() < 0.2:
        x[:] = x[0]  # x spans nothing: buckets by position
    return x, y


def _numpy_keep(x: Any, y: Any, bounds: Any, buckets: int) -> list[int]:
    keep = np.zeros(len(x), np.bool_)
    downsample._keep_blocks_numpy(
        np.asarray(x), np.asarray(y, np.float64), np.asarray(bounds, np.int64), buckets, keep
    )
    return np.flatnonzero(keep).tolist()


@pytest.mark.parametrize("integer_x", [False, True])
def test_numpy_downsampling_keeps_what_the_kernel_keeps(compiled: None, integer_x: bool) -> None:
    from tbnb.transforms.compiled.downsample import keep_blocks

    rng = np.random.default_rng(7)
    for _ in range(60):
        sizes = rng.integers(0, 400, rng.integers(1, 6))
        parts = [_series(rng, int(s), integer_x=integer_x) for s in sizes]
        x = np.concatenate([p[0] for p in parts])
        y = np.concatenate([p[1] for p in parts])
        bounds = np.r_[0, np.cumsum(sizes)].astype(np.int64)
        buckets = int(rng.integers(1, 40))
        keep = np.zeros(x.size, np.bool_)
        keep_blocks(x, y, bounds, buckets, keep)
        assert _numpy_keep(x, y, bounds, buckets) == np.flatnonzero(keep).tolist()


def test_downsampling_answers_the_same_with_and_without_kernels(
    compiled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(3)
    x, y = _series(rng, 5000, integer_x=False)
    steps = np.arange(7000)
    fast = (
        minmax_indices(x, y, 50),
        minmax_indices_blocks(steps, y[:7000].repeat(2)[:7000], [0, 3000, 7000], 100),
    )
    monkeypatch.setattr(loading, "load", lambda group, items=None: False)
    slow = (
        minmax_indices(x, y, 50),
        minmax_indices_blocks(steps, y[:7000].repeat(2)[:7000], [0, 3000, 7000], 100),
    )
    assert fast[0].tolist() == slow[0].tolist()
    assert [a.tolist() for a in fast[1]] == [a.tolist() for a in slow[1]]


def test_smoothing_answers_the_same_with_and_without_kernels(
    compiled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(5)
    y = rng.normal(size=3000)
    y[rng.random(3000) < 0.05] = np.nan
    x = np.cumsum(rng.integers(0, 5, 3000)).astype(np.float64)
    x[10] = np.nan
    cases = [(w, mode) for w in (0.0, 0.3, 0.6, 0.95, 0.999) for mode in ("ema", "time")]
    fast = [smoothing.smooth(y, w, x=x, mode=mode) for w, mode in cases]
    monkeypatch.setattr(loading, "load", lambda group, items=None: False)
    slow = [smoothing.smooth(y, w, x=x, mode=mode) for w, mode in cases]
    for (w, mode), a, b in zip(cases, fast, slow, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=f"weight {w}, mode {mode}")


def test_a_series_must_be_one_dimensional() -> None:
    with pytest.raises(ValueError, match="1-d"):
        smoothing.ema(np.zeros((3, 2)) + np.arange(2), 0.5)


_CHILD = r"""
import json, sys
import numpy as np
from tbnb.jit import build
from tbnb.transforms import minmax_indices, smooth

n = int(sys.argv[1])
y = np.sin(np.arange(n) / 50.0)
idx = minmax_indices(np.arange(float(n)), y, 100)
smoothed = smooth(y, 0.9)
kernels = {}
if "tbnb.transforms.compiled.smoothing" in sys.modules:
    from tbnb.transforms.compiled.downsample import keep_blocks
    from tbnb.transforms.compiled.smoothing import ema_kernel

    kernels = {k.py_func.__name__: [sum(k._cache_hits.values()), sum(k._cache_misses.values())]
               for k in (keep_blocks, ema_kernel)}
print(json.dumps({
    "kept": len(idx), "last": float(smoothed[-1]), "spawned": sorted(build._spawned),
    "kernels": kernels, "numba": "numba" in sys.modules,
}))
"""


def _run(site: Path, cache_dir: Path, points: int = loading.MIN_ITEMS) -> dict[str, Any]:
    env = dict(
        os.environ, PYTHONPATH=str(site), TBNB_CACHE_DIR=str(cache_dir), PYTHONDONTWRITEBYTECODE="1"
    )
    env.pop("TBNB_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(points)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        cwd=site,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
def test_fresh_install_transforms_take_numpy_then_the_cached_kernels(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(
        ROOT / "tbnb", site / "tbnb", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    )
    cache_dir = tmp_path / "cache"

    first = _run(site, cache_dir)
    assert first["kernels"] == {}  # nothing in the cache: numpy, no waiting
    assert not first["numba"]
    assert first["spawned"] == ["transforms"]  # ... and a compile left running behind it

    deadline = time.monotonic() + 900
    while not list(cache_dir.glob("compiled/transforms-*/ready.json")):
        assert time.monotonic() < deadline, "the background compile never finished"
        assert not list(cache_dir.glob("compiled/transforms-*/failed.json")), [
            p.read_text() for p in cache_dir.glob("compiled/transforms-*/*.log")
        ]
        time.sleep(0.5)

    second = _run(site, cache_dir)
    assert second["spawned"] == []
    assert second["kept"] == first["kept"]
    assert second["last"] == first["last"]
    # every signature loaded from the cache (keep_blocks has two: int and float x)
    assert second["kernels"] == {"keep_blocks": [2, 0], "ema_kernel": [1, 0]}

    small = _run(site, cache_dir, 10_000)  # the kernels are ready, yet not worth numba
    assert not small["numba"]
    assert small["kernels"] == {}
    assert small["spawned"] == []
