"""Pure preparation of the hparams view: column encodings for the browser.

Numbers travel as float64 (NaN = missing), everything else as int32 codes into a
list of labels (-1 = missing), a declared discrete domain's order first.

Examples
--------
>>> import pandas as pd
>>> enc = encode_column("opt", pd.Series(["sgd", None, "adam"]), "hparam", None)
>>> enc["labels"], enc["codes"].tolist()
(['adam', 'sgd'], [1, -1, 0])
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.analysis.hparams import REDUCTIONS
from tbnb.widgets.spec import Mark, Panel, ViewSpec

__all__ = [
    "LOG_SPAN",
    "default_axes",
    "default_metric",
    "default_metrics",
    "default_scales",
    "encode_column",
    "is_number",
    "label_of",
    "metric_columns_of",
    "natural",
    "view_spec",
]


def is_number(series: pd.Series) -> bool:
    """Whether a column is drawn as numbers (booleans are categories).

    Examples
    --------
    >>> is_number(pd.Series([1, 2])), is_number(pd.Series([True, False]))
    (True, False)
    """
    return bool(pd.api.types.is_numeric_dtype(series)) and not pd.api.types.is_bool_dtype(series)


def _labels(series: pd.Series, domain: Mapping[str, Any] | None) -> list[str]:
    """Category labels: a declared discrete domain's order first, then sorted."""
    present = [str(v) for v in pd.unique(series.dropna())]
    declared: list[str] = []
    if domain and isinstance(domain.get("values"), list):
        declared = [label_of(v) for v in domain["values"]]
    rest = sorted(set(present) - set(declared), key=natural)
    return [d for d in declared if d in set(present)] + rest


def label_of(value: Any) -> str:
    """The label of a category value (``2.0`` reads ``"2"``).

    Examples
    --------
    >>> label_of(2.0), label_of(0.5), label_of("adam")
    ('2', '0.5', 'adam')
    """
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def natural(text: str) -> list[Any]:
    """Sort key with the digits of ``text`` read as numbers.

    Examples
    --------
    >>> sorted(["b10", "b9", "a"], key=natural)
    ['a', 'b9', 'b10']
    """
    import re

    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", text)]


def encode_column(
    name: str, series: pd.Series, role: str, domain: Mapping[str, Any] | None
) -> dict[str, Any]:
    """One column for the browser: numbers as float64 (NaN = missing), anything else as
    int32 codes into labels (-1 = missing).

    Examples
    --------
    >>> encode_column("lr", pd.Series([0.1, None]), "hparam", None)["values"].tolist()
    [0.1, nan]
    """
    if is_number(series):
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


def metric_columns_of(frame: pd.DataFrame) -> list[str]:
    """The metric columns: ``attrs["metric_columns"]``, else numeric ``<tag>.<reduction>``.

    Examples
    --------
    >>> metric_columns_of(pd.DataFrame({"lr": [0.1], "loss.last": [0.5]}))
    ['loss.last']
    """
    declared = frame.attrs.get("metric_columns")
    if declared is not None:
        return [c for c in declared if c in frame.columns]
    return [
        c
        for c in frame.columns
        if isinstance(c, str) and c.rsplit(".", 1)[-1] in REDUCTIONS and is_number(frame[c])
    ]


#: A positive numeric column whose largest value is at least this many times its smallest
#: gets a log axis by default (learning rates, weight decays, batch sizes over decades).
LOG_SPAN = 100.0


def default_scales(frame: pd.DataFrame, columns: Sequence[str]) -> dict[str, str]:
    """``{column: "log"}`` for each numeric column whose finite values are all positive and
    span at least :data:`LOG_SPAN` times (max / min); other columns stay linear.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"lr": [1e-4, 1e-3, 1e-1], "bs": [16, 32, 64], "x": [-1.0, 1, 500]})
    >>> default_scales(df, ["lr", "bs", "x"])
    {'lr': 'log'}
    """
    out: dict[str, str] = {}
    for name in columns:
        series = frame[name]
        if not is_number(series):
            continue
        values = pd.to_numeric(series, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
        finite = values[np.isfinite(values)]
        if finite.size >= 2 and (finite > 0).all() and finite.max() >= LOG_SPAN * finite.min():
            out[str(name)] = "log"
    return out


def default_metrics(frame: pd.DataFrame, metric_columns: Sequence[str]) -> list[str] | None:
    """The metric columns the frame marks as defaults (``frame.attrs["default_metrics"]``:
    declared metrics first, then metric-looking tags), present and without duplicates;
    a name without its ``.<reduction>`` suffix stands for its columns. ``None`` when the
    frame marks none.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"lr": [0.1], "val/acc.last": [0.9], "loss.last": [0.3]})
    >>> df.attrs["default_metrics"] = ["val/acc", "val/acc.last", "gone.last"]
    >>> default_metrics(df, ["val/acc.last", "loss.last"])
    ['val/acc.last']
    """
    marked = frame.attrs.get("default_metrics")
    if marked is None:
        return None
    out: list[str] = []
    for given in marked:
        name = str(given)
        matches = (
            [name]
            if name in metric_columns
            else [c for c in metric_columns if c.rsplit(".", 1)[0] == name]
        )
        for column in matches:
            if column not in out:
                out.append(column)
    return out


def default_metric(frame: pd.DataFrame, metric_columns: Sequence[str]) -> str:
    """The metric of the scatter plots and importance: the first default metric, else the
    first declared one, else a validation/test/accuracy/loss column, else the first.

    Examples
    --------
    >>> import pandas as pd
    >>> default_metric(pd.DataFrame(), ["train/loss.last", "val/acc.last"])
    'val/acc.last'
    """
    marked = default_metrics(frame, metric_columns)
    if marked:
        return marked[0]
    for declared in frame.attrs.get("declared_metrics") or []:
        for column in metric_columns:
            if column.rsplit(".", 1)[0] == declared:
                return str(column)
    for hint in ("val", "test", "acc", "loss"):
        for column in metric_columns:
            if hint in column.lower():
                return str(column)
    return str(metric_columns[0]) if metric_columns else ""


def default_axes(
    frame: pd.DataFrame,
    hparam_columns: Sequence[str],
    metric_columns: Sequence[str],
    metric: str,
    limit: int,
) -> list[str]:
    """Axes shown by default: every hparam, then the default metrics the frame marks
    (:func:`default_metrics`), else ``metric`` and the other metric columns; at most
    ``limit`` axes, ``metric`` always among them.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"lr": [0.1], "a.last": [1.0], "b.last": [2.0], "c.last": [3.0]})
    >>> default_axes(df, ["lr"], ["a.last", "b.last", "c.last"], "b.last", 20)
    ['lr', 'b.last', 'a.last', 'c.last']
    >>> df.attrs["default_metrics"] = ["c.last"]
    >>> default_axes(df, ["lr"], ["a.last", "b.last", "c.last"], "c.last", 20)
    ['lr', 'c.last']
    """
    axes = list(hparam_columns)
    marked = default_metrics(frame, metric_columns)
    if marked:
        metric_axes = ([metric] if metric and metric not in marked else []) + marked
    else:
        metric_axes = ([metric] if metric else []) + [c for c in metric_columns if c != metric]
    room = max(limit - len(axes), 1 if metric_axes else 0)
    return axes + metric_axes[:room]


def view_spec(
    columns: Mapping[str, Mapping[str, Any]],
    order: Sequence[str],
    *,
    scales: Mapping[str, str],
    brushes: Mapping[str, Any],
    inverted: Sequence[str] = (),
    color_by: str = "",
    title: str = "",
) -> ViewSpec:
    """The parallel coordinates of the encoded ``columns`` (:func:`encode_column`) in
    ``order``: log axes as powers of ten, quantile axes as ranks, brushes as constraints,
    lines coloured by ``color_by``.

    Examples
    --------
    >>> columns = {"lr": encode_column("lr", pd.Series([0.1, 0.001]), "hparam", None)}
    >>> spec = view_spec(columns, ["lr"], scales={"lr": "log"}, brushes={})
    >>> axis = spec.panels[0].marks[0].data["axes"][0]
    >>> axis["label"], axis["values"].tolist()
    ('lr (log)', [-1.0, -3.0])
    """
    axes = [
        _number_axis(name, columns[name], scales.get(name, "linear"), brushes.get(name))
        if columns[name]["kind"] == "number"
        else _label_axis(name, columns[name], brushes.get(name))
        for name in order
    ]
    for name, axis in zip(order, axes, strict=True):
        if name in inverted and axis.get("range") is not None:
            axis["range"] = axis["range"][::-1]
    color, style = None, {}
    encoded = columns.get(color_by)
    if encoded is not None and encoded["kind"] == "number":
        color, style = encoded["values"], {"colorscale": "Viridis", "colorbar": color_by}
    elif encoded is not None:
        color, style = encoded["codes"], {"colorscale": "Turbo"}
    lines = Mark("parallel", {"axes": axes}, color=color, style=style)
    return ViewSpec([Panel(marks=[lines])], grid=False, title=title)


def _number_axis(
    name: str, encoded: Mapping[str, Any], scale: str, brush: Mapping[str, Any] | None
) -> dict[str, Any]:
    values = encoded["values"].astype(np.float64)
    finite = values[np.isfinite(values)]
    axis: dict[str, Any] = {"label": name}
    span = brush["range"] if brush and "range" in brush else None
    if scale == "log" and finite.size and (finite > 0).any():
        with np.errstate(divide="ignore", invalid="ignore"):
            shown = np.where(values > 0, np.log10(values), np.nan)
        lo, hi = np.nanmin(shown), np.nanmax(shown)
        ticks = np.arange(math.floor(lo), math.ceil(hi) + 1)
        axis.update(label=f"{name} (log)", ticks=(ticks.tolist(), [f"1e{int(k)}" for k in ticks]))
        if span is not None:
            axis["brush"] = [math.log10(v) if v > 0 else lo for v in span]
    elif scale == "quantile" and finite.size:
        shown = pd.Series(values).rank(pct=True).to_numpy()
        qs = np.quantile(finite, [0, 0.25, 0.5, 0.75, 1])
        order = np.argsort(values[np.isfinite(values)], kind="stable")
        at = np.interp(qs, finite[order], shown[np.isfinite(values)][order])
        axis.update(label=f"{name} (quantile)", ticks=(at.tolist(), [f"{q:.3g}" for q in qs]))
        if span is not None:
            inside = shown[(values >= span[0]) & (values <= span[1])]
            if inside.size:
                axis["brush"] = [float(inside.min()), float(inside.max())]
    else:
        shown = values
        if span is not None:
            axis["brush"] = list(span)
    axis["values"] = shown
    if finite.size:
        axis["range"] = [float(np.nanmin(shown)), float(np.nanmax(shown))]
    return axis


def _label_axis(
    name: str, encoded: Mapping[str, Any], brush: Mapping[str, Any] | None
) -> dict[str, Any]:
    labels = encoded["labels"]
    codes = encoded["codes"].astype(np.float64)
    codes[codes < 0] = np.nan
    top = max(len(labels) - 1, 0)
    axis: dict[str, Any] = {"label": name, "values": codes, "range": [-0.5, top + 0.5]}
    axis["ticks"] = (list(range(len(labels))), labels)
    if brush and "values" in brush:
        chosen = [i for i, label in enumerate(labels) if label in brush["values"]]
        axis["brush"] = [[i - 0.4, i + 0.4] for i in chosen] or None
    return axis
