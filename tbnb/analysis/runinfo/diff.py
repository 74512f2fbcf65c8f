"""Runs side by side: every key of ``exp.info`` for two or more runs, differences marked.

Examples
--------
>>> import pandas as pd
>>> info = pd.DataFrame({("hparams", "lr"): [0.1, 0.01], ("hparams", "seed"): [1, 1]},
...                     index=pd.Index(["a", "b"], name="run"))
>>> diff_runs(info, ["a", "b"])
              a     b  differs
hparams lr  0.1  0.01     True
>>> diff_runs(info, ["a", "b"], only_different=False)["differs"].tolist()
[True, False]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["diff_runs", "same_value"]


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def same_value(values: Sequence[Any]) -> bool:
    """Whether the values are all equal: numbers by value (1 equals 1.0), anything else by
    its text; missing equals missing and differs from anything present.

    Examples
    --------
    >>> same_value([1, 1.0]), same_value(["adam", "sgd"]), same_value([None, float("nan")])
    (True, False, True)
    >>> same_value([0.1, None])
    False
    """
    present = [v for v in values if not _missing(v)]
    if len(present) not in (0, len(values)):
        return False
    if all(_is_number(v) for v in present):
        return len({float(v) for v in present}) <= 1
    return len({str(v) for v in present}) <= 1


def diff_runs(
    info: pd.DataFrame, runs: Sequence[str], *, only_different: bool = True
) -> pd.DataFrame:
    """Keys of ``info`` (``exp.info``) side by side for ``runs``, one column per run.

    Parameters
    ----------
    info
        ``exp.info`` (one row per run, ``(section, key)`` columns).
    runs
        Two or more runs (rows of ``info``).
    only_different
        Keep only the keys whose values differ (a missing value differs from any other).

    Raises
    ------
    KeyError
        Naming the runs ``info`` does not hold.
    """
    runs = [str(r) for r in runs]
    missing = [r for r in runs if r not in info.index]
    if missing:
        raise KeyError(
            f"no run {', '.join(map(repr, missing))} in the run information; "
            f"runs: {', '.join(map(repr, list(info.index)[:8]))}"
        )
    table = info.loc[runs].T
    table.columns = runs
    present = table.notna().any(axis=1)
    table = table[present]
    table["differs"] = [not same_value(list(row)) for row in table[runs].itertuples(index=False)]
    return table[table["differs"]] if only_different else table
