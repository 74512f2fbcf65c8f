"""Pure functions between the projector's frames and what the browser receives.

Metadata travels dictionary-encoded: a column of text (or of few distinct numbers) as
codes into its distinct values, most frequent first, in the narrowest unsigned type
(uint8 up to 256 values, then uint16, then uint32); a column whose every value is
distinct sends only its values (the codes would be 0..n-1). Numbers also travel as
float32 (NaN for missing) for gradient colouring. Positions are float32.

Examples
--------
>>> import pandas as pd
>>> enc = encode_column("kind", pd.Series(["cat", "dog", "cat", None]))
>>> enc["kind"], enc["labels"], enc["codes"].tolist(), enc["codes"].dtype.name
('category', ['cat', 'dog', ''], [0, 1, 0, 2], 'uint8')
>>> enc = encode_column("x", pd.Series([0.5, 1.5, None] + list(range(30))))
>>> enc["kind"], enc["values"].dtype.name, "codes" in enc
('number', 'float32', False)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "CATEGORY_LIMIT",
    "coordinates_frame",
    "default_color",
    "default_label",
    "default_point_size",
    "encode_column",
    "encode_metadata",
    "listing",
    "positions_payload",
    "search_mask",
    "selection_frame",
    "unique_rows",
]

CATEGORY_LIMIT = 20
"""A numeric column with at most this many distinct values is also a category."""


def _labels(series: pd.Series) -> pd.Series:
    """Values as display strings ('' for missing)."""
    text = series.astype(object).where(series.notna(), "")
    return text.map(str)


def _narrow(codes: np.ndarray, count: int) -> np.ndarray:
    dtype = np.uint8 if count <= 256 else np.uint16 if count <= 65536 else np.uint32
    return codes.astype(dtype)


def encode_column(name: str, series: pd.Series) -> dict[str, Any]:
    """One metadata column as the browser gets it (see the module docstring).

    ``kind`` is ``"number"`` for numbers (``values``, float32) and ``"category"`` for
    anything else; numbers with at most :data:`CATEGORY_LIMIT` distinct values are
    both (``values`` and ``codes``/``labels``), so they can be coloured either way.
    """
    out: dict[str, Any] = {"name": str(name)}
    numbers = _as_numbers(series)
    if numbers is not None:
        out["kind"] = "number"
        out["values"] = numbers.astype(np.float32)
        finite = numbers[np.isfinite(numbers)]
        if len(np.unique(finite)) > CATEGORY_LIMIT:
            return out
        text = pd.Series([_number_text(v) for v in numbers], dtype=object)
    else:
        out["kind"] = "category"
        text = _labels(series)
    codes, uniques = pd.factorize(text, sort=False)
    counts = np.bincount(codes, minlength=len(uniques))
    order = np.argsort(-counts, kind="stable")  # most frequent first: top-N = first N codes
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    ranked = rank[codes]
    out["labels"] = [str(uniques[i]) for i in order]
    if len(uniques) == len(series) and np.array_equal(ranked, np.arange(len(series))):
        out["unique"] = True  # codes are 0..n-1: not sent
    else:
        out["codes"] = _narrow(ranked, len(uniques))
    return out


def _number_text(value: float) -> str:
    if not np.isfinite(value):
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _as_numbers(series: pd.Series) -> np.ndarray | None:
    """float64 values when every non-empty value is a number, else None."""
    if pd.api.types.is_bool_dtype(series):
        return None
    if pd.api.types.is_numeric_dtype(series):
        values: np.ndarray = series.to_numpy(dtype=np.float64, na_value=np.nan)
        return values
    text = series.astype(object).where(series.notna(), "").map(str).str.strip()
    filled = text != ""
    if not filled.any():
        return None
    parsed = pd.to_numeric(text.where(filled, "nan"), errors="coerce")
    if parsed[filled].isna().any():
        return None
    numbers: np.ndarray = parsed.to_numpy(dtype=np.float64)
    return numbers


def encode_metadata(meta: pd.DataFrame) -> dict[str, Any]:
    """Every metadata column, encoded: ``{"n": rows, "columns": [...]}``."""
    return {"n": len(meta), "columns": [encode_column(str(c), meta[c]) for c in meta.columns]}


def default_color(meta: pd.DataFrame) -> str:
    """The first column with 2 to :data:`CATEGORY_LIMIT` distinct values, some repeated
    (a column of distinct values names points, it does not group them), else ''.

    Examples
    --------
    >>> import pandas as pd
    >>> default_color(pd.DataFrame({"name": ["a", "b", "c"], "kind": ["x", "y", "x"]}))
    'kind'
    """
    for column in meta.columns:
        count = meta[column].nunique(dropna=True)
        if 2 <= count <= CATEGORY_LIMIT and count < len(meta):
            return str(column)
    return ""


def default_label(meta: pd.DataFrame, color: str = "") -> str:
    """``label`` (TensorBoard's one-column metadata), else the first column, else ''; ''
    too when that is the ``color`` column (the legend names its values already)."""
    name = "label" if "label" in meta.columns else str(meta.columns[0]) if len(meta.columns) else ""
    return "" if name == color else name


def default_point_size(n: int, area: float = 800 * 520) -> float:
    """Point diameter (CSS pixels) for ``n`` points on ``area`` square pixels: large for a
    few points, small where many would cover each other; 2.5 to 10, in half pixels.

    Examples
    --------
    >>> default_point_size(256), default_point_size(10_000), default_point_size(1_000_000)
    (10.0, 5.0, 2.5)
    """
    size = (0.6 * area / max(n, 1)) ** 0.5
    return float(min(max(round(size * 2) / 2, 2.5), 10.0))


def positions_payload(
    coords: np.ndarray, method: str, version: int, *, final: bool
) -> dict[str, Any]:
    """``{"coords": float32 (n, dims), "method", "dims", "version", "final"}``."""
    coords = np.ascontiguousarray(coords, dtype=np.float32)
    return {
        "coords": coords,
        "method": method,
        "dims": int(coords.shape[1]),
        "version": int(version),
        "final": bool(final),
    }


def selection_frame(meta: pd.DataFrame, indices: np.ndarray) -> pd.DataFrame:
    """The selected points: an ``index`` column (their row numbers), then their metadata.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> selection_frame(pd.DataFrame({"w": ["a", "b", "c"]}), np.array([2, 0])).values.tolist()
    [[0, 'a'], [2, 'c']]
    """
    chosen = unique_rows(indices, len(meta))
    frame = meta.iloc[chosen].reset_index(drop=True)
    frame.insert(0, "index", chosen)
    return frame


def unique_rows(indices: Any, n: int) -> np.ndarray:
    """Sorted distinct row numbers in ``0..n-1`` (a mask: linear, where ``np.unique``
    hashes or sorts; 100k indices take a millisecond).

    Examples
    --------
    >>> unique_rows([3, 1, 3, 9], 5).tolist()
    [1, 3]
    """
    raw = np.asarray(indices, dtype=np.int64).ravel()
    mask = np.zeros(n, dtype=bool)
    mask[raw[(raw >= 0) & (raw < n)]] = True
    return np.flatnonzero(mask)


def coordinates_frame(coords: np.ndarray, meta: pd.DataFrame) -> pd.DataFrame:
    """The layout as a frame: ``x``, ``y`` (and ``z``), then the metadata."""
    axes = ["x", "y", "z"][: coords.shape[1]]
    frame = pd.DataFrame(np.asarray(coords, dtype=np.float64), columns=axes)
    return pd.concat([frame, meta.reset_index(drop=True)], axis=1)


def search_mask(meta: pd.DataFrame, pattern: str, column: str = "") -> np.ndarray:
    """Points whose label matches ``pattern`` (a case-insensitive regex, searched in
    ``column``, or in every column when it is ''), as the browser finds them: text
    columns and columns of few distinct numbers, compared as the labels they are shown
    with (numbers with many distinct values are not searched).

    Examples
    --------
    >>> import pandas as pd
    >>> search_mask(pd.DataFrame({"w": ["Cat", "dog", "cattle"]}), "^cat").tolist()
    [True, False, True]
    """
    mask = np.zeros(len(meta), dtype=bool)
    if not pattern:
        return mask
    regex = re.compile(pattern, re.IGNORECASE)
    columns: Sequence[Any] = [column] if column else list(meta.columns)
    for name in columns:
        if name not in meta.columns:
            raise KeyError(f"no metadata column {name!r}; columns are {list(meta.columns)}")
        encoded = encode_column(str(name), meta[name])
        labels = encoded.get("labels")
        if labels is None:
            continue
        hit = np.array([bool(regex.search(label)) for label in labels], dtype=bool)
        codes = encoded.get("codes")
        mask |= hit if codes is None else hit[codes]
    return mask


def listing(table: pd.DataFrame) -> list[dict[str, Any]]:
    """The embeddings of ``exp.embeddings`` as the picker lists them."""
    out = []
    for i, row in enumerate(table.itertuples(index=False)):
        out.append(
            {
                "index": i,
                "run": str(row.run),
                "tag": str(row.tag),
                "step": int(row.step),
                "name": str(row.name),
                "num_points": int(row.num_points),
                "dim": int(row.dim),
                "note": str(row.note),
            }
        )
    return out
