"""``tbnb.scalars(...)``: build a scalars widget from an experiment, a frame or a logdir.

Examples
--------
>>> import pandas as pd, tbnb
>>> df = pd.DataFrame({"run": "a", "tag": "loss", "step": [0, 1, 2],
...                    "wall_time": [0.0, 1.0, 2.0], "value": [3.0, 2.0, 1.0]})
>>> tbnb.scalars(df, smoothing=0.5).smoothing
0.5
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import pandas as pd

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.scalars.widget import ScalarsWidget

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ScalarsOptions", "scalars"]


class ScalarsOptions(TypedDict, total=False):
    """Keyword arguments of :func:`scalars` beyond the documented positional ones."""

    smoothing_mode: str
    charts: Sequence[Sequence[str]]
    band: str
    hparams: pd.DataFrame
    log_y: Sequence[str]
    ignore_outliers: Sequence[str]
    run_filter: str
    tag_filter: str
    max_points: int
    show_raw: bool
    palette: str


def _frame_of(source: Any) -> tuple[pd.DataFrame, Any]:
    """The long scalars frame of ``source`` and the object to reload (or None)."""
    if isinstance(source, pd.DataFrame):
        return source, None
    if isinstance(source, (str, os.PathLike)):
        from tbnb.loader import load

        source = load(os.fspath(source))
    frame = getattr(source, "scalars", None)
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(
            "source must be an Experiment, a DataFrame with columns run, tag, step, "
            f"wall_time, value, or a logdir path; got {type(source).__name__}"
        )
    return frame, source if callable(getattr(source, "reload", None)) else None


def scalars(
    source: Any,
    *,
    smoothing: float = 0.6,
    x: str = "step",
    runs: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    group_by: str | Mapping[str, object] | pd.Series | None = None,
    agg: str | None = None,
    refresh: float | None = None,
    height: int = 220,
    **kw: Unpack[ScalarsOptions],
) -> ScalarsWidget:
    """Interactive scalar charts of an experiment, a frame or a logdir.

    Parameters
    ----------
    source
        An ``Experiment`` (``.scalars`` frame, ``.reload()``), a DataFrame with
        columns run, tag, step, wall_time, value, or a logdir path/URL.
    smoothing
        TensorBoard EMA weight, 0 to 0.999 (default 0.6).
    x
        ``"step"``, ``"relative"``, ``"wall"`` or ``"tag:<name>"``.
    runs, tags
        Keep only these: a case-insensitive regex or a list of names.
    group_by
        Aggregate runs: a regex whose first capture group names the group, an
        hparam column name (of ``hparams=`` or ``source.hparams``), or a mapping
        run -> group.
    agg
        ``"mean"`` (default when grouping) or ``"median"``; ``band=`` picks
        ``"std"`` (default), ``"minmax"``, ``"ci95"`` or ``"none"``.
    refresh
        Poll ``source.reload()`` every so many seconds and send the new points.
    height
        Chart height in pixels.
    **kw
        ``smoothing_mode`` (``"ema"``/``"time"``), ``charts`` (lists of tags drawn
        together), ``band``, ``hparams``, ``log_y``, ``ignore_outliers``,
        ``run_filter``, ``tag_filter``, ``max_points`` (per series, default 1000;
        ``.data`` is what is drawn, ``.full_data`` every point), ``show_raw``,
        ``palette`` (``"default"`` or ``"colorblind"``: run colours, see
        :func:`tbnb.widgets.colors.run_colors`). Anything else raises ``TypeError``.

    Examples
    --------
    >>> import pandas as pd, tbnb
    >>> df = pd.DataFrame({"run": "a", "tag": "loss", "step": [0, 1, 2],
    ...                    "wall_time": [0.0, 1.0, 2.0], "value": [3.0, 2.0, 1.0]})
    >>> w = tbnb.scalars(df, smoothing=0.5)
    >>> w.data["smoothed"].round(3).tolist()
    [3.0, 2.333, 1.571]
    """
    check_kwargs("scalars", dict(kw), ScalarsOptions.__annotations__)
    if agg is not None and agg not in ("mean", "median"):
        raise ValueError(f"agg must be 'mean' or 'median', got {agg!r}")
    band = kw.get("band", "std")
    if band not in ("std", "minmax", "ci95", "none"):
        raise ValueError(f"band must be 'std', 'minmax', 'ci95' or 'none', got {band!r}")
    if agg is not None and group_by is None:
        raise ValueError("agg= needs group_by=")
    frame, reloadable = _frame_of(source)
    if isinstance(group_by, str) and not _looks_like_regex(group_by):
        hp = kw.get("hparams")
        if hp is None:
            hp = getattr(source, "hparams", None)
        column = _hparam_column(hp, group_by)
        if column is not None:
            group_by = column
    widget = ScalarsWidget(
        smoothing=smoothing,
        smoothing_mode=kw.get("smoothing_mode", "ema"),
        x_axis=x,
        height=height,
        run_filter=kw.get("run_filter", ""),
        tag_filter=kw.get("tag_filter", ""),
        log_y=list(kw.get("log_y", [])),
        ignore_outliers=list(kw.get("ignore_outliers", [])),
        max_points=kw.get("max_points", 1000),
        show_raw=kw.get("show_raw", True),
        palette=kw.get("palette", "default"),
    )
    for name in ("run_filter", "tag_filter"):
        pattern = getattr(widget, name)
        try:
            re.compile(pattern)
        except re.error as err:
            raise ValueError(f"{name}= is not a valid regex: {pattern!r} ({err})") from err
    widget._build = {
        "runs": runs,
        "tags": tags,
        "group_by": group_by,
        "agg": agg,
        "band": band,
        "charts": kw.get("charts"),
    }
    if reloadable is not None:
        widget.follow(reloadable)
    widget._set_frame(frame)
    run_re = re.compile(widget.run_filter, re.IGNORECASE) if widget.run_filter else None
    widget.selected_runs = [r for r in widget._legend if run_re is None or run_re.search(r)]
    if refresh is not None:
        if reloadable is None:
            raise ValueError("refresh= needs a source with .reload() (an Experiment or a logdir)")
        widget.start_refresh(float(refresh))
    return widget


def _looks_like_regex(text: str) -> bool:
    return any(ch in text for ch in "()[]\\^$*+?|{}")


def _hparam_column(hp: Any, column: str) -> pd.Series | None:
    """``run -> value`` of hparam ``column`` if ``hp`` (one row per run) has it.

    Runs listed in ``hp.attrs["members"]`` (row -> runs whose scalars it holds, such
    as the timestamped sub-run of torch's ``add_hparams``) get their row's value.
    """
    if not isinstance(hp, pd.DataFrame) or column not in hp.columns:
        return None
    rows = hp["run"].astype(str) if "run" in hp.columns else hp.index.astype(str)
    values = dict(zip(rows, hp[column].to_numpy(), strict=True))
    members = hp.attrs.get("members")
    if isinstance(members, Mapping):
        for row, runs in members.items():
            if str(row) in values:
                for run in runs:
                    values.setdefault(str(run), values[str(row)])
    return pd.Series(values, dtype=object)
