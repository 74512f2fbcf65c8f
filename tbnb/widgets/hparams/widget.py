"""The hparams dashboard: parallel coordinates, table, scatter matrix and parameter importance.

Python side of ``js/src/widgets/hparams/`` (widget key ``"hparams"``). The table (one row
per run, ``exp.hparams``) goes to the browser once, as binary columns in the
``_table`` trait: numbers as float64 (NaN = missing), everything else as int32 codes
into a list of labels (-1 = missing). The browser does the rest with no kernel round
trip: brushing, axis order, invert, linear/log/quantile scales, colouring, hover
linking, table sorting, filtering, paging and CSV. Brushes live in the ``brushes``
trait in value space (``{"lr": {"range": [lo, hi]}, "opt": {"values": ["adam"]}}``);
both sides apply them the same way (inclusive ranges, missing values never pass a
brushed axis), so :attr:`HParamsWidget.selected` is right whether the brush came from
the mouse or from Python. The browser also writes ``selected_runs``: the runs whose
scalars belong to the selected rows (a row's merged ``add_hparams`` sub-run and its
``train``/``validation`` metric groups included), which :func:`link` forwards to a
scalars widget, in the browser (``jsdlink``, so a saved notebook stays linked) and in
Python.

Parameter importance (:func:`tbnb.analysis.importance.parameter_importance`) is computed in
Python for the chosen metric and kept in the ``_importance`` trait (metric -> entry). It is
computed in a background thread (:mod:`tbnb.widgets.hparams.importance`: scikit-learn's
import alone takes seconds), so the widget is built, and the table and parallel
coordinates shown, without waiting for it; the browser says "computing importance…" until
the entry arrives. A result for a table the widget no longer shows, or for a metric no
longer chosen, is dropped. Choosing another metric computes its importance the same way
(the browser also asks with an ``"importance"`` request); :meth:`HParamsWidget.wait_ready`
waits for it (an export does, so the page carries the importance).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.analysis.importance import parameter_importance
from tbnb.widgets.base import TbnbWidget
from tbnb.widgets.colors import RunColored
from tbnb.widgets.hparams.importance import ImportanceJobs, Key, timed_out_entry
from tbnb.widgets.hparams.prepare import (
    default_axes,
    default_metric,
    default_scales,
    encode_column,
    label_of,
    metric_columns_of,
    view_spec,
)
from tbnb.widgets.serializers import tree_serialization
from tbnb.widgets.traits import IntRange

if TYPE_CHECKING:
    from tbnb.widgets.spec import ViewSpec

__all__ = ["MAX_DEFAULT_AXES", "SCALES", "HParamsWidget"]

SCALES = ("linear", "log", "quantile")

MAX_DEFAULT_AXES = 20
"""Axes shown by default (hparams first, then metrics)."""


class HParamsWidget(TbnbWidget, RunColored):
    """Parallel coordinates, table, scatter matrix and importance (build it with :func:`hparams`).

    Traits (synced with the browser)
    --------------------------------
    order : list of str
        The axes of the parallel coordinates, left to right.
    inverted : list of str
        Axes drawn upside down.
    scales : dict
        Axis -> ``"linear"``, ``"log"`` or ``"quantile"`` (numeric axes; default linear).
    brushes : dict
        Axis -> ``{"range": [lo, hi]}`` (numeric) or ``{"values": [labels]}``
        (categorical). Rows pass when they pass every brush.
    color_by : str
        Column whose value colours the lines, or ``"run"`` (the run colours).
    metric : str
        Metric of the scatter matrix and the importance panel.
    selected_runs : list of str
        Runs (rows and the runs merged into them) of the selected rows.
    run_colors : dict
        Row (run) -> CSS colour, from :func:`tbnb.widgets.colors.run_colors` in the
        experiment's run order: the colours of the same runs in the scalars charts.
    palette : str
        ``"default"`` or ``"colorblind"``: the run colours and the colours of categories.
    page_size : int
        Table rows per page.
    """

    _widget_key = "hparams"

    order = t.List(t.Unicode()).tag(sync=True)
    inverted = t.List(t.Unicode()).tag(sync=True)
    scales = t.Dict().tag(sync=True)
    brushes = t.Dict().tag(sync=True)
    color_by = t.Unicode("").tag(sync=True)
    metric = t.Unicode("").tag(sync=True)
    selected_runs = t.List(t.Unicode()).tag(sync=True)
    page_size = IntRange(25, lo=1).tag(sync=True)
    height = t.Int(320).tag(sync=True)
    _table = t.Dict().tag(sync=True, **tree_serialization)
    _importance = t.Dict().tag(sync=True, **tree_serialization)

    def __init__(
        self,
        *,
        frame: pd.DataFrame | None = None,
        source_runs: Sequence[str] | None = None,
        importance: bool = True,
        columns: Sequence[str] | None = None,
        metric: str | None = None,
        color: str | None = None,
        inverted: Sequence[str] = (),
        scales: Mapping[str, str] | None = None,
        brushes: Mapping[str, Any] | None = None,
        **traits: Any,
    ) -> None:
        """Show ``frame`` (one row per run), its runs coloured in ``source_runs``' order;
        the other arguments are :func:`hparams`'s."""
        super().__init__(**traits)
        self._frame = pd.DataFrame()
        self._columns: dict[str, dict[str, Any]] = {}
        self._members: dict[str, list[str]] = {}
        self._hparam_columns: list[str] = []
        self._metric_columns: list[str] = []
        self._callbacks: list[Callable[[pd.DataFrame], Any]] = []
        self._last_rows: list[str] = []
        self._with_importance = importance
        self._generation = 0  # counts the tables shown: a job of an older one is stale
        self._asked: set[str] = set()  # metrics the browser asked for since the last change
        self._jobs = ImportanceJobs(self._wanted, self._deliver)
        self.observe(self._on_brushes, "brushes")
        self.observe(self._on_metric, "metric")
        if frame is not None:
            self._show(frame, source_runs, columns, metric, color, inverted, scales or {})
            self.inverted = list(inverted)
            self.scales = {**default_scales(frame, list(frame.columns)), **dict(scales or {})}
            self.brushes = dict(brushes or {})
            self._on_brushes()
            self.metric = self._chosen

    def _show(
        self,
        frame: pd.DataFrame,
        source_runs: Sequence[str] | None,
        columns: Sequence[str] | None,
        metric: str | None,
        color: str | None,
        inverted: Sequence[str],
        scales: Mapping[str, str],
    ) -> None:
        if not frame.columns.is_unique:
            raise ValueError("the hparams frame has duplicate column names")
        self._set_frame(frame, source_runs=source_runs)
        known = list(frame.columns)
        for name, given in (
            ("metric", [metric] if metric else []),
            ("color", [color] if color and color != "run" else []),
            ("columns", list(columns or [])),
            ("inverted", list(inverted)),
            ("scales", list(scales)),
        ):
            unknown = [c for c in given if c not in known]
            if unknown:
                raise ValueError(f"{name}= names unknown column(s) {unknown}; columns are {known}")
        self._chosen = metric or default_metric(frame, self._metric_columns)
        if columns is None:
            axes = default_axes(
                frame, self._hparam_columns, self._metric_columns, self._chosen, MAX_DEFAULT_AXES
            )
        else:
            axes = list(columns)
        self.order = axes
        self.color_by = color or self._chosen or (axes[0] if axes else "")

    # ----------------------------------------------------------------- validation
    @t.validate("scales")
    def _valid_scales(self, proposal: Any) -> dict[str, str]:
        value = dict(proposal["value"])
        for column, scale in value.items():
            if scale not in SCALES:
                raise t.TraitError(f"scale of {column!r} must be one of {SCALES}, got {scale!r}")
        return value

    @t.validate("brushes")
    def _valid_brushes(self, proposal: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for column, brush in dict(proposal["value"]).items():
            if self._columns and column not in self._columns:
                raise t.TraitError(f"cannot brush unknown column {column!r}")
            if isinstance(brush, Mapping) and "range" in brush:
                lo, hi = (float(v) for v in brush["range"])
                out[column] = {"range": [min(lo, hi), max(lo, hi)]}
            elif isinstance(brush, Mapping) and "values" in brush:
                out[column] = {"values": [str(v) for v in brush["values"]]}
            else:
                raise t.TraitError(
                    f"brush of {column!r} must be {{'range': [lo, hi]}} or {{'values': [...]}}"
                )
        return out

    @t.validate("color_by")
    def _valid_color_by(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value and value != "run" and self._columns and value not in self._columns:
            raise t.TraitError(f"color_by must be a column or 'run', got {value!r}")
        return value

    def _set_frame(self, frame: pd.DataFrame, source_runs: Sequence[str] | None = None) -> None:
        with self._jobs.lock:  # no importance of the old table lands after this
            self._generation += 1
            self._asked.clear()
            self._importance = {}
        hparam_columns = frame.attrs.get("hparam_columns")
        metric_columns = metric_columns_of(frame)
        if hparam_columns is None:
            hparam_columns = [c for c in frame.columns if c not in metric_columns]
        self._hparam_columns = [str(c) for c in hparam_columns if c in frame.columns]
        self._metric_columns = [str(c) for c in metric_columns]
        domains = frame.attrs.get("domains") or {}
        runs = [str(r) for r in frame.index]
        members = frame.attrs.get("members") or {}
        self._members = {run: [str(m) for m in members.get(run, [run])] for run in runs}
        columns = []
        self._columns = {}
        for name in frame.columns:
            role = "metric" if name in self._metric_columns else "hparam"
            encoded = encode_column(str(name), frame[name], role, domains.get(name))
            self._columns[str(name)] = encoded
            columns.append(encoded)
        self._frame = frame
        known = [str(r) for r in source_runs] if source_runs is not None else []
        self.color_runs(known + [r for r in runs if r not in set(known)])
        self._table = {"runs": runs, "members": self._members, "columns": columns}
        if self.metric:
            self._compute_importance(self.metric)

    def _row_mask(self, brushes: Mapping[str, Any]) -> np.ndarray[Any, Any]:
        """Rows passing every brush (the browser computes exactly the same)."""
        mask = np.ones(len(self._frame), dtype=bool)
        for column, brush in brushes.items():
            encoded = self._columns.get(column)
            if encoded is None:
                continue
            if "range" in brush:
                lo, hi = brush["range"]
                if encoded["kind"] != "number":
                    continue
                values = encoded["values"]
                with np.errstate(invalid="ignore"):
                    mask &= (values >= lo) & (values <= hi)
            else:
                labels = encoded.get("labels")
                if labels is None:  # a set of numbers on a number axis
                    wanted = [float(v) for v in brush["values"]]
                    mask &= np.isin(encoded["values"], wanted)
                    continue
                wanted_codes = [i for i, label in enumerate(labels) if label in brush["values"]]
                mask &= np.isin(encoded["codes"], wanted_codes)
        return mask

    def _selected_rows(self) -> list[str]:
        mask = self._row_mask(self.brushes)
        return [str(r) for r, keep in zip(self._frame.index, mask, strict=True) if keep]

    def _on_brushes(self, _change: Any = None) -> None:
        rows = self._selected_rows()
        runs = [m for row in rows for m in self._members.get(row, [row])]
        if runs != list(self.selected_runs):
            self.selected_runs = runs
        if rows != self._last_rows:
            self._last_rows = rows
            selected = self.selected
            for callback in list(self._callbacks):
                callback(selected)

    def _on_metric(self, change: Any) -> None:
        with self._jobs.lock:  # the old metric's result is no longer wanted
            self._asked.clear()
        if change["new"]:
            self._compute_importance(change["new"])

    # ----------------------------------------------------------------- public
    @property
    def frame(self) -> pd.DataFrame:
        """The whole table (one row per run), as given."""
        return self._frame

    @property
    def known_runs(self) -> list[str]:
        """Every run the table stands for: each row's members (its sub-runs), in order."""
        return [m for row in self._frame.index for m in self._members.get(str(row), [str(row)])]

    @property
    def selected(self) -> pd.DataFrame:
        """Rows of the table that pass every brush (all rows when nothing is brushed)."""
        return self._frame[self._row_mask(self.brushes)]

    def on_select(self, callback: Callable[[pd.DataFrame], Any]) -> None:
        """Call ``callback(selected_frame)`` whenever the selection changes."""
        self._callbacks.append(callback)

    def brush(self, column: str, selection: Sequence[Any] | None) -> None:
        """Brush ``column``: ``(lo, hi)`` on a numeric axis, a list of values on a
        categorical one, ``None`` to clear it."""
        brushes = dict(self.brushes)
        if selection is None:
            brushes.pop(column, None)
        elif self._columns.get(column, {}).get("kind") == "number" and len(selection) == 2:
            brushes[column] = {"range": [float(selection[0]), float(selection[1])]}
        else:
            brushes[column] = {"values": [label_of(v) for v in selection]}
        self.brushes = brushes

    def clear_brushes(self) -> None:
        """Select every row again."""
        self.brushes = {}

    def importance(self, metric: str | None = None) -> pd.DataFrame:
        """Parameter importance of the hparams for ``metric`` (default the chosen one).

        The random forest needs scikit-learn (``pip install 'tbnb[stats]'``); without
        it this raises an error naming the extra, and the view shows the correlations.
        """
        metric = metric or self.metric
        if not metric:
            raise ValueError("no metric column to rate the hparams against")
        return parameter_importance(self._frame, metric, columns=self._hparam_columns)

    def wait_ready(self, timeout: float | None = 60.0) -> bool:
        """Wait until the importance of the chosen metric is computed (it is computed in
        the background); False if ``timeout`` seconds passed first, and then the panel
        (and a page or notebook saved now) says it was not ready.

        Examples
        --------
        >>> import pandas as pd, tbnb
        >>> df = pd.DataFrame({"bs": [16, 32, 64], "loss.last": [3.0, 2.0, 1.0]})
        >>> w = tbnb.hparams(df)
        >>> w.wait_ready(), w._importance["loss.last"]["feature"]
        (True, ['bs'])
        """
        if self._jobs.wait(timeout):
            return True
        with self._jobs.lock:
            metric = self.metric
            if metric and metric not in self._importance and timeout is not None:
                self._importance = {**self._importance, metric: timed_out_entry(timeout)}
        return False

    def _wanted(self, key: Key) -> bool:
        """Whether a job's result still belongs in the view: the table shown, and the
        chosen metric (or one the browser asked for: its request comes before the
        change of ``metric`` that caused it)."""
        generation, metric = key
        return generation == self._generation and (metric == self.metric or metric in self._asked)

    def _deliver(self, metric: str, entry: dict[str, Any]) -> None:
        self._importance = {**self._importance, metric: entry}

    def _compute_importance(self, metric: str) -> None:
        """Start computing ``metric``'s importance in the background (unless it is known)."""
        if not self._with_importance or metric not in self._frame.columns:
            return
        with self._jobs.lock:
            known = self._importance.get(metric)
            if known is not None and "pending" not in known:
                return
            key = (self._generation, metric)
        self._jobs.start(key, self._frame, self._hparam_columns)

    def _request_importance(self, content: dict[str, Any]) -> dict[str, Any]:
        metric = str(content.get("metric", ""))
        if metric not in self._metric_columns:
            raise ValueError(f"unknown metric {metric!r}")
        with self._jobs.lock:
            self._asked.add(metric)
        self._compute_importance(metric)
        return {"metric": metric}

    def view_spec(self) -> ViewSpec:
        """The parallel coordinates as shown: axes, order, scales, brushes, colour."""
        return view_spec(
            self._columns,
            self.order,
            scales=self.scales,
            brushes=self.brushes,
            inverted=self.inverted,
            color_by=self.color_by,
            title=f"{len(self.selected)} of {len(self._frame)} runs",
        )
