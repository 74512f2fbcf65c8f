"""The questions :mod:`tbnb.analysis.profile` answers about a profile, declared here.

The analyses live a layer higher; the kind names them as ``"module:function"`` texts
resolved on first use, and the registry lists them (``tbnb.kinds.ANALYSES``).

Examples
--------
>>> ANALYSES["step_breakdown"].builder
'tbnb.analysis.profile:step_breakdown'
"""

from __future__ import annotations

from tbnb.kinds.base import Analysis

__all__ = ["ANALYSES"]

ANALYSES: dict[str, Analysis] = {
    analysis.key.removeprefix("profile."): analysis
    for analysis in (
        Analysis(
            "profile.compare",
            "tbnb.analysis.profile:compare",
            "Two traces side by side: mean step time per category, kernels and operators.",
        ),
        Analysis(
            "profile.device_time",
            "tbnb.analysis.profile:device_time",
            "HTA's temporal breakdown per trace: total, idle, compute, non-compute time.",
        ),
        Analysis(
            "profile.findings",
            "tbnb.analysis.profile:findings",
            "Short sentences with numbers about one trace (the overview shows them).",
        ),
        Analysis(
            "profile.idle_split",
            "tbnb.analysis.profile:idle_split",
            "Idle time per stream split by cause (host wait, between kernels, other).",
        ),
        Analysis(
            "profile.kernel_table",
            "tbnb.analysis.profile:kernel_table",
            "Device events of every trace by name: calls, total/mean/max, launch shape.",
        ),
        Analysis(
            "profile.launch_table",
            "tbnb.analysis.profile:launch_table",
            "Each device event with its launch and launch delay.",
        ),
        Analysis(
            "profile.longest_kernels",
            "tbnb.analysis.profile:longest_kernels",
            "The ``n`` longest device events of each trace.",
        ),
        Analysis(
            "profile.memory_peaks",
            "tbnb.analysis.profile:memory_peaks",
            "Per trace and device: the memory peak, its time and the operator at it.",
        ),
        Analysis(
            "profile.operator_table",
            "tbnb.analysis.profile:operator_table",
            "Operators of every trace: calls, self and total CPU time, device time.",
        ),
        Analysis(
            "profile.step_breakdown",
            "tbnb.analysis.profile:step_breakdown",
            "Every step of every trace: its window and time per category.",
        ),
        Analysis(
            "profile.top_operators",
            "tbnb.analysis.profile:top_operators",
            "The ``n`` operators with most device time (then CPU time) per trace.",
        ),
        Analysis(
            "profile.trace_findings",
            "tbnb.analysis.profile:trace_findings",
            "The findings of one trace from its frames.",
        ),
    )
}
"""The questions :mod:`tbnb.analysis.profile` answers about a :class:`ProfileSet`, by name
(``exp.profile.analysis(name)``); listed in the kinds' registry of analyses."""
