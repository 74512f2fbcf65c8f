"""Profiler analyses: every answer a function of the traces' frames (layer: analysis).

Each function takes a :class:`~tbnb.kinds.profile.ProfileSet` (``exp.profile``,
``tbnb.profile(path)``) and answers per trace, with ``trace`` and ``run`` columns first;
the per-trace functions of its modules take one trace's ``events`` frame:

- :func:`step_breakdown` (:mod:`.steps`): each step's time by category;
- :func:`operator_table`, :func:`top_operators` (:mod:`.operators`);
- :func:`kernel_table`, :func:`longest_kernels`, :func:`launch_table`,
  :func:`idle_split`, :func:`device_time` (:mod:`.device`, as HTA computes them);
- :func:`memory_peaks` (:mod:`.memory`);
- :func:`findings`: short sentences with numbers; :func:`compare`: two traces side by side.

Examples
--------
>>> import tbnb, tempfile, pathlib, json
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> events = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1,
...            "tid": 1, "ts": 0, "dur": 10}, {"ph": "X", "cat": "cpu_op",
...            "name": "aten::mm", "pid": 1, "tid": 1, "ts": 2, "dur": 5}]
>>> _ = (folder / "w.1.pt.trace.json").write_text(json.dumps({"traceEvents": events}))
>>> import warnings; warnings.simplefilter("ignore")
>>> steps = step_breakdown(tbnb.profile(folder))
>>> steps[["trace", "step", "duration", "cpu", "idle"]].to_dict("records")
[{'trace': 'w.1', 'step': 1, 'duration': 10.0, 'cpu': 5.0, 'idle': 5.0}]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from tbnb.analysis.profile import device, operators, steps
from tbnb.analysis.profile.findings import step_findings
from tbnb.analysis.profile.memory import memory_peaks as _memory_peaks

__all__ = [
    "compare",
    "device_time",
    "findings",
    "idle_split",
    "kernel_table",
    "launch_table",
    "longest_kernels",
    "memory_peaks",
    "operator_table",
    "step_breakdown",
    "top_operators",
    "trace_findings",
]


def _per_trace(
    profile: Any, function: Callable[..., pd.DataFrame], *args: Any, **kwargs: Any
) -> pd.DataFrame:
    parts = []
    for name, run in zip(profile.traces["trace"], profile.traces["run"], strict=True):
        frame = function(profile.trace(name).events, *args, **kwargs)
        frame.insert(0, "run", run)
        frame.insert(0, "trace", name)
        parts.append(frame)
    if not parts:
        return pd.DataFrame(columns=["trace", "run"])
    return pd.concat(parts, ignore_index=True)


def step_breakdown(profile: Any) -> pd.DataFrame:
    """Every step of every trace: window and time per category (:mod:`.steps`)."""
    return _per_trace(profile, steps.step_table)


def operator_table(profile: Any, *, by_shape: bool = False) -> pd.DataFrame:
    """Operators of every trace (``by_shape``: one row per input shapes too)."""
    return _per_trace(profile, operators.operator_table, by_shape=by_shape)


def top_operators(profile: Any, n: int = 10) -> pd.DataFrame:
    """The ``n`` operators with most device time (then CPU time) per trace."""
    return (
        operator_table(profile)
        .groupby("trace", sort=False, observed=True)
        .head(n)
        .reset_index(drop=True)
    )


def kernel_table(profile: Any) -> pd.DataFrame:
    """Device events of every trace by name (:func:`.device.kernel_table`)."""
    return _per_trace(profile, device.kernel_table)


def longest_kernels(profile: Any, n: int = 10) -> pd.DataFrame:
    """The ``n`` longest device events of each trace."""
    return _per_trace(profile, device.longest_kernels, n)


def launch_table(profile: Any) -> pd.DataFrame:
    """Each device event with its launch and launch delay."""
    return _per_trace(profile, device.launch_table)


def idle_split(profile: Any, short_gap_us: float = 0.03) -> pd.DataFrame:
    """Idle time per stream split by cause (host wait, between kernels, other)."""
    return _per_trace(profile, device.idle_split, short_gap_us)


def device_time(profile: Any) -> pd.DataFrame:
    """HTA's temporal breakdown per trace: total, idle, compute, non-compute time."""
    return _per_trace(profile, lambda events: pd.DataFrame([device.device_time(events)]))


def memory_peaks(profile: Any) -> pd.DataFrame:
    """Per trace and device: the memory peak, its time and the operator at it."""
    parts = []
    for name, run in zip(profile.traces["trace"], profile.traces["run"], strict=True):
        trace = profile.trace(name)
        frame = _memory_peaks(trace.memory, trace.events)
        frame.insert(0, "run", run)
        frame.insert(0, "trace", name)
        parts.append(frame)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["trace", "run"])


def _bytes(value: float) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if abs(value) >= size:
            return f"{value / size:.2f} {unit}"
    return f"{value:.0f} B"


def findings(profile: Any, trace: int | str = 0) -> list[str]:
    """Short sentences with numbers about one trace (the overview shows them)."""
    parsed = profile.trace(profile.name_of(trace))
    return trace_findings(parsed.events, parsed.memory)


def trace_findings(
    events: pd.DataFrame,
    memory: pd.DataFrame,
    *,
    step_table: pd.DataFrame | None = None,
    ops: pd.DataFrame | None = None,
    kernels: pd.DataFrame | None = None,
) -> list[str]:
    """:func:`findings` from one trace's frames (tables already computed may be given)."""
    table = steps.step_table(events) if step_table is None else step_table
    out = step_findings(table, device.idle_split(events))
    ops = operators.operator_table(events) if ops is None else ops
    kernels = device.kernel_table(events) if kernels is None else kernels
    launched = ops.sort_values("device_self", ascending=False, kind="stable")
    if len(ops) and float(launched["device_self"].iloc[0]) > 0:
        top = launched.iloc[0]
        total = float(kernels["total"].sum()) or 1.0
        out.append(
            f"Top operator by device time: {top['name']} launched "
            f"{float(top['device_self']) / 1000:.2f} ms of device work "
            f"({100 * float(top['device_self']) / total:.0f}% of it)"
        )
    elif len(ops):
        top = ops.sort_values("self_cpu", ascending=False, kind="stable").iloc[0]
        out.append(
            f"Top operator by CPU time: {top['name']} "
            f"({float(top['self_cpu']) / 1000:.2f} ms self, {int(top['calls']):,} calls)"
        )
    longest = device.longest_kernels(events, 1)
    if len(longest):
        row = longest.iloc[0]
        out.append(f"Longest kernel: {row['name']} ({float(row['dur']):.1f} us)")
    launches = device.launch_table(events)
    if len(launches):
        out.append(
            f"Kernel launch delay: median {launches['launch_delay'].median():.1f} us, "
            f"max {launches['launch_delay'].max():.1f} us over {len(launches):,} launches"
        )
    peaks = _memory_peaks(memory, events)
    for row in peaks.itertuples():
        if row.device < 0 and row.peak < 2**20:
            continue  # host samples of a few bytes: not worth a line
        where = "host" if row.device < 0 else f"GPU {row.device}"
        at = f" during {row.operator}" if row.operator else ""
        out.append(f"Memory peak on {where}: {_bytes(row.peak)} allocated{at}")
    return out


def compare(profile: Any, a: int | str, b: int | str) -> dict[str, pd.DataFrame]:
    """Two traces side by side: mean step time per category, kernels and operators.

    Returns frames ``steps`` (category, a, b, delta), ``kernels`` and ``operators``
    (total time in each, delta), largest change first.
    """
    names = [profile.name_of(a), profile.name_of(b)]
    events = [profile.trace(n).events for n in names]
    means = [steps.step_table(e).mean(numeric_only=True) for e in events]
    categories = ["duration", *steps.CATEGORIES, "device_busy"]
    step_frame = pd.DataFrame(
        {
            "category": categories,
            names[0]: [float(means[0].get(c, 0.0)) for c in categories],
            names[1]: [float(means[1].get(c, 0.0)) for c in categories],
        }
    ).fillna(0.0)
    step_frame["delta"] = step_frame[names[1]] - step_frame[names[0]]
    return {
        "steps": step_frame,
        "kernels": _side(events, device.kernel_table, "total", names),
        "operators": _side(events, operators.operator_table, "device_total", names),
    }


def _side(
    events: list[pd.DataFrame],
    function: Callable[[pd.DataFrame], pd.DataFrame],
    column: str,
    names: list[str],
) -> pd.DataFrame:
    left, right = (function(e).set_index("name")[column] for e in events)
    side = pd.concat([left.rename(names[0]), right.rename(names[1])], axis=1).fillna(0.0)
    side["delta"] = side[names[1]] - side[names[0]]
    order = side["delta"].abs().sort_values(ascending=False, kind="stable").index
    return side.loc[order].rename_axis("name").reset_index()
