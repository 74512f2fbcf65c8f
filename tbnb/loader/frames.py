"""Tidy DataFrames from each run's normalised rows, one kind at a time.

Every frame is long format: one row per (run, tag, step[, sample]) with ``run`` and
``tag`` as categorical columns, then the kind's own columns (declared by its
:class:`~tbnb.kinds.base.Kind`), typed where the kind says so.

Examples
--------
>>> from tbnb.kinds import KINDS
>>> rows = {"a": [{"tag": "t", "step": 1, "wall_time": 2.0, "seq": 0, "text": "hi"}]}
>>> records_frame(KINDS["text"], rows).to_dict("records")
[{'run': 'a', 'tag': 't', 'step': 1, 'wall_time': 2.0, 'text': 'hi'}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from tbnb.kinds import Kind
from tbnb.loader.rowsets import KindRows

__all__ = ["records_frame"]

_TYPED = {"step": np.int64, "wall_time": np.float64}


def records_frame(
    kind: Kind, rows_by_run: Mapping[str, KindRows | Iterable[dict[str, Any]]]
) -> pd.DataFrame:
    """Build the tidy frame of one kind from each run's rows (dict rows or
    :class:`~tbnb.loader.rowsets.KindRows`)."""
    columns = kind.frame_columns
    own = [c for c in columns if c != "run"]
    dtypes = {c: kind.dtypes.get(c, _TYPED.get(c)) for c in own}
    dtypes = {c: d for c, d in dtypes.items() if d is not None}
    runs: list[str] = []
    sizes: list[int] = []
    parts: dict[str, list[np.ndarray]] = {c: [] for c in own}
    for run, given in rows_by_run.items():
        rows = given if isinstance(given, KindRows) else KindRows()
        if rows is not given:
            rows.extend(given)
        got = rows.columns(own, dtypes)
        runs.append(run)
        sizes.append(len(got["tag"]))
        for c in own:
            parts[c].append(got[c])
    out: dict[str, Any] = {}
    for column in columns:
        if column == "run":
            codes = np.repeat(np.arange(len(runs)), sizes)
            present = [r for r, n in zip(runs, sizes, strict=True) if n]
            remap = np.full(len(runs), -1)
            remap[[runs.index(r) for r in present]] = np.arange(len(present))
            out[column] = pd.Categorical.from_codes(remap[codes], categories=present)
            continue
        pieces = parts[column]
        dtype = dtypes.get(column)
        values = (
            np.concatenate(pieces)
            if pieces
            else np.zeros(0, dtype=dtype if dtype is not None else object)
        )
        if column == "tag":
            out[column] = pd.Categorical(values, categories=list(dict.fromkeys(values.tolist())))
        else:
            out[column] = values
    return pd.DataFrame(out)
