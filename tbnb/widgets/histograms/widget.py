"""The histograms and distributions dashboard: every histogram series, five ways to see it.

Python side of ``js/src/widgets/histograms/`` (widget key ``"histograms"``). Modes:
``offset`` (TensorBoard's ridgelines: steps stacked back to front, newest in front,
coloured by step), ``overlay`` (every drawn step on one baseline), ``heatmap`` (step x
bin, colour = count), ``distribution`` (TensorBoard's nine bands with the median) and
``runs`` (one chart per tag: each selected run's histogram at one chosen step). The
other modes draw one chart per tag and run, grouped by tag prefix.

Python keeps every histogram (:class:`~tbnb.widgets.histograms.store.HistogramStore`)
and answers the browser's ``"series"`` and ``"at_step"`` requests with exact data for
the charts in view (re-binned on TensorBoard's common bins, the step window applied,
evenly spaced steps, first and last always). The ``_data`` trait holds the index (runs,
tags, series); the charts in view are drawn from the kernel's first answers. The
``_preview`` trait then holds a compact copy of every chart
(:func:`~tbnb.widgets.histograms.prepare.preview_payload`) within ``state_budget`` bytes,
so a saved notebook or an exported page draws every chart and every control works
without a kernel, on that copy. It is made when the browser asks for it (once the charts
in view are answered) or when the widget's whole state is read (saving, exporting),
whichever comes first, so the first charts do not wait for it. Run colours come from
:func:`tbnb.widgets.colors.run_colors` in the experiment's run order.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.warnings import EmptyResultWarning
from tbnb.widgets.colors import RunColored
from tbnb.widgets.histograms import prepare
from tbnb.widgets.histograms.frames import chart_items, empty_reason, shown_frame
from tbnb.widgets.histograms.store import HistogramStore
from tbnb.widgets.histograms.view import view_spec
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.ordering import color_order, legend_order, matching, pick
from tbnb.widgets.serializers import tree_serialization
from tbnb.widgets.source import Source
from tbnb.widgets.traits import Choice, IntRange, Regex

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.spec import ViewSpec

__all__ = ["HistogramsWidget"]

_MAX_LIMIT = 4000


class HistogramsWidget(LiveWidget, RunColored):
    """Histogram and distribution charts (traits only; build it with :func:`histograms`
    or :func:`distributions`).

    Traits (synced with the browser)
    --------------------------------
    mode : str
        ``"offset"``, ``"overlay"``, ``"heatmap"``, ``"distribution"`` or ``"runs"``.
    bins : int
        Display bins per chart, 1 to 512 (TensorBoard: 30).
    time_axis : str
        ``"step"``, ``"relative"`` (seconds since the series' first histogram) or
        ``"wall"``: the offset axis of ridgelines, the x axis of heatmaps and bands.
    max_steps : int
        Histograms drawn per ridgeline or overlay chart (evenly spaced, first and last).
    step_window : list
        ``[first, last]`` steps to show (inclusive), or ``[]`` for all.
    step : int or None
        The step of the ``runs`` mode (the nearest logged step is drawn); None: the last.
    log_color : bool
        Heatmap colour on a log scale of counts.
    hidden_in_chart : dict
        ``runs`` mode: tag -> runs left out of that tag's chart (the chart's legend
        toggles them; the run selector chooses runs for every chart).
    selected_runs, run_filter, tag_filter, run_colors, palette
        As in every tbnb widget: the runs drawn, regexes, run colours.
    problems : list of str
        Histograms left out of the charts, with run, tag, step and why.
    """

    _widget_key = "histograms"

    mode = Choice(prepare.MODES).tag(sync=True)
    bins = IntRange(30, lo=1, hi=prepare.MAX_BINS).tag(sync=True)
    time_axis = Choice(prepare.TIME_AXES, aliases={"wall_time": "wall", "steps": "step"}).tag(
        sync=True
    )
    max_steps = IntRange(51, lo=2, hi=_MAX_LIMIT).tag(sync=True)
    step_window = t.List(t.Float()).tag(sync=True)
    step = t.Int(None, allow_none=True).tag(sync=True)
    log_color = t.Bool(False).tag(sync=True)
    hidden_in_chart = t.Dict(value_trait=t.List(t.Unicode())).tag(sync=True)
    selected_runs = t.List(t.Unicode()).tag(sync=True)
    run_filter = Regex().tag(sync=True)
    tag_filter = Regex().tag(sync=True)
    height = t.Int(170).tag(sync=True)
    problems = t.List(t.Unicode()).tag(sync=True)
    _data = t.Dict().tag(sync=True, **tree_serialization)
    _preview = t.Dict().tag(sync=True, **tree_serialization)

    @t.validate("step_window")
    def _valid_window(self, proposal: Any) -> list[float]:
        value = list(proposal["value"] or [])
        if not value:
            return []
        if len(value) != 2 or not all(isinstance(v, (int, float)) for v in value):
            raise t.TraitError(f"step_window must be [first, last] steps or [], got {value!r}")
        lo, hi = sorted(value)
        return [lo, hi]

    def __init__(
        self,
        *,
        source: Source | None = None,
        runs: str | Sequence[str] | None = None,
        tags: str | Sequence[str] | None = None,
        state_budget: int = 1_300_000,
        refresh: float | None = None,
        **traits: Any,
    ) -> None:
        """``state_budget``: bytes of the saved preview of every chart."""
        if int(state_budget) < 10_000:
            raise ValueError(f"state_budget must be at least 10000 bytes, got {state_budget}")
        super().__init__(**traits)
        self._store: HistogramStore | None = None
        self._build: dict[str, Any] = {"runs": runs, "tags": tags, "budget": int(state_budget)}
        self._legend: list[str] = []
        self._sent_keys: list[tuple[str, str]] = []
        self._preview_due = False
        self._open(source, refresh, self._show)

    def _show(self, source: Source) -> None:
        empty = empty_reason(source.data, source.name, self._build["runs"], self._build["tags"])
        self._build["empty"] = empty
        if empty:
            warnings.warn(empty, EmptyResultWarning, stacklevel=5)
        self._set_frame(source.data, preview_now=False)
        self.follow_runs(self._legend)

    # ----------------------------------------------------------------- data
    def _set_frame(
        self,
        frame: pd.DataFrame,
        *,
        send: bool = True,
        preview_now: bool = True,
        reuse: HistogramStore | None = None,
    ) -> None:
        """(Re)index ``frame`` and send the index (and every chart's preview, unless
        ``preview_now`` is false: then it is made when first needed). ``reuse``: the
        store of the frame before a reload that dropped nothing (its rows are kept)."""
        opts = self._build
        names = list(dict.fromkeys(str(r) for r in pd.unique(frame["run"])))
        tags = list(dict.fromkeys(str(g) for g in pd.unique(frame["tag"])))
        keep_runs = pick(names, opts.get("runs"), "runs")
        keep_tags = pick(tags, opts.get("tags"), "tags")
        if len(keep_runs) < len(names) or len(keep_tags) < len(tags):
            frame = frame[
                frame["run"].astype(str).isin(keep_runs) & frame["tag"].astype(str).isin(keep_tags)
            ]
        store = HistogramStore.from_frame(frame, reuse=reuse)
        store.check_outer_edges()
        self._store = store
        present = list(dict.fromkeys(run for run, _ in store.keys))
        self._legend = legend_order(present)
        self.color_runs(color_order(present, getattr(self._source, "runs", None)))
        if send:
            self._send_all(preview_now=preview_now)

    def _send_all(self, *, preview_now: bool = True) -> None:
        store = self._store
        assert store is not None
        tags = prepare.ordered_names(sorted({tag for _, tag in store.keys}))
        run_index = {r: i for i, r in enumerate(self._legend)}
        tag_index = {g: i for i, g in enumerate(tags)}
        self.problems = store.problems
        self._preview_due = True
        same_series = self._data.get("series") is not None and self._sent_keys == store.keys
        self._sent_keys = list(store.keys)
        if not preview_now and not same_series:
            # the browser takes a preview only for the series it indexes: asked anew
            self._preview = {}
        self._data = {
            "runs": self._legend,
            "tags": tags,
            "groups": [prepare.tag_group(tag) for tag in tags],
            "series": {
                "run": np.array([run_index[r] for r, _ in store.keys], dtype=np.int32),
                "tag": np.array([tag_index[g] for _, g in store.keys], dtype=np.int32),
                "total": np.diff(store.bounds).astype(np.int32),
                "wall0": store.wall[store.bounds[:-1]],
            },
            "step_values": prepare.step_values(store),
            "empty": self._build.get("empty", "") if len(store) == 0 else "",
        }
        if preview_now:
            self._make_preview()

    def _make_preview(self) -> None:
        """Send every chart's preview (if not sent since the data last changed)."""
        store = self._store
        if store is None or not self._preview_due:
            return
        self._preview_due = False
        limit = max(self.max_steps, prepare.PREVIEW_MAX_STEPS)
        steps = prepare.preview_steps(
            len(store), self.bins, self._build.get("budget", 1_300_000), limit
        )
        self._preview = prepare.preview_payload(store, bins=self.bins, steps=steps)
        self.problems = store.problems

    def get_state(self, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        """The widget's state; the whole state (a notebook saved, a page exported) holds
        every chart's preview, made now if the browser has not asked for it yet."""
        if key is None and getattr(self, "_preview_due", False):
            with self._lock:
                self._make_preview()
        return dict(super().get_state(key=key, drop_defaults=drop_defaults))

    def _window(self, value: Any = None) -> tuple[float, float] | None:
        window = self.step_window if value is None else value
        return (float(window[0]), float(window[1])) if window else None

    def _series_index(self) -> dict[tuple[str, str], int]:
        store = self._store
        return {key: i for i, key in enumerate(store.keys)} if store is not None else {}

    # ------------------------------------------------------------- requests
    def _request_preview(self, _content: dict[str, Any]) -> dict[str, Any]:
        """Make the preview of every chart (sent as the ``_preview`` trait) if not made."""
        with self._lock:
            self._make_preview()
        return {"charts": len(self._store) if self._store is not None else 0}

    def _request_series(self, content: dict[str, Any]) -> dict[str, Any]:
        """Exact data of some charts: ``{keys: [[run, tag], ...], bins, limit, window,
        hist, bands}``."""
        store = self._store
        if store is None:
            return {"items": []}
        index = self._series_index()
        bins = int(np.clip(int(content.get("bins", self.bins)), 1, prepare.MAX_BINS))
        limit = int(np.clip(int(content.get("limit", self.max_steps)), 1, _MAX_LIMIT))
        window = self._window(content.get("window") or [])
        items = []
        for run, tag in content.get("keys", []):
            i = index.get((str(run), str(tag)))
            if i is None:
                raise ValueError(f"no histograms of run {run!r} tag {tag!r}")
            items.append(
                prepare.series_payload(
                    store,
                    i,
                    bins=bins,
                    limit=limit,
                    window=window,
                    hist=bool(content.get("hist", True)),
                    bands=bool(content.get("bands", True)),
                )
            )
        self.problems = store.problems
        return {"bins": bins, "limit": limit, "window": list(window or []), "items": items}

    def _request_at_step(self, content: dict[str, Any]) -> dict[str, Any]:
        """Runs of one tag at one step on common bins: ``{tag, runs, step, bins, window}``."""
        store = self._store
        if store is None:
            return {"items": []}
        index = self._series_index()
        tag = str(content["tag"])
        series = [index[(str(r), tag)] for r in content.get("runs", []) if (str(r), tag) in index]
        bins = int(np.clip(int(content.get("bins", self.bins)), 1, prepare.MAX_BINS))
        window = self._window(content.get("window") or [])
        step = content.get("step")
        if step is None:
            step = max((int(store.steps[store.bounds[i + 1] - 1]) for i in series), default=0)
        out = prepare.at_step_payload(store, series, step=float(step), bins=bins, window=window)
        self.problems = store.problems
        return {"tag": tag, "asked": step, **out}

    # -------------------------------------------------------------- refresh
    def _on_reload(self, report: Any = None) -> None:
        """Re-index what the source holds now (the rows read before are kept unless a
        restart dropped some) and send the index; the browser asks again for the charts
        in view, drawing what it holds meanwhile, and the preview is made when next asked
        for (or when the state is saved), so a reload costs what is new."""
        if report is not None and not (
            getattr(report, "values_added", {}).get("histograms")
            or getattr(report, "new_runs", None)
            or getattr(report, "points_purged", 0)
        ):
            return
        source = self._source
        with self._lock:
            before = len(self._store.steps) if self._store is not None else 0
            purged = report is None or bool(getattr(report, "points_purged", 0))
            reuse = None if purged else self._store
            self._set_frame(source.histograms, preview_now=False, reuse=reuse)
            self.follow_runs(self._legend)
            assert self._store is not None
            self._sent += max(len(self._store.steps) - before, 0)

    # ---------------------------------------------------------------- views
    def shown_charts(self) -> list[tuple[str, str | None]]:
        """``(tag, run)`` of every chart shown, in order (``run`` is None in ``runs`` mode,
        where a tag's chart holds every selected run)."""
        store = self._store
        if store is None:
            return []
        selected = set(self.selected_runs)
        present = set(store.keys)
        tags = matching(prepare.ordered_names(sorted({g for _, g in present})), self.tag_filter)
        if self.mode == "runs":
            return [(g, None) for g in tags if self.chart_runs(g)]
        return [(g, r) for g in tags for r in self._legend if r in selected and (r, g) in present]

    def chart_runs(self, tag: str) -> list[str]:
        """The runs drawn in ``tag``'s chart of the ``runs`` mode: selected, holding the
        tag, not left out of that chart."""
        index = self._series_index()
        selected = set(self.selected_runs) - set(self.hidden_in_chart.get(tag, []))
        return [r for r in self._legend if r in selected and (r, tag) in index]

    def chart_data(self, tag: str, run: str | None) -> dict[str, Any]:
        """The exact data of the chart of ``tag`` and ``run`` as shown (``run`` None: the
        ``runs`` mode's chart of ``tag``): re-binned, the step window applied."""
        store = self._store
        if store is None:
            raise ValueError("no histograms are loaded")
        return chart_items(
            store,
            tag,
            run,
            mode=self.mode,
            bins=self.bins,
            max_steps=self.max_steps,
            step=self.step,
            window=self._window(),
            runs=self.chart_runs(tag) if run is None else (),
        )

    def _shown_data(self, limit: int | None = None) -> list[tuple[str, str | None, Any]]:
        charts = self.shown_charts()[:limit]
        return [(tag, run, self.chart_data(tag, run)) for tag, run in charts]

    @property
    def data(self) -> pd.DataFrame:
        """What the charts show, at full precision, as a long frame.

        ``offset``, ``overlay``, ``heatmap`` and ``runs``: ``run``, ``tag``, ``step``,
        ``wall_time``, ``bin_left``, ``bin_right``, ``count`` (the display bins; in
        ``offset``/``overlay`` the ``max_steps`` steps drawn, in ``heatmap`` every step
        of the window, in ``runs`` each run at :attr:`step`). ``distribution``: ``run``,
        ``tag``, ``step``, ``wall_time`` and the nine bands ``p0`` ... ``p10000``.
        """
        if self._store is None:
            return shown_frame([], self.mode, self.bins)
        frame = shown_frame(self._shown_data(), self.mode, self.bins)
        self.problems = self._store.problems  # what reading them found wrong
        return frame

    def view_spec(self, max_charts: int = 24) -> ViewSpec:
        """The first ``max_charts`` charts shown, each as its mode draws it."""
        shown = len(self.shown_charts())
        if shown > max_charts:
            warnings.warn(
                f"to_plotly(): {shown} charts are shown; the figure holds the "
                f"first {max_charts} (pass max_charts= for more)",
                stacklevel=3,
            )
        return view_spec(
            self._shown_data(max_charts),
            mode=self.mode,
            bins=self.bins,
            colors=self.run_colors,
            time_axis=self.time_axis,
            log_color=self.log_color,
            height=self.height,
        )

    def to_plotly(self, max_charts: int = 24) -> go.Figure:
        """A ``plotly.graph_objects.Figure`` of the first ``max_charts`` charts shown."""
        from tbnb.widgets.plotly_figure import plotly_figure

        return plotly_figure(self.view_spec(max_charts))

    def resync(self) -> None:
        """Resend every chart's preview to the browser."""
        if self._store is not None:
            self._send_all()
