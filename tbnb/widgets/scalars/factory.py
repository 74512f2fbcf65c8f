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

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import pandas as pd

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.scalars.widget import ScalarsWidget
from tbnb.widgets.source import source_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ScalarsOptions", "scalars"]

FRAME = "a DataFrame with columns run, tag, step, wall_time, value"


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
    state_budget: int


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
        :func:`tbnb.widgets.colors.run_colors`), ``state_budget`` (bytes of the preview
        of every series kept in the widget's state, default 1,000,000: a saved notebook
        or an exported page stays that small; the charts in view ask the kernel for
        screen resolution). Anything else raises ``TypeError``.

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
    given = source_of(source, "scalars", expected=FRAME)
    if isinstance(group_by, str) and not _looks_like_regex(group_by):
        hp = kw.get("hparams")
        if hp is None:
            hp = getattr(given.experiment, "hparams", None)
        column = _hparam_column(hp, group_by)
        if column is not None:
            group_by = column
    options: dict[str, Any] = {
        k: list(v) if k in ("log_y", "ignore_outliers") else v  # type: ignore[call-overload]
        for k, v in kw.items()
        if k not in ("charts", "band", "hparams", "state_budget")
    }
    return ScalarsWidget(
        source=given,
        runs=runs,
        tags=tags,
        group_by=group_by,
        agg=agg,
        band=kw.get("band", "std"),
        charts=kw.get("charts"),
        state_budget=kw.get("state_budget", 1_000_000),
        refresh=refresh,
        smoothing=smoothing,
        x_axis=x,
        height=height,
        **options,
    )


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
