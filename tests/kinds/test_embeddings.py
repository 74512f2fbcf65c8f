"""Embeddings written by real writers' add_embedding, read through the Experiment."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tbnb


def test_torch_add_embedding(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from torch.utils.tensorboard import SummaryWriter

    vectors = torch.arange(40, dtype=torch.float32).reshape(10, 4) / 7
    writer = SummaryWriter(str(tmp_path))
    writer.add_embedding(vectors, metadata=[f"p{i}" for i in range(10)], global_step=3, tag="feat")
    writer.add_embedding(
        vectors[:6, :3],
        metadata=[[i, i * 2] for i in range(6)],
        metadata_header=["a", "b"],
        global_step=4,
    )
    writer.add_scalar("loss", 1.0, 0)
    writer.close()

    exp = tbnb.load(tmp_path, progress=False)
    table = exp.embeddings
    assert table[["run", "step", "num_points", "dim"]].values.tolist() == [
        [".", 3, 10, 4],
        [".", 4, 6, 3],
    ]
    got, labels = exp.embedding(0)
    np.testing.assert_allclose(got, vectors.numpy(), rtol=1e-6)
    assert labels["label"].tolist() == [f"p{i}" for i in range(10)]
    got, meta = exp.embedding(str(table["name"].iloc[1]))
    assert got.shape == (6, 3)
    assert meta.columns.tolist() == ["a", "b"]
    assert meta["b"].tolist() == [str(2 * i) for i in range(6)]
    with pytest.raises(KeyError, match="no embedding named"):
        exp.embedding("missing")


def test_tensorboardx_add_embedding_in_a_run(tmp_path: Path) -> None:
    tbx = pytest.importorskip("tensorboardX")
    writer = tbx.SummaryWriter(str(tmp_path / "run1"))
    mat = np.random.default_rng(0).normal(size=(5, 2)).astype(np.float32)
    writer.add_embedding(mat, metadata=list("abcde"), global_step=7)
    writer.add_scalar("x", 1.0, 0)
    writer.close()

    exp = tbnb.load(tmp_path, progress=False)
    row = exp.embeddings.iloc[0]
    assert row["run"] == "run1"
    assert row["step"] == 7
    got, labels = exp.embedding(0)
    np.testing.assert_allclose(got, mat, rtol=1e-5)
    assert labels["label"].tolist() == list("abcde")


def test_broken_projector_config_warns_and_keeps_the_rest(tmp_path: Path) -> None:
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "projector_config.pbtxt").write_text("embeddings { nonsense")
    (tmp_path / "projector_config.pbtxt").write_text(
        'embeddings { tensor_name: "e" tensor_path: "t.tsv" }'
    )
    (tmp_path / "t.tsv").write_text("1\t2\n")
    (tmp_path / "events.out.tfevents.1.h").write_bytes(b"")
    exp = tbnb.load(tmp_path, progress=False)
    with pytest.warns(tbnb.warnings.LogdirWarning, match="bad/projector_config.pbtxt"):
        table = exp.embeddings
    assert table["name"].tolist() == ["e"]
    assert exp.embedding("e")[0].tolist() == [[1.0, 2.0]]
