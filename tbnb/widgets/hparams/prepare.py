"""Pure preparation of the hparams view: column encodings for the browser.

Numbers travel as float64 (NaN = missing), everything else as int32 codes into a
list of labels (-1 = missing), a declared discrete domain's order first.

Examples
--------
>>> import pandas as pd
>>> enc = encode_column("opt", pd.Series(["sgd", None, "adam"]), "hparam", None)
>>> enc["labels"], enc["codes"].tolist()
(['adam', 'sgd'], [1, -1, 0])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from tbnb.analysis.hparams import REDUCTIONS

__all__ = ["encode_column", "is_number", "label_of", "metric_columns_of", "natural"]

def is_number(series: pd.Series) -> bool:
    return bool(pd.api.types.is_numeric_dtype(series)) and not pd.api.types.is_bool_dtype(series)


def _labels(series: pd.Series, domain: Mapping[str, Any] | None) -> list[str]:
    """Category labels: a declared discrete domain's order first, then sorted."""
    present = [str(v) for v in pd.unique(series.dropna())]
    declared: list[str] = []
    if domain and isinstance(domain.get("values"), list):
        declared = [label_of(v) for v in domain["values"]]
    rest = sorted(set(present) - set(declared), key=natural)
    return [d for d in declared if d in set(present)] + rest


def label_of(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def natural(text: str) -> list[Any]:
    import re

    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", text)]


def encode_column(
    name: str, series: pd.Series, role: str, domain: Mapping[str, Any] | None
) -> dict[str, Any]:
    if is_number(series):
        values = pd.to_numeric(series, errors="coerce").astype("Float64")
        return {
            "name": name,
            "kind": "number",
            "role": role,
            "values": values.to_numpy(dtype=np.float64, na_value=np.nan),
        }
    labels = _labels(series, domain)
    index = {label: i for i, label in enumerate(labels)}
    codes = np.array([-1 if pd.isna(v) else index[str(v)] for v in series], dtype=np.int32)
    return {"name": name, "kind": "category", "role": role, "codes": codes, "labels": labels}


def metric_columns_of(frame: pd.DataFrame) -> list[str]:
    declared = frame.attrs.get("metric_columns")
    if declared is not None:
        return [c for c in declared if c in frame.columns]
    return [
        c
        for c in frame.columns
        if isinstance(c, str) and c.rsplit(".", 1)[-1] in REDUCTIONS and is_number(frame[c])
    ]

