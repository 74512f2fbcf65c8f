"""What a widget is built from: one :class:`Source`, whatever the user passed.

Every builder (``tbnb.scalars(...)``, ``tbnb.images(...)``, ...) takes an
``Experiment``, a logdir path or URL, or a frame (some also take their own objects: a
``ModelGraph``, vectors). :func:`source_of` turns that into a :class:`Source`: the data
the view shows, the experiment to follow on reloads (None for a frame), a name for
messages, and why there is nothing to show. A wrong source is refused with one message
naming what the builder takes.

Examples
--------
>>> import pandas as pd
>>> frame = pd.DataFrame({"run": ["a"], "tag": "t", "step": 0, "wall_time": 0.0, "text": "hi"})
>>> source = source_of(frame, "text", expected="a frame like exp.text")
>>> source.live is None, source.name, source.empty_reason("texts")
(True, 'the DataFrame', '')
>>> source_of(42, "text", expected="a frame like exp.text")
Traceback (most recent call last):
...
TypeError: source must be an Experiment, a logdir path or a frame like exp.text; got int
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

__all__ = ["REFRESH_NEEDS_RELOAD", "Source", "experiment_of", "source_of"]

REFRESH_NEEDS_RELOAD = "refresh= needs a source with .reload() (an Experiment or a logdir)"


@dataclass(frozen=True)
class Source:
    """Anything a widget accepts, resolved once.

    Attributes
    ----------
    data
        What the view shows: the kind's frame (``exp.scalars``), or the object given.
    experiment
        The object the data came from (an ``Experiment``, or whatever had the kind's
        attribute), None for a frame.
    name
        How messages name it: the logdir (``'runs/'``) or ``the DataFrame``.
    """

    data: Any
    experiment: Any = None
    name: str = "the DataFrame"

    @property
    def live(self) -> Any:
        """The experiment to follow and reload (it has ``.reload()``), or None."""
        experiment = self.experiment
        return experiment if callable(getattr(experiment, "reload", None)) else None

    @property
    def runs(self) -> list[str] | None:
        """The experiment's run order (``exp.runs``: it decides run colours), or None."""
        runs = getattr(self.experiment, "runs", None)
        return None if runs is None else [str(r) for r in runs]

    def empty_reason(self, what: str, hint: str = "") -> str:
        """Why there is no ``what`` to show (``""`` when the data has rows).

        The experiment's own reason (an empty logdir, a filter that matched nothing)
        comes first; ``hint`` says what writes ``what``.

        Examples
        --------
        >>> Source(pd.DataFrame()).empty_reason("PR curves")
        'the frame has no rows'
        """
        data = self.data
        if isinstance(data, pd.DataFrame) and len(data):
            return ""
        if self.experiment is None:
            return "the frame has no rows"
        own = getattr(self.experiment, "empty_reason", None)
        if own:
            return str(own)
        return f"no {what} in {self.name}" + (f" ({hint})" if hint else "")

    def check_refresh(self, refresh: float | None) -> None:
        """Refuse ``refresh=`` for a source that cannot reload (a frame)."""
        if refresh is not None and self.live is None:
            raise ValueError(REFRESH_NEEDS_RELOAD)


def experiment_of(source: Any) -> Any:
    """``source`` itself, or the experiment loaded from it when it is a path or URL.

    Examples
    --------
    >>> experiment_of(3)
    3
    """
    if isinstance(source, (str, bytes, os.PathLike)):
        from tbnb.loader import load

        return load(os.fsdecode(source) if isinstance(source, bytes) else os.fspath(source))
    return source


def _name_of(experiment: Any) -> str:
    logdir = getattr(experiment, "logdir", None)
    return repr(logdir) if logdir is not None else f"the {type(experiment).__name__}"


def source_of(
    source: Any,
    kind: str,
    *,
    expected: str,
    columns: Sequence[str] = (),
    frame_type: type | tuple[type, ...] = pd.DataFrame,
    read: Callable[[Any], Any] | None = None,
) -> Source:
    """The :class:`Source` of a builder's ``source`` argument.

    Parameters
    ----------
    source
        An ``Experiment`` (or anything with the attribute ``kind``), a logdir path or
        URL (loaded now), or a frame.
    kind
        The experiment's attribute the view shows (``"scalars"``).
    expected
        What else the builder takes, for the message (``"a frame like exp.scalars"``).
    columns
        Columns the frame needs beyond run, tag, step, wall_time (``"a|b"``: either one);
        a frame missing one is a ``ValueError`` naming them.
    frame_type
        What the experiment's attribute must be (a DataFrame unless said otherwise); a
        frame given as ``source`` is taken only when it may be a DataFrame.
    read
        ``read(experiment) -> data`` instead of the attribute ``kind`` (None when the
        experiment cannot give it).

    Raises
    ------
    TypeError
        ``source`` is none of these.
    """
    experiment = experiment_of(source)
    frames = frame_type if isinstance(frame_type, tuple) else (frame_type,)
    if isinstance(experiment, pd.DataFrame) and pd.DataFrame in frames:
        resolved = Source(experiment)
    else:
        data = getattr(experiment, kind, None) if read is None else read(experiment)
        if not isinstance(data, frame_type):
            raise TypeError(
                f"source must be an Experiment, a logdir path or {expected}; "
                f"got {type(source).__name__}"
            )
        resolved = Source(data, experiment, _name_of(experiment))
    if columns:
        _check_columns(resolved.data, kind, columns)
    return resolved


def _check_columns(frame: Any, kind: str, columns: Sequence[str]) -> None:
    """Raise ``ValueError`` naming the columns a ``kind`` frame lacks.

    Examples
    --------
    >>> frame = pd.DataFrame({"run": ["a"], "tag": "t", "step": 0})
    >>> _check_columns(frame, "text", ["text"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: a text frame needs the columns run, tag, step, wall_time, text; missing: ...
    """
    need = ["run", "tag", "step", "wall_time", *columns]
    missing = [c for c in need if not any(part in frame.columns for part in c.split("|"))]
    if missing:
        raise ValueError(
            f"a {kind} frame needs the columns {', '.join(need)}; missing: {', '.join(missing)}"
        )
