"""The hparams dashboard: parallel coordinates, table, scatter matrix and parameter importance.

Python side of ``js/src/hparams.js`` (widget key ``"hparams"``). The table (one row
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

Parameter importance (:func:`tbnb.importance.parameter_importance`) is computed in
Python for the chosen metric and kept in the ``_importance`` trait; choosing another
metric in the browser asks the kernel for it with an ``"importance"`` request.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import ipywidgets
import numpy as np
import pandas as pd
import traitlets as t

from tbnb.hparams_discovery import REDUCTIONS, hparams_frame
from tbnb.importance import parameter_importance
from tbnb.widgets._base import TbnbWidget, check_kwargs
from tbnb.widgets.serializers import tree_serialization

if TYPE_CHECKING:
    import plotly.graph_objects as go
    from typing_extensions import Unpack

__all__ = ["HParamsOptions", "HParamsWidget", "hparams", "link"]

SCALES = ("linear", "log", "quantile")
MAX_DEFAULT_AXES = 20


class HParamsOptions(TypedDict, total=False):
    """Keyword arguments of :func:`hparams` beyond the documented ones."""

    metric_tags: Sequence[str]
    parse_run_names: bool
    scales: Mapping[str, str]
    inverted: Sequence[str]
    brushes: Mapping[str, Any]
    page_size: int
    height: int
    importance: bool


def _is_number(series: pd.Series) -> bool:
    return bool(pd.api.types.is_numeric_dtype(series)) and not pd.api.types.is_bool_dtype(series)


def _labels(series: pd.Series, domain: Mapping[str, Any] | None) -> list[str]:
    """Category labels: a declared discrete domain's order first, then sorted."""
    present = [str(v) for v in pd.unique(series.dropna())]
    declared: list[str] = []
    if domain and isinstance(domain.get("values"), list):
        declared = [_label(v) for v in domain["values"]]
    rest = sorted(set(present) - set(declared), key=_natural)
    return [d for d in declared if d in set(present)] + rest


def _label(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _natural(text: str) -> list[Any]:
    import re

    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", text)]


def _encode_column(
    name: str, series: pd.Series, role: str, domain: Mapping[str, Any] | None
) -> dict[str, Any]:
    if _is_number(series):
        values = pd.to_numeric(series, errors="coerce").astype("Float64")
        return {
            "name": name,
            "kind": "number",
            "role": role,
            "values": values.to_numpy(dtype=np.float64, na_value=np.nan),
        }
    labels = _labels(series, domain)
    index = {label: i for i, label in enumerate(labels)}
    codes = np.array([-1 if pd.isna(v) else index[str(v)] for v in series], dtype=np.int32)
    return {"name": name, "kind": "category", "role": role, "codes": codes, "labels": labels}


def _metric_columns_of(frame: pd.DataFrame) -> list[str]:
    declared = frame.attrs.get("metric_columns")
    if declared is not None:
        return [c for c in declared if c in frame.columns]
    return [
        c
        for c in frame.columns
        if isinstance(c, str) and c.rsplit(".", 1)[-1] in REDUCTIONS and _is_number(frame[c])
    ]


class HParamsWidget(TbnbWidget):
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
        Column whose value colours the lines.
    metric : str
        Metric of the scatter matrix and the importance panel.
    selected_runs : list of str
        Runs (rows and the runs merged into them) of the selected rows.
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
    page_size = t.Int(25).tag(sync=True)
    height = t.Int(320).tag(sync=True)
    _table = t.Dict().tag(sync=True, **tree_serialization)
    _importance = t.Dict().tag(sync=True, **tree_serialization)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._frame = pd.DataFrame()
        self._columns: dict[str, dict[str, Any]] = {}
        self._members: dict[str, list[str]] = {}
        self._hparam_columns: list[str] = []
        self._metric_columns: list[str] = []
        self._callbacks: list[Callable[[pd.DataFrame], Any]] = []
        self._last_rows: list[str] = []
        self._with_importance = True
        self.observe(self._on_brushes, "brushes")
        self.observe(self._on_metric, "metric")

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

    @t.validate("page_size")
    def _valid_page(self, proposal: Any) -> int:
        value = int(proposal["value"])
        if value < 1:
            raise t.TraitError(f"page_size must be >= 1, got {value}")
        return value

    # ----------------------------------------------------------------- data
    def _set_frame(self, frame: pd.DataFrame) -> None:
        hparam_columns = frame.attrs.get("hparam_columns")
        metric_columns = _metric_columns_of(frame)
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
            encoded = _encode_column(str(name), frame[name], role, domains.get(name))
            self._columns[str(name)] = encoded
            columns.append(encoded)
        self._frame = frame
        self._table = {"runs": runs, "members": self._members, "columns": columns}

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
        if self._with_importance and change["new"] and change["new"] not in self._importance:
            self._compute_importance(change["new"])

    # ----------------------------------------------------------------- public
    @property
    def frame(self) -> pd.DataFrame:
        """The whole table (one row per run), as given."""
        return self._frame

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
            brushes[column] = {"values": [_label(v) for v in selection]}
        self.brushes = brushes

    def clear_brushes(self) -> None:
        """Select every row again."""
        self.brushes = {}

    def importance(self, metric: str | None = None) -> pd.DataFrame:
        """Parameter importance of the hparams for ``metric`` (default the chosen one)."""
        metric = metric or self.metric
        if not metric:
            raise ValueError("no metric column to rate the hparams against")
        return parameter_importance(self._frame, metric, columns=self._hparam_columns)

    def _compute_importance(self, metric: str) -> None:
        if metric not in self._frame.columns:
            return
        imp = self.importance(metric)
        entry = {
            "feature": [str(f) for f in imp.index],
            "parameter": [str(p) for p in imp["parameter"]],
            "importance": imp["importance"].to_numpy(dtype=np.float64),
            "spearman": imp["spearman"].to_numpy(dtype=np.float64),
            "pearson": imp["pearson"].to_numpy(dtype=np.float64),
            "n": imp["n"].to_numpy(dtype=np.int32),
        }
        self._importance = {**self._importance, metric: entry}

    def _request_importance(self, content: dict[str, Any]) -> dict[str, Any]:
        metric = str(content.get("metric", ""))
        if metric not in self._metric_columns:
            raise ValueError(f"unknown metric {metric!r}")
        if metric not in self._importance:
            self._compute_importance(metric)
        return {"metric": metric}

    def to_plotly(self) -> go.Figure:
        """A ``go.Parcoords`` figure of the current view (axes, order, scales, brushes, colour)."""
        import plotly.graph_objects as go

        dimensions = []
        for name in self.order:
            encoded = self._columns[name]
            brush = self.brushes.get(name)
            dim: dict[str, Any] = {"label": name}
            if encoded["kind"] == "number":
                values = encoded["values"].astype(np.float64)
                scale = self.scales.get(name, "linear")
                finite = values[np.isfinite(values)]
                if scale == "log" and finite.size and (finite > 0).any():
                    with np.errstate(divide="ignore", invalid="ignore"):
                        shown = np.where(values > 0, np.log10(values), np.nan)
                    lo, hi = np.nanmin(shown), np.nanmax(shown)
                    ticks = np.arange(math.floor(lo), math.ceil(hi) + 1)
                    dim.update(tickvals=ticks.tolist(), ticktext=[f"1e{int(k)}" for k in ticks])
                    if brush and "range" in brush:
                        b_lo, b_hi = brush["range"]
                        dim["constraintrange"] = [
                            math.log10(b_lo) if b_lo > 0 else lo,
                            math.log10(b_hi) if b_hi > 0 else lo,
                        ]
                    dim["label"] = f"{name} (log)"
                elif scale == "quantile" and finite.size:
                    ranks = pd.Series(values).rank(pct=True).to_numpy()
                    shown = ranks
                    qs = np.quantile(finite, [0, 0.25, 0.5, 0.75, 1])
                    order = np.argsort(values[np.isfinite(values)], kind="stable")
                    at = np.interp(qs, finite[order], ranks[np.isfinite(values)][order])
                    dim.update(tickvals=at.tolist(), ticktext=[f"{q:.3g}" for q in qs])
                    if brush and "range" in brush:
                        b_lo, b_hi = brush["range"]
                        inside = ranks[(values >= b_lo) & (values <= b_hi)]
                        if inside.size:
                            dim["constraintrange"] = [float(inside.min()), float(inside.max())]
                    dim["label"] = f"{name} (quantile)"
                else:
                    shown = values
                    if brush and "range" in brush:
                        dim["constraintrange"] = list(brush["range"])
                dim["values"] = shown
                if finite.size:
                    lo_v, hi_v = float(np.nanmin(shown)), float(np.nanmax(shown))
                    dim["range"] = [hi_v, lo_v] if name in self.inverted else [lo_v, hi_v]
            else:
                labels = encoded["labels"]
                codes = encoded["codes"].astype(np.float64)
                codes[codes < 0] = np.nan
                dim.update(values=codes, tickvals=list(range(len(labels))), ticktext=labels)
                top = max(len(labels) - 1, 0)
                dim["range"] = [top + 0.5, -0.5] if name in self.inverted else [-0.5, top + 0.5]
                if brush and "values" in brush:
                    chosen = [i for i, label in enumerate(labels) if label in brush["values"]]
                    dim["constraintrange"] = [[i - 0.4, i + 0.4] for i in chosen] or None
            dimensions.append(dim)
        line: dict[str, Any] = {}
        if self.color_by in self._columns:
            encoded = self._columns[self.color_by]
            if encoded["kind"] == "number":
                line = {
                    "color": encoded["values"],
                    "colorscale": "Viridis",
                    "showscale": True,
                    "colorbar": {"title": {"text": self.color_by}},
                }
            else:
                line = {"color": encoded["codes"], "colorscale": "Turbo"}
        figure = go.Figure(go.Parcoords(dimensions=dimensions, line=line))
        figure.update_layout(title={"text": f"{len(self.selected)} of {len(self._frame)} runs"})
        return figure


def _frame_of(source: Any, metrics: str | Sequence[str], kw: Mapping[str, Any]) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        frame = source
        if "run" in frame.columns and frame.index.name != "run":
            frame = frame.set_index("run")
        return frame
    if isinstance(source, (str, os.PathLike)):
        import tbnb

        source = tbnb.load(os.fspath(source))
    defaults = (
        metrics in ("last", ("last",), ["last"])
        and not kw.get("metric_tags")
        and not kw.get("parse_run_names")
    )
    if defaults and isinstance(getattr(source, "hparams", None), pd.DataFrame):
        return source.hparams
    if all(hasattr(source, name) for name in ("runs", "scalars", "hparams_values", "run_path")):
        return hparams_frame(
            source,
            metrics=metrics,
            metric_tags=kw.get("metric_tags"),
            parse_run_names=bool(kw.get("parse_run_names", False)),
        )
    raise TypeError(
        "source must be an Experiment, a logdir path or a DataFrame with one row per run; "
        f"got {type(source).__name__}"
    )


def _default_metric(frame: pd.DataFrame, metric_columns: Sequence[str]) -> str:
    for declared in frame.attrs.get("declared_metrics") or []:
        for column in metric_columns:
            if column.rsplit(".", 1)[0] == declared:
                return str(column)
    for hint in ("val", "test", "acc", "loss"):
        for column in metric_columns:
            if hint in column.lower():
                return str(column)
    return str(metric_columns[0]) if metric_columns else ""


_OWN = ("metrics", "columns", "metric", "color")


def hparams(
    source: Any,
    *,
    metrics: str | Sequence[str] = ("last",),
    columns: Sequence[str] | None = None,
    metric: str | None = None,
    color: str | None = None,
    **kw: Unpack[HParamsOptions],
) -> HParamsWidget:
    """Interactive hparams view of an experiment, a logdir or a frame with one row per run.

    Parameters
    ----------
    source
        An ``Experiment`` (its ``.hparams``), a logdir path/URL, or a DataFrame with one
        row per run (index or ``run`` column), such as ``exp.hparams``.
    metrics
        Reductions of each scalar tag when the frame is built here (``"last"``,
        ``"min"``, ``"max"``, ``"mean"``).
    columns
        Axes of the parallel coordinates, in order; default every hparam column and
        then the metric columns (up to 20 axes, the chosen metric always included).
    metric
        Metric of the scatter matrix and importance panel; default the first declared
        metric, else a validation/test/accuracy/loss column, else the first metric.
    color
        Column colouring the lines (default ``metric``).
    **kw
        ``metric_tags``, ``parse_run_names`` (passed to
        :func:`tbnb.hparams_discovery.hparams_frame`),
        ``scales`` (axis -> ``"linear"``/``"log"``/``"quantile"``), ``inverted`` (axes),
        ``brushes`` (initial brushes), ``page_size`` (table rows per page, default 25),
        ``height`` (pixels of the parallel coordinates, default 320), ``importance``
        (compute parameter importance, default True). Anything else raises ``TypeError``.

    Examples
    --------
    >>> import pandas as pd, tbnb
    >>> df = pd.DataFrame({"lr": [0.1, 0.01, 0.001], "opt": ["adam", "sgd", "sgd"],
    ...                    "loss.last": [0.5, 0.3, 0.4]},
    ...                   index=pd.Index(["a", "b", "c"], name="run"))
    >>> w = tbnb.hparams(df, importance=False)
    >>> w.brush("opt", ["sgd"])
    >>> list(w.selected.index), w.selected_runs
    (['b', 'c'], ['b', 'c'])
    """
    check_kwargs("hparams", dict(kw), HParamsOptions.__annotations__)
    frame = _frame_of(source, metrics, kw)
    if not frame.columns.is_unique:
        raise ValueError("the hparams frame has duplicate column names")
    widget = HParamsWidget(
        page_size=kw.get("page_size", 25),
        height=kw.get("height", 320),
    )
    widget._with_importance = bool(kw.get("importance", True))
    widget._set_frame(frame)
    known = list(frame.columns)
    for name, given in (
        ("metric", [metric] if metric else []),
        ("color", [color] if color else []),
        ("columns", list(columns or [])),
        ("inverted", list(kw.get("inverted", []))),
        ("scales", list(kw.get("scales", {}))),
    ):
        unknown = [c for c in given if c not in known]
        if unknown:
            raise ValueError(f"{name}= names unknown column(s) {unknown}; columns are {known}")
    chosen = metric or _default_metric(frame, widget._metric_columns)
    if columns is None:
        axes = list(widget._hparam_columns)
        metric_axes = [chosen] if chosen else []
        metric_axes += [c for c in widget._metric_columns if c != chosen]
        room = max(MAX_DEFAULT_AXES - len(axes), 1 if chosen else 0)
        axes += metric_axes[:room]
    else:
        axes = list(columns)
    widget.order = axes
    widget.inverted = list(kw.get("inverted", []))
    widget.scales = dict(kw.get("scales", {}))
    widget.color_by = color or chosen or (axes[0] if axes else "")
    widget.brushes = dict(kw.get("brushes", {}))
    widget._on_brushes()
    widget.metric = chosen
    return widget


def link(hp: HParamsWidget, scalars: Any) -> ipywidgets.widgets.widget_link.Link:
    """Show in ``scalars`` only the runs selected in ``hp``.

    The link lives in the browser (``ipywidgets.jsdlink``: a saved notebook or an
    exported page stays linked) and in Python (setting ``hp.brushes`` updates
    ``scalars.selected_runs`` with no browser). Returns the browser link;
    ``.unlink()`` it to stop.

    Examples
    --------
    >>> import pandas as pd, tbnb
    >>> long = pd.DataFrame({"run": ["a", "b"], "tag": "loss", "step": 0,
    ...                      "wall_time": 0.0, "value": [1.0, 2.0]})
    >>> table = pd.DataFrame({"lr": [0.1, 0.01]}, index=pd.Index(["a", "b"], name="run"))
    >>> hp, sc = tbnb.hparams(table, importance=False), tbnb.scalars(long)
    >>> _ = tbnb.link(hp, sc)
    >>> hp.brush("lr", (0.05, 1.0))
    >>> sc.selected_runs
    ['a']
    """
    if not isinstance(hp, HParamsWidget):
        raise TypeError(f"link() needs an HParamsWidget first, got {type(hp).__name__}")
    if not hasattr(scalars, "selected_runs"):
        raise TypeError(f"link() needs a widget with selected_runs, got {type(scalars).__name__}")

    def forward(change: Any) -> None:
        scalars.selected_runs = list(change["new"])

    hp.observe(forward, "selected_runs")
    scalars.selected_runs = list(hp.selected_runs)
    browser_link = ipywidgets.jsdlink((hp, "selected_runs"), (scalars, "selected_runs"))
    original_unlink = browser_link.unlink

    def unlink() -> None:
        hp.unobserve(forward, "selected_runs")
        original_unlink()

    browser_link.unlink = unlink
    return browser_link
