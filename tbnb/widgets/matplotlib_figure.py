"""A :class:`~tbnb.widgets.spec.ViewSpec` drawn with matplotlib: every widget's
``to_matplotlib()`` and ``savefig()``, figures for papers.

The renderer knows marks and axes, never a widget: what is shown (the selected runs, the
smoothing, the step, the scales, the colours) was decided when the spec was built, and
the browser and plotly draw the same spec. It draws on a ``matplotlib.figure.Figure``
made without pyplot, so a script or a CI job with no display and no notebook renders
vector PDF and SVG (``fig.savefig("fig.pdf")``) as well as PNG.

Examples
--------
>>> from tbnb.widgets.spec import Axis, Mark, Panel, ViewSpec
>>> spec = ViewSpec(panels=[Panel("loss", [Mark("line", {"x": [0, 1], "y": [2.0, 1.0]},
...                                          name="a", color="#4e79a7", legend=True)],
...                               y=Axis(log=True))])
>>> fig = matplotlib_figure(spec)
>>> ax = fig.axes[0]
>>> ax.get_title(), ax.get_yscale(), [float(v) for v in ax.lines[0].get_ydata()]
('loss', 'log', [2.0, 1.0])
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tbnb.widgets.base import optional
from tbnb.widgets.spec import Axis, Mark, Panel, ViewSpec

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["matplotlib_figure"]

_WHAT = "to_matplotlib()"
#: The spec's dashes as matplotlib line styles.
LINESTYLES = {"solid": "-", "dash": "--", "dot": ":", "dashdot": "-."}
#: Screen pixels per point (a spec's widths and sizes are CSS pixels).
PX = 0.75
#: Inches per column of a grid, and per row.
CELL_WIDTH, CELL_HEIGHT = 4.0, 3.0
#: Point labels drawn at most (text beside every one of 10^5 points helps nobody).
MAX_LABELS = 200


def matplotlib_figure(spec: ViewSpec) -> Figure:
    """The ``matplotlib.figure.Figure`` of ``spec``: a titled grid of axes (a 3-D axes
    for a scene), one legend for the figure, as the browser shows the view."""
    mfigure = optional("matplotlib.figure", "matplotlib", _WHAT)
    columns = max(spec.columns, 1) if spec.grid else 1
    rows = spec.rows if spec.grid else 1
    height = CELL_HEIGHT * rows
    if spec.height is not None and not spec.grid:
        height = max(spec.height / 100, 2.0)
    fig = mfigure.Figure(figsize=(CELL_WIDTH * columns + 1.5, height), layout="constrained")
    panels = list(spec.panels) if spec.grid else [_merged(spec.panels)]
    for i, panel in enumerate(panels):
        projection = "3d" if panel.scene else None
        ax = fig.add_subplot(rows, columns, i + 1, projection=projection)
        for mark in panel.marks:
            _MARKS[mark.kind](ax, mark, panel)
        _axes(ax, panel)
        if panel.title and spec.grid:
            ax.set_title(panel.title, fontsize=10)
    if spec.title:
        fig.suptitle(spec.title)
    if spec.legend is not False:
        _legend(fig)
    figure: Figure = fig
    return figure


def _merged(panels: Sequence[Panel]) -> Panel:
    """A spec without a grid is one plot of every panel's marks."""
    if len(panels) == 1:
        return panels[0]
    first = panels[0] if panels else Panel()
    return Panel(first.title, [m for p in panels for m in p.marks], first.x, first.y)


def _axes(ax: Axes, panel: Panel) -> None:
    if panel.scene:
        return
    for axis, which in ((panel.x, "x"), (panel.y, "y")):
        if axis.title:
            (ax.set_xlabel if which == "x" else ax.set_ylabel)(axis.title)
        if axis.log:
            (ax.set_xscale if which == "x" else ax.set_yscale)("log")
        if axis.range is not None:
            lo, hi = (float(v) for v in axis.range)
            (ax.set_xlim if which == "x" else ax.set_ylim)(lo, hi)
        if axis.reversed:
            (ax.invert_xaxis if which == "x" else ax.invert_yaxis)()
        if not axis.visible:
            (ax.xaxis if which == "x" else ax.yaxis).set_visible(False)
    if panel.x.equal or panel.y.equal:
        ax.set_aspect("equal", adjustable="datalim")
    if not panel.x.visible and not panel.y.visible:
        ax.set_frame_on(False)
    if panel.x.visible or panel.y.visible:
        ax.grid(True, color="#e3e3e3", linewidth=0.6)
        ax.set_axisbelow(True)


def _legend(fig: Figure) -> None:
    """One legend for the figure: each named mark once (a run's lines share a name)."""
    handles: dict[str, Any] = {}
    for ax in fig.axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    if handles:
        fig.legend(
            list(handles.values()),
            list(handles),
            loc="outside right upper",
            fontsize=8,
            frameon=False,
        )


def _x(values: Any, axis: Axis) -> Any:
    """x values as drawn: Unix seconds as dates on a time axis."""
    array = np.asarray(values)
    if axis.time:
        return np.asarray(array, dtype=np.float64).astype("datetime64[s]")
    return array


def css_color(color: Any) -> Any:
    """A CSS colour as matplotlib takes it: ``rgb()``/``rgba()`` become RGBA tuples; lists
    are converted item by item; anything else (names, ``#hex``) passes through.

    Examples
    --------
    >>> css_color("rgba(255,0,0,0.5)"), css_color("#4e79a7")
    ((1.0, 0.0, 0.0, 0.5), '#4e79a7')
    """
    if isinstance(color, str):
        text = color.strip().lower()
        if text.startswith(("rgb(", "rgba(")):
            parts = [float(p) for p in text[text.index("(") + 1 : text.rindex(")")].split(",")]
            alpha = parts[3] if len(parts) > 3 else 1.0
            return (parts[0] / 255, parts[1] / 255, parts[2] / 255, alpha)
        return color
    if isinstance(color, (list, tuple)) and color and isinstance(color[0], str):
        return [css_color(c) for c in color]
    return color


def _label(mark: Mark) -> str:
    """The mark's name; with a leading ``_`` (matplotlib's rule) when it has no legend entry."""
    if not mark.name:
        return "_nolegend_"
    return mark.name if mark.legend else f"_{mark.name}"


def _line(ax: Axes, mark: Mark, panel: Panel) -> None:
    style = mark.style
    x = _x(mark.data["x"], panel.x)
    y = np.asarray(mark.data["y"])
    kwargs: dict[str, Any] = {
        "color": css_color(mark.color),
        "linestyle": LINESTYLES.get(str(style.get("dash", "solid")), "-"),
        "linewidth": float(style.get("width", 2)) * PX,
        "alpha": style.get("opacity"),
        "label": _label(mark),
    }
    if style.get("markers"):
        kwargs.update(marker="o", markersize=float(style["markers"]) * PX)
    if style.get("fill") == "self":  # the closed shape filled, its outline drawn (as plotly)
        ax.fill(x, y, color=css_color(mark.color), alpha=style.get("opacity"), linewidth=0)
    ax.plot(x, y, **kwargs)


def _bar(ax: Axes, mark: Mark, panel: Panel) -> None:
    """Bars at categorical or numeric x, from ``base`` (stacked bars carry their base)."""
    data = mark.data
    x = _x(data["x"], panel.x)
    ax.bar(
        x,
        np.asarray(data["y"], dtype=np.float64),
        bottom=np.asarray(data["base"], dtype=np.float64) if "base" in data else None,
        color=css_color(mark.color),
        label=_label(mark),
    )


def _band(ax: Axes, mark: Mark, panel: Panel) -> None:
    outline = mark.style.get("outline")
    ax.fill_between(
        _x(mark.data["x"], panel.x),
        np.asarray(mark.data["lo"], dtype=np.float64),
        np.asarray(mark.data["hi"], dtype=np.float64),
        color=css_color(mark.color),
        alpha=mark.style.get("opacity"),
        linewidth=float(outline) * PX if outline else 0.0,
        label=_label(mark),
    )


def _colormap(scale: Any) -> Any:
    """A matplotlib colormap for a spec's ``colorscale``: a plotly name or stops."""
    colors = optional("matplotlib.colors", "matplotlib", _WHAT)
    if scale is None:
        return "viridis"
    if isinstance(scale, str):
        name = scale.lower().removesuffix("_r")
        known = {"viridis", "plasma", "inferno", "magma", "cividis", "blues", "greys", "reds"}
        return (name if name in known else "viridis") + ("_r" if scale.endswith("_r") else "")
    stops = [(float(at), css_color(str(color))) for at, color in scale]
    return colors.LinearSegmentedColormap.from_list("tbnb", stops)


def _heatmap(ax: Axes, mark: Mark, panel: Panel) -> None:
    data = mark.data
    z = np.asarray(data["z"], dtype=np.float64)
    ax.pcolormesh(
        _x(data["x"], panel.x),
        np.asarray(data["y"]),
        z,
        cmap=_colormap(mark.style.get("colorscale")),
        shading="nearest",
        rasterized=True,
    )


def _image(ax: Axes, mark: Mark, _panel: Panel) -> None:
    image = optional("matplotlib.image", "matplotlib", _WHAT)
    pixels = image.imread(io.BytesIO(bytes(mark.data["bytes"])), format=_format(mark))
    ax.imshow(pixels, interpolation="nearest")
    ax.set_axis_off()
    if mark.name:
        ax.set_title(mark.name, fontsize=8)


def _format(mark: Mark) -> str | None:
    mime = str(mark.data.get("mime", ""))
    return mime.split("/", 1)[1] if mime.startswith("image/") else None


def _mesh(ax: Axes, mark: Mark, _panel: Panel) -> None:
    data = mark.data
    triangles = np.stack([np.asarray(data[k], dtype=np.int64) for k in ("i", "j", "k")], axis=1)
    color = css_color(mark.color) if isinstance(mark.color, str) else None
    ax.plot_trisurf(  # type: ignore[attr-defined]
        np.asarray(data["x"], dtype=np.float64),
        np.asarray(data["y"], dtype=np.float64),
        np.asarray(data["z"], dtype=np.float64),
        triangles=triangles,
        color=color or "#9aa7b8",
        alpha=mark.style.get("opacity", 1.0),
        linewidth=0.1,
        shade=True,
    )


def _points(ax: Axes, mark: Mark, _panel: Panel) -> None:
    style, data = mark.style, mark.data
    color = mark.color
    kwargs: dict[str, Any] = {"s": (float(style.get("size", 6)) * PX) ** 2, "label": _label(mark)}
    if color is not None and not isinstance(color, str):
        values = np.asarray(color)
        if values.dtype.kind in "fiu":
            kwargs.update(c=values, cmap=_colormap(style.get("colorscale")))
        else:
            kwargs["c"] = css_color(list(values))
    elif color is not None:
        kwargs["color"] = css_color(color)
    opacity: Any = style.get("opacity")
    if isinstance(opacity, (int, float)):
        kwargs["alpha"] = float(opacity)
    if "outline" in style:
        kwargs.update(edgecolors="#555555", linewidths=float(style["outline"]) * PX)
    coords = [np.asarray(data[a], dtype=np.float64) for a in ("x", "y", "z") if a in data]
    drawn = ax.scatter(*coords, **kwargs)
    if "colorbar" in style and "cmap" in kwargs and ax.figure is not None:
        ax.figure.colorbar(drawn, ax=ax, label=str(style["colorbar"]))
    labels = style.get("labels")
    if labels is not None and len(coords) == 2:
        for x, y, text in list(zip(coords[0], coords[1], labels, strict=False))[:MAX_LABELS]:
            if text:
                ax.annotate(
                    str(text), (x, y), fontsize=7, xytext=(0, 4), textcoords="offset points"
                )


def _table(ax: Axes, mark: Mark, _panel: Panel) -> None:
    header = [str(h) for h in mark.data["header"]]
    columns = [list(c) for c in mark.data["cells"]]
    rows = [[_cell(col[r]) for col in columns] for r in range(max(map(len, columns), default=0))]
    fills = mark.style.get("fill")
    colours = None
    if fills is not None:
        colours = [[css_color(fills[c][r]) for c in range(len(columns))] for r in range(len(rows))]
    ax.set_axis_off()
    if rows:
        table = ax.table(cellText=rows, colLabels=header, cellColours=colours, loc="upper center")
        table.auto_set_font_size(False)
        table.set_fontsize(7)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.4g}"
    return str(value)


def _parallel(ax: Axes, mark: Mark, _panel: Panel) -> None:
    """Parallel coordinates: one vertical axis per hparam or metric, a line per run across
    them, brushed ranges shaded, coloured by ``color`` through the colour scale."""
    colors = optional("matplotlib.colors", "matplotlib", _WHAT)
    axes = list(mark.data["axes"])
    if not axes:
        ax.set_axis_off()
        return
    scaled = []
    for axis in axes:
        values = np.asarray(axis["values"], dtype=np.float64)
        lo, hi = _extent(values, axis.get("range"))
        scaled.append(((values - lo) / (hi - lo), lo, hi))
    positions = np.arange(len(axes), dtype=np.float64)
    lines = np.stack([s for s, _, _ in scaled], axis=1)
    cmap = _colormap(mark.style.get("colorscale"))
    if isinstance(cmap, str):
        cmap = optional("matplotlib", "matplotlib", _WHAT).colormaps[cmap]
    if mark.color is not None and not isinstance(mark.color, str):
        values = np.asarray(mark.color, dtype=np.float64)
        finite = values[np.isfinite(values)]
        norm = colors.Normalize(*(finite.min(), finite.max()) if finite.size else (0, 1))
        line_colors = [cmap(norm(v)) if np.isfinite(v) else "#bbbbbb" for v in values]
    else:
        line_colors = [css_color(mark.color or "#4e79a7")] * len(lines)
    for row, color in zip(lines, line_colors, strict=True):
        ax.plot(positions, row, color=color, linewidth=1.0, alpha=0.8)
    for i, (axis, (_, lo, hi)) in enumerate(zip(axes, scaled, strict=True)):
        ax.axvline(i, color="#555555", linewidth=0.8)
        ticks = axis.get("ticks")
        if ticks is not None:
            where, names = (list(part) for part in ticks)
            for value, name in zip(where, names, strict=False):
                ax.annotate(
                    str(name), (i, (float(value) - lo) / (hi - lo)), fontsize=7,
                    xytext=(3, 0), textcoords="offset points", va="center",
                )  # fmt: skip
        else:
            for value in (lo, hi):
                ax.annotate(
                    f"{value:.3g}", (i, (value - lo) / (hi - lo)), fontsize=7,
                    xytext=(3, 0), textcoords="offset points", va="center",
                )  # fmt: skip
        for band in _brushes(axis.get("brush")):
            ax.add_patch(
                optional("matplotlib.patches", "matplotlib", _WHAT).Rectangle(
                    (i - 0.06, (band[0] - lo) / (hi - lo)), 0.12, (band[1] - band[0]) / (hi - lo),
                    color="orange", alpha=0.35, zorder=3,
                )
            )  # fmt: skip
    ax.set_xticks(positions, [str(a["label"]) for a in axes], rotation=20, ha="right", fontsize=8)
    ax.set_yticks([])
    ax.set_xlim(-0.2, len(axes) - 0.6)
    ax.set_ylim(-0.05, 1.05)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)


def _extent(values: np.ndarray, given: Any) -> tuple[float, float]:
    if given is not None:
        lo, hi = (float(v) for v in given)
    else:
        finite = values[np.isfinite(values)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def _brushes(brush: Any) -> list[tuple[float, float]]:
    if brush is None or len(brush) == 0:
        return []
    first: Any = brush[0]
    if isinstance(first, (int, float, np.number)):
        return [(float(first), float(brush[1]))]
    return [(float(b[0]), float(b[1])) for b in brush]


_MARKS: dict[str, Callable[[Any, Mark, Panel], None]] = {
    "line": _line,
    "bar": _bar,
    "band": _band,
    "heatmap": _heatmap,
    "image": _image,
    "mesh": _mesh,
    "points": _points,
    "table": _table,
    "parallel": _parallel,
}
