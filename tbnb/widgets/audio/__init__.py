"""The audio dashboard: a player per (run, tag) with its waveform and spectrogram.

``tbnb.audio(...)`` (:mod:`~tbnb.widgets.audio.factory`) builds an
:class:`~tbnb.widgets.audio.widget.AudioWidget`; :mod:`~tbnb.widgets.audio.prepare`
holds the pure steps (WAV decoding, waveform, spectrogram) and
:func:`~tbnb.widgets.audio.prepare.view_spec` the view spec ``.to_plotly()`` draws. Its
front end is
``js/src/widgets/audio/``.
"""

from __future__ import annotations

from tbnb.widgets.audio.factory import AudioOptions, audio
from tbnb.widgets.audio.widget import AudioWidget

__all__ = ["AudioOptions", "AudioWidget", "audio"]
