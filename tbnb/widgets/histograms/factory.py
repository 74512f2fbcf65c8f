"""``tbnb.histograms(...)`` and ``tbnb.distributions(...)``: build the histograms widget.

Both build one :class:`~tbnb.widgets.histograms.widget.HistogramsWidget` (one front end,
five modes: ridgelines, overlay, heatmap, TensorBoard's distribution bands, runs at a
step); ``distributions`` only starts it in the ``distribution`` mode. The user switches
modes in the toolbar.

Examples
--------
>>> import numpy as np, pandas as pd, tbnb
>>> frame = pd.DataFrame({"run": "a", "tag": "w", "step": [0, 1], "wall_time": [0.0, 1.0],
...                       "edges": [np.array([0.0, 1.0])] * 2, "counts": [np.ones(1)] * 2})
>>> tbnb.histograms(frame, bins=10).bins, tbnb.distributions(frame).mode
(10, 'distribution')
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import pandas as pd

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.histograms.widget import HistogramsWidget, warn_empty

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["HistogramsOptions", "distributions", "histograms"]


class HistogramsOptions(TypedDict, total=False):
    """Keyword arguments of :func:`histograms` beyond the documented ones."""

    run_filter: str
    tag_filter: str
    palette: str
    log_color: bool
    step: int
    state_budget: int


def _frame_of(source: Any) -> tuple[pd.DataFrame, Any, str]:
    """The histograms frame of ``source``, what to reload (or None) and its name."""
    if isinstance(source, pd.DataFrame):
        return source, None, "the DataFrame"
    if isinstance(source, (str, os.PathLike)):
        from tbnb.loader import load

        source = load(os.fspath(source))
    frame = getattr(source, "histograms", None)
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(
            "source must be an Experiment, a histograms DataFrame (columns run, tag, step, "
            f"edges, counts, as exp.histograms) or a logdir path; got {type(source).__name__}"
        )
    reloadable = source if callable(getattr(source, "reload", None)) else None
    return frame, reloadable, repr(getattr(source, "logdir", type(source).__name__))


def histograms(
    source: Any,
    *,
    mode: str = "offset",
    bins: int = 30,
    time_axis: str = "step",
    runs: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    max_steps: int = 51,
    step_window: Sequence[float] | None = None,
    refresh: float | None = None,
    height: int = 170,
    **kw: Unpack[HistogramsOptions],
) -> HistogramsWidget:
    """Histogram charts of an experiment, a frame or a logdir: one per tag and run.

    Parameters
    ----------
    source
        An ``Experiment`` (``.histograms``, ``.reload()``), a histograms DataFrame
        (``exp.histograms``: run, tag, step, wall_time, edges, counts) or a logdir.
    mode
        ``"offset"`` (ridgelines, newest in front), ``"overlay"``, ``"heatmap"`` (step x
        bin, readable at thousands of steps), ``"distribution"`` (TensorBoard's nine
        bands) or ``"runs"`` (the selected runs of a tag overlaid at one ``step``).
    bins
        Display bins per chart, 1 to 512 (TensorBoard's 30). Histograms are re-binned as
        TensorBoard does: common equal bins per chart, counts spread by overlap.
    time_axis
        ``"step"``, ``"relative"`` or ``"wall"``: the offset axis of ridgelines and the x
        axis of heatmaps and bands.
    runs, tags
        Keep only these: a case-insensitive regex or a list of names.
    max_steps
        Histograms per ridgeline or overlay chart, evenly spaced in step with the first
        and last always (every step is kept; heatmaps and bands draw one per pixel).
    step_window
        ``(first, last)``: show only those steps (a training phase).
    refresh
        Poll ``source.reload()`` every so many seconds and redraw what changed.
    height
        Chart height in pixels.
    **kw
        ``run_filter``, ``tag_filter`` (regexes the toolbar shows), ``palette``
        (``"default"`` or ``"colorblind"``), ``log_color`` (heatmap), ``step`` (the
        ``runs`` mode's step) and ``state_budget`` (bytes of the saved preview of every
        chart, default 1.3 MB). Anything else raises ``TypeError``.

    Examples
    --------
    >>> import tbnb
    >>> w = tbnb.histograms(tbnb.samples.sample_logdir(), mode="heatmap", bins=64)
    >>> w.data.columns.tolist()
    ['run', 'tag', 'step', 'wall_time', 'bin_left', 'bin_right', 'count']
    """
    check_kwargs("histograms", dict(kw), HistogramsOptions.__annotations__)
    frame, reloadable, name = _frame_of(source)
    widget = HistogramsWidget(
        mode=mode,
        bins=bins,
        time_axis=time_axis,
        max_steps=max_steps,
        step_window=list(step_window) if step_window is not None else [],
        height=height,
        run_filter=kw.get("run_filter", ""),
        tag_filter=kw.get("tag_filter", ""),
        palette=kw.get("palette", "default"),
        log_color=bool(kw.get("log_color", False)),
        step=kw.get("step"),
    )
    for option in ("run_filter", "tag_filter"):
        pattern = getattr(widget, option)
        try:
            re.compile(pattern)
        except re.error as err:
            raise ValueError(f"{option}= is not a valid regex: {pattern!r} ({err})") from err
    budget = int(kw.get("state_budget", 1_300_000))
    if budget < 10_000:
        raise ValueError(f"state_budget must be at least 10000 bytes, got {budget}")
    widget._build = {"runs": runs, "tags": tags, "budget": budget}
    if reloadable is not None:
        widget.follow(reloadable)
    empty = _empty_reason(frame, name, runs, tags)
    widget._build["empty"] = empty
    if empty:
        warn_empty(empty)
    widget._set_frame(frame, preview_now=False)
    run_re = re.compile(widget.run_filter, re.IGNORECASE) if widget.run_filter else None
    widget.selected_runs = [r for r in widget._legend if run_re is None or run_re.search(r)]
    if refresh is not None:
        if reloadable is None:
            raise ValueError("refresh= needs a source with .reload() (an Experiment or a logdir)")
        widget.start_refresh(float(refresh))
    return widget


def distributions(source: Any, **kwargs: Any) -> HistogramsWidget:
    """TensorBoard's distribution charts: the nine percentile bands of every histogram.

    One chart per tag and run: the 0, 6.68, 15.87, 30.85, 50, 69.15, 84.13, 93.32 and
    100 % points of each step's histogram (the normal distribution's -inf, -1.5, -1,
    -0.5, 0, 0.5, 1, 1.5, +inf sigmas, computed as TensorBoard's compressor does), min
    and max at the edges, the median as a line. Takes :func:`histograms`'s arguments and
    is the same widget, started in the ``distribution`` mode.

    Examples
    --------
    >>> import tbnb
    >>> w = tbnb.distributions(tbnb.samples.sample_logdir())
    >>> w.data.columns.tolist()[:6]
    ['run', 'tag', 'step', 'wall_time', 'p0', 'p668']
    """
    kwargs.setdefault("mode", "distribution")
    return histograms(source, **kwargs)


def _empty_reason(frame: pd.DataFrame, name: str, runs: Any, tags: Any) -> str:
    """Why there is nothing to draw (``""`` when there is)."""
    if len(frame) == 0:
        return f"no histograms in {name}"
    if runs is None and tags is None:
        return ""
    from tbnb.widgets.scalars.prepare import pick

    names = sorted({str(r) for r in frame["run"]})
    all_tags = sorted({str(g) for g in frame["tag"]})
    kept_runs = pick(names, runs, "runs")
    kept_tags = pick(all_tags, tags, "tags")
    if not kept_runs:
        return f"runs={runs!r} matched none of the runs with histograms: {names}"
    if not kept_tags:
        return f"tags={tags!r} matched none of the histogram tags: {all_tags}"
    return ""
