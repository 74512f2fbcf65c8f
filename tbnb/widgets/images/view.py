"""The images view as a spec: one panel per image shown, with the display filters applied.

Brightness and contrast are applied as the browser applies them (CSS ``brightness()``
then ``contrast()``) when Pillow is installed to decode the images; without it the
images are shown as logged.

Examples
--------
>>> items = [{"data": b"\\x89PNG...", "mime": "image/png"}]
>>> spec = view_spec(["a · img · step 3"], items)
>>> spec.panels[0].title, spec.panels[0].marks[0].kind
('a · img · step 3', 'image')
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tbnb.widgets.spec import Axis, Mark, Panel, ViewSpec

__all__ = ["adjust", "view_spec"]

_HIDDEN = Axis(visible=False)


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


def _filtered(data: bytes, mime: str, brightness: float, contrast: float) -> tuple[bytes, str]:
    if (brightness, contrast) == (1.0, 1.0):
        return data, mime
    try:
        from PIL import Image
    except ImportError:  # shown as logged
        return data, mime
    with Image.open(io.BytesIO(data)) as image:
        pixels = adjust(np.asarray(image.convert("RGBA")), brightness, contrast)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue(), "image/png"


def view_spec(
    titles: Sequence[str],
    items: Sequence[Mapping[str, Any]],
    *,
    brightness: float = 1.0,
    contrast: float = 1.0,
) -> ViewSpec:
    """Panels of the images shown (``w.shown_titles()``, their ``items``), four a row."""
    panels = []
    for title, item in zip(titles, items, strict=True):
        marks = []
        if item.get("mime"):
            data, mime = _filtered(bytes(item["data"]), item["mime"], brightness, contrast)
            marks.append(Mark("image", {"bytes": data, "mime": mime}, name=title))
        panels.append(Panel(title, marks, x=_HIDDEN, y=_HIDDEN))
    columns = min(4, max(len(panels), 1))
    rows = max(math.ceil(len(panels) / columns), 1)
    return ViewSpec(
        panels,
        columns=columns,
        height=max(260 * rows, 200),
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
    )
