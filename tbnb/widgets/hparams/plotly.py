"""``HParamsWidget.to_plotly()``: the parallel coordinates as shown, as a plotly figure.

Examples
--------
>>> import pandas as pd, tbnb
>>> df = pd.DataFrame({"lr": [0.1, 0.01], "loss.last": [0.5, 0.3]},
...                   index=pd.Index(["a", "b"], name="run"))
>>> type(tbnb.hparams(df, importance=False).to_plotly().data[0]).__name__
'Parcoords'
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tbnb.widgets.base import optional

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.hparams.widget import HParamsWidget

__all__ = ["parcoords_figure"]


def parcoords_figure(widget: HParamsWidget) -> go.Figure:
    """A ``go.Parcoords`` figure of the current view (axes, order, scales, brushes, colour)."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")

    dimensions = []
    for name in widget.order:
        encoded = widget._columns[name]
        brush = widget.brushes.get(name)
        dim: dict[str, Any] = {"label": name}
        if encoded["kind"] == "number":
            values = encoded["values"].astype(np.float64)
            scale = widget.scales.get(name, "linear")
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
                dim["range"] = [hi_v, lo_v] if name in widget.inverted else [lo_v, hi_v]
        else:
            labels = encoded["labels"]
            codes = encoded["codes"].astype(np.float64)
            codes[codes < 0] = np.nan
            dim.update(values=codes, tickvals=list(range(len(labels))), ticktext=labels)
            top = max(len(labels) - 1, 0)
            dim["range"] = [top + 0.5, -0.5] if name in widget.inverted else [-0.5, top + 0.5]
            if brush and "values" in brush:
                chosen = [i for i, label in enumerate(labels) if label in brush["values"]]
                dim["constraintrange"] = [[i - 0.4, i + 0.4] for i in chosen] or None
        dimensions.append(dim)
    line: dict[str, Any] = {}
    if widget.color_by in widget._columns:
        encoded = widget._columns[widget.color_by]
        if encoded["kind"] == "number":
            line = {
                "color": encoded["values"],
                "colorscale": "Viridis",
                "showscale": True,
                "colorbar": {"title": {"text": widget.color_by}},
            }
        else:
            line = {"color": encoded["codes"], "colorscale": "Turbo"}
    figure = go.Figure(go.Parcoords(dimensions=dimensions, line=line))
    figure.update_layout(title={"text": f"{len(widget.selected)} of {len(widget._frame)} runs"})
    return figure
