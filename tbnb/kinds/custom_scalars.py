"""Custom-scalars layouts: the charts a run asks TensorBoard to draw (layer: kinds).

The ``custom_scalars`` plugin stores a serialized ``Layout`` (TensorBoard's
``plugins/custom_scalar/layout.proto``) as the tensor's string; older writers put it in
the plugin content instead. A layout holds **categories** (a title, ``closed`` when
TensorBoard shows it folded), each a list of **charts** with a title and one of

- a *multiline* chart: tag regular expressions; the chart draws every scalar tag of
  every run that one of them matches (``re.match``: anchored at the tag's start);
- a *margin* chart: series of three exact tags, ``value`` drawn as a line and
  ``lower``/``upper`` as a band around it.

``exp.custom_scalars`` is a :class:`CustomScalarLayouts`: run -> :class:`Layout` (the
layout each run wrote last, decoded), with ``.merged`` (the one layout TensorBoard
shows: every run's, in run-name order, categories of the same title merged and
duplicate charts dropped) and ``.raw`` (run -> the serialized ``Layout`` bytes).
:func:`layout_from_dict` reads the ``{category: {chart: ["Multiline", [regexes]]}}``
form torch's and tensorboardX's ``add_custom_scalars`` take.

Examples
--------
>>> from tbnb._proto import Layout as LayoutProto
>>> raw = LayoutProto(category=[{"title": "losses", "chart": [
...     {"title": "all", "multiline": {"tag": ["loss/.*"]}}]}]).SerializeToString()
>>> layout = decode_layout(raw)
>>> chart = layout.categories[0].charts[0]
>>> layout.categories[0].title, chart.kind, chart.tags
('losses', 'multiline', ('loss/.*',))
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import pandas as pd
from google.protobuf.message import DecodeError

from tbnb._proto import Layout as LayoutProto
from tbnb.decode.tensors import TensorDecodeError
from tbnb.kinds.base import RecordsKind, Tab, TagMetadata, column_rows

KEY = "custom_scalars"

__all__ = [
    "KIND",
    "Category",
    "Chart",
    "CustomScalarLayouts",
    "Layout",
    "MarginSeries",
    "decode_layout",
    "layout_from_dict",
    "merge_layouts",
]


@dataclass(frozen=True)
class MarginSeries:
    """One series of a margin chart: the tags of its value and of its band's edges."""

    value: str
    lower: str
    upper: str


@dataclass(frozen=True)
class Chart:
    """One chart: ``kind`` ``"multiline"`` (``tags``: regexes) or ``"margin"`` (``margins``)."""

    title: str
    kind: Literal["multiline", "margin"]
    tags: tuple[str, ...] = ()
    margins: tuple[MarginSeries, ...] = ()


@dataclass(frozen=True)
class Category:
    """A titled group of charts (``closed``: shown folded)."""

    title: str
    charts: tuple[Chart, ...] = ()
    closed: bool = False


@dataclass(frozen=True)
class Layout:
    """A decoded custom-scalars ``Layout``: its categories, in order."""

    categories: tuple[Category, ...] = ()
    version: int = 0

    @property
    def charts(self) -> list[tuple[Category, Chart]]:
        """Every ``(category, chart)``, in order."""
        return [(category, chart) for category in self.categories for chart in category.charts]


def decode_layout(raw: bytes) -> Layout:
    """A serialized ``Layout`` as a :class:`Layout`.

    Raises
    ------
    tbnb.decode.tensors.TensorDecodeError
        When ``raw`` is not a serialized ``Layout``.
    """
    try:
        proto = LayoutProto.FromString(bytes(raw))
    except (DecodeError, RuntimeError, ValueError) as error:
        raise TensorDecodeError(f"not a custom-scalars Layout ({error})") from None
    categories = []
    for category in proto.category:
        charts = []
        for chart in category.chart:
            if chart.WhichOneof("content") == "margin":
                margins = tuple(
                    MarginSeries(s.value, s.lower, s.upper) for s in chart.margin.series
                )
                charts.append(Chart(chart.title, "margin", margins=margins))
            else:  # a multiline chart, or a chart without content: no tags
                charts.append(Chart(chart.title, "multiline", tags=tuple(chart.multiline.tag)))
        categories.append(Category(category.title, tuple(charts), bool(category.closed)))
    return Layout(tuple(categories), int(proto.version))


def merge_layouts(layouts: Mapping[str, Layout]) -> Layout:
    """The layout TensorBoard's plugin shows for several runs' layouts.

    Runs in name order; a category whose title was seen before gets the charts it does
    not have yet. (TensorBoard means to do this; its code merges a third run's charts
    into the second run's copy of a category instead, so they get lost; here they do not.)

    Examples
    --------
    >>> a = Layout((Category("loss", (Chart("x", "multiline", ("a",)),)),))
    >>> b = Layout((Category("loss", (Chart("x", "multiline", ("a",)),
    ...                               Chart("y", "multiline", ("b",)))),))
    >>> [c.title for c in merge_layouts({"r1": a, "r2": b}).categories[0].charts]
    ['x', 'y']
    """
    order: list[str] = []
    charts: dict[str, list[Chart]] = {}
    closed: dict[str, bool] = {}
    version = 0
    for run in sorted(layouts):
        layout = layouts[run]
        version = version or layout.version
        for category in layout.categories:
            if category.title not in charts:
                order.append(category.title)
                charts[category.title] = []
                closed[category.title] = category.closed
            have = charts[category.title]
            have.extend(c for c in category.charts if c not in have)
    return Layout(tuple(Category(t, tuple(charts[t]), closed[t]) for t in order), version)


def layout_from_dict(spec: Mapping[str, Mapping[str, Any]]) -> Layout:
    """A layout in the form ``add_custom_scalars`` takes (torch, tensorboardX).

    ``{category: {chart title: ["Multiline", [tag regexes]]}}`` or
    ``["Margin", [value, lower, upper]]`` (several margin series: a flat list of
    triples, as tensorboardX accepts).

    Examples
    --------
    >>> layout = layout_from_dict({"loss": {"both": ["Multiline", ["train/loss", "val/loss"]],
    ...                                     "band": ["Margin", ["acc", "acc_lo", "acc_hi"]]}})
    >>> [(c.title, c.kind) for _, c in layout.charts]
    [('both', 'multiline'), ('band', 'margin')]
    >>> layout_from_dict({"x": {"y": ["Pie", []]}})
    Traceback (most recent call last):
    ...
    ValueError: layout chart 'x'/'y': the chart type must be 'Multiline' or 'Margin', got 'Pie'
    """
    categories = []
    for title, charts_spec in spec.items():
        charts = []
        for chart_title, content in charts_spec.items():
            where = f"layout chart {title!r}/{chart_title!r}"
            if not isinstance(content, (list, tuple)) or len(content) != 2:
                raise ValueError(f"{where}: expected [type, tags], got {content!r}")
            kind, tags = str(content[0]).lower(), [str(t) for t in content[1]]
            if kind == "multiline":
                charts.append(Chart(str(chart_title), "multiline", tags=tuple(tags)))
            elif kind == "margin":
                if not tags or len(tags) % 3:
                    raise ValueError(
                        f"{where}: a margin chart needs [value, lower, upper] "
                        f"tags (triples), got {tags!r}"
                    )
                margins = tuple(MarginSeries(*tags[i : i + 3]) for i in range(0, len(tags), 3))
                charts.append(Chart(str(chart_title), "margin", margins=margins))
            else:
                raise ValueError(
                    f"{where}: the chart type must be 'Multiline' or 'Margin', got {content[0]!r}"
                )
        categories.append(Category(str(title), tuple(charts)))
    return Layout(tuple(categories))


@dataclass(frozen=True, eq=False)
class CustomScalarLayouts(Mapping[str, Layout]):
    """``exp.custom_scalars``: run -> the :class:`Layout` it wrote last.

    Attributes
    ----------
    raw
        Run -> the serialized ``Layout`` (the bytes as written), read-only.
    merged
        The layout TensorBoard shows: every run's merged (:func:`merge_layouts`).

    Layouts are frozen dataclasses and both mappings are read-only, so the object the
    experiment hands out cannot be changed by its user (a reload makes a new one).
    """

    raw: Mapping[str, bytes] = field(default_factory=lambda: MappingProxyType({}))
    layouts: Mapping[str, Layout] = field(default_factory=lambda: MappingProxyType({}))

    def __getitem__(self, run: str) -> Layout:
        return self.layouts[run]

    def __iter__(self) -> Iterator[str]:
        return iter(self.layouts)

    def __len__(self) -> int:
        return len(self.layouts)

    @property
    def merged(self) -> Layout:
        """Every run's layout merged, as TensorBoard shows it."""
        return merge_layouts(self.layouts)

    def __repr__(self) -> str:
        charts = len(self.merged.charts)
        return f"<CustomScalarLayouts: {len(self)} run(s), {charts} chart(s) merged>"


def normalize(value: Any, meta: TagMetadata | None) -> bytes:
    """The serialized ``Layout`` (checked: it must decode)."""
    strings = list(value.tensor.string_val)
    raw = bytes(strings[0]) if strings else (meta.content if meta is not None else b"")
    decode_layout(raw)
    return raw


def latest_layouts(frame: pd.DataFrame) -> CustomScalarLayouts:
    """Run -> the ``Layout`` it wrote last, decoded (raw bytes in ``.raw``)."""
    raw = {
        str(run): bytes(rows_["layout"].iloc[-1])
        for run, rows_ in frame.groupby("run", observed=True, sort=False)
    }
    layouts = {run: decode_layout(data) for run, data in raw.items()}
    # read-only views: the experiment hands the same object out until the next reload
    return CustomScalarLayouts(MappingProxyType(raw), MappingProxyType(layouts))


def _has_charts(layouts: Any) -> bool:
    return isinstance(layouts, CustomScalarLayouts) and bool(layouts.merged.charts)


KIND = RecordsKind(
    key=KEY,
    doc="Custom-scalars layouts: run -> decoded Layout (``.merged``: TensorBoard's view; "
    "``.raw``: the bytes).",
    plugins=("custom_scalars",),
    columns=("layout",),
    normalize=normalize,
    rows=column_rows("layout"),
    own_metadata=True,
    tbparse=("tensors",),
    finish=latest_layouts,
    tab=Tab("Custom scalars", "tbnb.widgets.custom_scalars:custom_scalars", shown=_has_charts),
)
