"""The images dashboard: one card per (run, tag), every step indexed, bytes fetched on request.

Python side of ``js/src/widgets/images/`` (widget key ``"images"``), on the media base
(:class:`tbnb.widgets.media.MediaWidget`: cards, global step, items on request, saved
items). The browser decodes each image from its bytes as written (PNG, JPEG, GIF,
WebP, BMP: never re-encoded, never base64), prefetches and decodes the neighbouring
steps of the cards in view, and does brightness, contrast, fit or actual size and
pixelated scaling itself. ``compare`` puts run A and run B of one tag side by side or
under a before/after wipe, at the same step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import traitlets as t

from tbnb.widgets.images.prepare import COMPARE_MODES, compare_items, image_payload, row_problems
from tbnb.widgets.images.view import view_spec
from tbnb.widgets.media import MediaWidget
from tbnb.widgets.traits import Choice, FloatRange, IntRange

if TYPE_CHECKING:
    from tbnb.widgets.spec import ViewSpec

__all__ = ["FITS", "PIXELATED", "ImagesWidget"]

FITS = ("fit", "actual")
PIXELATED = ("auto", "on", "off")


class ImagesWidget(MediaWidget):
    """Image cards (traits only; build it with :func:`tbnb.images`).

    Traits (synced with the browser), beyond those of :class:`~tbnb.widgets.media.MediaWidget`
    ----------------------------------------------------------------------------------------
    brightness, contrast : float
        Display filters, 1.0 = as logged (0 to 4).
    fit : str
        ``"fit"``: images scaled to the card width (``size``); ``"actual"``: one image
        pixel per CSS pixel.
    size : int
        Width of the image area of a card in fit mode, in pixels.
    pixelated : str
        ``"auto"`` (sharp pixels when an image is shown at twice its size or more),
        ``"on"`` or ``"off"`` (smooth scaling).
    compare : dict
        ``{"tag", "a", "b", "mode": "side" | "wipe", "split": 0..1, "step": int | None,
        "sample": int}``: run A and run B of one tag at the same step; empty = off.
    """

    _widget_key = "images"
    _kind = "images"
    _columns = ("blob|data",)

    brightness = FloatRange(1.0, lo=0.0, hi=4.0).tag(sync=True)
    contrast = FloatRange(1.0, lo=0.0, hi=4.0).tag(sync=True)
    fit = Choice(FITS).tag(sync=True)
    size = IntRange(280, lo=32, hi=4096, unit="pixels").tag(sync=True)
    pixelated = Choice(PIXELATED).tag(sync=True)
    compare = t.Dict().tag(sync=True)

    @t.validate("compare")
    def _valid_compare(self, proposal: Any) -> dict[str, Any]:
        value = dict(proposal["value"] or {})
        if not value:
            return {}
        mode = value.setdefault("mode", "side")
        if mode not in COMPARE_MODES:
            raise t.TraitError(f"compare mode must be one of {list(COMPARE_MODES)}, got {mode!r}")
        split = float(value.setdefault("split", 0.5))
        if not 0.0 <= split <= 1.0:
            raise t.TraitError(f"compare split must be in [0, 1], got {split}")
        return value

    @t.observe("compare")
    def _on_compare(self, _change: Any) -> None:
        self._refresh_held()

    def _payload(self, row: pd.Series) -> dict[str, Any]:
        return image_payload(row)

    def _row_problems(self, frame: pd.DataFrame) -> list[str]:
        return row_problems(frame)

    def _extra_shown(self) -> list[tuple[int, int, int]]:
        return compare_items(self._cards, self.compare, self.step) if self.compare else []

    def compare_runs(
        self, a: str, b: str, tag: str | None = None, *, mode: str = "side", step: int | None = None
    ) -> None:
        """Compare run ``a`` with run ``b`` on ``tag`` (default: the first tag both have).

        ``mode="wipe"`` shows them under a before/after wipe. Raises ``ValueError``
        naming the runs and their tags when they share none.
        """
        tags_a = {tg for run, tg in self._cards.cards if run == a}
        tags_b = {tg for run, tg in self._cards.cards if run == b}
        common = [tg for run, tg in self._cards.cards if run == a and tg in tags_b]
        if tag is None:
            if not common:
                raise ValueError(
                    f"runs {a!r} and {b!r} have no image tag in common "
                    f"({a!r}: {sorted(tags_a)}, {b!r}: {sorted(tags_b)})"
                )
            tag = common[0]
        elif tag not in common:
            raise ValueError(f"tag {tag!r} is not an image tag of both runs {a!r} and {b!r}")
        self.compare = {
            "tag": tag,
            "a": a,
            "b": b,
            "mode": mode,
            "split": 0.5,
            "step": step,
            "sample": 0,
        }

    def view_spec(self) -> ViewSpec:
        """One panel per image shown, with the display filters applied."""
        shown = self.shown_items()
        items = [self.item(i["run"], i["tag"], i["step"], i["sample"]) for i in shown]
        titles = self.shown_titles()
        return view_spec(titles, items, brightness=self.brightness, contrast=self.contrast)
