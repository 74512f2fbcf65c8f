"""The PR-curves dashboard: one chart per tag, runs overlaid, at a chosen step.

Python side of ``js/src/widgets/pr_curves/`` (widget key ``"pr_curves"``). Python keeps
the curves (:class:`~tbnb.widgets.pr_curves.prepare.CurveIndex`) and sends every step's
areas and a sample of the curves as binary buffers in ``_data``; the browser draws the
PR or ROC curves, the step sliders (one per chart and a global one), the hover readout at
the nearest threshold, the legend and table of areas, the AUC-over-steps charts and the
CSV, and asks for the curve of a step it does not hold with a ``"curves"`` request.

Which curve a chart shows for a run: the chart's step is ``chart_steps[chart]`` if set,
else ``step``, else the chart's latest step; each run shows its step nearest to it (the
lower one on a tie). :attr:`PrCurvesWidget.data` applies the same rule.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.analysis.pr_curves import curve_problems, pr_table, roc_points
from tbnb.warnings import DataWarning
from tbnb.widgets.colors import RunColored
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.ordering import color_order, matching, natural_key, pick
from tbnb.widgets.pr_curves.prepare import (
    CurveIndex,
    chart_specs,
    check_frame,
    curve_block,
    names_of,
    nearest_index,
    payload,
)
from tbnb.widgets.pr_curves.view import view_spec
from tbnb.widgets.serializers import tree_serialization
from tbnb.widgets.source import Source
from tbnb.widgets.traits import Choice, IntRange, Regex, either

if TYPE_CHECKING:
    from tbnb.widgets.spec import ViewSpec

__all__ = ["PrCurvesWidget"]

VIEWS = ("pr", "roc")


class PrCurvesWidget(LiveWidget, RunColored):
    """PR (or ROC) curves of many runs (traits only; build it with :func:`pr_curves`).

    Traits (synced with the browser)
    --------------------------------
    view : str
        ``"pr"`` (precision against recall) or ``"roc"`` (TPR against FPR).
    step : int or None
        The global step slider (None: each chart at its latest step).
    chart_steps : dict
        Chart key -> step chosen with that chart's own slider (overrides ``step``).
    selected_runs : list of str
        Runs drawn: toggled on and matching ``run_filter``.
    run_filter, tag_filter : str
        Case-insensitive regexes (empty = all).
    run_colors : dict
        Run -> CSS colour (:func:`tbnb.widgets.colors.run_colors` in ``exp.runs`` order).
    palette : str
        ``"default"`` or ``"colorblind"``.
    charts : list of dict
        ``{"key", "tag", "group"}`` per chart; charts of one group share a grid.
    problems : list of str
        What is wrong with some curves (also warned, naming run, tag and step).
    empty_reason : str
        Why there is nothing to show (the widget says it), or "".
    """

    _widget_key = "pr_curves"

    view = Choice(VIEWS, lower=True, expected=either(*VIEWS)).tag(sync=True)
    step = t.Int(None, allow_none=True).tag(sync=True)
    chart_steps = t.Dict(value_trait=t.Int()).tag(sync=True)
    selected_runs = t.List(t.Unicode()).tag(sync=True)
    run_filter = Regex().tag(sync=True)
    tag_filter = Regex().tag(sync=True)
    charts = t.List(t.Dict()).tag(sync=True)
    height = t.Int(260).tag(sync=True)
    max_curves = IntRange(2000, lo=1).tag(sync=True)
    problems = t.List(t.Unicode()).tag(sync=True)
    empty_reason = t.Unicode("").tag(sync=True)
    _data = t.Dict().tag(sync=True, **tree_serialization)

    def __init__(
        self,
        *,
        source: Source | None = None,
        runs: str | Sequence[str] | None = None,
        tags: str | Sequence[str] | None = None,
        refresh: float | None = None,
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        self._index: CurveIndex | None = None
        self._runs: list[str] = []
        self._build: dict[str, Any] = {"runs": runs, "tags": tags}
        self._checked: set[tuple[str, str, int, float]] = set()
        self._open(source, refresh, self._show)

    def _show(self, source: Source) -> None:
        self._set_frame(source.data)
        if not self.charts:
            runs, tags = self._build["runs"], self._build["tags"]
            self.empty_reason = (
                source.empty_reason(
                    "PR curves",
                    "written by add_pr_curve, add_pr_curve_raw or a TF pr_curve summary",
                )
                or f"no PR curves left after runs={runs!r}, tags={tags!r}"
            )

    # ----------------------------------------------------------------- data
    def _set_frame(self, frame: pd.DataFrame) -> None:
        check_frame(frame)
        hidden = set(getattr(self._source, "subruns", {}) or {})
        run_names, tag_names = names_of(frame["run"]), names_of(frame["tag"])
        present = [r for r in dict.fromkeys(run_names) if r not in hidden]
        runs = pick(sorted(present, key=natural_key), self._build.get("runs"), "runs")
        tags = sorted(set(tag_names), key=natural_key)
        keep_tags = set(pick(tags, self._build.get("tags"), "tags"))
        if len(keep_tags) < len(tags):
            frame = frame[np.isin(tag_names, list(keep_tags))]
        index = CurveIndex.build(frame, runs)
        self._index, self._runs = index, runs
        self.color_runs(color_order(present, getattr(self._source, "runs", None)))
        self._report(index)
        specs = chart_specs(sorted({tag for _, tag in index.keys}, key=natural_key))
        if specs != self.charts:
            self.charts = specs
        if specs:
            self.empty_reason = ""
        self._data = payload(index, runs, max_curves=self.max_curves)
        self.follow_runs(runs)

    def _report(self, index: CurveIndex) -> None:
        """Warn once per curve that is wrong (naming run, tag and step); keep it."""
        frame = index.frame
        bad = np.flatnonzero(index.flags)
        cols = [frame[c].to_numpy()[bad] for c in ("run", "tag", "step", "wall_time")]
        keys = [(str(r), str(t), int(s), float(w)) for r, t, s, w in zip(*cols, strict=True)]
        new = [
            int(i) for i, key in zip(bad.tolist(), keys, strict=True) if key not in self._checked
        ]
        self._checked.update(keys)
        if not new:
            return
        found = curve_problems(frame.iloc[new], stats={"flags": index.flags[new]})
        self.problems = [*self.problems, *found][-50:]
        warnings.warn(
            "PR curves with problems (kept and drawn; areas may be NaN): " + "; ".join(found),
            DataWarning,
            stacklevel=4,
        )

    # ------------------------------------------------------------- requests
    def _request_curves(self, content: dict[str, Any]) -> dict[str, Any]:
        """The curves of some rows (``{"rows": [...]}``, indices into the steps table)."""
        index = self._index
        if index is None:
            raise ValueError("no PR curves are loaded")
        total = len(index.frame)
        rows = [int(r) for r in content.get("rows", [])][:5000]
        bad = [r for r in rows if not 0 <= r < total]
        if bad:
            raise ValueError(f"no curve rows {bad[:5]} (there are {total})")
        return {"curves": curve_block(index, rows), "total": total}

    # -------------------------------------------------------------- refresh
    def _on_reload(self, report: Any = None) -> None:
        """Rebuild when the reload brought PR curves, runs or restarts."""
        added = getattr(report, "values_added", {}) or {}
        if report is not None and not (
            added.get("pr_curves")
            or getattr(report, "new_runs", None)
            or getattr(report, "points_purged", 0)
        ):
            return
        source = self._source
        with self._lock:
            before = len(self._index.frame) if self._index is not None else 0
            self._set_frame(source.pr_curves)
            assert self._index is not None
            self._sent += max(len(self._index.frame) - before, 0)

    # ---------------------------------------------------------------- views
    def chart_step(self, chart: str) -> int | None:
        """The step chart ``chart`` is at (its slider, the global one, or its latest)."""
        if chart in self.chart_steps:
            return int(self.chart_steps[chart])
        if self.step is not None:
            return int(self.step)
        return self._latest().get(chart)

    def _latest(self) -> dict[str, int]:
        """Each chart's latest step (of any run)."""
        index = self._index
        if index is None:
            return {}
        steps = index.frame["step"].to_numpy()
        out: dict[str, int] = {}
        for i, (_, tag) in enumerate(index.keys):
            last = int(steps[index.rows_of(i).stop - 1])
            out[tag] = max(out.get(tag, last), last)
        return out

    def _shown_rows(self) -> list[int]:
        """Rows of the curves drawn: per shown chart and selected run, its nearest step."""
        index = self._index
        if index is None:
            return []
        selected = set(self.selected_runs)
        charts = set(matching([c["tag"] for c in self.charts], self.tag_filter))
        steps = index.frame["step"].to_numpy()
        latest = self._latest()
        rows = []
        for i, (run, tag) in enumerate(index.keys):
            if run not in selected or tag not in charts:
                continue
            target = self.chart_steps.get(
                tag, self.step if self.step is not None else latest.get(tag)
            )
            span = index.rows_of(i)
            k = nearest_index(steps[span], target if target is not None else np.inf)
            if k >= 0:
                rows.append(span.start + k)
        return rows

    @property
    def data(self) -> pd.DataFrame:
        """The curves drawn, tidy: one row per threshold, as TensorBoard serves them.

        Columns of :func:`tbnb.analysis.pr_curves.pr_table` plus ``fpr`` and ``tpr``
        (the ROC view's points).
        """
        index = self._index
        frame = index.frame.iloc[self._shown_rows()] if index is not None else pd.DataFrame()
        if index is None or frame.empty:
            return pr_table(index.frame.iloc[:0] if index is not None else _EMPTY)
        table = pr_table(frame)
        fpr, tpr = roc_points(
            *(
                table[c].to_numpy(np.float64)
                for c in ("true_positives", "false_positives", "true_negatives", "false_negatives")
            )
        )
        return table.assign(fpr=fpr, tpr=tpr)

    @property
    def full_data(self) -> pd.DataFrame:
        """Every curve of the selected runs and shown tags, every step, tidy."""
        index = self._index
        if index is None:
            return pr_table(_EMPTY)
        selected = set(self.selected_runs)
        mask = np.isin(names_of(index.frame["run"]), list(selected))
        return pr_table(index.frame[mask])

    @property
    def auc(self) -> pd.DataFrame:
        """Areas of every curve of the selected runs, every step (the AUC-over-steps
        charts): run, tag, step, wall_time, average_precision, pr_auc, roc_auc,
        positives, negatives."""
        index = self._index
        if index is None:
            return pd.DataFrame()
        mask = np.isin(names_of(index.areas["run"]), list(self.selected_runs))
        return index.areas[mask].reset_index(drop=True)

    @property
    def shown_auc(self) -> pd.DataFrame:
        """Areas of the curves drawn (the legend and the table)."""
        index = self._index
        if index is None:
            return pd.DataFrame()
        return index.areas.iloc[self._shown_rows()].reset_index(drop=True)

    def view_spec(self) -> ViewSpec:
        """One chart per tag drawn, one curve per selected run at the chart's step."""
        return view_spec(
            self.data,
            self.shown_auc,
            self.charts,
            view=self.view,
            colors=self.run_colors,
            height=self.height,
        )


_EMPTY = pd.DataFrame(
    {
        c: []
        for c in (
            "run",
            "tag",
            "step",
            "wall_time",
            "thresholds",
            "precision",
            "recall",
            "true_positives",
            "false_positives",
            "true_negatives",
            "false_negatives",
        )
    }
)
