"""Projector files as torch's ``add_embedding`` writes them: a sprite smaller than its grid."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pytest

import tbnb
from tbnb.io.projector_files import read_sprite
from tbnb.warnings import DataWarning


@pytest.fixture
def logdir(tmp_path: Path) -> Path:
    import torch
    from torch.utils.tensorboard import SummaryWriter

    gen = torch.Generator().manual_seed(0)
    with SummaryWriter(str(tmp_path / "run")) as writer:
        writer.add_embedding(
            torch.randn(9, 4, generator=gen),
            label_img=torch.rand(9, 3, 4, 4, generator=gen),
            global_step=1,
            tag="faces",
        )
    return tmp_path


def _crop(path: Path, width: int, height: int) -> None:
    from PIL import Image

    with Image.open(path) as image:
        assert image.size == (12, 12)  # 3 x 3 images of 4 x 4 px, as torch lays them out
        out = io.BytesIO()
        image.crop((0, 0, width, height)).save(out, format="PNG")
    path.write_bytes(out.getvalue())


def _sprite_warnings(logdir: Path) -> tuple[object, list[str]]:
    exp = tbnb.load(logdir, progress=False)
    (row,) = [r for _, r in exp.embeddings.iterrows()]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sprite = read_sprite(exp.fs, row)
    return sprite, [str(w.message) for w in caught if issubclass(w.category, DataWarning)]


def test_a_whole_sprite_reads_without_a_warning(logdir: Path) -> None:
    sprite, messages = _sprite_warnings(logdir)
    assert sprite is not None
    assert messages == []


@pytest.mark.parametrize(("width", "height", "holds"), [(12, 8, 6), (8, 12, 6), (11, 12, 6)])
def test_a_sprite_smaller_than_its_grid_warns_naming_run_and_tag(
    logdir: Path, width: int, height: int, holds: int
) -> None:
    (path,) = logdir.rglob("sprite.png")
    _crop(path, width, height)
    sprite, messages = _sprite_warnings(logdir)
    assert sprite is not None  # the images it has are still drawn
    (message,) = messages
    assert "run 'run', tag 'faces'" in message
    assert f"{width}x{height} px holds {holds} images of 4x4 px, fewer than the 9 points" in message
    assert str(path) in message
