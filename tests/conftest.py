"""Shared pytest fixtures."""

from __future__ import annotations

import pytest

# --- record-layer fixtures (prefix rec_) --------------------------------------------


def _rec_event_file(directory: object) -> str:
    import glob
    import os

    (path,) = glob.glob(os.path.join(str(directory), "events.out.tfevents.*"))
    return path


@pytest.fixture(scope="session")
def rec_tbx_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Path of an event file written by tensorboardX: scalars, a multi-value summary,
    a histogram, an image and text."""
    import numpy as np
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import Summary

    directory = tmp_path_factory.mktemp("rec_tbx")
    writer = SummaryWriter(str(directory))
    for step in range(30):
        writer.add_scalar("train/loss", 1.0 / (step + 1), step, walltime=1.7e9 + step)
        writer.add_scalar("lr", 0.1 * 0.9**step, step)
    writer.add_histogram("weights", np.linspace(-1, 1, 100), 3)
    writer.add_image("img", np.zeros((3, 8, 8), dtype=np.uint8), 4)
    writer.add_text("note", "hello", 5)
    several = Summary(value=[Summary.Value(tag=f"multi/{i}", simple_value=i / 3) for i in range(4)])
    writer._get_file_writer().add_summary(several, 6)
    writer.close()
    return _rec_event_file(directory)


@pytest.fixture(scope="session")
def rec_torch_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Path of an event file written by torch.utils.tensorboard: scalars, a histogram, text."""
    import numpy as np
    from torch.utils.tensorboard import SummaryWriter

    directory = tmp_path_factory.mktemp("rec_torch")
    writer = SummaryWriter(str(directory))
    for step in range(25):
        writer.add_scalar("loss", 2.0 - step / 10, step)
    writer.add_histogram("w", np.arange(50.0), 1)
    writer.add_text("t", "some text", 2)
    writer.close()
    return _rec_event_file(directory)


@pytest.fixture(scope="session")
def rec_big_image_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Path of a tensorboardX event file holding one ~3 MB PNG image record."""
    import numpy as np
    from tensorboardX import SummaryWriter

    directory = tmp_path_factory.mktemp("rec_img")
    noise = np.random.default_rng(0).integers(0, 256, (3, 1000, 1000), dtype=np.uint8)
    writer = SummaryWriter(str(directory))
    writer.add_image("noise", noise, 0)
    writer.close()
    return _rec_event_file(directory)
