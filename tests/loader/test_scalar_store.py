"""The scalar store: appends in place, purges into new columns, frames never change under users."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tbnb.loader.scalar_store import ScalarStore, code_dtype


def _append(store: ScalarStore, run: str, tags: list[str], steps: list[int]) -> None:
    n = len(steps)
    store.append(
        run,
        tags,
        [
            (
                np.arange(n) % len(tags),
                np.array(steps),
                np.zeros(n),
                np.array(steps, dtype=float) / 10,
            )
        ],
    )


def test_frame_is_tidy_and_categorical() -> None:
    store = ScalarStore(capacity=100, runs=["a", "b"])
    _append(store, "b", ["loss", "acc"], [0, 0, 1, 1])
    _append(store, "a", ["loss"], [5])
    df = store.frame()
    assert isinstance(df["run"].dtype, pd.CategoricalDtype)
    assert df["run"].tolist() == ["b"] * 4 + ["a"]
    assert df["tag"].tolist() == ["loss", "acc", "loss", "acc", "loss"]
    assert df["step"].dtype == np.int64
    assert df["value"].tolist() == [0.0, 0.0, 0.1, 0.1, 0.5]


def test_frames_handed_out_survive_appends_purges_and_growth() -> None:
    store = ScalarStore(capacity=4, runs=["a"])
    _append(store, "a", ["x"], [0, 1, 2])
    first = store.frame()
    _append(store, "a", ["x"], [3, 4, 5, 6])  # past capacity: reallocates
    assert store.capacity >= 7
    assert store.purge("a", 2) == 5
    assert first["step"].tolist() == [0, 1, 2]
    assert store.frame()["step"].tolist() == [0, 1]


def test_editing_a_frame_does_not_reach_the_store() -> None:
    store = ScalarStore(capacity=10, runs=["a"])
    _append(store, "a", ["x"], [0, 1])
    mine = store.frame()
    mine.loc[0, "value"] = 42.0
    assert mine["value"].tolist() == [42.0, 0.1]
    assert store.frame()["value"].tolist() == [0.0, 0.1]


def test_codes_widen_with_many_tags() -> None:
    store = ScalarStore(capacity=10, runs=["a"])
    tags = [f"t{i}" for i in range(300)]
    store.append("a", tags, [(np.arange(300), np.arange(300), np.zeros(300), np.zeros(300))])
    df = store.frame()
    assert df["tag"].cat.codes.dtype == code_dtype(300) == np.int16
    assert df["tag"].tolist() == tags


def test_purge_only_touches_its_run() -> None:
    store = ScalarStore(capacity=10, runs=["a", "b"])
    _append(store, "a", ["x"], [0, 5])
    _append(store, "b", ["x"], [0, 5])
    assert store.purge("a", 3) == 1
    assert store.purge("missing", 0) == 0
    df = store.frame()
    assert list(zip(df["run"], df["step"], strict=True)) == [("a", 0), ("b", 0), ("b", 5)]
