"""Pure preparation of the custom-scalars view: a layout resolved against the scalars.

A :class:`~tbnb.kinds.custom_scalars.Layout` names charts; :func:`resolve` finds what
each one draws, as TensorBoard's custom-scalars dashboard does:

- a *multiline* chart draws, in every run, each scalar tag one of its regexes matches
  with ``re.match`` (anchored at the start, as the plugin's ``scalars`` route matches);
  an invalid regex is reported and skipped;
- a *margin* chart draws, in every run holding all three tags of a series, the value
  tag as a line and the band between the lower and upper tags. Where the three tags were
  logged at different steps, TensorBoard refuses the series; here it is drawn at the
  steps all three share and the mismatch is reported. A run with some but not all of the
  tags is reported ("lacks") as TensorBoard does.

Series are named ``"<tag> (<run>)"`` as in TensorBoard.

Examples
--------
>>> import pandas as pd
>>> from tbnb.kinds.custom_scalars import layout_from_dict
>>> df = pd.DataFrame({"run": "a", "tag": ["loss/train", "loss/val", "acc"], "step": 0,
...                    "wall_time": 0.0, "value": [1.0, 2.0, 0.5]})
>>> layout = layout_from_dict({"losses": {"both": ["Multiline", ["loss/"]]}})
>>> (chart,) = resolve(layout, df)
>>> chart["series"], chart["notes"]
([['a', 'loss/train'], ['a', 'loss/val']], [])
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.kinds.custom_scalars import Chart, Layout
from tbnb.widgets.colors import DEFAULT_PALETTE
from tbnb.widgets.ordering import natural_key
from tbnb.widgets.series import series_marks
from tbnb.widgets.spec import DASHES, Axis, Mark, Panel, ViewSpec

__all__ = ["MARGIN_SEP", "margin_frame", "plain_keys", "resolve", "view_spec"]

MARGIN_SEP = "\u0000"
"""Joins the value, lower and upper tags into the key of a margin series."""


def _pairs(frame: pd.DataFrame) -> dict[str, list[str]]:
    """Run -> its scalar tags (natural order), runs in natural order."""
    pairs = frame[["run", "tag"]].drop_duplicates()
    out: dict[str, list[str]] = {}
    for run, tag in zip(pairs["run"].astype(str), pairs["tag"].astype(str), strict=True):
        out.setdefault(run, []).append(tag)
    return {
        run: sorted(tags, key=natural_key)
        for run, tags in sorted(out.items(), key=lambda item: natural_key(item[0]))
    }


def _key(category: str, chart: str, used: set[str]) -> str:
    key = f"{category}/{chart}"
    n = 2
    while key in used:
        key = f"{category}/{chart} ({n})"
        n += 1
    used.add(key)
    return key


def _multiline(chart: Chart, tags_of: dict[str, list[str]], notes: list[str]) -> list[list[str]]:
    patterns = []
    for regex in chart.tags:
        try:
            patterns.append(re.compile(regex))
        except re.error as err:
            notes.append(f"tag regex {regex!r} is invalid ({err}): skipped")
    if not chart.tags:
        notes.append("the chart names no tag regex")
    series = [
        [run, tag]
        for run, tags in tags_of.items()
        for tag in tags
        if any(p.match(tag) for p in patterns)
    ]
    if patterns and not series:
        shown = ", ".join(repr(r) for r in chart.tags)
        notes.append(
            f"no scalar tag of any run matches {shown} (matched from the tag's "
            "start, as TensorBoard does)"
        )
    return series


def _margin(
    chart: Chart,
    tags_of: dict[str, list[str]],
    frame_steps: dict[tuple[str, str], np.ndarray],
    notes: list[str],
) -> list[list[str]]:
    series = []
    if not chart.margins:
        notes.append("the chart names no margin series")
    for margin in chart.margins:
        wanted = [margin.value, margin.lower, margin.upper]
        key = MARGIN_SEP.join(wanted)
        partial = False
        for run, tags in tags_of.items():
            have = [t for t in wanted if t in tags]
            if len(have) < 3:
                if have:
                    partial = True
                    missing = [t for t in wanted if t not in tags]
                    notes.append(f"run {run!r} lacks data for tags {missing}")
                continue
            steps = [frame_steps[(run, t)] for t in wanted]
            if not (np.array_equal(steps[0], steps[1]) and np.array_equal(steps[0], steps[2])):
                notes.append(
                    f"run {run!r}: {margin.value!r}, {margin.lower!r} and "
                    f"{margin.upper!r} were logged at different steps; drawn at "
                    "the steps all three share"
                )
            series.append([run, key])
        if not partial and not any(s[1] == key for s in series):
            notes.append(f"no run has any of the tags {wanted}")
    return series


def resolve(layout: Layout, frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Each chart of ``layout`` with what it draws from the scalars ``frame``.

    Returns one ``{"key", "category", "title", "kind", "closed", "series", "notes",
    "tags"}`` per chart: ``series`` lists ``[run, tag]`` (multiline) or ``[run, key]``
    (margin: the three tags joined by :data:`MARGIN_SEP`); ``notes`` says what could not
    be drawn and why.
    """
    tags_of = _pairs(frame)
    steps: dict[tuple[str, str], np.ndarray] = {}
    if any(chart.kind == "margin" for _, chart in layout.charts):
        for (run, tag), part in frame.groupby(
            [frame["run"].astype(str), frame["tag"].astype(str)], sort=False
        ):
            steps[(str(run), str(tag))] = np.unique(part["step"].to_numpy())
    used: set[str] = set()
    out = []
    for category in layout.categories:
        for chart in category.charts:
            notes: list[str] = []
            if chart.kind == "margin":
                series = _margin(chart, tags_of, steps, notes)
                tags = [t for m in chart.margins for t in (m.value, m.lower, m.upper)]
            else:
                series = _multiline(chart, tags_of, notes)
                tags = list(chart.tags)
            out.append(
                {
                    "key": _key(category.title, chart.title, used),
                    "category": category.title,
                    "title": chart.title or "untitled",
                    "kind": chart.kind,
                    "closed": category.closed,
                    "series": series,
                    "notes": notes,
                    "tags": tags,
                }
            )
    return out


def plain_keys(charts: Sequence[dict[str, Any]]) -> set[tuple[str, str]]:
    """Every ``(run, tag)`` a multiline chart draws."""
    return {(run, tag) for c in charts if c["kind"] == "multiline" for run, tag in c["series"]}


def margin_frame(frame: pd.DataFrame, charts: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """One long frame of the margin series: run, tag (the joined key), step, wall_time and
    value of the value tag, ``lo`` and ``hi`` of the lower and upper tags, at the steps
    all three share (the last point written at a repeated step).

    Examples
    --------
    >>> df = pd.DataFrame({"run": "a", "tag": ["v", "l", "u", "v", "l"], "step": [0, 0, 0, 1, 1],
    ...                    "wall_time": 0.0, "value": [1.0, 0.5, 1.5, 2.0, 1.5]})
    >>> key = MARGIN_SEP.join(["v", "l", "u"])
    >>> margin_frame(df, [{"kind": "margin", "series": [["a", key]]}])[["step", "lo", "hi"]
    ...     ].to_numpy().tolist()
    [[0.0, 0.5, 1.5]]
    """
    wanted = sorted(
        {(run, key) for c in charts if c["kind"] == "margin" for run, key in c["series"]}
    )
    columns = ["run", "tag", "step", "wall_time", "value", "lo", "hi"]
    if not wanted:
        return pd.DataFrame({c: [] for c in columns})
    runs = frame["run"].astype(str)
    tags = frame["tag"].astype(str)
    parts = []
    for run, key in wanted:
        value_tag, lower_tag, upper_tag = key.split(MARGIN_SEP)

        def points(tag: str, run: str = run) -> pd.DataFrame:
            sub = frame[(runs == run) & (tags == tag)]
            return sub.drop_duplicates("step", keep="last").set_index("step")

        value, lower, upper = points(value_tag), points(lower_tag), points(upper_tag)
        shared = value.index.intersection(lower.index).intersection(upper.index).sort_values()
        parts.append(
            pd.DataFrame(
                {
                    "run": run,
                    "tag": key,
                    "step": shared.to_numpy(),
                    "wall_time": value.loc[shared, "wall_time"].to_numpy(np.float64),
                    "value": value.loc[shared, "value"].to_numpy(np.float64),
                    "lo": lower.loc[shared, "value"].to_numpy(np.float64),
                    "hi": upper.loc[shared, "value"].to_numpy(np.float64),
                }
            )
        )
    return pd.concat(parts, ignore_index=True)[columns]


def view_spec(
    data: pd.DataFrame,
    charts: Sequence[Mapping[str, Any]],
    *,
    colors: Mapping[str, str],
    x_axis: str,
    log_y: Sequence[str] = (),
    height: int = 220,
) -> ViewSpec:
    """The ``charts`` (layout charts with series) of the points drawn (``w.data``): per
    series a faint raw line and the smoothed one (``"<tag> (<run>)"``), margin series with
    their band; two charts a row.

    Examples
    --------
    >>> data = pd.DataFrame({"chart": "c", "run": "a", "tag": "loss", "step": [0, 1],
    ...                      "wall_time": 0.0, "value": [2.0, 1.0], "smoothed": [2.0, 1.5]})
    >>> chart = {"key": "c", "category": "losses", "title": "loss"}
    >>> spec = view_spec(data, [chart], colors={}, x_axis="step")
    >>> spec.panels[0].title, [m.name for m in spec.panels[0].marks]
    ('losses / loss', ['', 'loss (a)'])
    """
    panels = []
    for chart in charts:
        part = data[data["chart"].astype(str) == chart["key"]]
        tags = list(dict.fromkeys(part["tag"].astype(str)))
        marks: list[Mark] = []
        for (run, tag), series in part.groupby(
            [part["run"].astype(str), part["tag"].astype(str)], sort=False
        ):
            color = colors.get(str(run), DEFAULT_PALETTE[0])
            xs = series["step" if x_axis == "step" else "wall_time"].to_numpy()
            margin = "lower" in series and series["lower"].notna().any()
            marks += series_marks(
                xs,
                series,
                name=f"{tag} ({run})",
                color=color,
                dash=DASHES[tags.index(str(tag)) % len(DASHES)],
                band=("lower", "upper") if margin else None,
            )
        y = Axis(log=chart["key"] in log_y)
        title = f"{chart['category']} / {chart['title']}"
        panels.append(Panel(title, marks, x=Axis(time=x_axis != "step"), y=y))
    return ViewSpec.tiled(panels, most=2, panel_height=height)
