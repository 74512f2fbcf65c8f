"""The custom-scalars dashboard: the charts a layout asks for, drawn as scalar charts.

Python side of ``js/src/widgets/custom_scalars/`` (widget key ``"custom_scalars"``). The
layout (written by the runs, ``exp.custom_scalars.merged``, or given) is resolved
against the scalars (:func:`~tbnb.widgets.custom_scalars.prepare.resolve`); the series
multiline charts draw go to the browser in ``_data`` and the margin series (value, lower,
upper at shared steps) in ``_margins``, both in the scalars widget's wire format
(:func:`tbnb.widgets.scalars.prepare.payload`: downsampled to ``max_points`` per
series, min and max per pixel, the last point kept), so the browser draws them with the
kit's line chart and the scalars widget's smoothing. Smoothing, x axis, log scale, run
toggles, tooltips and zoom run in the browser.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.kinds.custom_scalars import Layout
from tbnb.transforms.downsample import minmax_indices
from tbnb.transforms.series import SeriesStore
from tbnb.transforms.smoothing import smooth
from tbnb.widgets.colors import RunColored
from tbnb.widgets.custom_scalars.prepare import (
    MARGIN_SEP,
    margin_frame,
    plain_keys,
    resolve,
    view_spec,
)
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.ordering import color_order, natural_key, pick
from tbnb.widgets.serializers import tree_serialization
from tbnb.widgets.series import LineTraits, check_frame, payload, series_frame, x_values
from tbnb.widgets.source import Source
from tbnb.widgets.traits import Choice, either

if TYPE_CHECKING:
    from tbnb.widgets.spec import ViewSpec

__all__ = ["CustomScalarsWidget"]

X_MODES = ("step", "relative", "wall")


class CustomScalarsWidget(LiveWidget, RunColored, LineTraits):
    """Custom-scalars charts (traits only; build it with :func:`custom_scalars`).

    Traits (synced with the browser)
    --------------------------------
    smoothing : float
        TensorBoard's EMA weight in ``[0, 0.999]``, as in the scalars widget.
    smoothing_mode : str
        ``"ema"`` or ``"time"``.
    x_axis : str
        ``"step"``, ``"relative"`` or ``"wall"``.
    selected_runs : list of str
        Runs drawn: toggled on and matching ``run_filter``.
    run_filter : str
        Case-insensitive regex (empty = all).
    run_colors : dict
        Run -> CSS colour (:func:`tbnb.widgets.colors.run_colors` in ``exp.runs`` order).
    palette : str
        ``"default"`` or ``"colorblind"``.
    charts : list of dict
        The layout's charts: ``{"key", "category", "title", "kind", "closed", "series",
        "notes", "tags"}`` (see :func:`~tbnb.widgets.custom_scalars.prepare.resolve`).
    log_y : list of str
        Chart keys with a log y axis.
    empty_reason : str
        Why there is nothing to show, or "".
    """

    _widget_key = "custom_scalars"

    x_axis = Choice(
        X_MODES, aliases={"wall_time": "wall", "time": "wall"}, label="x", expected=either(*X_MODES)
    ).tag(sync=True)
    charts = t.List(t.Dict()).tag(sync=True)
    empty_reason = t.Unicode("").tag(sync=True)
    _data = t.Dict().tag(sync=True, **tree_serialization)
    _margins = t.Dict().tag(sync=True, **tree_serialization)

    def __init__(
        self,
        *,
        source: Source | None = None,
        layout: Layout | None = None,
        fixed: bool = False,
        runs: str | Sequence[str] | None = None,
        why_empty: str = "",
        refresh: float | None = None,
        **traits: Any,
    ) -> None:
        """``layout`` is drawn (``fixed``: also after reloads, else the experiment's merged
        layout then); ``why_empty`` is said when it has no charts."""
        super().__init__(**traits)
        self._layout = Layout()
        self._given: Layout | None = layout if fixed else None
        self._plain: SeriesStore | None = None
        self._margin: SeriesStore | None = None
        self._runs: list[str] = []
        self._build: dict[str, Any] = {"runs": runs}
        self._open(source, refresh, lambda given: self._show(given, layout or Layout(), why_empty))

    def _show(self, source: Any, layout: Layout, why_empty: str) -> None:
        self._set_source(source.data, layout)
        if not self.charts:
            self.empty_reason = why_empty

    # ----------------------------------------------------------------- data
    @property
    def layout(self) -> Layout:
        """The layout drawn (given, or every run's merged as TensorBoard shows it)."""
        return self._layout

    def _set_source(self, frame: pd.DataFrame, layout: Layout) -> None:
        check_frame(frame)
        hidden = set(getattr(self._source, "subruns", {}) or {})
        present = [r for r in dict.fromkeys(frame["run"].astype(str)) if r not in hidden]
        runs = pick(sorted(present, key=natural_key), self._build.get("runs"), "runs")
        if len(runs) < len(set(frame["run"].astype(str))):
            frame = frame[frame["run"].astype(str).isin(runs)]
        self._layout = layout
        charts = resolve(layout, frame)
        keys = plain_keys(charts)
        run_col, tag_col = frame["run"].astype(str), frame["tag"].astype(str)
        wanted = (
            pd.Series(list(zip(run_col, tag_col, strict=True)), index=frame.index).isin(keys)
            if keys
            else pd.Series(False, index=frame.index)
        )
        plain = frame[wanted.to_numpy()]
        self._plain = SeriesStore.from_frame(plain)
        self._margin = SeriesStore.from_frame(margin_frame(frame, charts))
        self._runs = runs
        self.color_runs(color_order(present, getattr(self._source, "runs", None)))
        if charts != self.charts:
            self.charts = charts
        buckets = max(self.max_points // 2, 2)
        self._data = payload(
            self._plain, runs, kind="runs", band=None, members={}, x_tag=None, buckets=buckets
        )
        self._margins = _margin_payload(self._margin, runs, buckets)
        self.follow_runs(runs)
        if charts:
            self.empty_reason = ""

    # -------------------------------------------------------------- refresh
    def _on_reload(self, report: Any = None) -> None:
        """Redraw when the reload brought scalars, a layout, runs or restarts."""
        added = getattr(report, "values_added", {}) or {}
        if report is not None and not (
            getattr(report, "scalars_added", 0)
            or added.get("custom_scalars")
            or getattr(report, "new_runs", None)
            or getattr(report, "points_purged", 0)
        ):
            return
        source = self._source
        with self._lock:
            before = len(self._plain.columns["value"]) if self._plain is not None else 0
            layout = self._given or source.custom_scalars.merged
            self._set_source(source.scalars, layout)
            assert self._plain is not None
            self._sent += max(len(self._plain.columns["value"]) - before, 0)

    # ---------------------------------------------------------------- views
    def _drawn(self) -> list[tuple[str, str, str, dict[str, np.ndarray]]]:
        """``(chart, run, series name, full-resolution columns)`` of what is drawn."""
        selected = set(self.selected_runs)
        out = []
        for chart in self.charts:
            store = self._margin if chart["kind"] == "margin" else self._plain
            if store is None:
                continue
            for run, key in chart["series"]:
                i = store.index.get((run, key))
                if run in selected and i is not None:
                    name = key.split(MARGIN_SEP)[0]
                    out.append((chart["key"], run, name, dict(store.series(i))))
        return out

    def _frame(self, *, downsampled: bool) -> pd.DataFrame:
        parts = []
        charts = []
        buckets = max(self.max_points // 2, 2)
        for chart, run, tag, full in self._drawn():
            cols = full
            if downsampled:
                idx = minmax_indices(full["step"], full["value"], buckets)
                cols = {k: v[idx] for k, v in full.items()}
            x = x_values(cols, self.x_axis)
            cols["smoothed"] = smooth(cols["value"], self.smoothing, x=x, mode=self.smoothing_mode)
            parts.append((run, tag, cols))
            charts.extend([chart] * len(cols["value"]))
        if any("lo" in cols for _, _, cols in parts):
            for _, _, cols in parts:
                for extra in ("lo", "hi"):
                    cols.setdefault(extra, np.full(len(cols["value"]), np.nan))
        out = series_frame(parts)
        out.insert(0, "chart", pd.Categorical(charts) if charts else pd.Series(dtype=object))
        if "lo" in out:
            out = out.rename(columns={"lo": "lower", "hi": "upper"})
        return out

    @property
    def data(self) -> pd.DataFrame:
        """What the charts draw: chart, run, tag, step, wall_time, value, smoothed (and
        lower, upper for margin series), downsampled as sent (see ``max_points``)."""
        return self._frame(downsampled=True)

    @property
    def full_data(self) -> pd.DataFrame:
        """The same at full resolution (``smoothed`` over every point)."""
        return self._frame(downsampled=False)

    def view_spec(self) -> ViewSpec:
        """The charts with series, of :attr:`data`."""
        return view_spec(
            self.data,
            [c for c in self.charts if c["series"]],
            colors=self.run_colors,
            x_axis=self.x_axis,
            log_y=self.log_y,
            height=self.height,
        )


def _margin_payload(store: SeriesStore, runs: list[str], buckets: int) -> dict[str, Any]:
    """The ``_margins`` trait: the margin series in the scalars wire format (their tag is
    the joined key), ``lo``/``hi`` beside ``value``."""
    return payload(store, runs, kind="runs", band=None, members={}, x_tag=None, buckets=buckets)
