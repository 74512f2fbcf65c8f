"""``RunsWidget.to_plotly()``: what the panel shows, as a plotly table.

With runs selected: their keys side by side, differing rows highlighted; otherwise the
runs table with the chosen sections.

Examples
--------
>>> import pandas as pd, tbnb
>>> info = pd.DataFrame({("hparams", "lr"): [0.1, 0.01]}, index=pd.Index(["a", "b"], name="run"))
>>> w = tbnb.runs(info, selected=["a", "b"])
>>> w.to_plotly().data[0].header.values
('section', 'key', 'a', 'b')
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tbnb.widgets.base import optional

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.metadata.widget import RunsWidget

__all__ = ["runs_figure"]

_DIFFERS = "#fff3cd"


def _cell(value: object) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)


def runs_figure(widget: RunsWidget) -> go.Figure:
    """A ``go.Table`` of the diff (selected runs) or of the runs table."""
    go_ = optional("plotly.graph_objects", "plotly", "to_plotly()")
    if widget.selected_runs:
        diff = widget.diff
        runs = [c for c in diff.columns if c != "differs"]
        header = ["section", "key", *runs]
        cells = [
            [s for s, _ in diff.index],
            [k for _, k in diff.index],
            *[[_cell(v) for v in diff[r]] for r in runs],
        ]
        fill = [[_DIFFERS if d else "white" for d in diff["differs"]]] * len(header)
        title = f"{len(runs)} runs side by side"
    else:
        table = widget.table
        header = ["run", *[f"{s}: {k}" for s, k in table.columns]]
        cells = [
            [str(r) for r in table.index],
            *[[_cell(v) for v in table[c]] for c in table.columns],
        ]
        fill = [["white"] * len(table)] * len(header)
        title = f"{len(table)} runs"
    figure = go_.Figure(
        go_.Table(
            header={"values": header, "align": "left"},
            cells={"values": cells, "align": "left", "fill_color": fill},
        )
    )
    figure.update_layout(title=title, template="plotly_white")
    return figure
