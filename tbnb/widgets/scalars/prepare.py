"""Pure preparation of the scalars view: names, chart specs, wire columns (no widget state).

Examples
--------
>>> sorted(["lr=0.1", "lr=0.001", "lr=0.01"], key=natural_key)
['lr=0.001', 'lr=0.01', 'lr=0.1']
>>> [c["key"] for c in chart_specs(["val/acc", "train/loss", "lr"], [], None)]
['lr', 'train/loss', 'val/acc']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.transforms.downsample import minmax_indices, minmax_indices_blocks
from tbnb.transforms.series import SeriesStore

__all__ = [
    "WIRE",
    "chart_specs",
    "check_frame",
    "color_order",
    "legend_order",
    "natural_key",
    "payload",
    "pick",
    "range_slice",
    "series_frame",
    "wire",
    "with_x_tag",
]

_NUMBER = re.compile(r"(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")


def natural_key(text: str) -> tuple[list[Any], str]:
    """Sort key reading numbers as numbers: ``lr=0.001`` < ``lr=0.01`` < ``lr=0.1`` < ``lr=1e1``.

    Examples
    --------
    >>> sorted(["run10", "run9", "lr=1e1", "lr=0.5"], key=natural_key)
    ['lr=0.5', 'lr=1e1', 'run9', 'run10']
    """
    parts = _NUMBER.split(text)
    return [float(p) if i % 2 else p.lower() for i, p in enumerate(parts)], text


def legend_order(names: list[str]) -> list[str]:
    """Numeric order when every name is a number (groups by an hparam), else natural.

    Examples
    --------
    >>> legend_order(["0.1", "0.01", "1e-3"]), legend_order(["b2", "b10", "a"])
    (['1e-3', '0.01', '0.1'], ['a', 'b2', 'b10'])
    """
    try:
        return sorted(names, key=float)
    except ValueError:
        return sorted(names, key=natural_key)


def pick(names: list[str], spec: str | Sequence[str] | None, what: str) -> list[str]:
    """The names a ``runs=``/``tags=`` argument keeps: a case-insensitive regex, or a list
    of names (an unknown one is a ``ValueError``); ``None`` keeps all.

    Examples
    --------
    >>> pick(["a/seed0", "b/seed1"], "SEED0", "runs"), pick(["a", "b"], ["b"], "runs")
    (['a/seed0'], ['b'])
    """
    if spec is None:
        return names
    if isinstance(spec, str):
        try:
            pattern = re.compile(spec, re.IGNORECASE)
        except re.error as err:
            raise ValueError(f"{what}= is not a valid regex: {spec!r} ({err})") from err
        return [n for n in names if pattern.search(n)]
    wanted = {str(s) for s in spec}
    missing = wanted.difference(names)
    if missing:
        raise ValueError(f"unknown {what}: {sorted(missing)}")
    return [n for n in names if n in wanted]


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


def with_x_tag(df: pd.DataFrame, x_tag: str) -> pd.DataFrame:
    """Add ``xv``: the value of tag ``x_tag`` of the same run at the same step (else NaN).

    Examples
    --------
    >>> df = pd.DataFrame({"run": "a", "tag": ["loss", "lr", "loss"], "step": [0, 0, 1],
    ...                    "value": [2.0, 0.1, 1.0]})
    >>> with_x_tag(df, "lr")["xv"].tolist()
    [0.1, 0.1, nan]
    """
    ref = df[df["tag"].astype(str) == x_tag][["run", "step", "value"]]
    ref = ref.drop_duplicates(["run", "step"], keep="last").rename(columns={"value": "xv"})
    ref = ref.assign(run=ref["run"].astype(str))
    out = df.assign(run=df["run"].astype(str), _order=np.arange(len(df)))
    out = out.merge(ref, on=["run", "step"], how="left").sort_values("_order", kind="stable")
    return out.drop(columns="_order").reset_index(drop=True)


def chart_specs(
    tags: list[str], combined: Sequence[Sequence[str]], x_tag: str | None
) -> list[dict[str, Any]]:
    """One chart per tag (``combined`` groups of tags share one), grouped by prefix; the tag
    used as x gets no chart.

    Examples
    --------
    >>> [c["key"] for c in chart_specs(["a/x", "a/y", "lr"], [["a/x", "a/y"]], "lr")]
    ['a/x | a/y']
    """
    charts: list[dict[str, Any]] = []
    used: set[str] = set()
    for group in combined:
        names = [str(g) for g in group]
        missing = [n for n in names if n not in tags]
        if missing:
            raise ValueError(f"charts=: unknown tag(s) {missing}")
        charts.append({"key": " | ".join(names), "tags": names, "group": names[0].split("/")[0]})
        used.update(names)
    for tag in sorted(tags, key=natural_key):
        if tag in used or tag == x_tag:
            continue
        charts.append({"key": tag, "tags": [tag], "group": tag.split("/")[0]})
    order = {g: i for i, g in enumerate(dict.fromkeys(c["group"] for c in charts))}
    return sorted(charts, key=lambda c: order[c["group"]])


def color_order(present: Sequence[str], source_runs: Sequence[str] | None) -> list[str]:
    """Runs in the order that decides their colours: the source's run order (``exp.runs``,
    so every widget of one experiment agrees) then any other present run in first-seen order.

    Examples
    --------
    >>> color_order(["b", "c", "a"], ["a", "b"])
    ['a', 'b', 'c']
    >>> color_order(["b", "a"], None)
    ['b', 'a']
    """
    order = [str(r) for r in source_runs] if source_runs is not None else []
    seen = set(order)
    return order + [r for r in present if r not in seen]


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
