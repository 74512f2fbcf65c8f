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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.histograms.widget import HistogramsWidget
from tbnb.widgets.source import source_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["HistogramsOptions", "distributions", "histograms"]

FRAME = "a histograms DataFrame (columns run, tag, step, edges, counts, as exp.histograms)"


class HistogramsOptions(TypedDict, total=False):
    """Keyword arguments of :func:`histograms` beyond the documented ones."""

    run_filter: str
    tag_filter: str
    palette: str
    log_color: bool
    step: int
    state_budget: int


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
    given = source_of(source, "histograms", expected=FRAME)
    traits: dict[str, Any] = dict(kw)
    traits["log_color"] = bool(traits.get("log_color", False))
    return HistogramsWidget(
        source=given,
        runs=runs,
        tags=tags,
        refresh=refresh,
        mode=mode,
        bins=bins,
        time_axis=time_axis,
        max_steps=max_steps,
        step_window=list(step_window) if step_window is not None else [],
        height=height,
        **traits,
    )


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
