"""The scalars dashboard: one chart per tag, every selected run in it.

Python side of ``js/src/scalars.js`` (widget key ``"scalars"``). Python keeps
the full-resolution series, downsamples each one to screen resolution
(:func:`tbnb.transforms.minmax_indices`) and sends them as binary buffers in
the ``_data`` trait; the browser does everything that needs no new data
(smoothing, x axis, log scale, outliers, filters, toggles, tooltips, zoom) and
asks for full resolution of a zoomed range with a ``"range"`` request.

Smoothing is applied to the series as sampled for display (TensorBoard does
the same): see :mod:`tbnb.transforms.smoothing`.
"""

from __future__ import annotations

import math
import os
import re
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.discovery import is_add_hparams_subrun
from tbnb.transforms.aggregate import aggregate
from tbnb.transforms.downsample import minmax_indices, minmax_indices_blocks
from tbnb.transforms.series import SeriesStore, present_names
from tbnb.transforms.smoothing import MAX_WEIGHT, smooth
from tbnb.widgets._base import TbnbWidget, check_kwargs, run_color
from tbnb.widgets.serializers import pack, tree_serialization

if TYPE_CHECKING:
    import plotly.graph_objects as go
    from typing_extensions import Unpack

__all__ = ["ScalarsOptions", "ScalarsWidget", "scalars"]

X_MODES = ("step", "relative", "wall")
_X_ALIASES = {"wall_time": "wall", "time": "wall", "steps": "step"}


class ScalarsOptions(TypedDict, total=False):
    """Keyword arguments of :func:`scalars` beyond the documented positional ones."""

    smoothing_mode: str
    charts: Sequence[Sequence[str]]
    band: str
    hparams: pd.DataFrame
    log_y: Sequence[str]
    ignore_outliers: Sequence[str]
    run_filter: str
    tag_filter: str
    max_points: int
    show_raw: bool


_NUMBER = re.compile(r"(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")


def _natural_key(text: str) -> tuple[list[Any], str]:
    """Sort key reading numbers as numbers: ``lr=0.001`` < ``lr=0.01`` < ``lr=0.1`` < ``lr=1e1``."""
    parts = _NUMBER.split(text)
    return [float(p) if i % 2 else p.lower() for i, p in enumerate(parts)], text


def _legend_order(names: list[str]) -> list[str]:
    """Numeric order when every name is a number (groups by an hparam), else natural."""
    try:
        return sorted(names, key=float)
    except ValueError:
        return sorted(names, key=_natural_key)


def _pick(names: list[str], spec: str | Sequence[str] | None, what: str) -> list[str]:
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


def _frame_of(source: Any) -> tuple[pd.DataFrame, Any]:
    """The long scalars frame of ``source`` and the object to reload (or None)."""
    if isinstance(source, pd.DataFrame):
        return source, None
    if isinstance(source, (str, os.PathLike)):
        import tbnb

        source = tbnb.load(os.fspath(source))
    frame = getattr(source, "scalars", None)
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(
            "source must be an Experiment, a DataFrame with columns run, tag, step, "
            f"wall_time, value, or a logdir path; got {type(source).__name__}"
        )
    return frame, source if callable(getattr(source, "reload", None)) else None


def _check_frame(df: pd.DataFrame) -> None:
    missing = {"run", "tag", "step", "value"}.difference(df.columns)
    if missing:
        raise ValueError(f"scalars frame lacks column(s) {sorted(missing)}")


class ScalarsWidget(TbnbWidget):
    """Scalar charts of many runs (traits only; build it with :func:`scalars`).

    Traits (synced with the browser)
    --------------------------------
    smoothing : float
        EMA weight in ``[0, 0.999]``. Default 0.6.
    smoothing_mode : str
        ``"ema"`` (TensorBoard) or ``"time"`` (weights by distance in x).
    x_axis : str
        ``"step"``, ``"relative"`` (seconds since the series' first point),
        ``"wall"``, or ``"tag:<name>"`` (that tag's value at the same step).
    run_filter, tag_filter : str
        Case-insensitive regexes (empty = all).
    selected_runs : list of str
        Runs (or groups, when aggregating) drawn: toggled on and matching the
        run filter. The browser writes it; setting it from Python toggles runs.
    log_y, ignore_outliers : list of str
        Chart keys with a log y axis / with the 5th-95th percentile y range.
    y_range : dict
        Chart key -> ``[lo, hi]`` manual y range (``None`` for an automatic end).
    charts : list of dict
        ``{"key", "tags", "group"}`` per chart, in display order.
    """

    _widget_key = "scalars"

    smoothing = t.Float(0.6).tag(sync=True)
    smoothing_mode = t.Unicode("ema").tag(sync=True)
    x_axis = t.Unicode("step").tag(sync=True)
    run_filter = t.Unicode("").tag(sync=True)
    tag_filter = t.Unicode("").tag(sync=True)
    selected_runs = t.List(t.Unicode()).tag(sync=True)
    log_y = t.List(t.Unicode()).tag(sync=True)
    ignore_outliers = t.List(t.Unicode()).tag(sync=True)
    y_range = t.Dict().tag(sync=True)
    charts = t.List(t.Dict()).tag(sync=True)
    height = t.Int(220).tag(sync=True)
    show_raw = t.Bool(True).tag(sync=True)
    max_points = t.Int(1000).tag(sync=True)
    _data = t.Dict().tag(sync=True, **tree_serialization)

    @t.validate("smoothing")
    def _valid_smoothing(self, proposal: Any) -> float:
        value = float(proposal["value"])
        if not 0.0 <= value <= MAX_WEIGHT:
            raise t.TraitError(f"smoothing must be in [0, {MAX_WEIGHT}], got {value}")
        return value

    @t.validate("smoothing_mode")
    def _valid_mode(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value not in ("ema", "time"):
            raise t.TraitError(f"smoothing_mode must be 'ema' or 'time', got {value!r}")
        return value

    @t.validate("x_axis")
    def _valid_x(self, proposal: Any) -> str:
        value = str(proposal["value"])
        value = _X_ALIASES.get(value, value)
        if value not in X_MODES and not value.startswith("tag:"):
            raise t.TraitError(
                f"x must be 'step', 'relative', 'wall' or 'tag:<name>', got {value!r}"
            )
        return value

    @t.validate("max_points")
    def _valid_points(self, proposal: Any) -> int:
        value = int(proposal["value"])
        if value < 4:
            raise t.TraitError(f"max_points must be >= 4, got {value}")
        return value

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._store: SeriesStore | None = None
        self._kind = "runs"
        self._members: dict[str, list[str]] = {}
        self._legend: list[str] = []
        self._shown_len: dict[tuple[str, str], int] = {}
        self._pending = 0
        self._source: Any = None
        self._build: dict[str, Any] = {}
        self._timer: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()

    # ----------------------------------------------------------------- data
    def _set_frame(self, frame: pd.DataFrame, *, send: bool = True) -> None:
        """(Re)build the full-resolution store from a long frame (and send it)."""
        opts = self._build
        _check_frame(frame)
        df = frame
        present = set(present_names(df["run"]))
        # add_hparams' timestamped sub-runs hold one point per metric: they live in
        # the hparams table, not as dots among the curves.
        runs = sorted((r for r in present if not is_add_hparams_subrun(r, present)),
                      key=_natural_key)
        tags = sorted(set(present_names(df["tag"])), key=_natural_key)
        keep_runs = _pick(runs, opts.get("runs"), "runs")
        keep_tags = _pick(tags, opts.get("tags"), "tags")
        if len(keep_runs) < len(present) or len(keep_tags) < len(tags):
            df = df[df["run"].astype(str).isin(keep_runs) & df["tag"].astype(str).isin(keep_tags)]
        members: dict[str, list[str]] = {}
        if opts.get("group_by") is not None:
            df = aggregate(
                df, opts["group_by"], agg=opts.get("agg") or "mean", band=opts.get("band", "std")
            )
            for group, joined in zip(df["group"], df["runs"], strict=True):
                members.setdefault(str(group), sorted(set(str(joined).split("|"))))
            df = df.rename(columns={"group": "run"})
            self._kind = "groups"
        x_tag = self.x_axis[4:] if self.x_axis.startswith("tag:") else None
        if x_tag is not None:
            if x_tag not in keep_tags:
                raise ValueError(f"x={self.x_axis!r}: no scalar tag {x_tag!r}")
            df = _with_x_tag(df, x_tag)
        store = SeriesStore.from_frame(df)
        legend = _legend_order(store.runs)
        self._store = store
        self._members = members
        self._legend = legend
        if not self.charts or set(self._chart_tags()) - set(store.tags):
            self.charts = _chart_specs(store.tags, opts.get("charts") or [], x_tag)
        if send:
            self._send_all()

    def _chart_tags(self) -> list[str]:
        return [tag for chart in self.charts for tag in chart["tags"]]

    def _downsampled(self, i: int, buckets: int) -> dict[str, np.ndarray[Any, Any]]:
        assert self._store is not None
        cols = self._store.series(i)
        idx = minmax_indices(cols["step"], cols["value"], buckets)
        return {name: arr[idx] for name, arr in cols.items()}

    def _send_all(self) -> None:
        """Downsample every series and replace ``_data`` (one binary sync)."""
        store = self._store
        assert store is not None
        buckets = max(self.max_points // 2, 2)
        legend_index = {r: i for i, r in enumerate(self._legend)}
        tags = sorted(store.tags, key=_natural_key)
        tag_index = {tg: i for i, tg in enumerate(tags)}
        # One compiled pass downsamples every series; one gather per column.
        idx, offsets = minmax_indices_blocks(store.columns["step"], store.columns["value"],
                                             store.bounds, buckets)
        totals = np.diff(store.bounds)
        for (run, tag), total in zip(store.keys, totals.tolist(), strict=True):
            self._shown_len[(run, tag)] = total
        run_idx = [legend_index[run] for run, _ in store.keys]
        tag_idx = [tag_index[tag] for _, tag in store.keys]
        data: dict[str, Any] = {
            "kind": self._kind,
            "band": self._build.get("band") if self._kind == "groups" else None,
            "runs": self._legend,
            "colors": [run_color(r) for r in self._legend],
            "members": self._members,
            "tags": tags,
            "x_tag": self.x_axis[4:] if self.x_axis.startswith("tag:") else None,
            "series": {
                "run": np.asarray(run_idx, dtype=np.int32),
                "tag": np.asarray(tag_idx, dtype=np.int32),
                "offset": (offsets - offsets[0]).astype(np.int64),
                "total": totals.astype(np.int64),
            },
            "columns": {
                _WIRE.get(name, name): _wire(name, arr[idx]) for name, arr in store.columns.items()
            },
        }
        self._pending = 0
        self._data = data

    # ------------------------------------------------------------- requests
    def _request_range(self, content: dict[str, Any]) -> dict[str, Any]:
        """Full resolution of a zoomed x range: ``{chart, field, lo, hi, buckets, runs}``."""
        store = self._store
        if store is None:
            return {"series": []}
        chart = next((c for c in self.charts if c["key"] == content.get("chart")), None)
        if chart is None:
            raise ValueError(f"unknown chart {content.get('chart')!r}")
        field = str(content.get("field", "step"))
        lo, hi = float(content["lo"]), float(content["hi"])
        buckets = int(min(max(int(content.get("buckets", 500)), 2), 20000))
        wanted = set(content.get("runs") or self._legend)
        out = []
        for i, (run, tag) in enumerate(store.keys):
            if tag not in chart["tags"] or run not in wanted:
                continue
            cols = store.series(i)
            if field == "relative":
                wall = cols["wall_time"]
                base = wall[np.isfinite(wall)][0] if np.isfinite(wall).any() else 0.0
                xs = wall - base
            else:
                xs = cols[{"wall": "wall_time", "step": "step"}.get(field, field)]
            inside = np.flatnonzero((xs >= lo) & (xs <= hi))
            if inside.size:
                # One point either side so lines run to the chart's edges.
                a, b = max(int(inside[0]) - 1, 0), min(int(inside[-1]) + 2, xs.size)
            else:
                a, b = 0, 0
            sub = {name: arr[a:b] for name, arr in cols.items()}
            idx = minmax_indices(sub["step"], sub["value"], buckets) if b > a else np.zeros(0, int)
            out.append(
                {"run": run, "tag": tag,
                 "columns": {_WIRE.get(k, k): _wire(k, v[idx]) for k, v in sub.items()}}
            )
        return {"chart": chart["key"], "field": field, "lo": lo, "hi": hi, "series": out}

    # -------------------------------------------------------------- refresh
    def refresh_now(self) -> int:
        """Reload the source once and send only the new points; returns their count.

        A restart purge (points removed) or aggregation resends everything.
        """
        source = self._source
        if source is None:
            raise RuntimeError("this widget was built from a DataFrame: nothing to reload")
        with self._lock:
            report = source.reload()
            added = getattr(report, "scalars_added", None)
            if added == 0:
                return 0
            old = dict(self._shown_len)
            self._set_frame(source.scalars, send=False)
            store = self._store
            assert store is not None
            if self._kind == "groups" or any(
                store.index.get(k) is None or self._len(k) < n for k, n in old.items()
            ):
                self._send_all()
                return int(sum(self._len(k) for k in store.keys) - sum(old.values()))
            series, total = [], 0
            for i, key in enumerate(store.keys):
                start = old.get(key, 0)
                stop = self._len(key)
                if stop > start:
                    cols = store.series(i)
                    series.append({"run": key[0], "tag": key[1], "total": stop, "columns": {
                        _WIRE.get(k, k): _wire(k, v[start:]) for k, v in cols.items()}})
                    total += stop - start
                    self._shown_len[key] = stop
            if not series:
                return 0
            self._pending += total
            if self._pending > self.max_points * max(len(store), 1) or any(
                k not in old for k in store.keys
            ):
                self._send_all()
            else:
                body, buffers = pack({"type": "append", "series": series})
                self.send(body, buffers=buffers)
            return total

    def _len(self, key: tuple[str, str]) -> int:
        store = self._store
        assert store is not None
        i = store.index[key]
        return int(store.bounds[i + 1] - store.bounds[i])

    def start_refresh(self, seconds: float) -> None:
        """Poll ``source.reload()`` every ``seconds`` in a daemon thread."""
        if seconds <= 0:
            raise ValueError(f"refresh must be > 0 seconds, got {seconds}")
        self.stop_refresh()
        self._stop = threading.Event()
        stop = self._stop

        def loop() -> None:
            while not stop.wait(seconds):
                try:
                    self.refresh_now()
                except Exception:  # keep polling; a log dir can be mid-write
                    import logging

                    logging.getLogger(__name__).exception("tbnb scalars refresh failed")

        self._timer = threading.Thread(target=loop, name="tbnb-scalars-refresh", daemon=True)
        self._timer.start()

    def stop_refresh(self) -> None:
        """Stop polling (also done by :meth:`close`)."""
        stop = getattr(self, "_stop", None)  # absent if __init__ failed
        if stop is not None:
            stop.set()
        self._timer = None

    def close(self) -> None:
        """Stop polling and close the widget."""
        self.stop_refresh()
        super().close()

    # ---------------------------------------------------------------- views
    def _shown_keys(self) -> list[tuple[int, str, str]]:
        store = self._store
        if store is None:
            return []
        selected = set(self.selected_runs)
        try:
            tag_re = re.compile(self.tag_filter, re.IGNORECASE) if self.tag_filter else None
        except re.error:
            tag_re = None
        chart_tags = set(self._chart_tags())
        return [
            (i, run, tag)
            for i, (run, tag) in enumerate(store.keys)
            if run in selected and tag in chart_tags and (tag_re is None or tag_re.search(tag))
        ]

    @property
    def data(self) -> pd.DataFrame:
        """The shown data (selected runs, filtered tags, as drawn), raw and smoothed.

        Columns ``run``, ``tag``, ``step``, ``wall_time``, ``value``, ``smoothed``
        (plus ``lo``, ``hi``, ``n`` when aggregating and ``x`` for ``x="tag:..."``).
        The points are the downsampled ones the browser holds (and so smooths).
        """
        buckets = max(self.max_points // 2, 2)
        names: list[str] = []
        tags: list[str] = []
        parts: dict[str, list[np.ndarray[Any, Any]]] = {}
        lengths: list[int] = []
        for i, run, tag in self._shown_keys():
            cols = self._downsampled(i, buckets)
            names.append(run)
            tags.append(tag)
            lengths.append(len(cols["value"]))
            cols["smoothed"] = smooth(cols["value"], self.smoothing, x=self._xs(cols),
                                      mode=self.smoothing_mode)  # type: ignore[arg-type]
            for name, arr in cols.items():
                parts.setdefault(name, []).append(arr)
        columns = ["run", "tag", "step", "wall_time", "value", "smoothed"]
        if not lengths:
            return pd.DataFrame(columns=columns)
        reps = np.asarray(lengths)
        out = pd.DataFrame({
            "run": pd.Categorical(np.repeat(np.asarray(names, dtype=object), reps)),
            "tag": pd.Categorical(np.repeat(np.asarray(tags, dtype=object), reps)),
            "step": np.concatenate(parts["step"]).astype(np.int64),
            "wall_time": np.concatenate(parts["wall_time"]),
            "value": np.concatenate(parts["value"]),
            "smoothed": np.concatenate(parts["smoothed"]),
        })
        for extra in ("lo", "hi", "n"):
            if extra in parts:
                out[extra] = np.concatenate(parts[extra])
        if "n" in out:
            out["n"] = out["n"].astype(np.int64)
        if "xv" in parts:
            out["x"] = np.concatenate(parts["xv"])
        return out

    def _xs(self, cols: Mapping[str, np.ndarray[Any, Any]]) -> np.ndarray[Any, Any]:
        mode = self.x_axis
        if mode == "wall":
            return cols["wall_time"]
        if mode == "relative":
            wall = cols["wall_time"]
            ok = np.isfinite(wall)
            return wall - (wall[ok][0] if ok.any() else 0.0)
        if mode.startswith("tag:"):
            return cols["xv"]
        return cols["step"]

    def to_plotly(self) -> go.Figure:
        """A ``plotly.graph_objects.Figure`` of what is shown (one subplot per chart)."""
        import plotly.graph_objects as go
        from plotly.subplots import make_subplots

        shown = self._shown_keys()
        tag_re = None
        if self.tag_filter:
            try:
                tag_re = re.compile(self.tag_filter, re.IGNORECASE)
            except re.error:
                tag_re = None
        charts = [c for c in self.charts
                  if tag_re is None or any(tag_re.search(tg) for tg in c["tags"])]
        ncols = min(3, max(len(charts), 1))
        nrows = max(math.ceil(len(charts) / ncols), 1)
        fig = make_subplots(rows=nrows, cols=ncols,
                            subplot_titles=[c["key"] for c in charts] or None)
        buckets = max(self.max_points // 2, 2)
        legend_done: set[str] = set()
        dashes = ("solid", "dash", "dot", "dashdot")
        for ci, chart in enumerate(charts):
            row, col = ci // ncols + 1, ci % ncols + 1
            for i, run, tag in shown:
                if tag not in chart["tags"]:
                    continue
                cols = self._downsampled(i, buckets)
                xs = self._xs(cols)
                if self.x_axis == "wall":
                    xs = pd.to_datetime(xs, unit="s")
                color = run_color(run)
                sm = smooth(cols["value"], self.smoothing, x=self._xs(cols),
                            mode=self.smoothing_mode)  # type: ignore[arg-type]
                name = run if len(chart["tags"]) == 1 else f"{run} {tag}"
                dash = dashes[chart["tags"].index(tag) % len(dashes)]
                if "lo" in cols and self._build.get("band") not in (None, "none"):
                    fig.add_trace(go.Scatter(
                        x=np.r_[xs, xs[::-1]], y=np.r_[cols["hi"], cols["lo"][::-1]],
                        fill="toself", line={"width": 0}, fillcolor=color, opacity=0.2,
                        hoverinfo="skip", showlegend=False, legendgroup=run), row=row, col=col)
                if self.show_raw and self.smoothing > 0:
                    fig.add_trace(go.Scatter(
                        x=xs, y=cols["value"], mode="lines", line={"color": color, "dash": dash},
                        opacity=0.25, hoverinfo="skip", showlegend=False, legendgroup=run),
                        row=row, col=col)
                fig.add_trace(go.Scatter(
                    x=xs, y=sm, mode="lines", name=name, legendgroup=run,
                    line={"color": color, "dash": dash}, showlegend=name not in legend_done),
                    row=row, col=col)
                legend_done.add(name)
            if chart["key"] in self.log_y:
                fig.update_yaxes(type="log", row=row, col=col)
            rng = self.y_range.get(chart["key"])
            if rng and rng[0] is not None and rng[1] is not None:
                lo, hi = float(rng[0]), float(rng[1])
                if chart["key"] in self.log_y:
                    lo, hi = math.log10(lo), math.log10(hi)
                fig.update_yaxes(range=[lo, hi], row=row, col=col)
        fig.update_layout(height=max(self.height, 150) * nrows + 80, template="plotly_white")
        return fig

    def resync(self) -> None:
        """Resend every series (re-downsampled) to the browser."""
        if self._store is not None:
            self._send_all()


_WIRE = {"wall_time": "wall"}


def _wire(name: str, arr: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Wire dtype per column: steps as int32 when they fit, counts as int32, rest float64."""
    if name == "step":
        if arr.size == 0 or (np.all(np.isfinite(arr)) and arr.min() >= -(2**31)
                             and arr.max() < 2**31 and np.all(arr == np.round(arr))):
            return arr.astype(np.int32)
        return arr.astype(np.float64)
    if name == "n":
        return arr.astype(np.int32)
    return np.asarray(arr, dtype=np.float64)


def _with_x_tag(df: pd.DataFrame, x_tag: str) -> pd.DataFrame:
    """Add ``xv``: the value of tag ``x_tag`` of the same run at the same step (else NaN)."""
    ref = df[df["tag"].astype(str) == x_tag][["run", "step", "value"]]
    ref = ref.drop_duplicates(["run", "step"], keep="last").rename(columns={"value": "xv"})
    ref = ref.assign(run=ref["run"].astype(str))
    out = df.assign(run=df["run"].astype(str), _order=np.arange(len(df)))
    out = out.merge(ref, on=["run", "step"], how="left").sort_values("_order", kind="stable")
    return out.drop(columns="_order").reset_index(drop=True)


def _chart_specs(
    tags: list[str], combined: Sequence[Sequence[str]], x_tag: str | None
) -> list[dict[str, Any]]:
    charts: list[dict[str, Any]] = []
    used: set[str] = set()
    for group in combined:
        names = [str(g) for g in group]
        missing = [n for n in names if n not in tags]
        if missing:
            raise ValueError(f"charts=: unknown tag(s) {missing}")
        charts.append({"key": " | ".join(names), "tags": names, "group": names[0].split("/")[0]})
        used.update(names)
    for tag in sorted(tags, key=_natural_key):
        if tag in used or tag == x_tag:
            continue
        charts.append({"key": tag, "tags": [tag], "group": tag.split("/")[0]})
    order = {g: i for i, g in enumerate(dict.fromkeys(c["group"] for c in charts))}
    return sorted(charts, key=lambda c: order[c["group"]])


_OWN = ("smoothing", "x", "runs", "tags", "group_by", "agg", "refresh", "height")


def scalars(
    source: Any,
    *,
    smoothing: float = 0.6,
    x: str = "step",
    runs: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    group_by: str | Mapping[str, object] | pd.Series | None = None,
    agg: str | None = None,
    refresh: float | None = None,
    height: int = 220,
    **kw: Unpack[ScalarsOptions],
) -> ScalarsWidget:
    """Interactive scalar charts of an experiment, a frame or a logdir.

    Parameters
    ----------
    source
        An ``Experiment`` (``.scalars`` frame, ``.reload()``), a DataFrame with
        columns run, tag, step, wall_time, value, or a logdir path/URL.
    smoothing
        TensorBoard EMA weight, 0 to 0.999 (default 0.6).
    x
        ``"step"``, ``"relative"``, ``"wall"`` or ``"tag:<name>"``.
    runs, tags
        Keep only these: a case-insensitive regex or a list of names.
    group_by
        Aggregate runs: a regex whose first capture group names the group, an
        hparam column name (of ``hparams=`` or ``source.hparams``), or a mapping
        run -> group.
    agg
        ``"mean"`` (default when grouping) or ``"median"``; ``band=`` picks
        ``"std"`` (default), ``"minmax"``, ``"ci95"`` or ``"none"``.
    refresh
        Poll ``source.reload()`` every so many seconds and send the new points.
    height
        Chart height in pixels.
    **kw
        ``smoothing_mode`` (``"ema"``/``"time"``), ``charts`` (lists of tags drawn
        together), ``band``, ``hparams``, ``log_y``, ``ignore_outliers``,
        ``run_filter``, ``tag_filter``, ``max_points`` (per series, default 1000),
        ``show_raw``. Anything else raises ``TypeError``.

    Examples
    --------
    >>> import pandas as pd, tbnb
    >>> df = pd.DataFrame({"run": "a", "tag": "loss", "step": [0, 1, 2],
    ...                    "wall_time": [0.0, 1.0, 2.0], "value": [3.0, 2.0, 1.0]})
    >>> w = tbnb.scalars(df, smoothing=0.5)
    >>> w.data["smoothed"].round(3).tolist()
    [3.0, 2.333, 1.571]
    """
    check_kwargs("scalars", dict(kw), ScalarsOptions.__annotations__)
    if agg is not None and agg not in ("mean", "median"):
        raise ValueError(f"agg must be 'mean' or 'median', got {agg!r}")
    band = kw.get("band", "std")
    if band not in ("std", "minmax", "ci95", "none"):
        raise ValueError(f"band must be 'std', 'minmax', 'ci95' or 'none', got {band!r}")
    if agg is not None and group_by is None:
        raise ValueError("agg= needs group_by=")
    frame, reloadable = _frame_of(source)
    if isinstance(group_by, str) and not _looks_like_regex(group_by):
        hp = kw.get("hparams")
        if hp is None:
            hp = getattr(source, "hparams", None)
        column = _hparam_column(hp, group_by)
        if column is not None:
            group_by = column
    widget = ScalarsWidget(
        smoothing=smoothing,
        smoothing_mode=kw.get("smoothing_mode", "ema"),
        x_axis=x,
        height=height,
        run_filter=kw.get("run_filter", ""),
        tag_filter=kw.get("tag_filter", ""),
        log_y=list(kw.get("log_y", [])),
        ignore_outliers=list(kw.get("ignore_outliers", [])),
        max_points=kw.get("max_points", 1000),
        show_raw=kw.get("show_raw", True),
    )
    for name in ("run_filter", "tag_filter"):
        pattern = getattr(widget, name)
        try:
            re.compile(pattern)
        except re.error as err:
            raise ValueError(f"{name}= is not a valid regex: {pattern!r} ({err})") from err
    widget._build = {"runs": runs, "tags": tags, "group_by": group_by, "agg": agg, "band": band,
                     "charts": kw.get("charts")}
    widget._source = reloadable
    widget._set_frame(frame)
    run_re = re.compile(widget.run_filter, re.IGNORECASE) if widget.run_filter else None
    widget.selected_runs = [r for r in widget._legend if run_re is None or run_re.search(r)]
    if refresh is not None:
        if reloadable is None:
            raise ValueError("refresh= needs a source with .reload() (an Experiment or a logdir)")
        widget.start_refresh(float(refresh))
    return widget


def _looks_like_regex(text: str) -> bool:
    return any(ch in text for ch in "()[]\\^$*+?|{}")


def _hparam_column(hp: Any, column: str) -> pd.Series | None:
    """``run -> value`` of hparam ``column`` if ``hp`` (one row per run) has it.

    Runs listed in ``hp.attrs["members"]`` (row -> runs whose scalars it holds, such
    as the timestamped sub-run of torch's ``add_hparams``) get their row's value.
    """
    if not isinstance(hp, pd.DataFrame) or column not in hp.columns:
        return None
    rows = hp["run"].astype(str) if "run" in hp.columns else hp.index.astype(str)
    values = dict(zip(rows, hp[column].to_numpy(), strict=True))
    members = hp.attrs.get("members")
    if isinstance(members, Mapping):
        for row, runs in members.items():
            if str(row) in values:
                for run in runs:
                    values.setdefault(str(run), values[str(row)])
    return pd.Series(values, dtype=object)
