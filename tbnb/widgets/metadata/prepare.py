"""Pure functions: ``exp.info`` (one row per run, ``(section, key)`` columns) -> the table
the browser shows, sorts, filters and diffs.

Each column travels as binary: numbers as float64 (NaN: missing), anything else as
int32 codes into one string table (-1: missing), with how to show it (``number``,
``text``, ``time``, ``duration``, ``bytes``).

Examples
--------
>>> import pandas as pd
>>> info = pd.DataFrame({("run", "host"): ["a1", "b2"], ("hparams", "lr"): [0.1, None]},
...                     index=pd.Index(["r0", "r1"], name="run"))
>>> table = runs_payload(info)
>>> [(c["section"], c["key"], c["kind"]) for c in table["columns"]]
[('run', 'host', 'text'), ('hparams', 'lr', 'number')]
>>> table["columns"][1]["values"].tolist()
[0.1, nan]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from tbnb.widgets.spec import Mark, Panel, ViewSpec

__all__ = [
    "DEFAULT_SECTIONS",
    "column_kind",
    "diff_spec",
    "encode",
    "runs_payload",
    "table_spec",
]

DEFAULT_SECTIONS = ("run", "counts", "hparams")
"""Sections whose keys the runs table shows at first."""

_TIMES = {"first_wall_time", "last_wall_time"}
_BYTES = {"bytes_read", "file_bytes"}


def column_kind(section: str, key: str) -> str:
    """How a number column is shown: ``time``, ``duration``, ``bytes`` or ``number``.

    Examples
    --------
    >>> column_kind("run", "duration"), column_kind("hparams", "lr")
    ('duration', 'number')
    """
    if section == "run" and key in _TIMES:
        return "time"
    if section == "run" and key == "duration":
        return "duration"
    if (section == "run" and key in _BYTES) or key.endswith("(bytes)"):
        return "bytes"
    return "number"


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def encode(values: list[Any], labels: dict[str, int]) -> dict[str, Any]:
    """One column: ``{"values": float64}`` if every present value is a number, else
    ``{"codes": int32}`` into ``labels`` (a string -> code map, extended here)."""
    present = [v for v in values if not _missing(v)]
    if all(_is_number(v) for v in present):
        return {
            "values": np.array(
                [np.nan if _missing(v) else float(v) for v in values], dtype=np.float64
            )
        }
    codes = []
    for value in values:
        if _missing(value):
            codes.append(-1)
            continue
        text = str(value)
        codes.append(labels.setdefault(text, len(labels)))
    return {"codes": np.array(codes, dtype=np.int32)}


def runs_payload(info: pd.DataFrame) -> dict[str, Any]:
    """The ``_table`` trait: run names, then every ``(section, key)`` column encoded."""
    labels: dict[str, int] = {}
    columns = []
    for section, key in info.columns:
        encoded = encode(info[(section, key)].tolist(), labels)
        kind = column_kind(str(section), str(key)) if "values" in encoded else "text"
        columns.append({"section": str(section), "key": str(key), "kind": kind, **encoded})
    return {"runs": [str(r) for r in info.index], "labels": list(labels), "columns": columns}


_DIFFERS = "#fff3cd"


def _cell(value: object) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)


def diff_spec(diff: pd.DataFrame) -> ViewSpec:
    """The selected runs side by side (``w.diff``), differing rows highlighted.

    Examples
    --------
    >>> diff = pd.DataFrame({"a": [0.1], "b": [0.2], "differs": [True]},
    ...                     index=pd.MultiIndex.from_tuples([("hparams", "lr")]))
    >>> diff_spec(diff).panels[0].marks[0].data["header"]
    ['section', 'key', 'a', 'b']
    """
    runs = [c for c in diff.columns if c != "differs"]
    header = ["section", "key", *runs]
    cells = [
        [s for s, _ in diff.index],
        [k for _, k in diff.index],
        *[[_cell(v) for v in diff[r]] for r in runs],
    ]
    fill = [[_DIFFERS if d else "white" for d in diff["differs"]]] * len(header)
    table = Mark("table", {"header": header, "cells": cells}, style={"fill": fill})
    return ViewSpec([Panel(marks=[table])], grid=False, title=f"{len(runs)} runs side by side")


def table_spec(table: pd.DataFrame) -> ViewSpec:
    """The runs table (``w.table``: one row per run, ``(section, key)`` columns).

    Examples
    --------
    >>> info = pd.DataFrame({("hparams", "lr"): [0.1]}, index=pd.Index(["a"], name="run"))
    >>> table_spec(info).panels[0].marks[0].data["header"]
    ['run', 'hparams: lr']
    """
    header = ["run", *[f"{s}: {k}" for s, k in table.columns]]
    cells = [
        [str(r) for r in table.index],
        *[[_cell(v) for v in table[c]] for c in table.columns],
    ]
    fill = [["white"] * len(table)] * len(header)
    mark = Mark("table", {"header": header, "cells": cells}, style={"fill": fill})
    return ViewSpec([Panel(marks=[mark])], grid=False, title=f"{len(table)} runs")
