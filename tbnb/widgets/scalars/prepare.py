"""Pure preparation of the scalars view: chart specs, the x-axis tag, the view spec.

The series themselves go over the wire as every line view sends them
(:mod:`tbnb.widgets.series`); names are ordered as in every view
(:mod:`tbnb.widgets.ordering`).

Examples
--------
>>> [c["key"] for c in chart_specs(["val/acc", "train/loss", "lr"], [], None)]
['lr', 'train/loss', 'val/acc']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.widgets.colors import DEFAULT_PALETTE
from tbnb.widgets.ordering import natural_key
from tbnb.widgets.series import series_marks, x_values
from tbnb.widgets.spec import DASHES, Axis, Mark, Panel, ViewSpec

__all__ = ["chart_specs", "view_spec", "with_x_tag"]


def with_x_tag(df: pd.DataFrame, x_tag: str) -> pd.DataFrame:
    """Add ``xv``: the value of tag ``x_tag`` of the same run at the same step (else NaN).

    Examples
    --------
    >>> df = pd.DataFrame({"run": "a", "tag": ["loss", "lr", "loss"], "step": [0, 0, 1],
    ...                    "value": [2.0, 0.1, 1.0]})
    >>> with_x_tag(df, "lr")["xv"].tolist()
    [0.1, 0.1, nan]
    """
    ref = df[df["tag"].astype(str) == x_tag][["run", "step", "value"]]
    ref = ref.drop_duplicates(["run", "step"], keep="last").rename(columns={"value": "xv"})
    ref = ref.assign(run=ref["run"].astype(str))
    out = df.assign(run=df["run"].astype(str), _order=np.arange(len(df)))
    out = out.merge(ref, on=["run", "step"], how="left").sort_values("_order", kind="stable")
    return out.drop(columns="_order").reset_index(drop=True)


def chart_specs(
    tags: list[str], combined: Sequence[Sequence[str]], x_tag: str | None
) -> list[dict[str, Any]]:
    """One chart per tag (``combined`` groups of tags share one), grouped by prefix; the tag
    used as x gets no chart.

    Examples
    --------
    >>> [c["key"] for c in chart_specs(["a/x", "a/y", "lr"], [["a/x", "a/y"]], "lr")]
    ['a/x | a/y']
    """
    charts: list[dict[str, Any]] = []
    used: set[str] = set()
    for group in combined:
        names = [str(g) for g in group]
        missing = [n for n in names if n not in tags]
        if missing:
            raise ValueError(f"charts=: unknown tag(s) {missing}")
        charts.append({"key": " | ".join(names), "tags": names, "group": names[0].split("/")[0]})
        used.update(names)
    for tag in sorted(tags, key=natural_key):
        if tag in used or tag == x_tag:
            continue
        charts.append({"key": tag, "tags": [tag], "group": tag.split("/")[0]})
    order = {g: i for i, g in enumerate(dict.fromkeys(c["group"] for c in charts))}
    return sorted(charts, key=lambda c: order[c["group"]])


def view_spec(
    data: pd.DataFrame,
    charts: Sequence[Mapping[str, Any]],
    *,
    colors: Mapping[str, str],
    x_axis: str,
    log_y: Sequence[str] = (),
    y_range: Mapping[str, Any] | None = None,
    show_raw: bool = True,
    smoothing: float = 0.0,
    band: bool = False,
    height: int = 220,
) -> ViewSpec:
    """The charts shown (``charts``, each ``{"key", "tags"}``) of the points drawn
    (``w.data``): per series a faint raw line under the smoothed one, a band when
    aggregating.

    Examples
    --------
    >>> data = pd.DataFrame({"run": "a", "tag": "loss", "step": [0, 1], "wall_time": 0.0,
    ...                      "value": [2.0, 1.0], "smoothed": [2.0, 1.5]})
    >>> spec = view_spec(data, [{"key": "loss", "tags": ["loss"]}], colors={"a": "#123456"},
    ...                  x_axis="step", smoothing=0.5)
    >>> [(m.name, m.style.get("opacity")) for m in spec.panels[0].marks]
    [('', 0.25), ('a', None)]
    """
    series = {
        (str(run), str(tag)): part
        for (run, tag), part in (
            data.groupby(["run", "tag"], sort=False, observed=True) if len(data) else ()
        )
    }
    time = x_axis == "wall"
    legend_done: set[str] = set()
    panels = []
    for chart in charts:
        tags = list(chart["tags"])
        marks: list[Mark] = []
        for (run, tag), part in series.items():
            if tag not in tags:
                continue
            xs = _chart_x(part, x_axis)
            color = colors.get(run, DEFAULT_PALETTE[0])
            name = run if len(tags) == 1 else f"{run} {tag}"
            dash = DASHES[tags.index(tag) % len(DASHES)]
            marks += series_marks(
                xs,
                part,
                name=name,
                color=color,
                dash=dash,
                group=run,
                legend=name not in legend_done,
                raw=show_raw and smoothing > 0,
                band=("lo", "hi") if "lo" in part and band else None,
            )
            legend_done.add(name)
        log = chart["key"] in log_y
        lo, hi = (y_range or {}).get(chart["key"]) or (None, None)
        y = Axis(
            log=log, range=(float(lo), float(hi)) if lo is not None and hi is not None else None
        )
        panels.append(Panel(str(chart["key"]), marks, x=Axis(time=time), y=y))
    return ViewSpec.tiled(panels, most=3, panel_height=height)


def _chart_x(part: pd.DataFrame, x_axis: str) -> np.ndarray[Any, Any]:
    if x_axis.startswith("tag:"):
        return np.asarray(part["x"].to_numpy())
    columns = {"step": part["step"].to_numpy(), "wall_time": part["wall_time"].to_numpy()}
    return x_values(columns, x_axis)
