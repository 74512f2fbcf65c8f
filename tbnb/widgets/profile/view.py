"""The profiler view as a spec: the shown trace's steps stacked by category and its
memory curves, from the same payloads the browser draws.

A panel of ``bar`` marks, one per step category stacked in priority order (each bar's
``base`` is the sum below it; the categories' labels and colours as the overview's
legend), and a panel of ``line`` marks per device: allocated bytes (solid) and reserved
(dashed) over the time since the trace began, with the peak marked. Times are
milliseconds, memory MiB.

Examples
--------
>>> from tbnb.kinds.profile.trace import TraceBuilder
>>> b = TraceBuilder("t")
>>> host = b.lane(1, 1)
>>> b.add(["ProfilerStep#1", "aten::mm"], ["user_annotation", "cpu_op"], [host, host],
...       [0.0, 1000.0], [4000.0, 2000.0])
>>> spec = view_spec(b.finish(), "t")
>>> [mark.name for mark in spec.panels[0].marks][:2], spec.panels[0].marks[5].data["y"]
(['GPU kernel', 'memcpy'], [2.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tbnb.analysis.profile.steps import CATEGORIES, step_table
from tbnb.widgets.profile.prepare import CATEGORY_STYLE, memory_payload
from tbnb.widgets.spec import Axis, Mark, Panel, ViewSpec

__all__ = ["view_spec"]

_MS = 1e-3
_MIB = 1.0 / 2**20


def view_spec(trace: Any, name: str, message: str = "") -> ViewSpec:
    """The spec of trace ``trace`` (a parsed :class:`~tbnb.kinds.profile.trace.Trace`
    named ``name``; None: an empty view titled ``message``)."""
    if trace is None:
        return ViewSpec([Panel(message or "no trace")], title=message)
    panels = [_steps_panel(trace)]
    memory = _memory_panel(trace)
    if memory is not None:
        panels.append(memory)
    return ViewSpec.tiled(panels, most=2, panel_height=320, title=f"profile of {name}")


def _steps_panel(trace: Any) -> Panel:
    table = step_table(trace.events)
    if not len(table):
        return Panel("no steps (no ProfilerStep#N or step annotation in the trace)")
    steps = [str(int(s)) for s in table["step"]]
    base = np.zeros(len(table))
    marks = []
    for category in CATEGORIES:
        label, color = CATEGORY_STYLE[category]
        height = table[category].to_numpy(dtype=float) * _MS
        marks.append(
            Mark(
                "bar",
                {"x": steps, "y": height.tolist(), "base": base.tolist()},
                name=label,
                color=color,
                legend=True,
                style={"stack": "steps"},
            )
        )
        base = base + height
    return Panel("Step time by category", marks, x=Axis("step"), y=Axis("time (ms)", range=None))


def _memory_panel(trace: Any) -> Panel | None:
    payload = memory_payload(trace)
    if not payload["curves"]:
        return None
    origin = float(trace.events["start"].min()) if len(trace.events) else 0.0
    marks = []
    for curve in payload["curves"]:
        where = "host" if curve["device"] < 0 else f"GPU {curve['device']}"
        x = (np.asarray(curve["time"]) - origin) * _MS
        allocated = np.asarray(curve["allocated"]) * _MIB
        reserved = np.asarray(curve["reserved"]) * _MIB
        color = curve["color"]
        marks.append(
            Mark("line", {"x": x, "y": allocated}, f"{where} allocated", color, legend=True)
        )
        if np.any(reserved > 0):
            marks.append(
                Mark(
                    "line",
                    {"x": x, "y": reserved},
                    f"{where} reserved",
                    color,
                    legend=True,
                    style={"dash": "dash"},
                )
            )
        peak = int(np.argmax(allocated))
        marks.append(
            Mark(
                "points",
                {"x": [x[peak]], "y": [allocated[peak]], "text": [f"{where} peak"]},
                f"{where} peak",
                color,
                style={"size": 9},
            )
        )
    return Panel("Memory", marks, x=Axis("time since the trace began (ms)"), y=Axis("MiB"))
