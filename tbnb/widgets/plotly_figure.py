"""A :class:`~tbnb.widgets.spec.ViewSpec` drawn with plotly: every widget's ``to_plotly()``.

The renderer knows marks and axes, never a widget: what is shown was decided when the
spec was built.

Examples
--------
>>> from tbnb.widgets.spec import Axis, Mark, Panel, ViewSpec
>>> spec = ViewSpec(panels=[Panel("loss", [Mark("line", {"x": [0, 1], "y": [2.0, 1.0]},
...                                          name="a", legend=True)], y=Axis(log=True))])
>>> figure = plotly_figure(spec)
>>> [trace.type for trace in figure.data], figure.layout.yaxis.type
(['scatter'], 'log')
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tbnb.widgets.base import optional
from tbnb.widgets.spec import Axis, Mark, Panel, ViewSpec

if TYPE_CHECKING:
    import plotly.graph_objects as go

__all__ = ["plotly_figure"]

_WHAT = "to_plotly()"


def plotly_figure(spec: ViewSpec) -> go.Figure:
    """The ``plotly.graph_objects.Figure`` of ``spec``: a titled grid of subplots, or one
    plain figure for a single panel outside a grid."""
    go_ = optional("plotly.graph_objects", "plotly", _WHAT)
    if spec.grid:
        make_subplots = optional("plotly.subplots", "plotly", _WHAT).make_subplots
        titles = [panel.title for panel in spec.panels] or None
        cell = {"type": "scene" if any(p.scene for p in spec.panels) else "xy"}
        specs = [[cell] * spec.columns for _ in range(spec.rows)]
        fig = make_subplots(rows=spec.rows, cols=spec.columns, specs=specs, subplot_titles=titles)
        for i, panel in enumerate(spec.panels):
            at = {"row": i // spec.columns + 1, "col": i % spec.columns + 1}
            for mark in panel.marks:
                fig.add_trace(_trace(go_, mark, panel), **at)
            _axes(fig, panel, at)
    else:
        fig = go_.Figure()
        for panel in spec.panels:
            for mark in panel.marks:
                fig.add_trace(_trace(go_, mark, panel))
            _axes(fig, panel, {})
    layout: dict[str, Any] = {"template": "plotly_white"}
    if spec.height is not None:
        layout["height"] = spec.height
    if spec.title:
        layout["title"] = {"text": spec.title}
    if spec.legend is not None:
        layout["showlegend"] = spec.legend
    if spec.margin is not None:
        layout["margin"] = dict(spec.margin)
    fig.update_layout(**layout)
    return fig


def _axes(fig: Any, panel: Panel, at: dict[str, int]) -> None:
    for axis, update in ((panel.x, fig.update_xaxes), (panel.y, fig.update_yaxes)):
        options: dict[str, Any] = {}
        if axis.title:
            options["title_text"] = axis.title
        if axis.log:
            options["type"] = "log"
        if axis.range is not None:
            lo, hi = (float(v) for v in axis.range)
            options["range"] = [math.log10(lo), math.log10(hi)] if axis.log else [lo, hi]
        if not axis.visible:
            options["visible"] = False
        if axis.reversed:
            options["autorange"] = "reversed"
        if axis.equal:
            options.update(scaleanchor="x", scaleratio=1)
        if options:
            update(**options, **at)


def _x(values: Any, axis: Axis) -> Any:
    if axis.time:
        return pd.to_datetime(np.asarray(values, dtype=np.float64), unit="s")
    return values


def _common(mark: Mark) -> dict[str, Any]:
    out: dict[str, Any] = {"showlegend": mark.legend}
    if mark.name:
        out["name"] = mark.name
    if mark.group is not None:
        out["legendgroup"] = mark.group
    if not mark.hover:
        out["hoverinfo"] = "skip"
    if "opacity" in mark.style:
        out["opacity"] = mark.style["opacity"]
    return out


def _line(go_: Any, mark: Mark, panel: Panel) -> Any:
    style = mark.style
    line = {"color": mark.color, "dash": style.get("dash"), "width": style.get("width")}
    kwargs = _common(mark)
    kwargs["line"] = {k: v for k, v in line.items() if v is not None}
    kwargs["mode"] = "lines"
    if style.get("markers"):
        kwargs.update(mode="lines+markers", marker={"size": style["markers"]})
    elif np.count_nonzero(np.isfinite(np.asarray(mark.data["y"], dtype=np.float64))) == 1:
        # a line through one point draws nothing: the point is drawn as a marker
        kwargs.update(mode="lines+markers", marker={"size": 6, "color": mark.color})
    if style.get("fill") == "self":
        kwargs.update(fill="toself", fillcolor=mark.color)
    if "text" in style:
        kwargs.update(text=style["text"], hovertemplate="%{text}<extra>%{fullData.name}</extra>")
    if "hovertext" in style:
        kwargs["hovertext"] = style["hovertext"]
    return go_.Scatter(x=_x(mark.data["x"], panel.x), y=mark.data["y"], **kwargs)


def _bar(go_: Any, mark: Mark, panel: Panel) -> Any:
    kwargs = _common(mark)
    kwargs.update(marker_color=mark.color, base=mark.data.get("base"))
    if "stack" in mark.style:
        kwargs["offsetgroup"] = str(mark.style["stack"])
    return go_.Bar(x=_x(mark.data["x"], panel.x), y=mark.data["y"], **kwargs)


def _band(go_: Any, mark: Mark, panel: Panel) -> Any:
    x = np.asarray(mark.data["x"])
    outline = mark.style.get("outline")
    kwargs = _common(mark)
    kwargs.update(
        x=_x(np.r_[x, x[::-1]], panel.x),
        y=np.r_[np.asarray(mark.data["hi"]), np.asarray(mark.data["lo"])[::-1]],
        fill="toself",
        line={"color": mark.color, "width": outline} if outline else {"width": 0},
    )
    if not outline:
        kwargs.update(fillcolor=mark.color, mode="lines")
    return go_.Scatter(**kwargs)


def _heatmap(go_: Any, mark: Mark, panel: Panel) -> Any:
    style = mark.style
    kwargs: dict[str, Any] = {"colorscale": style.get("colorscale", "Viridis"), "showscale": False}
    if "values" in style:
        kwargs.update(
            customdata=style["values"], hovertemplate=f"{style.get('label', '')} %{{customdata}}"
        )
    data = mark.data
    return go_.Heatmap(x=_x(data["x"], panel.x), y=data["y"], z=data["z"], **kwargs)


def _image(go_: Any, mark: Mark, _panel: Panel) -> Any:
    encoded = base64.b64encode(bytes(mark.data["bytes"])).decode("ascii")
    return go_.Image(source=f"data:{mark.data['mime']};base64,{encoded}", name=mark.name)


def _mesh(go_: Any, mark: Mark, _panel: Panel) -> Any:
    per_vertex = not isinstance(mark.color, str)
    return go_.Mesh3d(
        **{axis: mark.data[axis] for axis in ("x", "y", "z", "i", "j", "k")},
        vertexcolor=mark.color if per_vertex else None,
        color=None if per_vertex else mark.color,
        flatshading=True,
        opacity=mark.style.get("opacity", 1.0),
        name=mark.name,
    )


def _points(go_: Any, mark: Mark, _panel: Panel) -> Any:
    style = mark.style
    marker: dict[str, Any] = {"color": mark.color}
    for key, name in (("size", "size"), ("opacity", "opacity"), ("symbols", "symbol")):
        if key in style:
            marker[name] = style[key]
    if "outline" in style:
        marker["line"] = {"color": "#555", "width": style["outline"]}
    if "colorscale" in style:
        marker.update(colorscale=style["colorscale"], showscale="colorbar" in style)
        if "colorbar" in style:
            marker["colorbar"] = {"title": style["colorbar"]}
    data = mark.data
    kwargs: dict[str, Any] = {"x": data["x"], "y": data["y"], "name": mark.name, "marker": marker}
    if "labels" in style:
        kwargs.update(
            mode="markers+text",
            text=style["labels"],
            hovertext=data.get("text"),
            hoverinfo="text",
            textposition="top center",
        )
    else:
        kwargs.update(mode="markers", text=data.get("text"))
    if "z" in data:
        return go_.Scatter3d(z=data["z"], **kwargs)
    return (go_.Scattergl if style.get("fast") else go_.Scatter)(**kwargs)


def _table(go_: Any, mark: Mark, _panel: Panel) -> Any:
    cells: dict[str, Any] = {"values": mark.data["cells"], "align": "left"}
    if "fill" in mark.style:
        cells["fill_color"] = mark.style["fill"]
    kwargs: dict[str, Any] = {}
    if "widths" in mark.style:
        kwargs["columnwidth"] = mark.style["widths"]
    return go_.Table(header={"values": mark.data["header"], "align": "left"}, cells=cells, **kwargs)


def _parallel(go_: Any, mark: Mark, _panel: Panel) -> Any:
    dimensions = []
    for axis in mark.data["axes"]:
        dim: dict[str, Any] = {"label": axis["label"], "values": axis["values"]}
        if "ticks" in axis:
            dim["tickvals"], dim["ticktext"] = (list(part) for part in axis["ticks"])
        if axis.get("range") is not None:
            dim["range"] = list(axis["range"])
        if axis.get("brush") is not None:
            dim["constraintrange"] = axis["brush"]
        dimensions.append(dim)
    line: dict[str, Any] = {}
    if mark.color is not None:
        line = {"color": mark.color, "colorscale": mark.style.get("colorscale", "Viridis")}
        if "colorbar" in mark.style:
            line.update(showscale=True, colorbar={"title": {"text": mark.style["colorbar"]}})
    return go_.Parcoords(dimensions=dimensions, line=line)


_TRACES: dict[str, Callable[[Any, Mark, Panel], Any]] = {
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


def _trace(go_: Any, mark: Mark, panel: Panel) -> Any:
    return _TRACES[mark.kind](go_, mark, panel)
