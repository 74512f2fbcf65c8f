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

__all__ = ["DEFAULT_SECTIONS", "column_kind", "encode", "runs_payload"]

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
