"""The text dashboard: one card per (run, tag), markdown rendered as TensorBoard does.

Python side of ``js/src/widgets/text/`` (widget key ``"text"``), on the media base
(:class:`tbnb.widgets.media.MediaWidget`). Each text is rendered on request, for the
cards in view only: markdown through an allow-list sanitiser
(:mod:`tbnb.widgets.text.render`), rank-1 and rank-2 string tensors as tables, the raw
text beside it for the raw toggle. A text longer than
:data:`~tbnb.widgets.text.prepare.LONG_CHARS` opens raw at once, and its markdown is
rendered when the card asks (a ``"render"`` request).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import traitlets as t

from tbnb.widgets.cards import parse_item_key
from tbnb.widgets.media import MediaWidget
from tbnb.widgets.text.prepare import text_payload, text_size, view_spec

if TYPE_CHECKING:
    from tbnb.widgets.spec import ViewSpec

__all__ = ["TextWidget"]


class TextWidget(MediaWidget):
    """Text cards (traits only; build it with :func:`tbnb.text`).

    Traits (synced with the browser), beyond those of :class:`~tbnb.widgets.media.MediaWidget`
    ----------------------------------------------------------------------------------------
    raw : bool
        Show the texts as logged (plain text, tables of plain cells) instead of markdown.
    """

    _widget_key = "text"
    _kind = "text"
    _columns = ("text",)

    raw = t.Bool(False).tag(sync=True)

    def _payload(self, row: pd.Series) -> dict[str, Any]:
        return text_payload(row)

    def _size(self, row: pd.Series) -> int:
        return text_size(row.get("text"))

    def _request_render(self, content: dict[str, Any]) -> dict[str, Any]:
        """The markdown of a long text: ``{"key": [run, tag, step, sample]}`` -> ``{"html"}``."""
        run, tag, step, sample = parse_item_key(content.get("key"))
        item = self.item(run, tag, step, sample)
        if item.get("html") is None:
            card = self._cards.lookup[(run, tag)]
            row_pos = self._cards.row(card, step, sample)
            assert row_pos is not None
            item["html"] = text_payload(self._frame.iloc[row_pos], force_markdown=True)["html"]
        return {"key": item["key"], "html": item["html"]}

    def view_spec(self) -> ViewSpec:
        """A table of the texts shown (run, tag, step, text as logged)."""
        return view_spec(self.data)
