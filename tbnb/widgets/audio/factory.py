"""``tbnb.audio(...)``: build an audio widget from an experiment, a frame or a logdir.

Examples
--------
>>> import pandas as pd, tbnb
>>> from tbnb.widgets.audio.prepare import decode_wav
>>> import io, wave
>>> buf = io.BytesIO()
>>> with wave.open(buf, "wb") as w:
...     w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000); w.writeframes(b"\\0\\0" * 800)
>>> frame = pd.DataFrame({"run": "a", "tag": "voice", "step": [0, 10], "wall_time": 0.0,
...                       "sample": 0, "data": [buf.getvalue()] * 2})
>>> w = tbnb.audio(frame, step=10)
>>> w.item("a", "voice", 10)["duration"]
0.1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.widgets.audio.widget import AudioWidget
from tbnb.widgets.base import check_kwargs

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["AudioOptions", "audio"]


class AudioOptions(TypedDict, total=False):
    """Keyword arguments of :func:`audio` beyond the documented ones."""

    run_filter: str
    tag_filter: str
    display: str
    frequency_scale: str
    palette: str
    embed: str
    max_embed_bytes: int


def audio(
    source: Any,
    *,
    runs: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    step: int | None = None,
    refresh: float | None = None,
    **kw: Unpack[AudioOptions],
) -> AudioWidget:
    """Audio cards of an experiment: a player, waveform and spectrogram per (run, tag).

    Parameters
    ----------
    source
        An ``Experiment`` (its ``.audio``), a frame like ``exp.audio`` (a ``blob`` or
        ``data`` column of WAV bytes), or a logdir path/URL.
    runs, tags
        Keep only these: a case-insensitive regex or a list of names.
    step
        The global step (every card shows the step nearest to it); default: each
        card's last.
    refresh
        Reload every so many seconds.
    **kw
        ``run_filter``, ``tag_filter``, ``display`` (``"both"``, ``"waveform"``,
        ``"spectrogram"``), ``frequency_scale`` (``"linear"`` or ``"log"``),
        ``palette``, ``embed`` (``"shown"`` or ``"all"``) and ``max_embed_bytes``
        (what a saved notebook or exported page keeps; default 600 KB). Anything else
        is a ``TypeError``.
    """
    check_kwargs("audio", dict(kw), AudioOptions.__annotations__)
    traits: dict[str, Any] = dict(kw)
    if step is not None:
        traits["step"] = int(step)
    widget: AudioWidget = AudioWidget.from_source(
        source, runs=runs, tags=tags, refresh=refresh, **traits
    )
    return widget
