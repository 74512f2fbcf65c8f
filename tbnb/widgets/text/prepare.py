"""Pure preparation of the text view: a text item's payload, long texts, its size.

Examples
--------
>>> import pandas as pd
>>> p = text_payload(pd.Series({"text": "**hi**"}))
>>> p["kind"], p["html"], p["long"], bytes(p["data"])
('markdown', '<p><strong>hi</strong></p>', False, b'**hi**')
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tbnb.widgets.spec import Mark, Panel, ViewSpec
from tbnb.widgets.text.render import render_text

__all__ = ["LONG_CHARS", "text_of", "text_payload", "text_size", "view_spec"]

LONG_CHARS = 100_000
"""Texts longer than this open as raw text at once (markdown of 100,000 characters takes
about half a second); their markdown is rendered when asked for (the card's button)."""


def text_of(value: Any) -> str:
    """The raw text of a value: the string, or a table's cells by tab and line.

    Examples
    --------
    >>> import numpy as np
    >>> text_of(np.array([["a", "b"], ["c", "d"]], dtype=object))
    'a\\tb\\nc\\td'
    """
    if isinstance(value, np.ndarray):
        return str(render_text(value, markdown=False)["text"])
    return "" if value is None else str(value)


def text_size(value: Any) -> int:
    """Bytes a text item takes in the saved state (raw UTF-8 and its HTML, about twice)."""
    text = text_of(value)
    return 2 * len(text.encode("utf-8")) + 64


def text_payload(row: pd.Series, *, force_markdown: bool = False) -> dict[str, Any]:
    """A text for the browser: the raw text (UTF-8 bytes), its sanitised HTML (None for a
    long text unless ``force_markdown``), and for a table its shape and raw cells."""
    value = row.get("text")
    raw = text_of(value)
    long = len(raw) > LONG_CHARS
    out = render_text(value, markdown=force_markdown or not long)
    out.pop("text")
    out["long"] = long
    out["chars"] = len(raw)
    out["data"] = raw.encode("utf-8")
    return out


def view_spec(data: pd.DataFrame) -> ViewSpec:
    """One table row per text shown (``w.data``), the text as logged (a table shows its
    cells as text).

    Examples
    --------
    >>> data = pd.DataFrame({"run": ["a"], "tag": "t", "step": [0], "text": ["**hi**"]})
    >>> view_spec(data).panels[0].marks[0].data["cells"][3]
    ['**hi**']
    """
    texts = [text_of(v) for v in data["text"]]
    cells = [
        data["run"].astype(str).tolist(),
        data["tag"].astype(str).tolist(),
        data["step"].tolist(),
        texts,
    ]
    table = Mark(
        "table",
        {"header": ["run", "tag", "step", "text"], "cells": cells},
        style={"widths": [2, 2, 1, 8]},
    )
    return ViewSpec([Panel(marks=[table])], grid=False, height=max(120 + 60 * len(texts), 220))
