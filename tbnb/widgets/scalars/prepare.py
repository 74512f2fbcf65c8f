"""Pure preparation of the scalars view: names, chart specs, wire columns (no widget state).

Examples
--------
>>> sorted(["lr=0.1", "lr=0.001", "lr=0.01"], key=natural_key)
['lr=0.001', 'lr=0.01', 'lr=0.1']
>>> [c["key"] for c in chart_specs(["val/acc", "train/loss", "lr"], [], None)]
['lr', 'train/loss', 'val/acc']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["WIRE", "chart_specs", "check_frame", "legend_order", "natural_key", "pick", "wire",
           "with_x_tag"]

_NUMBER = re.compile(r"(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")


def natural_key(text: str) -> tuple[list[Any], str]:
    """Sort key reading numbers as numbers: ``lr=0.001`` < ``lr=0.01`` < ``lr=0.1`` < ``lr=1e1``."""
    parts = _NUMBER.split(text)
    return [float(p) if i % 2 else p.lower() for i, p in enumerate(parts)], text


def legend_order(names: list[str]) -> list[str]:
    """Numeric order when every name is a number (groups by an hparam), else natural."""
    try:
        return sorted(names, key=float)
    except ValueError:
        return sorted(names, key=natural_key)


def pick(names: list[str], spec: str | Sequence[str] | None, what: str) -> list[str]:
    if spec is None:
        return names
    if isinstance(spec, str):
        try:
            pattern = re.compile(spec, re.IGNORECASE)
        except re.error as err:
            raise ValueError(f"{what}= is not a valid regex: {spec!r} ({err})") from err
        return [n for n in names if pattern.search(n)]
    wanted = {str(s) for s in spec}
    missing = wanted.difference(names)
    if missing:
        raise ValueError(f"unknown {what}: {sorted(missing)}")
    return [n for n in names if n in wanted]


def check_frame(df: pd.DataFrame) -> None:
    missing = {"run", "tag", "step", "value"}.difference(df.columns)
    if missing:
        raise ValueError(f"scalars frame lacks column(s) {sorted(missing)}")


WIRE = {"wall_time": "wall"}


def wire(name: str, arr: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Wire dtype per column: steps as int32 when they fit, counts as int32, rest float64."""
    if name == "step":
        if arr.size == 0 or (np.all(np.isfinite(arr)) and arr.min() >= -(2**31)
                             and arr.max() < 2**31 and np.all(arr == np.round(arr))):
            return arr.astype(np.int32)
        return arr.astype(np.float64)
    if name == "n":
        return arr.astype(np.int32)
    return np.asarray(arr, dtype=np.float64)


def with_x_tag(df: pd.DataFrame, x_tag: str) -> pd.DataFrame:
    """Add ``xv``: the value of tag ``x_tag`` of the same run at the same step (else NaN)."""
    ref = df[df["tag"].astype(str) == x_tag][["run", "step", "value"]]
    ref = ref.drop_duplicates(["run", "step"], keep="last").rename(columns={"value": "xv"})
    ref = ref.assign(run=ref["run"].astype(str))
    out = df.assign(run=df["run"].astype(str), _order=np.arange(len(df)))
    out = out.merge(ref, on=["run", "step"], how="left").sort_values("_order", kind="stable")
    return out.drop(columns="_order").reset_index(drop=True)


def chart_specs(
    tags: list[str], combined: Sequence[Sequence[str]], x_tag: str | None
) -> list[dict[str, Any]]:
    charts: list[dict[str, Any]] = []
    used: set[str] = set()
    for group in combined:
        names = [str(g) for g in group]
        missing = [n for n in names if n not in tags]
        if missing:
            raise ValueError(f"charts=: unknown tag(s) {missing}")
        charts.append({"key": " | ".join(names), "tags": names, "group": names[0].split("/")[0]})
        used.update(names)
    for tag in sorted(tags, key=natural_key):
        if tag in used or tag == x_tag:
            continue
        charts.append({"key": tag, "tags": [tag], "group": tag.split("/")[0]})
    order = {g: i for i, g in enumerate(dict.fromkeys(c["group"] for c in charts))}
    return sorted(charts, key=lambda c: order[c["group"]])

