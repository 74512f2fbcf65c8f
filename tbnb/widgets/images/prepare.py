"""Pure preparation of the images view: an image's payload, unshowable rows, the comparison.

Examples
--------
>>> mime_of("png"), mime_of("tiff")
('image/png', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from tbnb.kinds.images import image_format
from tbnb.widgets.cards import CardIndex, card_problems, nearest_index, read_bytes

__all__ = [
    "COMPARE_MODES",
    "MIME",
    "compare_items",
    "image_payload",
    "mime_of",
    "row_problems",
]

MIME = {
    "png": "image/png",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "bmp": "image/bmp",
}
"""Formats every browser decodes, and their MIME types."""

COMPARE_MODES = ("side", "wipe")


def mime_of(fmt: str) -> str | None:
    """The MIME type of an image format the browser decodes, or None."""
    return MIME.get(str(fmt))


def image_payload(row: pd.Series) -> dict[str, Any]:
    """An image for the browser: its bytes as written (no re-encoding) and what they are.

    Examples
    --------
    >>> import pandas as pd
    >>> p = image_payload(pd.Series({"data": b"\\x89PNG\\r\\n\\x1a\\n", "width": 4, "height": 2}))
    >>> p["format"], p["mime"], p["width"], p["nbytes"]
    ('png', 'image/png', 4, 8)
    """
    data = read_bytes(row)
    fmt = image_format(data)
    return {
        "format": fmt,
        "mime": mime_of(fmt) or "",
        "width": int(row.get("width", 0) or 0),
        "height": int(row.get("height", 0) or 0),
        "nbytes": len(data),
        "data": data,
    }


def row_problems(frame: pd.DataFrame) -> list[str]:
    """Images the browser cannot show, one message per (run, tag) naming the steps.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"run": "a", "tag": "x", "step": [1, 2], "format": ["png", "tiff"],
    ...                       "nbytes": [10, 0]})
    >>> row_problems(frame)
    ["run 'a', tag 'x': step 2 is not an image a browser shows (format 'tiff', 0 bytes)"]
    """
    if "format" not in frame.columns or frame.empty:
        return []
    bad = ~frame["format"].astype(str).isin(list(MIME))
    if "nbytes" in frame.columns:
        bad |= frame["nbytes"].to_numpy() == 0

    def message(rows: pd.DataFrame, steps: str, several: bool) -> str:
        first = rows.iloc[0]
        size = f", {int(first['nbytes'])} bytes" if "nbytes" in rows.columns else ""
        plural, verb = ("s", "are not images") if several else ("", "is not an image")
        return f"step{plural} {steps} {verb} a browser shows (format {first['format']!r}{size})"

    return card_problems(frame, bad, message)


def compare_items(
    cards: CardIndex, compare: Mapping[str, Any], global_step: int | None
) -> list[tuple[int, int, int]]:
    """``(card, step, sample)`` of run A and run B in the comparison (none when it is off).

    Both show the step nearest to the comparison's own step, else to the global step,
    else to run A's last step (``js/src/widgets/images/compare.js`` applies the same rule).
    """
    tag = compare.get("tag")
    ids = [cards.lookup.get((str(compare.get(side)), str(tag))) for side in ("a", "b")]
    if tag is None or any(i is None for i in ids):
        return []
    target = compare.get("step")
    if target is None:
        target = global_step
    out = []
    for card in ids:
        assert card is not None
        steps = cards.card_steps(card)
        if target is None:
            target = int(steps[-1])
        j = nearest_index(steps, float(target))
        count = int(cards.card_counts(card)[j])
        sample = min(max(int(compare.get("sample") or 0), 0), count - 1)
        out.append((card, int(steps[j]), sample))
    return out
