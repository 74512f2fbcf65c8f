"""A run's scalar points grouped by tag, written straight into the frame's columns.

A counting sort: count each tag's points, give each tag its rows (in tag order, from
``lo``), then copy every point to its tag's next row, so a tag's points keep the
order they were written in. One pass over the points and no sort.

Examples
--------
>>> import numpy as np
>>> tag = np.array([1, 0, 1], np.int32)
>>> out = [np.zeros(3, np.int8), np.zeros(3, np.int64), np.zeros(3), np.zeros(3)]
>>> cursor = np.array([0, 1], np.int64)  # tag 0 from row 0 (one point), tag 1 from row 1
>>> scatter_points(tag, np.array([5, 6, 7]), np.zeros(3), np.array([.5, .6, .7]),
...                np.array([10, 20]), cursor, *out)
>>> out[0].tolist(), out[1].tolist(), out[3].tolist()
([10, 20, 20], [6, 5, 7], [0.6, 0.5, 0.7])
"""

from __future__ import annotations

import numpy as np

from tbnb.jit import njit

__all__ = ["KERNELS", "count_tags", "scatter_points"]


@njit
def count_tags(tag_id: np.ndarray, counts: np.ndarray) -> None:
    """Add each tag's number of points to ``counts``."""
    for t in tag_id:
        counts[t] += 1


@njit
def scatter_points(
    tag_id: np.ndarray,
    step: np.ndarray,
    wall_time: np.ndarray,
    value: np.ndarray,
    codes: np.ndarray,
    cursor: np.ndarray,
    out_tag: np.ndarray,
    out_step: np.ndarray,
    out_wall_time: np.ndarray,
    out_value: np.ndarray,
) -> None:
    """Copy point ``i`` to row ``cursor[tag_id[i]]`` (then advance it), its tag as
    ``codes[tag_id[i]]``."""
    for i in range(tag_id.size):
        t = tag_id[i]
        row = cursor[t]
        cursor[t] = row + 1
        out_tag[row] = codes[t]
        out_step[row] = step[i]
        out_wall_time[row] = wall_time[i]
        out_value[row] = value[i]


def _example(code_dtype: type) -> tuple[np.ndarray, ...]:
    i64, f64 = np.zeros(0, np.int64), np.zeros(0, np.float64)
    return (np.zeros(0, np.int32), i64, f64, f64, i64, i64, np.zeros(0, code_dtype), i64, f64, f64)


KERNELS = [
    (count_tags, (np.zeros(0, np.int32), np.zeros(0, np.int64))),
    *((scatter_points, _example(dtype)) for dtype in (np.int8, np.int16, np.int32, np.int64)),
]
"""What :mod:`tbnb.jit` compiles and loads: the kernels called from Python, with
arguments of the types they are called with (the frame's tag codes are 8 to 64 bits)."""
