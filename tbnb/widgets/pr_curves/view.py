"""The PR-curves view as a spec: one chart per tag drawn, one curve per selected run.

Examples
--------
>>> import numpy as np, pandas as pd
>>> data = pd.DataFrame({"run": "a", "tag": "pr", "step": 0, "threshold": [0.0, 1.0],
...                      "precision": [0.5, 1.0], "recall": [1.0, 0.0], "fpr": [1.0, 0.0],
...                      "tpr": [1.0, 0.0], "true_positives": [2.0, 0], "false_positives": [2.0, 0],
...                      "true_negatives": [0.0, 2], "false_negatives": [0.0, 2]})
>>> areas = pd.DataFrame({"run": ["a"], "tag": "pr", "average_precision": 0.75, "roc_auc": 0.5})
>>> spec = view_spec(data, areas, [{"tag": "pr"}], view="roc", colors={})
>>> [mark.name for mark in spec.panels[0].marks]
['a (step 0, ROC-AUC 0.500)', '']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.widgets.colors import DEFAULT_PALETTE
from tbnb.widgets.spec import Axis, Mark, Panel, ViewSpec

__all__ = ["view_spec"]


def view_spec(
    data: pd.DataFrame,
    areas: pd.DataFrame,
    charts: Sequence[Mapping[str, Any]],
    *,
    view: str,
    colors: Mapping[str, str],
    height: int = 260,
) -> ViewSpec:
    """The curves drawn (``w.data``, one row per threshold) with their areas
    (``w.shown_auc``) in the order of ``charts``; hovering gives the threshold and the
    counts, the areas are in the curves' names."""
    drawn = set(data["tag"].astype(str)) if len(data) else set()
    tags = [c["tag"] for c in charts if c["tag"] in drawn]
    roc = view == "roc"
    x_name, y_name = ("fpr", "tpr") if roc else ("recall", "precision")
    area, label = ("roc_auc", "ROC-AUC") if roc else ("average_precision", "AP")
    panels = []
    for tag in tags:
        part = data[data["tag"].astype(str) == tag]
        marks = []
        for run, curve in part.groupby(part["run"].astype(str), sort=False):
            match = areas[(areas["run"].astype(str) == run) & (areas["tag"].astype(str) == tag)]
            value = float(match[area].iloc[0]) if len(match) else float("nan")
            step = int(curve["step"].iloc[0])
            marks.append(
                Mark(
                    "line",
                    {"x": curve[x_name].to_numpy(), "y": curve[y_name].to_numpy()},
                    name=f"{run} (step {step}, {label} {value:.3f})",
                    color=colors.get(run, DEFAULT_PALETTE[0]),
                    group=run,
                    legend=True,
                    style={"markers": 3, "text": _hover(curve)},
                )
            )
        if roc:
            chance = {"x": np.array([0.0, 1.0]), "y": np.array([0.0, 1.0])}
            marks.append(Mark("line", chance, color="#999", hover=False, style={"dash": "dot"}))
        x = Axis("FPR" if roc else "recall", range=(0.0, 1.0))
        y = Axis("TPR" if roc else "precision", range=(0.0, 1.02))
        panels.append(Panel(tag, marks, x=x, y=y))
    return ViewSpec.tiled(panels, most=3, panel_height=height)


def _hover(curve: pd.DataFrame) -> list[str]:
    columns = ["threshold", "precision", "recall", "true_positives", "false_positives"]
    columns += ["true_negatives", "false_negatives"]
    return [
        f"threshold {t:.4g}<br>precision {p:.4g}<br>recall {r:.4g}<br>"
        f"TP {tp:g} FP {fp:g} TN {tn:g} FN {fn:g}"
        for t, p, r, tp, fp, tn, fn in zip(*(curve[c] for c in columns), strict=True)
    ]
