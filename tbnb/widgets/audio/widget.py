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
import traitlets as t

from tbnb.widgets.audio.prepare import audio_payload, row_problems
from tbnb.widgets.media import MediaWidget

if TYPE_CHECKING:
    import plotly.graph_objects as go

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

    display = t.Unicode("both").tag(sync=True)
    frequency_scale = t.Unicode("linear").tag(sync=True)

    @t.validate("display")
    def _valid_display(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value not in DISPLAYS:
            raise t.TraitError(f"display must be one of {list(DISPLAYS)}, got {value!r}")
        return value

    @t.validate("frequency_scale")
    def _valid_scale(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value not in SCALES:
            raise t.TraitError(f"frequency_scale must be one of {list(SCALES)}, got {value!r}")
        return value

    def _payload(self, row: pd.Series) -> dict[str, Any]:
        return audio_payload(row)

    def _row_problems(self, frame: pd.DataFrame) -> list[str]:
        return row_problems(frame)

    def to_plotly(self) -> go.Figure:
        """A ``plotly.graph_objects.Figure``: the waveform and spectrogram of each clip shown."""
        from tbnb.widgets.audio.plotly import audio_figure

        return audio_figure(self)
