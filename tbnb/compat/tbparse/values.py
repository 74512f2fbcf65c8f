"""Cell values of tbparse's frames: each kind's value as tbparse puts it in its frame.

Examples
--------
>>> import pandas as pd
>>> merge_values(pd.Series([1.0, float("nan"), 2.0]))
[1.0, 2.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tbnb.compat.tbparse.decoding import decode_image, decode_wav

__all__ = ["audio_value", "histogram_value", "image_value", "merge_values", "tensor_value"]


def tensor_value(data: Any) -> tuple[Any, dict[str, Any]]:
    return data, {}


def histogram_value(row: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    return None, {
        "counts": np.asarray(row["bucket"], dtype=np.float64),
        "limits": np.asarray(row["limits"], dtype=np.float64),
        "max": row["max"],
        "min": row["min"],
        "num": row["num"],
        "sum": row["sum"],
        "sum_squares": row["sum_squares"],
    }


def image_value(row: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    return decode_image(row["blob"].read()), {"height": row["height"], "width": row["width"]}


def audio_value(row: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    return decode_wav(row["blob"].read()), {
        "content_type": row["content_type"],
        "length_frames": row["length_frames"],
        "sample_rate": row["sample_rate"],
    }


def merge_values(s: pd.Series) -> Any:
    """tbparse's merge of the values of one step in wide frames: NaNs dropped, the
    rest concatenated (lists flattened), a single value unwrapped."""
    if len(s) == 1:
        return s.iloc[0]  # tbparse returns ``s``, which pandas unwraps to this
    merged: list[Any] = []
    for item in s:
        if isinstance(item, list):
            merged.extend(item)
        elif np.isscalar(item):
            if not pd.isna(item):
                merged.append(item)
        else:
            merged.append(item)
    if not merged:
        return np.nan
    if len(merged) == 1:
        return merged[0]
    return merged
