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

__all__ = ["records_frame"]

_TYPED = {"step": np.int64, "wall_time": np.float64}


def records_frame(kind: Kind, rows_by_run: Mapping[str, Iterable[dict[str, Any]]]) -> pd.DataFrame:
    """Build the tidy frame of one kind from each run's rows."""
    columns = kind.frame_columns
    data: dict[str, list[Any]] = {c: [] for c in columns}
    for run, rows in rows_by_run.items():
        for row in rows:
            for column in columns:
                data[column].append(run if column == "run" else row.get(column))
    out: dict[str, Any] = {}
    for column in columns:
        values = data[column]
        dtype = kind.dtypes.get(column, _TYPED.get(column))
        if column in ("run", "tag"):
            out[column] = pd.Categorical(values, categories=list(dict.fromkeys(values)))
        elif dtype is not None:
            out[column] = np.asarray(values, dtype=dtype)
        else:
            for value in values:
                if isinstance(value, np.ndarray):
                    # shared by every frame handed out: an edit in place would leak
                    value.flags.writeable = False
            series = np.empty(len(values), dtype=object)
            series[:] = values
            out[column] = series
    return pd.DataFrame(out)
