"""``ImagesWidget.to_plotly()``: the images shown, one subplot per card.

Brightness and contrast are applied as the browser applies them (CSS ``brightness()``
then ``contrast()``) when Pillow is installed to decode the images; without it the
images are shown as logged.

Examples
--------
>>> import tbnb
>>> w = tbnb.images(tbnb.samples.sample_logdir(), runs="lr=0.01,seed=0")
>>> fig = w.to_plotly()
>>> len(fig.data), fig.data[0].type
(1, 'image')
"""

from __future__ import annotations

import base64
import io
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from tbnb.widgets.base import optional

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.images.widget import ImagesWidget

__all__ = ["adjust", "images_figure"]


def adjust(rgb: np.ndarray, brightness: float, contrast: float) -> np.ndarray:
    """CSS ``brightness(b) contrast(c)`` on ``uint8`` pixels (alpha untouched).

    Examples
    --------
    >>> import numpy as np
    >>> adjust(np.array([[[100, 200, 50]]], dtype=np.uint8), 1.5, 1.0).tolist()
    [[[150, 255, 75]]]
    """
    out = rgb.astype(np.float64)
    channels = out.shape[-1] if out.ndim == 3 else 1
    color = out[..., :3] if channels in (3, 4) else out[..., :1] if channels == 2 else out
    np.clip(color * brightness, 0, 255, out=color)  # each CSS filter's result is clamped
    np.clip((color - 127.5) * contrast + 127.5, 0, 255, out=color)
    return np.rint(out).astype(np.uint8)


def _source(item: dict[str, Any], brightness: float, contrast: float) -> str:
    data = bytes(item["data"])
    mime = item.get("mime") or "image/png"
    if (brightness, contrast) != (1.0, 1.0):
        try:
            from PIL import Image
        except ImportError:  # shown as logged
            pass
        else:
            with Image.open(io.BytesIO(data)) as image:
                pixels = adjust(np.asarray(image.convert("RGBA")), brightness, contrast)
            out = io.BytesIO()
            Image.fromarray(pixels).save(out, format="PNG")
            data, mime = out.getvalue(), "image/png"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def images_figure(widget: ImagesWidget) -> go.Figure:
    """A ``plotly.graph_objects.Figure`` of the images shown (one subplot per card)."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")
    make_subplots = optional("plotly.subplots", "plotly", "to_plotly()").make_subplots
    shown = widget._shown_items()
    ncols = min(4, max(len(shown), 1))
    nrows = max(math.ceil(len(shown) / ncols), 1)
    titles = widget.shown_titles()
    fig = make_subplots(rows=nrows, cols=ncols, subplot_titles=titles or None)
    for i, (card, step, sample) in enumerate(shown):
        item = widget._item(card, step, sample)
        if not item.get("mime"):
            continue
        fig.add_trace(
            go.Image(source=_source(item, widget.brightness, widget.contrast), name=titles[i]),
            row=i // ncols + 1,
            col=i % ncols + 1,
        )
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    fig.update_layout(
        height=max(260 * nrows, 200),
        template="plotly_white",
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
    )
    return fig
