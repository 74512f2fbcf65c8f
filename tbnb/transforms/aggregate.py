"""Aggregation of scalar series across runs (seeds) onto a common step grid.

Runs are put in groups (by a regex capture on the run name, or by a mapping
run -> group such as an hparam column); for every group and tag each run is
linearly interpolated onto the group's step grid, inside its own step range
only (never extrapolated), and the runs present at each step are combined into
a centre line (mean or median) and a band (+-std, min-max, or a 95% confidence
interval of the mean using Student's t: scipy's, from the ``stats`` extra, imported
only for that band).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from tbnb.extras import require

__all__ = ["AggName", "BandName", "aggregate", "group_runs"]

AggName = Literal["mean", "median"]
BandName = Literal["std", "minmax", "ci95", "none"]

FloatArray = npt.NDArray[np.float64]


def group_runs(runs: list[str], group_by: str | Mapping[str, object] | pd.Series) -> dict[str, str]:
    """Map each run to its group name.

    Parameters
    ----------
    runs
        Run names.
    group_by
        A regex searched in each run name: the group is the first capture group
        (or the whole match without one); runs that do not match form their own
        group. Or a mapping (dict or Series indexed by run) run -> group value;
        runs missing from it form their own group.

    Examples
    --------
    >>> group_runs(["lr=0.1/seed0", "lr=0.1/seed1", "lr=1/seed0"], r"(lr=[^/]*)")
    {'lr=0.1/seed0': 'lr=0.1', 'lr=0.1/seed1': 'lr=0.1', 'lr=1/seed0': 'lr=1'}
    """
    if isinstance(group_by, str):
        try:
            pattern = re.compile(group_by)
        except re.error as err:
            raise ValueError(f"group_by is not a valid regex: {group_by!r} ({err})") from err
        out: dict[str, str] = {}
        for run in runs:
            m = pattern.search(run)
            if m is None:
                out[run] = run
            else:
                out[run] = m.group(1) if pattern.groups else m.group(0)
        return out
    mapping = group_by.to_dict() if isinstance(group_by, pd.Series) else dict(group_by)
    return {
        run: (str(mapping[run]) if run in mapping and not _missing(mapping[run]) else run)
        for run in runs
    }


def _missing(value: object) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _t975(dof: FloatArray) -> FloatArray:
    stats = require("scipy.stats", "band='ci95' (Student's t)", "stats")  # only for ci95
    out: FloatArray = stats.t.ppf(0.975, np.maximum(dof, 1.0))
    return out


def _combine(stack: FloatArray, agg: AggName, band: BandName) -> tuple[FloatArray, ...]:
    present = np.isfinite(stack)
    n = present.sum(axis=0).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        cols_ok = n > 0
        safe = np.where(present, stack, np.nan)
        centre = np.full(stack.shape[1], np.nan)
        lo = np.full(stack.shape[1], np.nan)
        hi = np.full(stack.shape[1], np.nan)
        if cols_ok.any():
            s = safe[:, cols_ok]
            c = np.nanmedian(s, axis=0) if agg == "median" else np.nanmean(s, axis=0)
            centre[cols_ok] = c
            if band == "minmax":
                lo[cols_ok] = np.nanmin(s, axis=0)
                hi[cols_ok] = np.nanmax(s, axis=0)
            elif band in ("std", "ci95"):
                nn = n[cols_ok]
                sd = np.sqrt(np.nansum((s - np.nanmean(s, axis=0)) ** 2, axis=0) / nn)
                if band == "ci95":
                    # Sample std and Student's t: a 95% CI of the mean of nn seeds.
                    sample_sd = np.where(nn > 1, sd * np.sqrt(nn / np.maximum(nn - 1, 1)), 0.0)
                    half = _t975(nn - 1) * sample_sd / np.sqrt(nn)
                else:
                    half = sd
                lo[cols_ok] = c - half
                hi[cols_ok] = c + half
            else:
                lo[cols_ok] = c
                hi[cols_ok] = c
    return centre, lo, hi, n


def aggregate(
    df: pd.DataFrame,
    group_by: str | Mapping[str, object] | pd.Series,
    *,
    agg: AggName = "mean",
    band: BandName = "std",
    max_grid: int | None = None,
) -> pd.DataFrame:
    """Aggregate runs into groups, one row per (group, tag, grid step).

    Parameters
    ----------
    df
        Long scalars frame with columns ``run``, ``tag``, ``step``, ``value``
        (``wall_time`` optional).
    group_by
        See :func:`group_runs`.
    agg
        ``"mean"`` or ``"median"`` for the centre line.
    band
        ``"std"`` (centre +- population std), ``"minmax"``, ``"ci95"`` (Student's t
        95% interval of the mean) or ``"none"``.
    max_grid
        Cap on grid points per (group, tag): the union of the runs' steps is
        thinned to this many evenly spaced steps of it (deterministic).

    Returns
    -------
    pandas.DataFrame
        Columns ``group``, ``tag``, ``step``, ``value`` (centre), ``lo``, ``hi``,
        ``n`` (runs present at that step), ``wall_time`` (mean over the runs,
        interpolated), ``runs`` (members, ``"|"``-joined).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"run": ["a/s0"] * 2 + ["a/s1"] * 2, "tag": "loss",
    ...                    "step": [0, 10] * 2, "value": [1.0, 3.0, 3.0, 5.0]})
    >>> aggregate(df, r"(\\w+)/s\\d")[["group", "step", "value", "lo", "hi"]].to_dict("list")
    {'group': ['a', 'a'], 'step': [0, 10], 'value': [2.0, 4.0], 'lo': [1.0, 3.0], 'hi': [3.0, 5.0]}
    """
    if agg not in ("mean", "median"):
        raise ValueError(f"agg must be 'mean' or 'median', got {agg!r}")
    if band not in ("std", "minmax", "ci95", "none"):
        raise ValueError(f"band must be 'std', 'minmax', 'ci95' or 'none', got {band!r}")
    runs = [str(r) for r in pd.unique(df["run"].astype(str))]
    groups = group_runs(runs, group_by)
    has_wall = "wall_time" in df.columns
    frame = df.assign(run=df["run"].astype(str), tag=df["tag"].astype(str))
    frame = frame.assign(group=frame["run"].map(groups))
    parts: list[pd.DataFrame] = []
    for (group, tag), sub in frame.groupby(["group", "tag"], sort=True, observed=True):
        grid = np.unique(sub["step"].to_numpy(dtype=np.float64))
        if max_grid is not None and grid.size > max_grid:
            grid = grid[np.unique(np.linspace(0, grid.size - 1, max_grid).round().astype(int))]
        members = sorted(sub["run"].unique())
        stack = np.full((len(members), grid.size), np.nan)
        wstack = np.full((len(members), grid.size), np.nan)
        for i, run in enumerate(members):
            r = sub[sub["run"] == run].sort_values("step", kind="stable")
            st = r["step"].to_numpy(dtype=np.float64)
            va = r["value"].to_numpy(dtype=np.float64)
            inside = (grid >= st[0]) & (grid <= st[-1])
            stack[i, inside] = _interp(grid[inside], st, va)
            if has_wall:
                wa = r["wall_time"].to_numpy(dtype=np.float64)
                wstack[i, inside] = _interp(grid[inside], st, wa)
        centre, lo, hi, n = _combine(stack, agg, band)
        with np.errstate(invalid="ignore"):
            wall = (
                np.nanmean(np.where(np.isfinite(wstack), wstack, np.nan), axis=0)
                if (has_wall and np.isfinite(wstack).any())
                else np.full(grid.size, np.nan)
            )
        parts.append(
            pd.DataFrame(
                {
                    "group": group,
                    "tag": tag,
                    "step": grid.astype(np.int64),
                    "value": centre,
                    "lo": lo,
                    "hi": hi,
                    "n": n.astype(np.int64),
                    "wall_time": wall,
                    "runs": "|".join(members),
                }
            )
        )
    if not parts:
        return pd.DataFrame(
            columns=["group", "tag", "step", "value", "lo", "hi", "n", "wall_time", "runs"]
        )
    return pd.concat(parts, ignore_index=True)


def _interp(grid: FloatArray, st: FloatArray, va: FloatArray) -> FloatArray:
    """Linear interpolation that keeps non-finite values local (no NaN smearing)."""
    ok = np.isfinite(va)
    if ok.all():
        out: FloatArray = np.interp(grid, st, va)
        return out
    if not ok.any():
        return np.full(grid.size, np.nan)
    res: FloatArray = np.interp(grid, st[ok], va[ok])
    # A grid point that coincides with a non-finite sample stays missing.
    pos = np.searchsorted(st, grid)
    hit = (pos < st.size) & (st[np.minimum(pos, st.size - 1)] == grid)
    bad = hit & ~ok[np.minimum(pos, st.size - 1)]
    res[bad] = np.nan
    return res
