"""Short findings with numbers, from one trace's frames (the overview's sentences).

Examples
--------
>>> import pandas as pd
>>> steps = pd.DataFrame({"step": [2], "duration": [100.0], "kernel": [40.0], "memcpy": [0.0],
...     "memset": [0.0], "runtime": [10.0], "data_loading": [0.0], "cpu": [20.0],
...     "idle": [30.0], "device_busy": [40.0]})
>>> idle = pd.DataFrame({"stream": [7], "idle": [60.0], "host_wait": [45.0],
...                      "between_kernels": [5.0], "other": [10.0]})
>>> print(step_findings(steps, idle)[0])  # doctest: +ELLIPSIS
GPU idle 60% of step 2 (the worst of 1 step), mostly waiting for the host (75% of idle time ...)
"""

from __future__ import annotations

import pandas as pd

__all__ = ["step_findings"]


def _pct(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole > 0 else "0%"


def step_findings(steps: pd.DataFrame, idle: pd.DataFrame) -> list[str]:
    """Sentences about the steps: GPU idle share and its cause, data loading, runtime."""
    out: list[str] = []
    if not len(steps):
        return out
    has_device = float(steps["device_busy"].sum()) > 0
    if has_device:
        idle_share = 1.0 - steps["device_busy"] / steps["duration"].where(steps["duration"] > 0)
        worst = int(idle_share.fillna(0).to_numpy().argmax())
        row = steps.iloc[worst]
        cause = ""
        total_idle = float(idle["idle"].sum()) if len(idle) else 0.0
        if total_idle > 0:
            parts = {
                "waiting for the host": float(idle["host_wait"].sum()),
                "short gaps between kernels": float(idle["between_kernels"].sum()),
                "other gaps (synchronisation, copies)": float(idle["other"].sum()),
            }
            main = max(parts, key=lambda k: parts[k])
            share = _pct(parts[main], total_idle)
            cause = f", mostly {main} ({share} of idle time between device events)"
        out.append(
            f"GPU idle {_pct(row['duration'] - row['device_busy'], row['duration'])} of step "
            f"{int(row['step'])} (the worst of {len(steps)} step{'s' if len(steps) != 1 else ''})"
            f"{cause}"
        )
        mean_util = float(steps["device_busy"].sum()) / float(steps["duration"].sum() or 1)
        out.append(f"GPU busy {_pct(mean_util, 1.0)} of step time on average")
    else:
        total = float(steps["duration"].sum())
        out.append(
            f"No device activity: CPU operators take {_pct(float(steps['cpu'].sum()), total)} "
            f"of step time, idle {_pct(float(steps['idle'].sum()), total)}"
        )
    whole = float(steps["duration"].sum())
    for column, label in (
        ("data_loading", "Data loading takes"),
        ("runtime", "CUDA runtime calls take"),
    ):
        fraction = float(steps[column].sum()) / whole if whole else 0.0
        if fraction >= 0.05:
            out.append(f"{label} {_pct(fraction, 1.0)} of step time")
    return out
