"""``tbnb.custom_scalars(...)``: the custom-scalars charts of an experiment or a logdir.

Examples
--------
>>> import pandas as pd, tbnb
>>> df = pd.DataFrame({"run": "a", "tag": ["loss/train", "loss/val"] * 2, "step": [0, 0, 1, 1],
...                    "wall_time": 0.0, "value": [2.0, 3.0, 1.0, 2.0]})
>>> w = tbnb.custom_scalars(df, layout={"losses": {"both": ["Multiline", ["loss/.*"]]}})
>>> [(c["title"], len(c["series"])) for c in w.charts]
[('both', 2)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.kinds.custom_scalars import CustomScalarLayouts, Layout, layout_from_dict
from tbnb.widgets.base import check_kwargs
from tbnb.widgets.custom_scalars.widget import CustomScalarsWidget
from tbnb.widgets.source import source_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["CustomScalarsOptions", "custom_scalars"]


class CustomScalarsOptions(TypedDict, total=False):
    """Keyword arguments of :func:`custom_scalars` beyond the documented ones."""

    smoothing_mode: str
    run_filter: str
    log_y: Sequence[str]
    max_points: int
    palette: str


def _layout_of(layout: Any, source: Any) -> tuple[Layout, str]:
    """The layout to draw and, when there is none, why."""
    if isinstance(layout, Layout):
        return layout, "the layout given has no charts"
    if isinstance(layout, Mapping):
        return layout_from_dict(layout), "the layout given has no charts"
    if layout is not None:
        raise TypeError(
            "layout= must be a tbnb Layout or {category: {chart: ['Multiline', "
            f"[regexes]] | ['Margin', [value, lower, upper]]}}, got "
            f"{type(layout).__name__}"
        )
    layouts = getattr(source, "custom_scalars", None)
    if isinstance(layouts, CustomScalarLayouts):
        where = getattr(source, "logdir", "the experiment")
        why = (
            (
                f"no run in {where!r} wrote a custom-scalars layout (add_custom_scalars); "
                "pass layout= to draw one"
            )
            if not len(layouts)
            else (f"the layouts written in {where!r} have no charts")
        )
        return layouts.merged, why
    return Layout(), "a DataFrame holds no layout: pass layout="


def custom_scalars(
    source: Any,
    *,
    layout: Layout | Mapping[str, Mapping[str, Any]] | None = None,
    smoothing: float = 0.6,
    x: str = "step",
    runs: str | Sequence[str] | None = None,
    refresh: float | None = None,
    height: int = 220,
    **kw: Unpack[CustomScalarsOptions],
) -> CustomScalarsWidget:
    """The custom-scalars charts of an experiment, a scalars frame or a logdir.

    Parameters
    ----------
    source
        An ``Experiment`` (its layouts, ``exp.custom_scalars.merged``, and its scalars,
        followed on reloads), a scalars frame (run, tag, step, wall_time, value; needs
        ``layout=``), or a logdir path/URL.
    layout
        Draw this layout instead of the logged one: a
        :class:`~tbnb.kinds.custom_scalars.Layout` or the dict ``add_custom_scalars``
        takes, ``{category: {chart: ["Multiline", [tag regexes]]}}`` or
        ``["Margin", [value, lower, upper]]``.
    smoothing
        TensorBoard's EMA weight, 0 to 0.999 (default 0.6).
    x
        ``"step"``, ``"relative"`` or ``"wall"``.
    runs
        Keep only these runs: a case-insensitive regex or a list of names.
    refresh
        Reload the source every so many seconds.
    height
        Chart height in pixels.
    **kw
        ``smoothing_mode`` (``"ema"``/``"time"``), ``run_filter``, ``log_y`` (chart
        keys), ``max_points`` (per series, default 1000), ``palette``. Anything else
        raises ``TypeError``.
    """
    check_kwargs("custom_scalars", dict(kw), CustomScalarsOptions.__annotations__)
    given = source_of(source, "scalars", expected="a scalars DataFrame")
    chosen, why = _layout_of(layout, given.experiment)
    traits: dict[str, Any] = {
        k: list(v) if k == "log_y" else v  # type: ignore[call-overload]
        for k, v in kw.items()
    }
    return CustomScalarsWidget(
        source=given,
        layout=chosen,
        fixed=layout is not None,
        runs=runs,
        why_empty=why,
        refresh=refresh,
        smoothing=smoothing,
        x_axis=x,
        height=height,
        **traits,
    )
