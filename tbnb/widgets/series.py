"""Line series on the wire: what the scalars and custom-scalars views send and show.

A view of line charts keeps its series at full resolution in a
:class:`~tbnb.transforms.series.SeriesStore` and sends them downsampled to screen
resolution (min and max per pixel column, first and last point kept) as one column per
field with per-series offsets (:func:`payload`), full resolution of a zoomed range on
request (:func:`range_slice`); :func:`series_frame` is the long frame of what is drawn
(``w.data``). ``js/src/chart`` reads this format.

Examples
--------
>>> import pandas as pd
>>> from tbnb.transforms.series import SeriesStore
>>> df = pd.DataFrame({"run": "a", "tag": "loss", "step": range(3), "wall_time": 0.0,
...                    "value": [3.0, 2.0, 1.0]})
>>> payload(SeriesStore.from_frame(df), ["a"], kind="runs", band=None, members={},
...         x_tag=None, buckets=500)["columns"]["value"].tolist()
[3.0, 2.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, get_args

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.transforms.downsample import minmax_indices, minmax_indices_blocks
from tbnb.transforms.series import SeriesStore
from tbnb.transforms.smoothing import MAX_WEIGHT, SmoothingMode
from tbnb.widgets.ordering import natural_key
from tbnb.widgets.spec import Mark
from tbnb.widgets.traits import Choice, FloatRange, IntRange, Regex, either

__all__ = [
    "SMOOTHING_MODES",
    "WIRE",
    "LineTraits",
    "check_frame",
    "fold_subruns",
    "payload",
    "preview_buckets",
    "range_slice",
    "series_frame",
    "series_marks",
    "wire",
    "x_values",
]

SMOOTHING_MODES: tuple[str, ...] = get_args(SmoothingMode)
"""``"ema"`` (TensorBoard's) or ``"time"`` (weights by distance in x)."""


class LineTraits(t.HasTraits):
    """The traits of every view of smoothed line series (scalars, custom scalars).

    Traits (synced with the browser)
    --------------------------------
    smoothing : float
        TensorBoard's EMA weight in ``[0, 0.999]``. Default 0.6.
    smoothing_mode : str
        ``"ema"`` (TensorBoard) or ``"time"`` (weights by distance in x).
    selected_runs : list of str
        Runs drawn: toggled on and matching ``run_filter``.
    run_filter : str
        Case-insensitive regex (empty = all).
    log_y : list of str
        Chart keys with a log y axis.
    height : int
        Chart height in pixels.
    max_points : int
        Points sent per series (min and max per pixel column); at least 4.
    """

    smoothing = FloatRange(0.6, lo=0.0, hi=MAX_WEIGHT).tag(sync=True)
    smoothing_mode = Choice(SMOOTHING_MODES, expected=either(*SMOOTHING_MODES)).tag(sync=True)
    selected_runs = t.List(t.Unicode()).tag(sync=True)
    run_filter = Regex().tag(sync=True)
    log_y = t.List(t.Unicode()).tag(sync=True)
    height = t.Int(220).tag(sync=True)
    max_points = IntRange(1000, lo=4).tag(sync=True)


def x_values(cols: Mapping[str, np.ndarray[Any, Any]], mode: str) -> np.ndarray[Any, Any]:
    """The x of a series' points: ``step``, ``wall`` time, ``relative`` time (seconds since
    its first point) or, for ``tag:<name>``, the other tag's value (``xv``).

    Examples
    --------
    >>> cols = {"step": np.array([5, 6]), "wall_time": np.array([10.0, 12.0])}
    >>> x_values(cols, "relative").tolist(), x_values(cols, "step").tolist()
    ([0.0, 2.0], [5, 6])
    """
    if mode == "wall":
        return cols["wall_time"]
    if mode == "relative":
        wall = cols["wall_time"]
        ok = np.isfinite(wall)
        return wall - (wall[ok][0] if ok.any() else 0.0)
    if mode.startswith("tag:"):
        return cols["xv"]
    return cols["step"]


def check_frame(df: pd.DataFrame) -> None:
    """Raise ``ValueError`` when a scalars frame lacks a column the widget needs.

    Examples
    --------
    >>> check_frame(pd.DataFrame(columns=["run", "tag", "step"]))
    Traceback (most recent call last):
    ...
    ValueError: scalars frame lacks column(s) ['value']
    """
    missing = {"run", "tag", "step", "value"}.difference(df.columns)
    if missing:
        raise ValueError(f"scalars frame lacks column(s) {sorted(missing)}")


def fold_subruns(df: pd.DataFrame, parents: Mapping[str, str]) -> pd.DataFrame:
    """``df`` with each sub-run's rows named as its parent run (``exp.subruns``: the
    run of an ``add_hparams`` call, holding the run's final metrics); ``df`` itself when
    none of its runs is a sub-run. Renames categories, never strings row by row.

    Examples
    --------
    >>> df = pd.DataFrame({"run": ["a", "a/1700000000.1"], "tag": ["loss", "hparam/acc"],
    ...                    "step": [0, 0], "value": [1.0, 0.9]})
    >>> fold_subruns(df, {"a/1700000000.1": "a"})["run"].tolist()
    ['a', 'a']
    """
    if not parents:
        return df
    run = df["run"]
    cat = run.array if isinstance(run.dtype, pd.CategoricalDtype) else pd.Categorical(run)
    names = [str(c) for c in cat.categories]
    if not any(name in parents for name in names):
        return df
    folded = [parents.get(name, name) for name in names]
    unique = list(dict.fromkeys(folded))
    index = {name: i for i, name in enumerate(unique)}
    remap = np.array([index[name] for name in folded], dtype=np.int64)
    codes = np.asarray(cat.codes, dtype=np.int64)
    new = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1)
    return df.assign(run=pd.Categorical.from_codes(new, unique))


WIRE = {"wall_time": "wall"}


def wire(name: str, arr: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Wire dtype per column: steps as int32 when they fit, counts as int32, rest float64.

    Examples
    --------
    >>> wire("step", np.array([0.0, 5.0])).dtype, wire("step", np.array([0.5])).dtype
    (dtype('int32'), dtype('float64'))
    """
    if name == "step":
        if arr.size == 0 or (
            np.all(np.isfinite(arr))
            and arr.min() >= -(2**31)
            and arr.max() < 2**31
            and np.all(arr == np.round(arr))
        ):
            return arr.astype(np.int32)
        return arr.astype(np.float64)
    if name == "n":
        return arr.astype(np.int32)
    return np.asarray(arr, dtype=np.float64)


def preview_buckets(series: int, budget: int, max_points: int) -> int:
    """Min/max buckets per series so that ``series`` series fit in ``budget`` points
    (at least 2: first, last and the extremes; at most ``max_points // 2``, screen
    resolution).

    Examples
    --------
    >>> preview_buckets(10, 50_000, 1000), preview_buckets(10_000, 50_000, 1000)
    (500, 2)
    """
    return int(min(max(budget // max(2 * series, 1), 2), max(max_points // 2, 2)))


def payload(
    store: SeriesStore,
    legend: list[str],
    *,
    kind: str,
    band: str | None,
    members: dict[str, list[str]],
    x_tag: str | None,
    buckets: int,
) -> dict[str, Any]:
    """The ``_data`` trait: every series of ``store`` downsampled to ``buckets`` min/max
    pairs (:func:`tbnb.transforms.minmax_indices_blocks`, one compiled pass), packed as one
    column per field with per-series offsets.

    Examples
    --------
    >>> import pandas as pd
    >>> from tbnb.transforms.series import SeriesStore
    >>> df = pd.DataFrame({"run": "a", "tag": "loss", "step": range(5), "wall_time": 0.0,
    ...                    "value": [5.0, 4, 3, 2, 1]})
    >>> data = payload(SeriesStore.from_frame(df), ["a"], kind="runs", band=None, members={},
    ...                x_tag=None, buckets=500)
    >>> data["runs"], data["columns"]["step"].tolist(), data["series"]["total"].tolist()
    (['a'], [0, 1, 2, 3, 4], [5])
    """
    legend_index = {r: i for i, r in enumerate(legend)}
    tags = sorted(store.tags, key=natural_key)
    tag_index = {tg: i for i, tg in enumerate(tags)}
    idx, offsets = minmax_indices_blocks(
        store.columns["step"], store.columns["value"], store.bounds, buckets
    )
    totals = np.diff(store.bounds)
    return {
        "kind": kind,
        "band": band if kind == "groups" else None,
        "runs": legend,
        "members": members,
        "tags": tags,
        "x_tag": x_tag,
        "buckets": int(buckets),
        "series": {
            "run": np.asarray([legend_index[run] for run, _ in store.keys], dtype=np.int32),
            "tag": np.asarray([tag_index[tag] for _, tag in store.keys], dtype=np.int32),
            "offset": (offsets - offsets[0]).astype(np.int64),
            "total": totals.astype(np.int64),
        },
        "columns": {
            WIRE.get(name, name): wire(name, arr[idx]) for name, arr in store.columns.items()
        },
    }


def range_slice(
    store: SeriesStore,
    tags: Sequence[str],
    runs: set[str],
    *,
    field: str,
    lo: float,
    hi: float,
    buckets: int,
) -> list[dict[str, Any]]:
    """The points of a zoomed x range at full resolution (min/max per bucket when there are
    more than ``2 * buckets``), one point beyond each edge so lines reach the chart's sides.

    ``field``: ``"step"``, ``"wall"`` (seconds), ``"relative"`` (seconds since the series'
    first point) or ``"xv"`` (another tag's value).

    Examples
    --------
    >>> import pandas as pd
    >>> from tbnb.transforms.series import SeriesStore
    >>> df = pd.DataFrame({"run": "a", "tag": "loss", "step": range(10), "wall_time": 0.0,
    ...                    "value": range(10)})
    >>> (part,) = range_slice(SeriesStore.from_frame(df), ["loss"], {"a"}, field="step",
    ...                       lo=3, hi=5, buckets=100)
    >>> part["columns"]["step"].tolist()
    [2, 3, 4, 5, 6]
    """
    wanted = set(tags)
    out = []
    for i, (run, tag) in enumerate(store.keys):
        if tag not in wanted or run not in runs:
            continue
        cols = store.series(i)
        if field == "relative":
            wall = cols["wall_time"]
            finite = np.isfinite(wall)
            xs = wall - (wall[finite][0] if finite.any() else 0.0)
        else:
            xs = cols[{"wall": "wall_time", "step": "step"}.get(field, field)]
        inside = np.flatnonzero((xs >= lo) & (xs <= hi))
        if inside.size:
            a, b = max(int(inside[0]) - 1, 0), min(int(inside[-1]) + 2, xs.size)
        else:
            a, b = 0, 0
        sub = {name: arr[a:b] for name, arr in cols.items()}
        idx = minmax_indices(sub["step"], sub["value"], buckets) if b > a else np.zeros(0, int)
        out.append(
            {
                "run": run,
                "tag": tag,
                "columns": {WIRE.get(k, k): wire(k, v[idx]) for k, v in sub.items()},
            }
        )
    return out


def series_frame(parts: list[tuple[str, str, dict[str, np.ndarray[Any, Any]]]]) -> pd.DataFrame:
    """One long frame of ``(run, tag, columns)`` parts: run, tag, step, wall_time, value,
    smoothed (and lo, hi, n when aggregating, x for ``x="tag:..."``).

    Examples
    --------
    >>> import numpy as np
    >>> cols = {"step": np.array([0.0, 1.0]), "wall_time": np.zeros(2),
    ...         "value": np.array([2.0, 1.0]), "smoothed": np.array([2.0, 1.5])}
    >>> series_frame([("a", "loss", cols)])["smoothed"].tolist()
    [2.0, 1.5]
    """
    columns = ["run", "tag", "step", "wall_time", "value", "smoothed"]
    if not parts:
        return pd.DataFrame(columns=columns)
    reps = np.asarray([len(cols["value"]) for _, _, cols in parts])

    def cat(name: str) -> np.ndarray[Any, Any]:
        return np.concatenate([cols[name] for _, _, cols in parts])

    out = pd.DataFrame(
        {
            "run": pd.Categorical(np.repeat(np.asarray([p[0] for p in parts], dtype=object), reps)),
            "tag": pd.Categorical(np.repeat(np.asarray([p[1] for p in parts], dtype=object), reps)),
            "step": cat("step").astype(np.int64),
            "wall_time": cat("wall_time"),
            "value": cat("value"),
            "smoothed": cat("smoothed"),
        }
    )
    first = parts[0][2]
    for extra in ("lo", "hi", "n"):
        if extra in first:
            out[extra] = cat(extra)
    if "n" in out:
        out["n"] = out["n"].astype(np.int64)
    if "xv" in first:
        out["x"] = cat("xv")
    return out


def series_marks(
    xs: np.ndarray[Any, Any],
    part: pd.DataFrame,
    *,
    name: str,
    color: str,
    dash: str,
    group: str | None = None,
    legend: bool = True,
    raw: bool = True,
    band: tuple[str, str] | None = None,
) -> list[Mark]:
    """How a view draws one smoothed series (``part``: ``value``, ``smoothed``): its
    ``band`` columns (lower, upper) as a faint area, the ``raw`` values as a faint line,
    the smoothed line over them.

    Examples
    --------
    >>> part = pd.DataFrame({"value": [2.0, 1.0], "smoothed": [2.0, 1.5]})
    >>> marks = series_marks(np.arange(2), part, name="a", color="#000", dash="solid")
    >>> [(m.kind, m.style.get("opacity")) for m in marks]
    [('line', 0.25), ('line', None)]
    """
    marks = []
    if band is not None:
        bounds = {"lo": part[band[0]].to_numpy(), "hi": part[band[1]].to_numpy()}
        marks.append(
            Mark(
                "band",
                {"x": xs, **bounds},
                color=color,
                group=group,
                hover=False,
                style={"opacity": 0.2},
            )
        )
    if raw:
        values = {"x": xs, "y": part["value"].to_numpy()}
        marks.append(
            Mark(
                "line",
                values,
                color=color,
                group=group,
                hover=False,
                style={"dash": dash, "opacity": 0.25},
            )
        )
    smoothed = {"x": xs, "y": part["smoothed"].to_numpy()}
    marks.append(
        Mark(
            "line",
            smoothed,
            name=name,
            color=color,
            group=group,
            legend=legend,
            style={"dash": dash},
        )
    )
    return marks
