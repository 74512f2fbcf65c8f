"""The projector's data equals what TensorBoard's projector plugin serves, per real writer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tbnb
from tests.writers_embeddings import (
    projector_reference,
    write_tensorboardx_embeddings,
    write_torch_embeddings,
)

WRITERS = {"torch": write_torch_embeddings, "tensorboardx": write_tensorboardx_embeddings}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_projector_frames_equal_tensorboards_plugin(writer: str, tmp_path: Path) -> None:
    WRITERS[writer](tmp_path)
    reference = projector_reference(tmp_path)
    exp = tbnb.load(tmp_path, progress=False)
    table = exp.embeddings
    assert len(reference) == len(table) >= 2
    widget = tbnb.projector(exp)
    listed = {(e["run"], e["name"]): i for i, e in enumerate(widget.embeddings)}
    for ref in reference:
        index = listed[(ref["run"], ref["name"])]
        row = table.iloc[index]
        assert (row["num_points"], row["dim"]) == ref["tensor"].shape
        vectors, meta = exp.embedding(index)
        np.testing.assert_array_equal(vectors.astype(np.float32), ref["tensor"])
        pd.testing.assert_frame_equal(
            meta.astype(str).reset_index(drop=True), ref["metadata"], check_dtype=False
        )
        widget.embedding = index  # what the view shows: the same vectors and rows
        np.testing.assert_array_equal(widget.vectors, ref["tensor"])
        shown = widget.metadata.astype(str).to_numpy().tolist()
        assert shown == ref["metadata"].to_numpy().tolist()
        if ref["sprite"] is not None:
            sprite = widget._sprite
            assert bytes(sprite["png"]) == ref["sprite"]
            # TensorBoard's singleImageDim is [width, height] of one image in the sheet
            assert [sprite["width"], sprite["height"]] == list(ref["single_image_dim"])
