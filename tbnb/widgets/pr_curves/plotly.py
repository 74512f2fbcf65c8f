"""``PrCurvesWidget.to_plotly()``: the curves as shown, as a plotly figure.

Examples
--------
>>> import numpy as np, pandas as pd, tbnb
>>> tp = np.array([2.0, 1, 0])
>>> frame = pd.DataFrame({"run": "a", "tag": "pr", "step": [0], "wall_time": [0.0],
...     "thresholds": [np.linspace(0, 1, 3)], "precision": [tp / 2], "recall": [tp / 2],
...     "true_positives": [tp], "false_positives": [tp], "true_negatives": [2 - tp],
...     "false_negatives": [2 - tp]})
>>> len(tbnb.pr_curves(frame).to_plotly().data)
1
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from tbnb.widgets.base import optional
from tbnb.widgets.colors import DEFAULT_PALETTE

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.pr_curves.widget import PrCurvesWidget

__all__ = ["pr_figure"]


def pr_figure(widget: PrCurvesWidget) -> go.Figure:
    """One subplot per chart shown, one line per selected run at the chart's step; hover
    gives the threshold and the counts. Areas are in the trace names."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")
    make_subplots = optional("plotly.subplots", "plotly", "to_plotly()").make_subplots
    table = widget.data
    areas = widget.shown_auc
    tags = [c["tag"] for c in widget.charts if c["tag"] in set(table["tag"].astype(str))]
    ncols = min(3, max(len(tags), 1))
    nrows = max(math.ceil(len(tags) / ncols), 1)
    fig = make_subplots(rows=nrows, cols=ncols, subplot_titles=tags or None)
    roc = widget.view == "roc"
    x_name, y_name = ("fpr", "tpr") if roc else ("recall", "precision")
    area = "roc_auc" if roc else "average_precision"
    label = "ROC-AUC" if roc else "AP"
    for k, tag in enumerate(tags):
        row, col = k // ncols + 1, k % ncols + 1
        part = table[table["tag"].astype(str) == tag]
        for run, curve in part.groupby(part["run"].astype(str), sort=False):
            match = areas[(areas["run"].astype(str) == run) & (areas["tag"].astype(str) == tag)]
            value = float(match[area].iloc[0]) if len(match) else float("nan")
            step = int(curve["step"].iloc[0])
            text = [
                f"threshold {t:.4g}<br>precision {p:.4g}<br>recall {r:.4g}<br>"
                f"TP {tp:g} FP {fp:g} TN {tn:g} FN {fn:g}"
                for t, p, r, tp, fp, tn, fn in zip(
                    curve["threshold"],
                    curve["precision"],
                    curve["recall"],
                    curve["true_positives"],
                    curve["false_positives"],
                    curve["true_negatives"],
                    curve["false_negatives"],
                    strict=True,
                )
            ]
            fig.add_trace(
                go.Scatter(
                    x=curve[x_name].to_numpy(),
                    y=curve[y_name].to_numpy(),
                    mode="lines+markers",
                    marker={"size": 3},
                    name=f"{run} (step {step}, {label} {value:.3f})",
                    legendgroup=run,
                    text=text,
                    hovertemplate="%{text}<extra>%{fullData.name}</extra>",
                    line={"color": widget.run_colors.get(run, DEFAULT_PALETTE[0])},
                ),
                row=row,
                col=col,
            )
        if roc:
            fig.add_trace(
                go.Scatter(
                    x=np.array([0.0, 1.0]),
                    y=np.array([0.0, 1.0]),
                    mode="lines",
                    line={"dash": "dot", "color": "#999"},
                    showlegend=False,
                    hoverinfo="skip",
                ),
                row=row,
                col=col,
            )
        fig.update_xaxes(title_text="FPR" if roc else "recall", range=[0, 1], row=row, col=col)
        fig.update_yaxes(
            title_text="TPR" if roc else "precision", range=[0, 1.02], row=row, col=col
        )
    fig.update_layout(height=max(widget.height, 150) * nrows + 80, template="plotly_white")
    return fig
