"""The scalars dashboard: one chart per tag, every selected run in it.

Python side of ``js/src/widgets/scalars/`` (widget key ``"scalars"``). Python keeps
the full-resolution series. The ``_data`` trait (binary buffers) holds a preview of every
series within ``state_budget`` bytes (min and max per bucket,
:func:`tbnb.transforms.minmax_indices`), so a saved notebook or an exported page stays
small however many runs and tags there are; the browser asks for the series of the charts
in view at screen resolution with a ``"series"`` request (budgeted by the runs a chart
draws and its width), and for full resolution of a zoomed range with a ``"range"``
request. The browser does everything that needs no new data (smoothing, x axis, log
scale, outliers, filters, toggles, tooltips, zoom).

Following an experiment: new points are pushed as an ``"append"`` message; a tag or run
that appears later gets its chart and is shown; a restart (``purge_step``, a file read
anew) resends every series, so the browser never keeps points the logs dropped.

Smoothing is applied to the whole series as sampled for display (TensorBoard does
the same): see :mod:`tbnb.transforms.smoothing`. A zoomed chart keeps that smoothed line
and draws the full-resolution points of its range as the raw line, so zooming never
changes a smoothed value. Run colours come from :func:`tbnb.widgets.colors.run_colors`
in the source's run order (``exp.runs``): the same run has the same colour in every
widget built from one experiment.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.transforms.aggregate import aggregate
from tbnb.transforms.series import SeriesStore, present_names
from tbnb.transforms.smoothing import smooth
from tbnb.widgets.colors import RunColored
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.ordering import (
    color_order,
    legend_order,
    matcher,
    natural_key,
    pick,
)
from tbnb.widgets.scalars.prepare import chart_specs, view_spec, with_x_tag
from tbnb.widgets.scalars.requests import downsampled, range_reply, series_reply
from tbnb.widgets.serializers import pack, tree_serialization
from tbnb.widgets.series import (
    WIRE,
    LineTraits,
    check_frame,
    fold_subruns,
    payload,
    preview_buckets,
    series_frame,
    wire,
    x_values,
)
from tbnb.widgets.source import Source
from tbnb.widgets.traits import Choice, Regex, either

if TYPE_CHECKING:
    from tbnb.widgets.spec import ViewSpec

__all__ = ["ScalarsWidget"]

log = logging.getLogger(__name__)

X_MODES = ("step", "relative", "wall")
AGGREGATIONS = ("mean", "median")
BANDS = ("std", "minmax", "ci95", "none")
_X_ALIASES = {"wall_time": "wall", "time": "wall", "steps": "step"}
#: Series a ``"series"`` request may ask for at once.


class ScalarsWidget(LiveWidget, RunColored, LineTraits):
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
    run_colors : dict
        Run (or group) -> CSS colour, from :func:`tbnb.widgets.colors.run_colors` in the
        source's run order; set it to recolour runs.
    palette : str
        ``"default"`` (20 distinct colours) or ``"colorblind"``; recomputes ``run_colors``.
    log_y, ignore_outliers : list of str
        Chart keys with a log y axis / with the 5th-95th percentile y range.
    y_range : dict
        Chart key -> ``[lo, hi]`` manual y range (``None`` for an automatic end).
    charts : list of dict
        ``{"key", "tags", "group"}`` per chart, in display order.
    """

    _widget_key = "scalars"

    x_axis = Choice(
        X_MODES,
        aliases=_X_ALIASES,
        accepts=lambda value: value.startswith("tag:"),
        label="x",
        expected="'step', 'relative', 'wall' or 'tag:<name>'",
    ).tag(sync=True)
    tag_filter = Regex().tag(sync=True)
    ignore_outliers = t.List(t.Unicode()).tag(sync=True)
    y_range = t.Dict().tag(sync=True)
    charts = t.List(t.Dict()).tag(sync=True)
    show_raw = t.Bool(True).tag(sync=True)
    _data = t.Dict().tag(sync=True, **tree_serialization)

    def __init__(
        self,
        *,
        source: Source | None = None,
        runs: str | Sequence[str] | None = None,
        tags: str | Sequence[str] | None = None,
        group_by: Any = None,
        agg: str | None = None,
        band: str = "std",
        charts: Sequence[Sequence[str]] | None = None,
        state_budget: int = 1_000_000,
        refresh: float | None = None,
        **traits: Any,
    ) -> None:
        """``state_budget``: bytes of the preview of every series in the widget's state."""
        if int(state_budget) < 10_000:
            raise ValueError(f"state_budget must be at least 10000 bytes, got {state_budget}")
        if agg is not None and agg not in AGGREGATIONS:
            raise ValueError(f"agg must be {either(*AGGREGATIONS)}, got {agg!r}")
        if band not in BANDS:
            raise ValueError(f"band must be {either(*BANDS)}, got {band!r}")
        if agg is not None and group_by is None:
            raise ValueError("agg= needs group_by=")
        super().__init__(**traits)
        self._store: SeriesStore | None = None
        self._kind = "runs"
        self._members: dict[str, list[str]] = {}
        self._legend: list[str] = []
        self._shown_len: dict[tuple[str, str], int] = {}
        self._pending = 0
        self._build: dict[str, Any] = {
            "runs": runs,
            "tags": tags,
            "group_by": group_by,
            "agg": agg,
            "band": band,
            "charts": charts,
            "budget": int(state_budget),
        }
        self._parents: dict[str, str] = {}
        self._open(source, refresh, self._show)

    def _show(self, source: Any) -> None:
        self._set_frame(source.data)
        self.follow_runs(self._legend)

    # ----------------------------------------------------------------- data
    def _set_frame(self, frame: pd.DataFrame, *, send: bool = True) -> None:
        """(Re)build the full-resolution store from a long frame (and send it)."""
        opts = self._build
        check_frame(frame)
        # add_hparams sub-runs (exp.subruns) hold the run's final metrics (hparam/acc):
        # charted as points of their run (its colour and legend entry), as TensorBoard
        # charts that run
        df = fold_subruns(frame, self._parents)
        names = present_names(df["run"])
        present_order = names
        present = set(names)
        runs = sorted(present_order, key=natural_key)
        tags = sorted(set(present_names(df["tag"])), key=natural_key)
        keep_runs = pick(runs, opts.get("runs"), "runs")
        keep_tags = pick(tags, opts.get("tags"), "tags")
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
            df = with_x_tag(df, x_tag)
        store = SeriesStore.from_frame(df)
        legend = legend_order(store.runs)
        self._store = store
        self._members = members
        self._legend = legend
        if self._kind == "groups":
            self.color_runs(legend)
        else:
            self.color_runs(color_order(present_order, getattr(self._source, "runs", None)))
        charts = chart_specs(store.tags, opts.get("charts") or [], x_tag)
        if {tag for chart in charts for tag in chart["tags"]} != set(self._chart_tags()):
            self.charts = charts  # a tag written after the view was built gets its chart
        if send:
            self._send_all()

    def _chart_tags(self) -> list[str]:
        return [tag for chart in self.charts for tag in chart["tags"]]

    def _downsampled(self, i: int, buckets: int) -> dict[str, np.ndarray[Any, Any]]:
        assert self._store is not None
        return downsampled(self._store, i, buckets)

    def _budget_points(self) -> int:
        """Points the preview of every series may hold (``state_budget`` bytes)."""
        store = self._store
        width = 8 * len(store.columns) if store is not None else 24
        return max(int(self._build.get("budget", 1_000_000)) // max(width, 1), 64)

    def _send_all(self) -> None:
        """Downsample every series into the budget and replace ``_data`` (one binary sync)."""
        store = self._store
        assert store is not None
        for (run, tag), total in zip(store.keys, np.diff(store.bounds).tolist(), strict=True):
            self._shown_len[(run, tag)] = total
        self._pending = 0
        self._data = payload(
            store,
            self._legend,
            kind=self._kind,
            band=self._build.get("band"),
            members=self._members,
            x_tag=self.x_axis[4:] if self.x_axis.startswith("tag:") else None,
            buckets=preview_buckets(len(store), self._budget_points(), self.max_points),
        )

    # ------------------------------------------------------------- requests
    def _request_series(self, content: dict[str, Any]) -> dict[str, Any]:
        """Series of the charts in view at screen resolution (:func:`series_reply`)."""
        return series_reply(self._store, content, self.max_points)

    def _request_range(self, content: dict[str, Any]) -> dict[str, Any]:
        """Full resolution of a zoomed x range (:func:`range_reply`)."""
        return range_reply(self._store, self.charts, self._legend, content)

    # -------------------------------------------------------------- refresh
    def _on_reload(self, report: Any = None) -> None:
        """Send what the source holds beyond what the browser has: the new points of each
        series (an ``"append"``), or every series again after a restart, a new series or
        when the appended points outgrow the budget."""
        source = self._source
        with self._lock:
            self._parents = dict(getattr(source, "subruns", {}))
            old = dict(self._shown_len)
            self._set_frame(source.scalars, send=False)
            self.follow_runs(self._legend)
            store = self._store
            assert store is not None
            # A restart drops points the browser holds (its new points may even outnumber
            # them): the browser's series are replaced, never appended to.
            restarted = report is None or bool(getattr(report, "points_purged", 0))
            if (
                restarted
                or self._kind == "groups"
                or any(store.index.get(k) is None or self._len(k) < n for k, n in old.items())
            ):
                self._send_all()
                self._sent += max(int(sum(self._len(k) for k in store.keys) - sum(old.values())), 0)
                return
            series, total = [], 0
            for i, key in enumerate(store.keys):
                start = old.get(key, 0)
                stop = self._len(key)
                if stop > start:
                    cols = store.series(i)
                    series.append(
                        {
                            "run": key[0],
                            "tag": key[1],
                            "total": stop,
                            "columns": {
                                WIRE.get(k, k): wire(k, v[start:]) for k, v in cols.items()
                            },
                        }
                    )
                    total += stop - start
                    self._shown_len[key] = stop
            if not series:
                return
            self._sent += total
            self._pending += total
            if self._pending > self._budget_points() // 2 or any(k not in old for k in store.keys):
                self._send_all()
            else:
                body, buffers = pack({"type": "append", "series": series})
                self.send(body, buffers=buffers)

    def _len(self, key: tuple[str, str]) -> int:
        store = self._store
        assert store is not None
        i = store.index[key]
        return int(store.bounds[i + 1] - store.bounds[i])

    def follow(self, source: Any) -> None:
        """Show ``source``'s scalars and follow its reloads (an experiment's, any caller's)."""
        self._parents = dict(getattr(source, "subruns", {}))
        super().follow(source)

    # ---------------------------------------------------------------- views
    def _shown_keys(self) -> list[tuple[int, str, str]]:
        store = self._store
        if store is None:
            return []
        selected = set(self.selected_runs)
        # A group (aggregating) is shown when it or any of its runs is selected.
        selected |= {g for g, runs in self._members.items() if selected.intersection(runs)}
        tag_re = matcher(self.tag_filter)
        chart_tags = set(self._chart_tags())
        return [
            (i, run, tag)
            for i, (run, tag) in enumerate(store.keys)
            if run in selected and tag in chart_tags and (tag_re is None or tag_re.search(tag))
        ]

    @property
    def data(self) -> pd.DataFrame:
        """The shown data as drawn: selected runs, filtered tags, downsampled, smoothed.

        Columns ``run``, ``tag``, ``step``, ``wall_time``, ``value``, ``smoothed``
        (plus ``lo``, ``hi``, ``n`` when aggregating and ``x`` for ``x="tag:..."``).

        These are the points the browser holds: each series is **downsampled** to about
        ``max_points`` (min and max per pixel column, first and last point kept), and
        ``smoothed`` is the smoothing of those points, exactly as the charts draw it. For
        every point at full resolution use :attr:`full_data`.
        """
        return self._frame(downsampled=True)

    @property
    def full_data(self) -> pd.DataFrame:
        """The shown data at full resolution: every point of the selected runs and tags.

        The same columns as :attr:`data`, with no downsampling; ``smoothed`` is the
        smoothing of the whole full-resolution series (so it may differ slightly from
        the drawn line of :attr:`data`, which smooths the downsampled points).

        Examples
        --------
        >>> import pandas as pd, tbnb
        >>> df = pd.DataFrame({"run": "a", "tag": "loss", "step": range(5000),
        ...                    "wall_time": 0.0, "value": 1.0})
        >>> w = tbnb.scalars(df, max_points=100)
        >>> len(w.data) < 5000, len(w.full_data)
        (True, 5000)
        """
        return self._frame(downsampled=False)

    def _frame(self, *, downsampled: bool) -> pd.DataFrame:
        buckets = max(self.max_points // 2, 2)
        store = self._store
        parts = []
        for i, run, tag in self._shown_keys():
            if downsampled:
                cols = self._downsampled(i, buckets)
            else:
                assert store is not None
                cols = dict(store.series(i))
            cols["smoothed"] = smooth(
                cols["value"],
                self.smoothing,
                x=x_values(cols, self.x_axis),
                mode=self.smoothing_mode,
            )
            parts.append((run, tag, cols))
        return series_frame(parts)

    def view_spec(self) -> ViewSpec:
        """The charts shown (those with a tag passing ``tag_filter``) of :attr:`data`."""
        tag_re = matcher(self.tag_filter)
        charts = [
            c for c in self.charts if tag_re is None or any(tag_re.search(g) for g in c["tags"])
        ]
        return view_spec(
            self.data,
            charts,
            colors=self.run_colors,
            x_axis=self.x_axis,
            log_y=self.log_y,
            y_range=self.y_range,
            show_raw=self.show_raw,
            smoothing=self.smoothing,
            band=self._build.get("band") not in (None, "none"),
            height=self.height,
        )

    def resync(self) -> None:
        """Resend every series (re-downsampled) to the browser."""
        if self._store is not None:
            self._send_all()
