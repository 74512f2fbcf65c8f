"""A view as data: what a widget shows, for any renderer.

Each widget's ``prepare`` builds a :class:`ViewSpec` of what is shown now (the selected
runs, the filtered tags, the step, the scales, the colours) from the widget's public
state, so a renderer draws it without knowing the widget and without deciding again
what is shown: ``w.to_plotly()`` is :func:`tbnb.widgets.plotly_figure.plotly_figure`
of ``w.view_spec()`` (altair's split of a spec and its renderers).

A spec is panels in a grid, each with its marks and axes. Marks, by kind, and what
their ``data`` holds:

``line``
    ``x``, ``y``. Style: ``dash`` (``solid``, ``dash``, ``dot``, ``dashdot``),
    ``opacity``, ``width``, ``markers`` (marker size), ``fill`` (``"self"``: the line's
    closed shape filled with its colour), ``text`` (hover text per point).
``bar``
    ``x``, ``y`` (the bars' heights) and ``base`` (where each bar starts; default 0).
    Style: ``stack`` (bars of one panel with the same ``stack`` share their places, so
    bars whose ``base`` is the sum of those below are drawn stacked).
``band``
    ``x``, ``lo``, ``hi``: the area between two lines. Style: ``opacity``, ``outline``
    (an outline of that width in the band's colour).
``heatmap``
    ``x``, ``y``, ``z`` (``z[i, j]`` at ``y[i]``, ``x[j]``). Style: ``colorscale``,
    ``values`` (what hovering shows instead of ``z``) and ``label`` (its name).
``image``
    ``bytes`` and ``mime``: an encoded image as shown.
``mesh``
    ``x``, ``y``, ``z`` (the vertices) and ``i``, ``j``, ``k`` (the triangles' corners).
    ``color``: one colour or one per vertex. Style: ``opacity``. A panel holding a mesh
    or 3-D points is a 3-D scene.
``points``
    ``x``, ``y`` (and ``z`` in 3-D). ``color``: one colour, one per point, or numbers
    (with ``colorscale``). Style: ``size``, ``opacity``, ``symbols``, ``outline``,
    ``labels`` (text drawn beside each point), ``colorscale``, ``colorbar``.
``table``
    ``header`` (column names), ``cells`` (one list per column). Style: ``fill`` (one
    list of background colours per column).
``parallel``
    ``axes``: one dict per axis (``label``, ``values``, optional ``ticks``
    ``(values, labels)``, ``range``, ``brush``: ``[lo, hi]`` or a list of them); ``color``
    numbers or codes with ``colorscale`` (and ``colorbar``).

Examples
--------
>>> spec = ViewSpec(panels=[Panel("loss", [Mark("line", {"x": [0, 1], "y": [2.0, 1.0]})])])
>>> spec.panels[0].marks[0].kind, spec.columns
('line', 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["DASHES", "Axis", "Mark", "MarkKind", "Panel", "ViewSpec"]

DASHES = ("solid", "dash", "dot", "dashdot")
"""Line dashes telling apart the series of one run in one chart (its tags), in order."""

MarkKind = Literal["line", "bar", "band", "heatmap", "image", "mesh", "points", "table", "parallel"]


@dataclass(frozen=True)
class Axis:
    """One axis of a panel.

    Attributes
    ----------
    title
        Its label.
    log
        A log scale.
    range
        ``(lo, hi)`` in data units (None: fit the data).
    time
        The values are Unix seconds, drawn as dates (UTC).
    visible
        Whether the axis is drawn at all (images, graphs hide theirs).
    reversed
        Values grow downwards (a graph's layers).
    equal
        Scaled as the other axis (a 2-D layout: one unit is as long on both).
    """

    title: str = ""
    log: bool = False
    range: tuple[float, float] | None = None
    time: bool = False
    visible: bool = True
    reversed: bool = False
    equal: bool = False


@dataclass(frozen=True)
class Mark:
    """One thing drawn in a panel (see the module's list of kinds).

    Attributes
    ----------
    kind
        ``line``, ``bar``, ``band``, ``heatmap``, ``image``, ``mesh``, ``points``, ``table`` or
        ``parallel``.
    data
        The arrays it draws.
    name
        Its legend entry and hover title.
    color
        A CSS colour, or one per point (``points``), or numbers with a colour scale.
    group
        What toggles together in a legend (a run).
    legend
        Whether it has a legend entry.
    hover
        Whether hovering shows it.
    style
        How it is drawn (per kind: see the module).
    """

    kind: MarkKind
    data: Mapping[str, Any]
    name: str = ""
    color: Any = None
    group: str | None = None
    legend: bool = False
    hover: bool = True
    style: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Panel:
    """One chart of the grid: a title, its marks and its axes."""

    title: str = ""
    marks: Sequence[Mark] = ()
    x: Axis = Axis()
    y: Axis = Axis()

    @property
    def scene(self) -> bool:
        """Whether the panel is a 3-D scene (a mesh, or points with ``z``)."""
        return any(
            mark.kind == "mesh" or (mark.kind == "points" and "z" in mark.data)
            for mark in self.marks
        )


@dataclass(frozen=True)
class ViewSpec:
    """What a widget shows: panels in a grid of ``columns`` (a single panel with
    ``grid=False`` is the whole figure, with no title of its own).

    Attributes
    ----------
    panels
        The charts, in reading order.
    columns
        Panels per row.
    grid
        Whether panels are laid out as a titled grid.
    title
        The view's title.
    height
        Pixels of the whole view (None: the renderer's default).
    legend
        Whether the legend is shown (None: the renderer decides).
    margin
        Pixels around the panels: ``{"l", "r", "t", "b"}``.
    """

    panels: Sequence[Panel] = ()
    columns: int = 1
    grid: bool = True
    title: str = ""
    height: int | None = None
    legend: bool | None = None
    margin: Mapping[str, int] | None = None

    @classmethod
    def tiled(
        cls, panels: Sequence[Panel], *, most: int = 3, panel_height: int = 220, **options: Any
    ) -> ViewSpec:
        """Charts tiled ``most`` a row, each ``panel_height`` pixels (150 at least) high.

        Examples
        --------
        >>> spec = ViewSpec.tiled([Panel()] * 4, most=3, panel_height=200)
        >>> spec.columns, spec.rows, spec.height
        (3, 2, 480)
        """
        columns = min(most, max(len(panels), 1))
        rows = max(-(-len(panels) // columns), 1)
        height = max(panel_height, 150) * rows + 80
        return cls(panels, columns=columns, height=height, **options)

    @property
    def rows(self) -> int:
        """Rows of the grid (at least one).

        Examples
        --------
        >>> ViewSpec(panels=[Panel()] * 5, columns=3).rows
        2
        """
        return max(-(-len(self.panels) // max(self.columns, 1)), 1)
