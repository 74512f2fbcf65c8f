"""Building a media widget (images, audio, text) from an experiment, a frame or a logdir.

Examples
--------
>>> import pandas as pd
>>> frame_of(pd.DataFrame({"run": ["a"], "tag": "t", "step": 0}), "text", ["text"])
Traceback (most recent call last):
...
ValueError: a text frame needs the columns run, tag, step, wall_time, text; missing: wall_time, text
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from tbnb.widgets.cards import tag_matcher
from tbnb.widgets.media import MediaWidget

__all__ = ["build_media", "frame_of"]


def frame_of(source: Any, kind: str, columns: Sequence[str]) -> tuple[pd.DataFrame, Any]:
    """The ``kind`` frame of ``source`` (an Experiment, a frame or a logdir) and what reloads.

    Raises ``TypeError``/``ValueError`` naming what is missing.

    ``"a|b"`` in ``columns`` asks for either column.
    """
    reloadable = None
    if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
        from tbnb.loader import load

        source = load(source)
    if isinstance(source, pd.DataFrame):
        frame = source
    else:
        frame = getattr(source, kind, None)
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(
                f"source must be an Experiment, a DataFrame like exp.{kind}, or a "
                f"logdir path; got {type(source).__name__}"
            )
        reloadable = source if callable(getattr(source, "reload", None)) else None
    need = ["run", "tag", "step", "wall_time", *columns]  # "a|b": either column
    missing = [c for c in need if not any(part in frame.columns for part in c.split("|"))]
    if missing:
        raise ValueError(
            f"a {kind} frame needs the columns {', '.join(need)}; missing: {', '.join(missing)}"
        )
    return frame, reloadable


def build_media(
    cls: type[MediaWidget],
    source: Any,
    *,
    runs: Any,
    tags: Any,
    refresh: float | None,
    traits: dict[str, Any],
) -> Any:
    """Build a media widget of class ``cls`` from ``source`` (what each ``factory`` calls)."""
    frame, reloadable = frame_of(source, cls._kind, cls._columns)
    for name in ("run_filter", "tag_filter"):
        pattern = traits.get(name) or ""
        if pattern and tag_matcher(pattern) is None:
            raise ValueError(f"{name}= is not a valid regex: {pattern!r}")
    widget = cls(**traits)
    widget._build = {"runs": runs, "tags": tags}
    if reloadable is not None:
        widget.follow(reloadable)
    widget._set_frame(frame, first=True)
    if refresh is not None:
        if reloadable is None:
            raise ValueError("refresh= needs a source with .reload() (an Experiment or a logdir)")
        widget.start_refresh(float(refresh))
    return widget
