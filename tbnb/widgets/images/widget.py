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
from tbnb.widgets.media import MediaWidget

if TYPE_CHECKING:
    import plotly.graph_objects as go

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

    brightness = t.Float(1.0).tag(sync=True)
    contrast = t.Float(1.0).tag(sync=True)
    fit = t.Unicode("fit").tag(sync=True)
    size = t.Int(280).tag(sync=True)
    pixelated = t.Unicode("auto").tag(sync=True)
    compare = t.Dict().tag(sync=True)

    @t.validate("brightness", "contrast")
    def _valid_filter(self, proposal: Any) -> float:
        value = float(proposal["value"])
        if not 0.0 <= value <= 4.0:
            raise t.TraitError(f"{proposal['trait'].name} must be in [0, 4], got {value}")
        return value

    @t.validate("fit")
    def _valid_fit(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value not in FITS:
            raise t.TraitError(f"fit must be one of {list(FITS)}, got {value!r}")
        return value

    @t.validate("pixelated")
    def _valid_pixelated(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value not in PIXELATED:
            raise t.TraitError(f"pixelated must be one of {list(PIXELATED)}, got {value!r}")
        return value

    @t.validate("size")
    def _valid_size(self, proposal: Any) -> int:
        value = int(proposal["value"])
        if not 32 <= value <= 4096:
            raise t.TraitError(f"size must be between 32 and 4096 pixels, got {value}")
        return value

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

    def to_plotly(self) -> go.Figure:
        """A ``plotly.graph_objects.Figure`` of the images shown (one subplot per card)."""
        from tbnb.widgets.images.plotly import images_figure

        return images_figure(self)
