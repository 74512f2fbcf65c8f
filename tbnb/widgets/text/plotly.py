"""``TextWidget.to_plotly()``: the texts shown, as a table (run, tag, step, text).

Examples
--------
>>> import tbnb
>>> fig = tbnb.text(tbnb.samples.sample_logdir(), tags="notes").to_plotly()
>>> fig.data[0].type, len(fig.data[0].cells.values)
('table', 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tbnb.widgets.base import optional
from tbnb.widgets.text.prepare import text_of

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.text.widget import TextWidget

__all__ = ["text_figure"]


def text_figure(widget: TextWidget) -> go.Figure:
    """One table row per text shown, the text as logged (plotly shows cells as text)."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")
    data = widget.data
    texts = [text_of(v) for v in data["text"]]
    table = go.Table(
        header={"values": ["run", "tag", "step", "text"], "align": "left"},
        cells={
            "values": [
                data["run"].astype(str).tolist(),
                data["tag"].astype(str).tolist(),
                data["step"].tolist(),
                texts,
            ],
            "align": "left",
        },
        columnwidth=[2, 2, 1, 8],
    )
    fig = go.Figure(table)
    fig.update_layout(template="plotly_white", height=max(120 + 60 * len(texts), 220))
    return fig
