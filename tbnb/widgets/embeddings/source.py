"""Embeddings of an experiment for the projector: the picker's list, and one read.

Examples
--------
>>> import pandas as pd
>>> from types import SimpleNamespace
>>> table = pd.DataFrame([{"run": "a", "tag": "t", "step": 1, "name": "t:00001",
...                        "num_points": 3, "dim": 2, "note": ""}])
>>> entries, runs = listing_of(SimpleNamespace(embeddings=table, runs=["a"]))
>>> [e["tag"] for e in entries], runs
(['t'], ['a'])
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from tbnb.kinds.embeddings import read_sprite
from tbnb.warnings import DataWarning
from tbnb.widgets.embeddings.prepare import listing

__all__ = ["first_readable", "listing_of", "read_listed"]


def listing_of(source: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """The picker's list of ``source.embeddings``, and the runs in colour order (the
    experiment's run order, then any other run holding an embedding)."""
    entries = listing(source.embeddings)
    runs = [str(r) for r in getattr(source, "runs", [])]
    runs += sorted({e["run"] for e in entries} - set(runs))
    return entries, runs


def first_readable(entries: list[dict[str, Any]]) -> int:
    """The first embedding with vectors tbnb can read (``-1`` if none)."""
    return next((e["index"] for e in entries if not e["note"]), -1)


def read_listed(source: Any, index: int) -> tuple[np.ndarray, pd.DataFrame, dict[str, Any], str]:
    """``(vectors, metadata, sprite payload, title)`` of row ``index`` of ``source.embeddings``."""
    from tbnb.analysis.projection import as_vectors
    from tbnb.kinds.embeddings import read_embedding

    table = source.embeddings
    if not 0 <= index < len(table):
        raise IndexError(f"embedding {index} does not exist: there are {len(table)}")
    row = table.iloc[index]
    vectors, meta = read_embedding(source.fs, row)
    bad = ~np.isfinite(vectors).all(axis=1) if vectors.size else np.zeros(0, bool)
    if bad.any():
        rows = np.flatnonzero(bad)
        warnings.warn(
            f"tbnb: {row['tensor_path']}: {len(rows)} of {len(vectors)} vectors hold "
            f"NaN or infinite values (run {row['run']!r}, tag {row['tag']!r}, rows "
            f"{rows[:10].tolist()}); they are left out, the column 'row' keeps "
            "each point's row in the file",
            DataWarning,
            stacklevel=2,
        )
        meta = meta.reset_index(drop=True)
        meta.insert(0, "row", np.arange(len(vectors)))
        vectors, meta = vectors[~bad], meta[~bad]
    vectors, meta = as_vectors(vectors, meta)
    sprite = read_sprite(source.fs, row)
    payload: dict[str, Any] = {}
    if sprite is not None:
        png, (height, width) = sprite
        payload = {"png": np.frombuffer(png, dtype=np.uint8), "width": width, "height": height}
    step = f" step {int(row['step'])}" if int(row["step"]) >= 0 else ""
    title = f"{row['run']} · {row['tag']}{step}"
    return vectors, meta, payload, title
