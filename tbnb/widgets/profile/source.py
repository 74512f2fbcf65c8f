"""What the profiler view is built from: a :class:`~tbnb.widgets.source.Source` whose data
is a :class:`~tbnb.kinds.profile.ProfileSet`.

An experiment gives its ``exp.profile`` (and is followed on reloads), a logdir is loaded
as one, a trace file or a URL is read as traces alone (``tbnb.profile(path)``), and a
``ProfileSet`` is shown as it is.

Examples
--------
>>> import json, pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "w.1.pt.trace.json").write_text(json.dumps({"traceEvents": []}))
>>> source = profile_source(folder / "w.1.pt.trace.json")
>>> source.data.traces["trace"].tolist(), source.live is None
(['w.1'], True)
>>> profile_source(42)
Traceback (most recent call last):
...
TypeError: source must be an Experiment, a logdir path or a ProfileSet (tbnb.profile(path)); got int
"""

from __future__ import annotations

import os
from typing import Any

from tbnb.kinds.profile import ProfileSet, is_trace_file, profile
from tbnb.widgets.source import Source, source_of

__all__ = ["EXPECTED", "NO_TRACES", "profile_of", "profile_source"]

EXPECTED = "a ProfileSet (tbnb.profile(path))"
"""What the builder takes besides an experiment or a logdir, for its messages."""

NO_TRACES = (
    "no profiler traces (looked for *.pt.trace.json[.gz], "
    "plugins/profile/*/*.xplane.pb and *.trace.json.gz beside the runs)"
)
"""Why the view shows nothing when the source holds no trace."""


def profile_of(experiment: Any) -> ProfileSet | None:
    """An experiment's traces (``exp.profile``), or None when it has none to give."""
    frame = getattr(experiment, "frame", None)
    return frame("profile") if callable(frame) else None


def profile_source(source: Any) -> Source:
    """The :class:`Source` of ``tbnb.profiler(source)``.

    Raises
    ------
    TypeError
        ``source`` is not an experiment, a logdir, a trace path or URL, or a ProfileSet.
    """
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if is_trace_file(text) or "://" in text:
            return Source(profile(text), name=repr(text))
    if isinstance(source, ProfileSet):
        return Source(source, name="the ProfileSet")
    return source_of(source, "profile", expected=EXPECTED, read=profile_of, frame_type=ProfileSet)
