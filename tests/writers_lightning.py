"""A real PyTorch Lightning run logged with its ``TensorBoardLogger``, as users log them.

:func:`write_lightning` trains a tiny classifier for a few epochs on random data with
``Trainer(logger=TensorBoardLogger(...))``: per-step and per-epoch scalars through
``self.log``, ``save_hyperparameters()`` (``hparams.yaml`` beside the events, and the
hparams plugin's summaries), the model graph (``log_graph=True``), and a histogram, an
image and a text through ``self.logger.experiment`` (torch's ``SummaryWriter``). What
it logged is recorded in a :class:`~tests.writers.Written` so tests compare frames with
the inputs; TensorBoard's own reader is the other oracle (``writers.reference_values``).

:func:`cached_lightning` writes it once per test process.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from typing import Any

import numpy as np

from tests.writers import Written, f32

RUN = "lightning_logs/version_0"
"""The run Lightning's logger writes (``<save_dir>/<name>/version_<n>``)."""

EPOCHS = 3
BATCHES = 4

_CACHE: dict[str, Written] = {}


def write_lightning(logdir: str) -> Written:
    """Train a tiny model for :data:`EPOCHS` epochs with Lightning and log everything."""
    import lightning
    import torch
    from lightning.pytorch.loggers import TensorBoardLogger

    out = Written(logdir=logdir, writer="lightning")
    torch.manual_seed(0)

    class Classifier(lightning.LightningModule):
        def __init__(self, lr: float = 0.05, hidden: int = 8, optimizer: str = "sgd") -> None:
            super().__init__()
            self.save_hyperparameters()
            self.net = torch.nn.Sequential(
                torch.nn.Linear(4, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 2)
            )
            self.example_input_array = torch.zeros(1, 4)

        def forward(self, x: Any) -> Any:
            return self.net(x)

        def training_step(self, batch: Any, _index: int) -> Any:
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self(x), y)
            self.log("train/loss", loss, on_step=True, on_epoch=False)
            out.scalars.append((RUN, "train/loss", int(self.global_step), f32(float(loss))))
            return loss

        def validation_step(self, batch: Any, _index: int) -> None:
            x, y = batch
            logits = self(x)
            self.log("val/loss", torch.nn.functional.cross_entropy(logits, y))
            self.log("val/acc", (logits.argmax(1) == y).float().mean())

        def on_train_epoch_end(self) -> None:
            weights = self.net[0].weight.detach().numpy().ravel().copy()
            step = int(self.global_step)
            writer = self.logger.experiment  # type: ignore[union-attr]
            writer.add_histogram("net/0/weight", weights, step)
            out.histograms.append((RUN, "net/0/weight", step, weights))
            image = (
                np.linspace(0, 1, 3 * 8 * 8).reshape(3, 8, 8) * (self.current_epoch + 1) / EPOCHS
            )
            writer.add_image("inputs", image, step)
            out.images.append(
                (RUN, "inputs", step, 0, (image * 255).astype(np.uint8).transpose(1, 2, 0))
            )
            text = f"epoch {self.current_epoch} done"
            writer.add_text("notes", text, step)
            out.text.append((RUN, "notes/text_summary", step, text))

        def configure_optimizers(self) -> Any:
            return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)  # type: ignore[attr-defined]

    generator = torch.Generator().manual_seed(1)
    x = torch.randn(BATCHES * 8, 4, generator=generator)
    y = (x[:, 0] > 0).long()
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=8)
    logger = TensorBoardLogger(logdir, name="lightning_logs", log_graph=True)
    trainer = lightning.Trainer(
        max_epochs=EPOCHS,
        accelerator="cpu",
        devices=1,
        logger=logger,
        log_every_n_steps=1,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Lightning's advice about workers and small data
        trainer.fit(Classifier(), loader, loader)
    logger.finalize("success")
    out.hparams[RUN] = ({"lr": 0.05, "hidden": 8, "optimizer": "sgd"}, {})
    return out


def cached_lightning() -> Written:
    """The Lightning run's logdir, written once per test process (do not modify it)."""
    if "lightning" not in _CACHE:
        base = tempfile.mkdtemp(prefix="tbnb-lightning-")
        import atexit

        atexit.register(shutil.rmtree, base, True)
        _CACHE["lightning"] = write_lightning(os.path.join(base, "logs"))
    return _CACHE["lightning"]
