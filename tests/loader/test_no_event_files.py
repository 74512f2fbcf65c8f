"""A logdir with no event file, and a projector whose vectors live in a TF checkpoint: the
load says what is there and what reading it would need."""

from __future__ import annotations

from pathlib import Path

import pytest

import tbnb
from tbnb.warnings import EmptyResultWarning, LogdirWarning

#: What the TF2 projector tutorial leaves in its log_dir (tf.train.Checkpoint(...).save and
#: projector.visualize_embeddings): a checkpoint, its index file, a config, the metadata.
TUTORIAL_CONFIG = """embeddings {
  tensor_name: "embedding/.ATTRIBUTES/VARIABLE_VALUE"
  metadata_path: "metadata.tsv"
}
"""
TUTORIAL_INDEX = """model_checkpoint_path: "embedding.ckpt-1"
all_model_checkpoint_paths: "embedding.ckpt-1"
all_model_checkpoint_timestamps: 1700000000.0
last_preserved_timestamp: 1699999999.0
"""


def _tutorial(logdir: Path) -> Path:
    logdir.mkdir(parents=True)
    (logdir / "projector_config.pbtxt").write_text(TUTORIAL_CONFIG)
    (logdir / "checkpoint").write_text(TUTORIAL_INDEX)
    # the variables, in TensorFlow's own format (tbnb does not read them)
    (logdir / "embedding.ckpt-1.index").write_bytes(b"\x00" * 64)
    (logdir / "embedding.ckpt-1.data-00000-of-00001").write_bytes(b"\x00" * 512)
    (logdir / "metadata.tsv").write_text("the\nof\nand\n")
    return logdir


def test_a_checkpoint_only_projector_says_what_is_there_and_how_to_read_it(tmp_path: Path) -> None:
    logdir = _tutorial(tmp_path / "logs" / "imdb-example")
    with pytest.warns(EmptyResultWarning) as empty:
        exp = tbnb.load(str(logdir), progress=False)
    with pytest.warns(LogdirWarning) as projector:
        table = exp.embeddings
    reason = str(empty[0].message)
    assert "holds no event files" in reason
    assert "a TensorFlow checkpoint ('embedding.ckpt-1'): its variables need TensorFlow" in reason
    assert "a projector config ('projector_config.pbtxt'): exp.embeddings lists" in reason
    assert exp.empty_reason == reason
    (note,) = table["note"]
    assert "lives in the TensorFlow checkpoint 'embedding.ckpt-1'" in note
    assert (
        f"tbnb.projector(tf.train.load_checkpoint({str(logdir)!r}).get_tensor("
        "'embedding/.ATTRIBUTES/VARIABLE_VALUE'))" in note
    )
    assert any(note in str(w.message) for w in projector)
    header = tbnb.Dashboard(exp).header_text
    assert "Projector" in header
    assert "a TensorFlow checkpoint ('embedding.ckpt-1')" in header  # said as text


def test_a_folder_of_model_checkpoints_says_they_are_not_logs(tmp_path: Path) -> None:
    import torch

    torch.save({"weight": torch.zeros(2)}, tmp_path / "epoch=3-step=120.ckpt")
    (tmp_path / "hparams.yaml").write_text("lr: 0.1\n")
    with pytest.warns(EmptyResultWarning, match="holds no event files") as caught:
        tbnb.load(str(tmp_path), progress=False)
    reason = str(caught[0].message)
    assert "PyTorch checkpoints ('epoch=3-step=120.ckpt'): model weights, not logs" in reason
    assert "configuration ('hparams.yaml')" in reason


def test_unknown_files_are_listed_without_a_guess(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    with pytest.warns(EmptyResultWarning) as caught:
        tbnb.load(str(tmp_path), progress=False)
    assert str(caught[0].message).endswith("it holds 'notes.txt'")
