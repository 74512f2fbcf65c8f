"""Vectors and metadata from whatever a user has: numpy, torch, a DataFrame.

:func:`as_vectors` returns a C-contiguous float32 matrix (one row per point) and a
metadata frame with one row per point, or raises an error that says what was wrong
and how to fix it: 1-D input, strings, NaN or infinite rows, mismatched lengths.

Examples
--------
>>> import numpy as np, pandas as pd
>>> X, meta = as_vectors(np.eye(3), ["a", "b", "c"])
>>> X.dtype, X.shape, meta["label"].tolist()
(dtype('float32'), (3, 3), ['a', 'b', 'c'])
>>> df = pd.DataFrame({"x": [1.0, 2.0], "y": [3.0, 4.0], "word": ["hi", "yo"]})
>>> X, meta = as_vectors(df)
>>> X.tolist(), list(meta.columns)
([[1.0, 3.0], [2.0, 4.0]], ['word'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["as_metadata", "as_vectors"]


def as_vectors(
    data: Any, metadata: Any = None, *, columns: str | Sequence[str] | None = None
) -> tuple[np.ndarray, pd.DataFrame]:
    """``(vectors, metadata)`` of a matrix-like ``data``.

    Parameters
    ----------
    data
        A 2-D numpy array, a torch tensor (detached and moved to the CPU), anything
        ``np.asarray`` turns into a 2-D numeric array, or a DataFrame.
    metadata
        One row per point: a DataFrame, a Series, or a sequence of labels (a
        ``label`` column). For a DataFrame ``data``, its columns not used as vectors
        are metadata too.
    columns
        For a DataFrame: the columns holding the vectors (default every numeric
        column), or one column whose cells are vectors (lists or arrays).

    Raises
    ------
    ValueError
        For 1-D or empty input, NaN or infinite values (the rows are named),
        columns that are not numbers, or metadata of another length.
    TypeError
        For strings or objects that are not numbers.

    Examples
    --------
    >>> import numpy as np
    >>> as_vectors(np.arange(4.0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: vectors must be 2-D (points x dimensions), got shape (4,); ...
    """
    extra = None
    if isinstance(data, pd.DataFrame):
        data, extra = _from_frame(data, columns)
    elif columns is not None:
        raise TypeError(
            f"columns= picks vector columns of a DataFrame; data is {type(data).__name__}"
        )
    matrix = _as_array(data)
    if matrix.ndim != 2:
        raise ValueError(
            f"vectors must be 2-D (points x dimensions), got shape {matrix.shape}; one "
            "vector per row: X.reshape(-1, 1) for one number per point, X.reshape(1, -1) "
            "for a single vector"
        )
    if matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise ValueError(f"no vectors to show: shape {matrix.shape}")
    if matrix.dtype.kind not in "biuf":
        raise TypeError(
            f"vectors must be numbers, got dtype {matrix.dtype}; strings and "
            "labels belong in metadata="
        )
    vectors = np.ascontiguousarray(matrix, dtype=np.float32)
    # a row's float64 sum is finite exactly when all its float32 values are (no overflow
    # is possible, NaN and inf propagate): one pass, no n x d boolean temporary
    bad = ~np.isfinite(vectors.sum(axis=1, dtype=np.float64))
    if bad.any():
        rows = np.flatnonzero(bad)
        shown = ", ".join(map(str, rows[:10])) + (", ..." if len(rows) > 10 else "")
        raise ValueError(
            f"{len(rows)} of {len(vectors)} rows hold NaN or infinite values (rows {shown}); "
            "drop them (X[np.isfinite(X).all(axis=1)]) or fill them first"
        )
    meta = as_metadata(metadata, len(vectors))
    if extra is not None:
        meta = pd.concat([extra.reset_index(drop=True), meta], axis=1)
    return vectors, meta


def _as_array(data: Any) -> np.ndarray:
    if hasattr(data, "detach") and hasattr(data, "cpu"):  # a torch tensor, without torch
        data = data.detach().cpu().numpy()
    try:
        return np.asarray(data)
    except ValueError as error:  # ragged nested lists
        raise ValueError(f"vectors of different lengths cannot form a matrix ({error})") from None


def _from_frame(
    frame: pd.DataFrame, columns: str | Sequence[str] | None
) -> tuple[np.ndarray, pd.DataFrame]:
    if isinstance(columns, str):
        if columns not in frame.columns:
            raise KeyError(f"no column {columns!r}; columns are {list(frame.columns)}")
        cells = frame[columns].tolist()
        lengths = {np.size(c) for c in cells}
        if len(lengths) > 1:
            raise ValueError(
                f"column {columns!r} holds vectors of lengths {sorted(lengths)}; "
                "every point needs the same number of dimensions"
            )
        matrix = np.stack([_as_array(c).ravel() for c in cells]) if cells else np.zeros((0, 0))
        return matrix, frame.drop(columns=[columns])
    if columns is None:
        chosen = [
            c
            for c in frame.columns
            if pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
        ]
        if not chosen:
            raise ValueError(
                "the DataFrame has no numeric columns; pick the vector columns "
                f"with columns= (columns are {list(frame.columns)})"
            )
    else:
        chosen = list(columns)
        missing = [c for c in chosen if c not in frame.columns]
        if missing:
            raise KeyError(f"no column(s) {missing}; columns are {list(frame.columns)}")
        text = [c for c in chosen if not pd.api.types.is_numeric_dtype(frame[c])]
        if text:
            raise TypeError(
                f"column(s) {text} are not numbers; strings and labels belong "
                "in metadata (leave them out of columns=)"
            )
    return frame[chosen].to_numpy(), frame.drop(columns=chosen)


def as_metadata(metadata: Any, n: int) -> pd.DataFrame:
    """One row per point (``n`` rows, index 0..n-1), or an error naming both lengths.

    Examples
    --------
    >>> as_metadata(None, 2).shape
    (2, 0)
    >>> as_metadata(["a"], 2)
    Traceback (most recent call last):
    ...
    ValueError: metadata has 1 rows for 2 vectors: give one row per vector
    """
    if metadata is None:
        return pd.DataFrame(index=pd.RangeIndex(n))
    if isinstance(metadata, pd.DataFrame):
        meta = metadata
    elif isinstance(metadata, pd.Series):
        meta = metadata.to_frame(metadata.name if metadata.name is not None else "label")
    else:
        values = _as_array(metadata) if not isinstance(metadata, (list, tuple)) else metadata
        if isinstance(values, np.ndarray) and values.ndim == 2:
            meta = pd.DataFrame(values, columns=[f"c{i}" for i in range(values.shape[1])])
        else:
            meta = pd.DataFrame({"label": list(values)})
    if len(meta) != n:
        raise ValueError(f"metadata has {len(meta)} rows for {n} vectors: give one row per vector")
    meta = meta.reset_index(drop=not _named_index(meta))
    meta.columns = [str(c) for c in meta.columns]
    return meta


def _named_index(frame: pd.DataFrame) -> bool:
    return any(name is not None for name in frame.index.names)
