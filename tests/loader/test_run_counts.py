"""Points and last step per run, in one pass, equal to pandas' group-by on any layout."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from tbnb.loader.overview import _scalar_counts


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(-(2**40), 2**40)), max_size=60),
    st.integers(0, 3),
)
def test_equal_to_pandas(rows: list[tuple[int, int]], unused: int) -> None:
    names = [f"run{i}" for i in range(5 + unused)]  # some categories never occur
    df = pd.DataFrame(
        {
            "run": pd.Categorical([names[r] for r, _ in rows], names),
            "step": np.array([s for _, s in rows], dtype=np.int64),
        }
    )
    counts, last = _scalar_counts(df)
    if not rows:
        assert counts.empty
        assert last.empty
        return
    expected_counts = df["run"].value_counts()
    expected_counts = expected_counts[expected_counts > 0]
    expected_last = df.groupby("run", observed=True)["step"].max()
    assert counts.sort_index().to_dict() == expected_counts.sort_index().to_dict()
    assert last.sort_index().to_dict() == expected_last.sort_index().to_dict()
