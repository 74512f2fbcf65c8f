"""``AudioWidget.to_plotly()``: the waveform and spectrogram of each clip shown.

Examples
--------
>>> import io, wave
>>> import numpy as np, pandas as pd, tbnb
>>> buf = io.BytesIO()
>>> with wave.open(buf, "wb") as w:
...     w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
...     w.writeframes((np.sin(np.arange(800) / 3) * 9000).astype("<i2").tobytes())
>>> frame = pd.DataFrame({"run": "a", "tag": "tone", "step": [0], "wall_time": 0.0,
...                       "sample": 0, "data": [buf.getvalue()]})
>>> [trace.type for trace in tbnb.audio(frame).to_plotly().data]
['scatter', 'heatmap']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tbnb.widgets.audio.prepare import decode_wav, envelope, spectrogram
from tbnb.widgets.base import optional

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.audio.widget import AudioWidget

__all__ = ["audio_figure"]

COLUMNS = 800


def audio_figure(widget: AudioWidget) -> go.Figure:
    """One row per clip shown: its waveform (min/max per column) and spectrogram."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")
    make_subplots = optional("plotly.subplots", "plotly", "to_plotly()").make_subplots
    shown = widget._shown_items()
    panels = {
        "both": ["waveform", "spectrogram"],
        "waveform": ["waveform"],
        "spectrogram": ["spectrogram"],
    }[widget.display]
    titles = []
    for card, step, _ in shown:
        run, tag = widget._cards.cards[card]
        titles += [f"{run} · {tag} · step {step} · {p}" for p in panels]
    fig = make_subplots(rows=max(len(shown), 1), cols=len(panels), subplot_titles=titles or None)
    for i, (card, step, sample) in enumerate(shown):
        item = widget._item(card, step, sample)
        try:
            samples, rate = decode_wav(bytes(item["data"]))
        except ValueError:
            continue
        mono = samples.mean(axis=1)
        run = widget._cards.cards[card][0]
        color = widget.run_colors.get(run)
        for col, panel in enumerate(panels, start=1):
            if panel == "waveform":
                lo, hi = envelope(mono, COLUMNS)
                t = np.linspace(0, len(mono) / rate, len(lo))
                fig.add_trace(
                    go.Scatter(
                        x=np.r_[t, t[::-1]],
                        y=np.r_[hi, lo[::-1]],
                        fill="toself",
                        line={"color": color, "width": 1},
                        name=run,
                        showlegend=False,
                    ),
                    row=i + 1,
                    col=col,
                )
            else:
                db = spectrogram(mono, min(COLUMNS, max(len(mono) // 64, 1)))
                freqs = np.linspace(0, rate / 2, db.shape[0])
                times = np.linspace(0, len(mono) / rate, db.shape[1])
                fig.add_trace(
                    go.Heatmap(z=db, x=times, y=freqs, colorscale="Viridis", showscale=False),
                    row=i + 1,
                    col=col,
                )
                if widget.frequency_scale == "log":
                    fig.update_yaxes(type="log", row=i + 1, col=col)
    fig.update_layout(height=max(220 * len(shown), 220), template="plotly_white")
    return fig
