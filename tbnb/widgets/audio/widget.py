"""The audio dashboard: one player card per (run, tag), waveform and spectrogram.

Python side of ``js/src/widgets/audio/`` (widget key ``"audio"``), on the media base
(:class:`tbnb.widgets.media.MediaWidget`). Clips travel as the WAV bytes the writer
stored (torch, tensorboardX, TF2); the browser parses them (PCM or float), plays them
and draws the waveform and a spectrogram (its own FFT), showing the sample rate,
channels and duration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from tbnb.widgets.audio.prepare import audio_payload, row_problems, view_spec
from tbnb.widgets.media import MediaWidget
from tbnb.widgets.traits import Choice

if TYPE_CHECKING:
    from tbnb.widgets.spec import ViewSpec

__all__ = ["DISPLAYS", "SCALES", "AudioWidget"]

DISPLAYS = ("both", "waveform", "spectrogram")
SCALES = ("linear", "log")


class AudioWidget(MediaWidget):
    """Audio cards (traits only; build it with :func:`tbnb.audio`).

    Traits (synced with the browser), beyond those of :class:`~tbnb.widgets.media.MediaWidget`
    ----------------------------------------------------------------------------------------
    display : str
        ``"both"`` (waveform and spectrogram), ``"waveform"`` or ``"spectrogram"``.
    frequency_scale : str
        The spectrogram's frequency axis: ``"linear"`` or ``"log"``.
    """

    _widget_key = "audio"
    _kind = "audio"
    _columns = ("blob|data",)

    display = Choice(DISPLAYS).tag(sync=True)
    frequency_scale = Choice(SCALES).tag(sync=True)

    def _payload(self, row: pd.Series) -> dict[str, Any]:
        return audio_payload(row)

    def _row_problems(self, frame: pd.DataFrame) -> list[str]:
        return row_problems(frame)

    def view_spec(self) -> ViewSpec:
        """One row per clip shown: its waveform and spectrogram (as ``display`` says)."""
        shown = self.shown_items()
        items = [self.item(i["run"], i["tag"], i["step"], i["sample"]) for i in shown]
        return view_spec(
            shown,
            items,
            display=self.display,
            colors=self.run_colors,
            log_frequency=self.frequency_scale == "log",
        )
